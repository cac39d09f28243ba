"""One run of a script under valgrind's callgrind: its instruction total and the last number
it printed (the scripts that count RL steps print their steps last)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile


def callgrind_count(
    script: str, args: list[str], env: dict[str, str] | None = None
) -> tuple[int, int]:
    """Return (instructions, the last number printed) of ``python script *args`` run under
    callgrind; exit with a message naming the run when callgrind gave no total."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                script,
                *args,
            ],
            capture_output=True,
            text=True,
            check=True,
            env=None if env is None else {**os.environ, **env},
        )
        with open(out) as f:
            found = re.search(r"^(?:summary|totals): (\d+)", f.read(), re.M)
    if found is None:
        raise SystemExit(f"no instruction total in callgrind's output of {' '.join(args)}")
    return int(found.group(1)), int(done.stdout.split()[-1])

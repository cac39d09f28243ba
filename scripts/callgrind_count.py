"""One run of a script under valgrind's callgrind: its instruction total and the last number
it printed (the scripts that count RL steps print their steps last).

The run writes and reads byte code in ``PYC`` (even where ``PYTHONDONTWRITEBYTECODE`` is set,
as on the shared machines), and the script runs once outside valgrind first: otherwise each
run compiles every module it imports, and a long run that imports a few more modules lazily
than the empty run it is compared with counts their compilation as work (about 700
instructions an RL step in 8 Sichuan episodes)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

PYC = os.path.join(tempfile.gettempdir(), "meldhall-callgrind-pyc")
"""Where the counted runs keep their byte code."""


def callgrind_count(
    script: str, args: list[str], env: dict[str, str] | None = None
) -> tuple[int, int]:
    """Return (instructions, the last number printed) of ``python script *args`` run under
    callgrind; exit with a message naming the run when callgrind gave no total."""
    run_env = {
        **os.environ,
        **(env or {}),
        "PYTHONDONTWRITEBYTECODE": "",
        "PYTHONPYCACHEPREFIX": PYC,
    }
    subprocess.run([sys.executable, script, *args], capture_output=True, check=True, env=run_env)
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
            env=run_env,
        )
        with open(out) as f:
            found = re.search(r"^(?:summary|totals): (\d+)", f.read(), re.M)
    if found is None:
        raise SystemExit(f"no instruction total in callgrind's output of {' '.join(args)}")
    return int(found.group(1)), int(done.stdout.split()[-1])

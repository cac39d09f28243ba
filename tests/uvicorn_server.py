"""Starting the app under uvicorn on loopback for tests that need a real server process."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from meldhall.server.wire import PROTOCOL_PATH


def start_uvicorn(
    port: int, data_dir: Path, bot_delay: str, extra_env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """Return the uvicorn process serving meldhall on 127.0.0.1:``port`` once it answers
    (``extra_env``: more MELDHALL_* settings)."""
    env = dict(os.environ, MELDHALL_DATA=str(data_dir), MELDHALL_BOT_DELAY=bot_delay)
    env.update(extra_env or {})
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "meldhall.server.app:app_from_env",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--ws",
            PROTOCOL_PATH,
        ],
        env=env,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1) as r:
                if r.status == 200:
                    return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start")

"""Copying SQLite's write-ahead log into the database file from a thread of its own.

By default the connection whose commit makes the log pass 1,000 pages copies it back and waits
for the disk (fsync): on the server that is an action's append, stalled for milliseconds every
few hundred actions. The server turns that off for its connections and lets this thread do it
(SQLite releases the GIL meanwhile, so it runs beside the event loop).
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

EVERY_SECONDS = 0.5


class Checkpointer:
    """A daemon thread running a passive checkpoint (one that never blocks a writer) of a
    SQLite file every ``every`` seconds until ``stop``."""

    def __init__(self, path: str | Path, every: float = EVERY_SECONDS) -> None:
        self.path = str(path)
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        conn = sqlite3.connect(self.path, check_same_thread=False)
        try:
            while not self._stop.wait(self.every):
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            conn.close()

    def stop(self) -> None:
        """Run a last checkpoint and end the thread."""
        self._stop.set()
        self._thread.join()

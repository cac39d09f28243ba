"""Reviews computed in the background: one worker process at a time reviews a seat of a
finished match (``meldhall.review``), its progress readable while it runs; the result is
stored with the match. The event loop never runs the search."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from meldhall.core.engine import JSON

Key = tuple[str, int]


def review_in_child(file_json: dict[str, JSON], seat: int, out: Connection) -> None:
    """Review one seat of a match file in a worker process, sending ``("progress", done,
    total)`` now and then, then ``("done", review)`` or ``("failed", reason)``."""
    from meldhall.core.matchfile import from_json
    from meldhall.games.registry import find_game, game_ids
    from meldhall.review import review_match

    try:
        file, game = from_json(file_json, {gid: find_game(gid) for gid in game_ids()})
        step = max(1, len(file.log) // 100)

        def progress(done: int, total: int) -> None:
            if done % step == 0 or done == total:
                out.send(("progress", done, total))

        out.send(("done", review_match(file, game, seat, on_progress=progress).to_json()))
    except Exception as exc:  # the parent tells the person; the worker ends either way
        out.send(("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        out.close()


@dataclass
class Job:
    """A review being made: its progress, then its result or failure."""

    done: int = 0
    total: int = 0
    review: dict[str, JSON] | None = None
    problem: str = ""
    finished: threading.Event = field(default_factory=threading.Event)

    def to_json(self) -> dict[str, JSON]:
        """Return the job's status message: running with progress, done, or failed."""
        state = "failed" if self.problem else "done" if self.review is not None else "running"
        return {
            "state": state,
            "done": self.done,
            "total": self.total,
            "review": self.review,
            "problem": self.problem,
        }


class ReviewJobs:
    """The reviews under way; at most ``workers`` worker processes run at once, the others
    wait their turn. ``on_done(key, review)`` stores a finished review."""

    def __init__(self, on_done: Callable[[Key, dict[str, JSON]], None], workers: int = 1) -> None:
        self.on_done = on_done
        self.jobs: dict[Key, Job] = {}
        self.turns = threading.Semaphore(workers)
        self.lock = threading.Lock()

    def status(self, key: Key) -> Job | None:
        """Return the job of a match's seat, or None when none was started here."""
        with self.lock:
            return self.jobs.get(key)

    def start(self, key: Key, file_json: dict[str, JSON]) -> Job:
        """Return the job of a match's seat, starting it unless it runs or has succeeded."""
        with self.lock:
            job = self.jobs.get(key)
            if job is not None and not job.problem:
                return job
            job = self.jobs[key] = Job(total=len(file_json.get("log") or []))
        threading.Thread(target=self._run, args=(key, file_json, job), daemon=True).start()
        return job

    def _run(self, key: Key, file_json: dict[str, JSON], job: Job) -> None:
        with self.turns:
            context = multiprocessing.get_context("spawn")
            parent, child = context.Pipe(duplex=False)
            worker = context.Process(target=review_in_child, args=(file_json, key[1], child))
            worker.start()
            child.close()
            try:
                while True:
                    message: Any = parent.recv()
                    if message[0] == "progress":
                        job.done, job.total = message[1], message[2]
                        continue
                    if message[0] == "done":
                        self.on_done(key, message[1])
                        job.review = message[1]
                        job.done = job.total
                    else:
                        job.problem = str(message[1])
                    break
            except EOFError:
                job.problem = "the review worker stopped without an answer"
            finally:
                parent.close()
                worker.join(timeout=5)
                job.finished.set()

"""Group commit: the actions every table accepts during one turn of the event loop are written
in one transaction, then the tables send their new states.

Nothing is sent before the actions it follows from are stored (a server killed at any moment
restarts where its clients last saw it), and one commit serves many actions: the commit, not
the insert, is what costs most per action when it is done alone. On PostgreSQL the commit runs
on the store's commit thread while the loop goes on; what is staged meanwhile is committed
next, in order (a failed commit sends its tables, and those that staged after it, back).
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import Future
from typing import Any, Protocol

from meldhall.store.repository import Store
from meldhall.tables.metrics import ACTION_SECONDS, ACTIONS, COMMIT_FAILURES, COMMIT_SECONDS

log = logging.getLogger(__name__)


class Committed(Protocol):
    """What a table does once its staged actions are stored, or could not be."""

    def send_states(self) -> None:
        """Send every listener the table's state."""

    def lost(self) -> None:
        """Go back to the stored log (the staged actions are gone) and tell everyone."""


class GroupCommit:
    """Stages actions in the store and commits them together at the end of the loop turn."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._waiting: dict[Committed, None] = {}
        self._handle: asyncio.Handle | None = None
        self._accepted: list[float] = []
        """When each staged action was accepted (``time.perf_counter``)."""

    def stage(self, match_id: str, index: int, seat: int, action: Any) -> None:
        """Write an accepted action into the open batch (raise what the store raises)."""
        self.store.stage_action(match_id, index, seat, action)
        self._accepted.append(time.perf_counter())

    def send_when_stored(self, table: Committed) -> None:
        """Have ``table`` send its states once everything staged so far is committed."""
        self._waiting[table] = None
        if self._handle is None:
            self._handle = asyncio.get_running_loop().call_soon(self._turn_end)

    def _turn_end(self) -> None:
        """Commit what this loop turn staged: in the background where the store can (the
        tables send once it is stored, see ``_written``), else now."""
        self._handle = None
        future = self.store.commit_in_background()
        if future is None:
            if not self.store.committing():
                self.flush()
            return  # else the running commit's end starts the next one
        tables, accepted = self._take()
        loop = asyncio.get_running_loop()
        start = time.perf_counter()
        future.add_done_callback(
            lambda f: loop.call_soon_threadsafe(self._written, f, tables, accepted, start)
        )

    def _take(self) -> tuple[list[Committed], list[float]]:
        tables = list(self._waiting)
        self._waiting.clear()
        accepted, self._accepted = self._accepted, []
        return tables, accepted

    def _written(
        self,
        future: Future[None],
        tables: list[Committed],
        accepted: list[float],
        start: float,
    ) -> None:
        """Let the tables of a commit run in the background send their states (or go back to
        the stored log if it failed), then start the commit of what was staged meanwhile."""
        self.store.wait_background(future)
        error = future.exception()
        if error is not None:
            log.error("the staged actions of %d tables could not be stored: %s", len(tables), error)
            self.store.lost_batch()  # told here: no later flush goes back for it
            self._lost(tables + self._take()[0])
            return
        # a table that staged again meanwhile would send unstored states: it sends next time
        self._sent([t for t in tables if t not in self._waiting], accepted, start)
        if self._waiting and self._handle is None:
            self._handle = asyncio.get_running_loop().call_soon(self._turn_end)

    def flush(self) -> None:
        """Commit the staged actions now (after a commit running in the background), then let
        the waiting tables send their states."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        tables, accepted = self._take()
        start = time.perf_counter()
        try:
            self.store.commit_staged()
        except Exception:
            log.exception("the staged actions of %d tables could not be stored", len(tables))
        if self.store.lost_batch():  # here, or in a commit an earlier database use made
            self._lost(tables)
            return
        self._sent(tables, accepted, start)

    def _lost(self, tables: list[Committed]) -> None:
        COMMIT_FAILURES.inc()
        for table in tables:
            table.lost()

    def _sent(self, tables: list[Committed], accepted: list[float], start: float) -> None:
        """Send the tables' states after their actions were stored, and measure."""
        if accepted:
            COMMIT_SECONDS.observe(time.perf_counter() - start)
        for table in tables:
            table.send_states()
        if accepted:
            sent = time.perf_counter()
            ACTIONS.inc(len(accepted))
            for at in accepted:
                ACTION_SECONDS.observe(sent - at)

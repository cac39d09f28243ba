"""Group commit: the actions every table accepts during one turn of the event loop are written
in one transaction, then the tables send their new states.

Nothing is sent before the actions it follows from are stored (a server killed at any moment
restarts where its clients last saw it), and one commit serves many actions: the commit, not
the insert, is what costs most per action when it is done alone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
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
        self.on_fenced: Callable[[Committed], None] | None = None
        """Called instead of ``send_states`` for a table whose actions the store's fence
        refused (its process lost the table's lease; server/cluster/)."""

    def stage(self, match_id: str, index: int, seat: int, action: Any) -> None:
        """Write an accepted action into the open batch (raise what the store raises)."""
        self.store.stage_action(match_id, index, seat, action)
        self._accepted.append(time.perf_counter())

    def send_when_stored(self, table: Committed) -> None:
        """Have ``table`` send its states once everything staged so far is committed."""
        self._waiting[table] = None
        if self._handle is None:
            self._handle = asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Commit the staged actions now, then let the waiting tables send their states."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        tables = list(self._waiting)
        self._waiting.clear()
        accepted, self._accepted = self._accepted, []
        start = time.perf_counter()
        try:
            self.store.commit_staged()
        except Exception:
            log.exception(
                "the staged actions of %d tables could not be stored",
                len(tables),
                extra={"match": ",".join(str(getattr(t, "id", "?")) for t in tables)},
            )
        if self.store.lost_batch():  # here, or in a commit an earlier database use made
            COMMIT_FAILURES.inc()
            for table in tables:
                table.lost()
            return
        if accepted:
            COMMIT_SECONDS.observe(time.perf_counter() - start)
        refused = self.store.refused_matches()
        for table in tables:
            if refused and getattr(table, "id", None) in refused:
                (self.on_fenced or type(table).lost)(table)
            else:
                table.send_states()
        if accepted:
            ACTIONS.inc(len(accepted))
            ACTION_SECONDS.observe_since(time.perf_counter(), accepted)

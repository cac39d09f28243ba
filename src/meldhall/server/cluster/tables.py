"""The tables of one process of a site: a table is loaded here only under this process's lease,
with the lease's fencing token written to the store first (store/fences.py), so that the log
read next holds every action any earlier owner stored, and no earlier owner stores another.

An online match is covered by the lease of its lobby table (``l:<lobby id>``: the waiting table
and its match live in one process); a solo match by its own (``m:<match id>``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from meldhall.store.repository import Store
from meldhall.tables.online import OnlineManager, OnlineTable
from meldhall.tables.table import Rejected, Table

if TYPE_CHECKING:
    from meldhall.server.cluster.node import Node

log = logging.getLogger(__name__)

MOVED = "moved"
"""The rejection code of a message for a table another process serves now."""


def table_key(table: Table) -> str:
    """Return the lease key that covers a loaded table."""
    if isinstance(table, OnlineTable):
        return "l:" + table.lobby.id
    return "m:" + table.id


class SiteManager(OnlineManager):
    """``OnlineManager`` under leases: it loads a table only while this process owns it."""

    def __init__(self, store: Store, node: Node, **options: Any) -> None:
        super().__init__(store, **options)
        self.node = node
        self.commits.on_fenced = self._fenced
        self._borrowed: set[str] = set()
        """Finished online matches loaded under their lobby table's lease (to be read)."""

    def _finished_lobby(self, table_id: str) -> bool:
        """Return whether a lobby table's match has ended (or the table is gone)."""
        data = self.lobby_store.get(table_id)
        return data is None or data.status not in ("waiting", "playing")

    async def get(self, match_id: str) -> Table | None:
        """Return the table of a match (see ``TableManager.get``), loading it only under this
        process's lease; raise ``Rejected`` ``moved`` when another process holds the lease."""
        table = self.tables.get(match_id)
        if table is not None:
            return table
        key = await self.node.key_of_match(match_id)
        if key is None:
            return None
        if key.startswith("l:"):  # the lobby table's owner serves its match
            token = self.node.leases.held.get(key)
            if token is None and self._finished_lobby(key[2:]):  # to read its result
                token = await self.node.leases.acquire(key)
                self._borrowed.add(match_id)
        else:
            token = await self.node.leases.acquire(key)
        if token is None:
            raise Rejected(MOVED, "another server process serves this table; reconnect")
        if not self.node.fence(match_id, token):
            self.node.release_soon(key, done=False)
            raise Rejected(MOVED, "another server process took this table over; reconnect")
        return await super().get(match_id)

    async def abandon(self, match_id: str) -> None:
        """Mark a match abandoned and unload its table (see ``TableManager.abandon``),
        giving its lease up."""
        table = self.tables.get(match_id)
        await super().abandon(match_id)
        if table is not None and not isinstance(table, OnlineTable):
            self.node.forget_fence(match_id)
            self.node.release_soon("m:" + match_id)

    async def _unload(self, table: Table) -> None:
        loaded = self.tables.get(table.id) is table
        await super()._unload(table)
        if loaded:
            self.node.forget_fence(table.id)
            if table.id in self._borrowed:
                self._borrowed.discard(table.id)
                self.node.release_soon(await self.node.key_of_match(table.id) or "")
            elif not isinstance(table, OnlineTable):
                self.node.release_soon("m:" + table.id)

    async def drop(self, table: Table) -> None:
        """Unload a table whose lease was lost, keeping nothing of it (its new owner replays
        the stored log)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        table.on_idle = None
        await table.stop()
        self.node.forget_fence(table.id)

    def _fenced(self, table: Any) -> None:
        """The store refused a table's actions: its lease is gone; drop it."""
        if isinstance(table, Table):
            log.warning(
                "the store refused the actions of match %s: its lease is lost",
                table.id,
                extra={"match": table.id},
            )
            self.node.lost_soon(table_key(table))

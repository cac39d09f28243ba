"""The lobby of a site: each process keeps the waiting tables it owns (``Lobby``), and every
process lists every table, from a mirror kept up to date over the relay.

A table's owner writes its public description into the Redis hash ``meldhall:lobby`` and tells
the other processes (a ``lobby`` envelope); a process that starts reads the hash. A table
taken over is described again by its new owner; a closed or forgotten one is removed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import TYPE_CHECKING, Any

import msgspec

from meldhall.server.cluster.relay import Envelope, raw
from meldhall.server.limits import Limits
from meldhall.server.lobby import LISTED, Lobby, Waiting, clean_name
from meldhall.tables.online import OnlineManager
from meldhall.tables.table import Rejected

if TYPE_CHECKING:
    from meldhall.server.cluster.node import Node

log = logging.getLogger(__name__)

HASH = "meldhall:lobby"
"""The Redis hash of every listed table's description, by lobby id."""


class SiteLobby(Lobby):
    """A process's lobby in a site: its own tables, and a listing of everyone's."""

    def __init__(
        self,
        manager: OnlineManager,
        node: Node,
        limits: Limits | None = None,
        rate: float = 100.0,
        burst: float = 200.0,
    ) -> None:
        super().__init__(manager, limits, rate=rate, burst=burst)
        self.node = node
        self.mirror: dict[str, dict[str, Any]] = {}
        """Every table of the site as its owner last described it, oldest first."""
        self._dirty: set[str] = set()
        self._writer: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ listing

    def listing(self) -> list[dict[str, Any]]:
        """Return the site's public tables waiting for people, newest first, then those in
        play, at most ``LISTED`` of each (see ``Lobby.listing``)."""
        public = [t for t in reversed(self.mirror.values()) if t.get("public")]
        waiting = [t for t in public if t.get("status") == "waiting"][:LISTED]
        playing = [t for t in public if t.get("status") == "playing"][:LISTED]
        return waiting + playing

    def described(self, table_id: str, description: dict[str, Any] | None) -> None:
        """Take a table's description from its owner (None: it is gone)."""
        if description is None or description.get("status") not in ("waiting", "playing"):
            self.mirror.pop(table_id, None)
        else:
            self.mirror[table_id] = description

    def changed(self, waiting: Waiting) -> None:
        """Describe a changed table to the site (soon, once for many changes; this process's
        own listing at once)."""
        listed = waiting.data.status in ("waiting", "playing")
        self.described(waiting.data.id, waiting.json() if listed else None)
        self._dirty.add(waiting.data.id)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._describe())

    def _gone(self, table_id: str) -> None:
        self.described(table_id, None)
        self._dirty.add(table_id)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._describe())

    async def _describe(self) -> None:
        """Write the changed tables' descriptions as they are now, and tell the site."""
        await asyncio.sleep(0)
        while self._dirty:
            ids, self._dirty = sorted(self._dirty), set()
            descriptions = {}
            for table_id in ids:
                waiting = self.tables.get(table_id)
                listed = waiting is not None and waiting.data.status in ("waiting", "playing")
                descriptions[table_id] = waiting.json() if listed and waiting else None
            try:
                pipe = self.node.redis.pipeline(transaction=False)
                for table_id, description in descriptions.items():
                    if description is None:
                        pipe.hdel(HASH, table_id)
                    else:
                        pipe.hset(HASH, table_id, msgspec.json.encode(description))
                await pipe.execute()
            except Exception:
                log.exception("the lobby could not describe %d tables in Redis", len(ids))
            for table_id, description in descriptions.items():
                self.node.relay.broadcast(Envelope(k="lobby", key=table_id, m=raw(description)))

    # ------------------------------------------------------------------ tables

    async def new_table_id(self) -> str:
        """Return the id of a new table whose lease this process holds."""
        for _attempt in range(3):
            table_id = secrets.token_urlsafe(12)
            if await self.node.leases.acquire("l:" + table_id) is not None:
                return table_id
        raise Rejected("server_error", "no new table could be opened; try again")

    def create(
        self,
        conn: Any,
        game_id: str,
        options: dict[str, Any],
        settings: dict[str, Any],
        public: bool,
        name: str,
        table_id: str | None = None,
    ) -> Waiting:
        """Return a new waiting table (see ``Lobby.create``); a table refused gives up the
        lease its id was drawn with."""
        try:
            return super().create(conn, game_id, options, settings, public, name, table_id)
        except Rejected:
            if table_id is not None:
                self.node.release_soon("l:" + table_id)
            raise

    def forget(self, match_id: str) -> None:
        """Drop a finished match's table (see ``Lobby.forget``) and give its lease up."""
        before = set(self.tables)
        super().forget(match_id)
        self._released(before - set(self.tables))

    def leave(self, conn: Any, table_id: str) -> None:
        """Take a person off a waiting table (see ``Lobby.leave``); a table left empty gives
        its lease up."""
        had = table_id in self.tables
        super().leave(conn, table_id)
        if had and table_id not in self.tables:
            self._released({table_id})

    def _released(self, table_ids: set[str]) -> None:
        for table_id in table_ids:
            self._gone(table_id)
            self.node.release_soon("l:" + table_id)

    async def restore(self) -> None:
        """Read the site's listing, and put every table the database has in play among the
        tables to take over (the sweeper gives those nobody owns to a process)."""
        try:
            described = await self.node.redis.hgetall(HASH)
        except Exception:
            log.exception("the lobby could not read the site's tables from Redis")
            described = {}
        for key, value in described.items():
            with contextlib.suppress(msgspec.DecodeError):
                table_id = key.decode() if isinstance(key, bytes) else str(key)
                self.described(table_id, msgspec.json.decode(value))
        keys = ["l:" + data.id for data in self.store.active()]
        if keys:
            await self.node.redis.sadd("meldhall:tables", *keys)

    async def take_over(self, table_id: str) -> bool:
        """Take a table nobody owns: its lease, then its waiting table or match as stored
        (the match replayed from its log); return whether this process owns it now."""
        key = "l:" + table_id
        if table_id in self.tables and key in self.node.leases.held:
            return True
        data = self.store.get(table_id)
        if data is None:
            await self.node.leases.forget(key)
            return False
        if await self.node.leases.acquire(key) is None:
            return False
        if data.status not in ("waiting", "playing"):
            self.tables.pop(table_id, None)
            self._gone(table_id)
            await self.node.leases.release(key)
            return False
        for person in data.people:
            person["name"] = clean_name(person.get("name", ""))
        waiting = Waiting(data)
        self.tables[data.id] = waiting
        if data.status == "playing" and data.match_id is not None:
            self.manager.register(data)
            try:
                await self.manager.get(data.match_id)
            except Rejected as exc:
                log.warning("not resumed: %s", exc.reason, extra={"match": data.match_id})
        self.changed(waiting)
        return True

"""One process's part of a site: its name, its Redis client, its leases and relay, the client
connections it serves and the shadows of clients served elsewhere; it renews its leases, and
sweeps the site for tables nobody owns (a dead process's) to take them over.

Timing: a lease lives ``ttl`` seconds (``--lease-seconds``, 5 by default) and is renewed five
times in its life; the sweep runs as often. A process killed at any moment has its tables
owned by another within about 1.2 ttl, each replayed from its stored log (the fence keeps the
dead owner out, were it only paused).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from typing import Any

import msgspec
from sqlalchemy import select
from starlette.websockets import WebSocket

from meldhall.server.cluster.connection import (
    EdgeConnection,
    Shadow,
    attach_message,
    key_here,
    schedule,
    share_chat_limit,
)
from meldhall.server.cluster.leases import TTL, Leases
from meldhall.server.cluster.lobby import SiteLobby
from meldhall.server.cluster.relay import Envelope, Relay, raw
from meldhall.server.cluster.tables import SiteManager, table_key
from meldhall.server.limits import SharedBuckets
from meldhall.store.fences import raise_fence
from meldhall.store.models import MatchRow
from meldhall.store.repository import Store

log = logging.getLogger(__name__)

BEATS = 5
"""How many times a lease is renewed, and the site swept, in a lease's life."""
ONLINE_OWNER = "online:"
"""How the owner column of an online match names its lobby table (``online:<lobby id>``)."""


def process_name() -> str:
    """Return a name for this process that no other process of the site has."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class Node:
    """This process in its site (see the module's text)."""

    def __init__(self, redis_url: str, store: Store, ttl: float = TTL) -> None:
        import redis.asyncio

        self.redis_url = redis_url
        self.redis: Any = redis.asyncio.Redis.from_url(redis_url)
        self.store = store
        self.process = process_name()
        self.leases = Leases(self.redis, self.process, ttl)
        self.relay = Relay(self.redis, self.process)
        self.buckets = SharedBuckets(self.redis)
        """The rate limits of every person, shared by the site's processes."""
        self.fences: dict[str, int] = {}
        """The fencing token of each match loaded here (the store's fence reads it)."""
        self.connections: dict[str, EdgeConnection] = {}
        self.shadows: dict[tuple[str, str], Shadow] = {}
        self.manager: SiteManager | None = None
        self.lobby: SiteLobby | None = None
        self._keys: dict[str, str] = {}
        self._claiming: dict[str, asyncio.Lock] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self.joined = False
        """Whether the process has joined the site (Redis answered)."""
        store.fence_actions(self.fences)

    def attach(self, manager: SiteManager, lobby: SiteLobby) -> None:
        """Take the process's tables and lobby."""
        self.manager, self.lobby = manager, lobby

    async def start(self) -> None:
        """Join the site: listen to the relay, read the lobby, renew and sweep from now on."""
        assert self.lobby is not None
        handlers = {
            "msg": self._on_msg,
            "out": self._on_out,
            "bye": self._on_bye,
            "drop": self._on_drop,
            "reattach": self._on_reattach,
            "lobby": self._on_lobby,
            "moved": self._on_moved,
        }
        self.relay.handlers.update(handlers)
        self._tasks = [asyncio.get_running_loop().create_task(self._join())]

    async def _join(self) -> None:
        """Listen to the relay and read the lobby once Redis answers (a process starts while
        Redis is away: /readyz says so), then renew and sweep."""
        assert self.lobby is not None
        while True:
            try:
                await self.leases.renew()  # alive from now on (before any shadow of ours)
                await self.relay.start()
                await self.lobby.restore()
                break
            except Exception as exc:
                log.warning("Redis at %s does not answer yet: %s", self._shown_url(), exc)
                await self.relay.close()
                await asyncio.sleep(1.0)
        self.joined = True
        loop = asyncio.get_running_loop()
        self._tasks += [loop.create_task(self._renew()), loop.create_task(self._sweep())]

    def _shown_url(self) -> str:
        """Return the Redis URL without its password."""
        head, at, tail = self.redis_url.rpartition("@")
        return f"{head.split(':')[0]}:***@{tail}" if at else self.redis_url

    async def close(self) -> None:
        """Leave the site: stop renewing and sweeping, give every lease up (the tables stay
        in play: another process takes them at once) and close the relay."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for key in list(self.leases.held):
            with contextlib.suppress(Exception):
                await self.leases.release(key, done=False)
        await self.relay.close()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ------------------------------------------------------------------ connections

    async def serve(self, socket: WebSocket, addresses: Any) -> None:
        """Serve one client's WebSocket."""
        assert self.manager is not None and self.lobby is not None
        await EdgeConnection(socket, self.manager, self.lobby, self, addresses).run()

    # ------------------------------------------------------------------ tables

    async def key_of_match(self, match_id: str) -> str | None:
        """Return the lease key that covers a match (None: no such match)."""
        key = self._keys.get(match_id)
        if key is not None:
            return key
        with self.store.engine.connect() as conn:
            owner = conn.execute(select(MatchRow.owner).where(MatchRow.id == match_id)).scalar()
        if owner is None:
            return None
        online = owner.startswith(ONLINE_OWNER)
        key = "l:" + owner[len(ONLINE_OWNER) :] if online else "m:" + match_id
        self._keys[match_id] = key
        return key

    async def owner_for(self, key: str) -> str:
        """Return the process that serves the table of ``key``; one that nobody owns is
        taken over here first (this process, too, when it is no table at all)."""
        owner = await self.leases.owner(key)
        if owner is not None:
            return owner
        if key.startswith("l:"):
            await self.claim(key)
        return await self.leases.owner(key) or self.process

    def fence(self, match_id: str, token: int) -> bool:
        """Write this process's fencing token of a match to the store before it loads the
        match; return False when a newer owner's is there already."""
        if not raise_fence(self.store.engine, match_id, token, self.process):
            return False
        self.fences[match_id] = token
        return True

    def forget_fence(self, match_id: str) -> None:
        """Stop writing a match's actions (its table is unloaded)."""
        self.fences.pop(match_id, None)

    def release_soon(self, key: str, done: bool = True) -> None:
        """Give a lease up in the background (``done``: its table is no longer in play)."""
        schedule(self.leases.release(key, done))

    async def claim(self, key: str) -> bool:
        """Take over the table of a lease nobody holds; return whether it is served here."""
        assert self.manager is not None and self.lobby is not None
        lock = self._claiming.setdefault(key, asyncio.Lock())
        async with lock:
            if key in self.leases.held:
                return True
            if key.startswith("l:"):
                owned = await self.lobby.take_over(key[2:])
            else:
                owned = await self._take_solo(key[2:])
        if owned:
            log.info("took over table %s", key, extra={"match": key[2:]})
            self.relay.broadcast(Envelope(k="moved", key=key, owner=self.process))
        return owned

    async def _take_solo(self, match_id: str) -> bool:
        assert self.manager is not None
        try:
            table = await self.manager.get(match_id)
        except Exception as exc:  # taken meanwhile, or broken (quarantined and logged)
            log.info("solo table %s not taken over: %s", match_id, exc)
            return False
        if table is None:
            await self.leases.forget("m:" + match_id)
            return False
        if not table.listeners:
            self.manager.idle(table)  # unloaded if nobody comes back for it
        return True

    def lost_soon(self, key: str) -> None:
        """Drop the table of a lease this process lost, in the background."""
        schedule(self.lost(key))

    async def lost(self, key: str) -> None:
        """Drop what this process served under a lost lease, and send its clients to the new
        owner."""
        assert self.manager is not None and self.lobby is not None
        self.leases.held.pop(key, None)
        log.warning("lost the lease of table %s", key, extra={"match": key[2:]})
        shadows = [
            (at, s, attach_message(s)) for at, s in self.shadows.items() if key_here(s) == key
        ]
        here = [
            (c, attach_message(c))
            for c in self.connections.values()
            if c.focus is None and key_here(c) == key
        ]
        for table in list(self.manager.tables.values()):
            if table_key(table) == key:
                await self.manager.drop(table)
        if key.startswith("l:"):
            self.lobby.tables.pop(key[2:], None)
        for (origin, cid), shadow, message in shadows:
            shadow.close(drop_seat=False)
            self.shadows.pop((origin, cid), None)
            self.relay.send(origin, Envelope(k="reattach", c=cid, m=raw(message)))
        for conn, message in here:
            conn.table = conn.seat = conn.listener = None
            conn.waiting = None
            schedule(conn.reattach(message))

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self.leases.ttl / BEATS)
            try:
                lost = await self.leases.renew()
            except Exception:
                log.exception("the leases could not be renewed")
                if self.leases.expired():
                    lost = list(self.leases.held)
                else:
                    continue
            for key in lost:
                await self.lost(key)

    async def _sweep(self) -> None:
        while True:
            spread = 0.5 + secrets.randbelow(1000) / 1000  # the processes sweep apart
            await asyncio.sleep(self.leases.ttl / BEATS * spread)
            try:
                keys = await self.leases.in_play()
                owners = await self.leases.owners(keys)
                for key, owner in zip(keys, owners, strict=True):
                    if owner is None:
                        await self._claim_logged(key)
                await self._forget_dead_edges()
            except Exception:
                log.exception("the sweep for tables nobody owns failed")

    async def _claim_logged(self, key: str) -> None:
        """Take a table over, logging (not raising) what goes wrong (the next sweep tries
        again)."""
        try:
            await self.claim(key)
        except Exception:
            log.exception("table %s could not be taken over", key, extra={"match": key[2:]})

    async def _forget_dead_edges(self) -> None:
        """Close the shadows of clients whose process died (their seats are held, then
        played by a computer, as a closed connection's)."""
        origins = sorted({origin for origin, _cid in self.shadows})
        for origin, alive in zip(origins, await self.leases.alive(origins), strict=True):
            if alive:
                continue
            log.warning("process %s is gone: its clients leave their tables here", origin)
            for (at, cid), shadow in list(self.shadows.items()):
                if at == origin:
                    del self.shadows[(at, cid)]
                    shadow.close(drop_seat=True)

    # ------------------------------------------------------------------ relay

    def _shadow(self, envelope: Envelope) -> Shadow:
        """Return the shadow of the client of a ``msg`` envelope (a new one has the site's
        chat flood limit of its session: its chat is checked here; its messages were counted
        by its own process)."""
        assert self.manager is not None and self.lobby is not None
        at = (envelope.origin, envelope.c)
        shadow = self.shadows.get(at)
        if shadow is None:
            shadow = Shadow(
                self.manager, self.lobby, self, envelope.origin, envelope.c, envelope.t, envelope.a
            )
            self.shadows[at] = shadow
            if shadow.token:
                share_chat_limit(shadow, self.buckets)
        return shadow

    async def _on_msg(self, envelope: Envelope) -> None:
        message = msgspec.json.decode(envelope.m)
        await self._shadow(envelope).handle(message)

    def _on_out(self, envelope: Envelope) -> None:
        conn = self.connections.get(envelope.c)
        if conn is not None:
            conn.deliver(envelope.origin, envelope.m)

    def _on_bye(self, envelope: Envelope) -> None:
        shadow = self.shadows.pop((envelope.origin, envelope.c), None)
        if shadow is not None:
            shadow.close(drop_seat=True)

    def _on_drop(self, envelope: Envelope) -> None:
        shadow = self.shadows.pop((envelope.origin, envelope.c), None)
        if shadow is not None:
            shadow.close(drop_seat=False)

    def _on_reattach(self, envelope: Envelope) -> None:
        conn = self.connections.get(envelope.c)
        if conn is not None and conn.focus == envelope.origin:
            schedule(conn.reattach(msgspec.json.decode(envelope.m)))

    def _on_lobby(self, envelope: Envelope) -> None:
        if self.lobby is not None:
            self.lobby.described(envelope.key, msgspec.json.decode(envelope.m))

    def _on_moved(self, envelope: Envelope) -> None:
        for conn in list(self.connections.values()):
            serving = conn.focus or self.process
            if conn.focus_key == envelope.key and serving != envelope.owner:
                schedule(conn.reattach())

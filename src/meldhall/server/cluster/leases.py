"""Leases in Redis: each table of the site is owned by one process at a time.

A lease is one Redis key ``meldhall:lease:<key>`` whose value names its owner and its fencing
token; it lives ``ttl`` seconds unless its owner renews it. Tokens come from one counter that
only grows, so a later owner always holds a larger token than any earlier one, and the store
refuses the writes of any token but the newest (store/fences.py). The keys of every table in
play are also kept in the set ``meldhall:tables``: the tables a dead process leaves behind are
found there and taken over.
"""

from __future__ import annotations

import time
from typing import Any

PREFIX = "meldhall:"
COUNTER = PREFIX + "fence"
TABLES = PREFIX + "tables"
"""The set of every lease key in use (a table in play, waiting or finished but loaded)."""

ALIVE = PREFIX + "alive:"
"""``meldhall:alive:<process>``: there while the process renews its leases."""

TTL = 5.0
"""Seconds a lease lives without a renewal."""

_ACQUIRE = """
if redis.call('exists', KEYS[1]) == 1 then return 0 end
local token = redis.call('incr', KEYS[2])
redis.call('set', KEYS[1], ARGV[1] .. ' ' .. token, 'PX', ARGV[2])
redis.call('sadd', KEYS[3], ARGV[3])
return token
"""
_RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[i + 1] then
    redis.call('pexpire', key, ARGV[1])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
_RELEASE = """
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('del', KEYS[1])
if ARGV[3] == '1' then redis.call('srem', KEYS[2], ARGV[2]) end
return 1
"""


def lease_key(key: str) -> str:
    """Return the Redis key of a lease (``key`` names a table: ``l:<lobby id>`` or
    ``m:<match id>``)."""
    return PREFIX + "lease:" + key


def owner_of(value: bytes | str | None) -> str | None:
    """Return the process named by a lease value (``"<process> <token>"``), or None."""
    if value is None:
        return None
    text = value.decode() if isinstance(value, bytes) else value
    return text.rpartition(" ")[0] or None


class Leases:
    """The leases one process holds, on a ``redis.asyncio`` client."""

    def __init__(self, redis: Any, process: str, ttl: float = TTL) -> None:
        if " " in process or not process:
            raise ValueError(f"a process name has no spaces and is not empty: {process!r}")
        if ttl <= 0:
            raise ValueError(f"a lease lives a positive number of seconds, not {ttl!r}")
        self.redis = redis
        self.process = process
        self.ttl = ttl
        self.held: dict[str, int] = {}
        """The fencing token of every lease held, by key."""
        self.renewed_at = time.monotonic()
        """When every lease held was last renewed (``time.monotonic``)."""
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    def _value(self, key: str) -> str:
        return f"{self.process} {self.held[key]}"

    async def acquire(self, key: str) -> int | None:
        """Return the fencing token of a new lease on ``key`` for this process (kept in
        ``held``), or None when another process holds it; a lease this process holds already
        gives its token."""
        if key in self.held:
            return self.held[key]
        token = int(
            await self._acquire(
                keys=[lease_key(key), COUNTER, TABLES],
                args=[self.process, int(self.ttl * 1000), key],
            )
        )
        if token == 0:
            return None
        self.held[key] = token
        return token

    async def owner(self, key: str) -> str | None:
        """Return the process that holds the lease on ``key`` now, or None."""
        return owner_of(await self.redis.get(lease_key(key)))

    async def owners(self, keys: list[str]) -> list[str | None]:
        """Return the holder of each lease of ``keys`` (None: nobody)."""
        if not keys:
            return []
        values = await self.redis.mget([lease_key(k) for k in keys])
        return [owner_of(v) for v in values]

    async def renew(self) -> list[str]:
        """Renew every lease held (and this process's ``alive`` key) and return the keys of
        those that were lost meanwhile (expired or taken by another process); they are no
        longer held."""
        await self.redis.set(ALIVE + self.process, b"1", px=int(self.ttl * 1000))
        keys = list(self.held)
        if not keys:
            self.renewed_at = time.monotonic()
            return []
        started = time.monotonic()
        args = [int(self.ttl * 1000), *(self._value(k) for k in keys)]
        kept = await self._renew(keys=[lease_key(k) for k in keys], args=args)
        self.renewed_at = started
        lost = [k for k, ok in zip(keys, kept, strict=True) if not int(ok)]
        for key in lost:
            self.held.pop(key, None)
        return lost

    def expired(self) -> bool:
        """Return whether the leases held may have expired: no renewal answered for ``ttl``
        seconds (Redis unreachable), so another process may own the tables now."""
        return bool(self.held) and time.monotonic() - self.renewed_at >= self.ttl

    async def alive(self, processes: list[str]) -> list[bool]:
        """Return whether each process renewed its leases within the last ``ttl`` seconds."""
        if not processes:
            return []
        values = await self.redis.mget([ALIVE + p for p in processes])
        return [v is not None for v in values]

    async def release(self, key: str, done: bool = True) -> None:
        """Give a lease up (``done``: the table is no longer in play, so it leaves the set of
        tables to take over as well)."""
        if key not in self.held:
            return
        value = self._value(key)
        del self.held[key]
        await self._release(keys=[lease_key(key), TABLES], args=[value, key, "1" if done else "0"])

    async def in_play(self) -> list[str]:
        """Return the key of every table in play on the site."""
        members = await self.redis.smembers(TABLES)
        return sorted(m.decode() if isinstance(m, bytes) else m for m in members)

    async def forget(self, key: str) -> None:
        """Take a key out of the set of tables in play (its table ended while unowned)."""
        await self.redis.srem(TABLES, key)

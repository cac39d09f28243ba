"""The bounds a public server keeps: message and body sizes, timeouts, per-address caps,
unloading, clock minimums, session expiry, snapshots and the web's origin rules; and the token
buckets of the message and chat rate limits (in memory, or shared through Redis by the
processes of a site: ``SharedBuckets``).

Every bound is one field of ``Limits`` with its default; docs/security.md says what each one
protects against. ``create_app(..., limits=Limits(...))`` takes them; ``Limits.from_env`` reads
``MELDHALL_<FIELD>`` variables (``MELDHALL_MAX_BODY_BYTES=100000``) for ``uvicorn --factory``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limits:
    """The server's bounds (seconds, bytes, characters, counts)."""

    max_body_bytes: int = 65_536
    """The largest HTTP request body; a larger one is answered 413 before it is read."""
    max_file_bytes: int = 4_194_304
    """The largest match file a client may upload to be checked (``POST /api/verify-file``)."""
    body_seconds: float = 10.0
    """How long a client may take to send a request body (408 after)."""
    max_frame_chars: int = 64_000
    """The longest WebSocket text message; longer ones are rejected (``too_large``)."""
    max_frame_bytes: int = 1_048_576
    """The largest WebSocket frame the HTTP server reads at all (it closes with 1009 above:
    uvicorn's ``ws_max_size``); between ``max_frame_chars`` and this, a rejection."""
    max_depth: int = 12
    """The deepest nesting of arrays and objects in a message or a JSON body."""
    hello_seconds: float = 15.0
    """How long a new WebSocket may stay without saying ``hello`` (closed with 1008)."""
    header_seconds: float = 10.0
    """How long an HTTP connection may stay idle between requests (uvicorn's keep-alive
    timeout; the HTTP server reads the headers)."""
    connections_per_address: int = 64
    """Open WebSockets from one client address; more are closed with 1008."""
    tables_per_address: int = 8
    """Waiting lobby tables created from one client address at once."""
    sessions_per_minute: int = 60
    """New sessions (``hello`` without a known token, ``POST /api/guest``) one address may
    create in a minute."""
    solo_grace_seconds: float = 120.0
    """How long a solo table with nobody listening stays loaded (then it is unloaded; the
    next ``resume`` replays it)."""
    min_turn_seconds: float = 3.0
    """The shortest turn clock a table may ask for."""
    min_claim_seconds: float = 1.0
    """The shortest claim-window clock a table may ask for."""
    session_days: float = 90.0
    """A session unused this long, with no match in play, is deleted."""
    unused_session_hours: float = 24.0
    """A session that never played a match is deleted this long after it was last used."""
    cleanup_seconds: float = 3600.0
    """How often expired sessions are deleted."""
    snapshot_every: int = 500
    """A table stores a snapshot of its state every this many actions (0: never); a reload
    replays from the latest one."""
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://example.org``) allowed to POST and to open the WebSocket besides the
    server's own."""
    secure_cookies: bool = False
    """Mark the session cookie ``Secure`` (always on when a request arrives over HTTPS)."""

    def clock_floors(self) -> dict[str, float]:
        """Return the least value of each table clock option (see tables/clock.py)."""
        return {"turn_seconds": self.min_turn_seconds, "claim_seconds": self.min_claim_seconds}

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """Return the defaults overridden by ``MELDHALL_<FIELD>`` variables; raise
        ``ValueError`` naming a variable whose value does not read as its field's type."""
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for f in dataclasses.fields(cls):
            raw = env.get(f"MELDHALL_{f.name.upper()}")
            if raw is None:
                continue
            try:
                values[f.name] = _read(raw, getattr(cls, f.name))
            except ValueError as exc:
                raise ValueError(f"MELDHALL_{f.name.upper()}={raw!r}: {exc}") from exc
        return cls(**values)  # type: ignore[arg-type]


def _read(raw: str, default: object) -> object:
    """Return ``raw`` read as the type of ``default``."""
    if isinstance(default, bool):
        if raw.lower() not in ("1", "0", "true", "false", "yes", "no"):
            raise ValueError("expected true or false")
        return raw.lower() in ("1", "true", "yes")
    if isinstance(default, int):
        return int(raw)
    if isinstance(default, float):
        return float(raw)
    return tuple(part.strip() for part in raw.split(",") if part.strip())


class TokenBucket:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once (a
    connection's messages, a person's chat lines)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def allow(self) -> bool:
        """Return whether one more message may pass now (and count it)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


_TAKE = """
local rate, burst, want = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local now = redis.call('TIME')
local held = redis.call('HMGET', KEYS[1], 'tokens', 'sec', 'usec')
local tokens = tonumber(held[1]) or burst
if held[2] then
  local elapsed = (tonumber(now[1]) - tonumber(held[2]))
    + (tonumber(now[2]) - tonumber(held[3])) / 1e6
  tokens = math.min(burst, tokens + math.max(0, elapsed) * rate)
end
local granted = math.max(0, math.min(want, math.floor(tokens)))
tokens = tokens - granted
redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens), 'sec', now[1], 'usec', now[2])
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return granted
"""
"""Refill a bucket for the time since it was last used (Redis's clock, the same for every
process), then take up to ``want`` whole tokens from it; return how many were taken."""

RETRY_SECONDS = 1.0
"""How long shared buckets count in memory after Redis failed, before asking it again."""
BUCKET_PREFIX = "meldhall:bucket:"
"""The Redis hash of a shared bucket is ``meldhall:bucket:<key>`` (tokens, when last filled);
it expires once it would be full again."""


class SharedBuckets:
    """Token buckets kept in Redis, one per key, shared by every process of a site
    (server/cluster/): the budget of one person is the same whichever processes their
    connections are on."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._take = redis.register_script(_TAKE)
        self.failing = False
        """Whether Redis failed the last time it was asked (buckets count in memory then)."""
        self.failed_at = 0.0
        """When it last failed (``time.monotonic``): it is asked again a second later."""

    async def take(self, key: str, rate: float, burst: float, want: int) -> int:
        """Return how many of ``want`` tokens were taken from the bucket of ``key`` (filled
        at ``rate`` a second up to ``burst``); raise what Redis raises."""
        taken = await self._take(keys=[BUCKET_PREFIX + key], args=[rate, burst, want])
        return int(taken)

    def bucket(self, key: str, rate: float, burst: float) -> SharedBucket:
        """Return a process's handle on the shared bucket of ``key`` (one per connection)."""
        return SharedBucket(self, key, rate, burst)


class SharedBucket(TokenBucket):
    """One connection's handle on a shared bucket (``SharedBuckets``), used as a
    ``TokenBucket``: ``allow`` answers at once from tokens taken from Redis ahead of need, a
    ``chunk`` (a tenth of the burst, at least one) at a time, topped up in the background when
    half of a chunk is left; ``await fill()`` before it waits for Redis when none is held. A
    token is spent by one connection only, so the site never lets more through than one
    bucket would; tokens a closed connection had taken are lost (a little less than the
    budget, never more). While Redis fails, the bucket counts in memory (as ``TokenBucket``
    does in one process)."""

    def __init__(self, buckets: SharedBuckets, key: str, rate: float, burst: float) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError(f"a bucket fills at a positive rate up to at least 1: {rate}, {burst}")
        super().__init__(rate, burst)
        self.buckets, self.key = buckets, key
        self.chunk = max(1, int(burst) // 10)
        self.taken = 0
        """Tokens taken from Redis and not spent yet."""
        self._topping: asyncio.Task[None] | None = None

    async def fill(self) -> None:
        """Hold at least one token when the shared bucket has one: at once when one is held
        already, else after asking Redis (call before ``allow``, so that a burst is not
        refused while a top-up is on its way; a Redis failure is logged and the bucket counts
        in memory meanwhile)."""
        if self.taken >= 1 or (
            self.buckets.failing and time.monotonic() - self.buckets.failed_at <= RETRY_SECONDS
        ):
            return
        await asyncio.shield(self._top_up())
        if self.taken < 1 and not self.buckets.failing:  # spent meanwhile, or it was in flight
            await asyncio.shield(self._top_up())

    def allow(self) -> bool:
        """Return whether one more message may pass now (and count it)."""
        if self.buckets.failing:
            if time.monotonic() - self.buckets.failed_at > RETRY_SECONDS:
                self._top_up()  # to find out whether Redis is back
            return super().allow()
        if self.taken >= 1:
            self.taken -= 1
            if self.taken * 2 < self.chunk:
                self._top_up()
            return True
        self._top_up()
        return False

    def _top_up(self) -> asyncio.Task[None]:
        """Return the task taking a chunk from Redis (a new one unless one is on its way)."""
        if self._topping is None or self._topping.done():
            self._topping = asyncio.get_running_loop().create_task(self._take())
        return self._topping

    async def _take(self) -> None:
        try:
            self.taken += await self.buckets.take(self.key, self.rate, self.burst, self.chunk)
        except Exception as exc:  # Redis away: count in memory until it answers
            if not self.buckets.failing:
                log.warning("rate limits count in memory: Redis does not answer (%s)", exc)
            self.buckets.failing = True
            self.buckets.failed_at = time.monotonic()
        else:
            if self.buckets.failing:
                log.info("rate limits are shared through Redis again")
            self.buckets.failing = False

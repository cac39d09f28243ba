"""The bounds a public server keeps: message and body sizes, timeouts, per-address caps,
unloading, clock minimums, session expiry, snapshots and the web's origin rules.

Every bound is one field of ``Limits`` with its default; docs/security.md says what each one
protects against. ``create_app(..., limits=Limits(...))`` takes them; ``Limits.from_env`` reads
``MELDHALL_<FIELD>`` variables (``MELDHALL_MAX_BODY_BYTES=100000``) for ``uvicorn --factory``.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass


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

"""The web's defences, around every request: security headers, a bounded request body read
before the app sees it, JSON-only POST bodies, and the Origin check of every POST and
WebSocket handshake; and ``AddressBook``, the per-address counts of connections and new
sessions (docs/security.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from meldhall.server.limits import Limits

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class AddressBook:
    """What each client address holds now: open WebSockets and the new sessions of the last
    minute (addresses holding nothing are forgotten)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.connections: dict[str, int] = {}
        self._sessions: dict[str, deque[float]] = {}

    def connect(self, address: str) -> bool:
        """Count one more WebSocket from ``address``; return False (counting nothing) when it
        already has ``connections_per_address``."""
        held = self.connections.get(address, 0)
        if held >= self.limits.connections_per_address:
            log.warning("refused a connection from %s: %d open", address, held)
            return False
        self.connections[address] = held + 1
        return True

    def disconnect(self, address: str) -> None:
        """Count one WebSocket from ``address`` gone."""
        held = self.connections.get(address, 0) - 1
        if held > 0:
            self.connections[address] = held
        else:
            self.connections.pop(address, None)

    def new_session(self, address: str, now: float | None = None) -> bool:
        """Count one new session for ``address``; return False (counting nothing) when it made
        ``sessions_per_minute`` in the last 60 seconds."""
        now = time.monotonic() if now is None else now
        recent = self._sessions.setdefault(address, deque())
        while recent and recent[0] <= now - 60.0:
            recent.popleft()
        if len(recent) >= self.limits.sessions_per_minute:
            log.warning("refused a new session for %s: %d this minute", address, len(recent))
            return False
        recent.append(now)
        if len(self._sessions) > 10_000:
            self._forget_before(now - 60.0)
        return True

    def session_refusal(self, address: str, known: bool) -> str | None:
        """Return why ``address`` may not have a new session now, or None when it may (a
        ``known`` session is no new one; a new one is counted)."""
        if known or self.new_session(address):
            return None
        return f"at most {self.limits.sessions_per_minute} new sessions a minute; try later"

    def _forget_before(self, moment: float) -> None:
        for address, recent in list(self._sessions.items()):
            if not recent or recent[-1] <= moment:
                del self._sessions[address]


def origin_allowed(headers: dict[str, str], limits: Limits) -> bool:
    """Return whether a request's ``Origin`` (if it sends one) is the server's own (its host
    and port are the ``Host`` header's) or one of ``allowed_origins``. Requests without an
    Origin come from no browser page and pass."""
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin.rstrip("/") in limits.allowed_origins:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == headers.get("host")


def security_headers(host: str, script_hashes: tuple[str, ...] = ()) -> list[tuple[bytes, bytes]]:
    """Return the headers every HTTP response carries: a content security policy without
    inline style and no inline script but the ones named by their hash (`script_hashes`),
    no sniffing, no framing, no referrer."""
    scripts = " ".join(("'self'", *script_hashes))
    policy = (
        f"default-src 'self'; script-src {scripts}; style-src 'self'; img-src 'self' data:; "
        f"connect-src 'self' ws://{host} wss://{host}; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'self'; object-src 'none'"
    )
    return [
        (b"content-security-policy", policy.encode("latin-1")),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
        (b"cross-origin-opener-policy", b"same-origin"),
    ]


FILE_UPLOAD_PATHS = frozenset({"/api/verify-file", "/api/replay-file"})
"""The POST routes that take a match file, up to ``Limits.max_file_bytes``."""


class SecurityMiddleware:
    """ASGI middleware: refuses a cross-origin POST or WebSocket (403), a POST body that is
    not JSON (415), too large (413, told by its length before any of it is read) or too slow
    (408); reads the body before the app runs; adds ``security_headers`` to every response."""

    def __init__(self, app: ASGIApp, limits: Limits, script_hashes: tuple[str, ...] = ()) -> None:
        self.app = app
        self.limits = limits
        self.script_hashes = script_hashes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        if scope["type"] == "websocket":
            if not origin_allowed(headers, self.limits):
                log.warning("refused a WebSocket from origin %r", headers.get("origin"))
                await send({"type": "websocket.close", "code": 1008, "reason": "wrong origin"})
                return
            await self.app(scope, receive, send)
            return
        extra = security_headers(headers.get("host", ""), self.script_hashes)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        if scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send_with_headers)
            return
        problem = self._refusal(scope, headers)
        body = b""
        if problem is None:
            body, problem = await self._read_body(scope, receive)
        if problem is not None:
            status, reason = problem
            log.warning("refused %s %s: %s", scope["method"], scope["path"], reason)
            await _answer(send_with_headers, status, reason)
            return
        await self.app(scope, _replay(body, receive), send_with_headers)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        """Return the status and reason a request is refused for before its body is read."""
        if not origin_allowed(headers, self.limits):
            return 403, "requests from another site are refused"
        length = headers.get("content-length", "")
        limit = self._body_limit(scope)
        if length.isdigit() and int(length) > limit:
            return 413, f"the body may have at most {limit} bytes"
        media = headers.get("content-type", "").split(";")[0].strip().lower()
        if scope["method"] == "POST" and media != "application/json":
            return 415, "the body must be JSON (content-type: application/json)"
        return None

    def _body_limit(self, scope: Scope) -> int:
        """Return the most bytes a request's body may have (a match file may be larger)."""
        if scope["path"] in FILE_UPLOAD_PATHS:
            return self.limits.max_file_bytes
        return self.limits.max_body_bytes

    async def _read_body(
        self, scope: Scope, receive: Receive
    ) -> tuple[bytes, tuple[int, str] | None]:
        """Return the whole body, or a refusal when it grows past the body limit or takes
        longer than ``body_seconds``."""
        limit = self._body_limit(scope)
        chunks: list[bytes] = []
        size = 0
        deadline = asyncio.get_running_loop().time() + self.limits.body_seconds
        while True:
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), max(left, 0.0))
            except TimeoutError:
                return b"", (408, "the body came too slowly")
            if message["type"] != "http.request":
                return b"", (400, "the client left")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return b"", (413, f"the body may have at most {limit} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks), None


def _replay(body: bytes, receive: Receive) -> Receive:
    """Return a receive callable that hands the app the body already read, then waits on
    the client (for its disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _answer(send: Send, status: int, reason: str) -> None:
    body = json.dumps({"error": reason}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})

"""Messages between the processes of a site, over Redis pub/sub.

Each process listens on its own channel ``meldhall:p:<process>`` and on ``meldhall:all``.
What a process sends in one turn of its event loop goes out as one ``PUBLISH`` per channel
(a JSON array of envelopes), in the order it was sent, written at the end of that turn: one
connection publishes them all, so the envelopes from one process to another arrive in order.
Pub/sub keeps nothing: a process that is down misses what was sent to it (its clients
reconnect and get the whole state again).

The relay speaks to Redis on two connections of its own (one publishes, one is subscribed),
each an asyncio protocol whose replies hiredis parses in C: a batch costs one socket write
and no task switch or future on either side. Those costs were most of what a second process
added per action (docs/operations.md, "A site of two processes"); the redis-py client serves
everything else (leases, the lobby, rate limits).

An envelope is a JSON object with a kind ``k``, the sending process ``from`` and the kind's
own fields; the payload ``m`` of a client's message stays undecoded bytes on the way back
(``msgspec.Raw``): the connection sends it to its client as it came.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import hiredis
import msgspec

log = logging.getLogger(__name__)

ALL = "meldhall:all"
CONNECT_SECONDS = 5.0
"""How long the relay waits for Redis to accept a connection (and a subscription)."""
RETRY_SECONDS = 0.5
"""How long after a lost connection the relay tries again."""


def channel(process: str) -> str:
    """Return the pub/sub channel of one process."""
    return f"meldhall:p:{process}"


class Envelope(msgspec.Struct, omit_defaults=True):
    """One message between processes (see the module's text)."""

    k: str
    """Its kind: ``msg`` (a client's message for the owner), ``out`` (messages for a
    client), ``bye`` / ``drop`` (a client left / moved on), ``lobby``, ``moved``."""
    origin: str = msgspec.field(name="from", default="")
    c: str = ""
    """The client connection it concerns."""
    t: str = ""
    """The client's session token (``msg``)."""
    a: str = ""
    """The client's address (``msg``)."""
    key: str = ""
    owner: str = ""
    m: msgspec.Raw = msgspec.Raw(b"null")
    """The payload: a client's message, a message for the client, a lobby table."""


Handler = Callable[[Envelope], Awaitable[None] | None]

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(list[Envelope]).decode


def raw(value: Any) -> msgspec.Raw:
    """Return ``value`` encoded as JSON, ready to be an envelope's payload."""
    return msgspec.Raw(_encode(value))


def command(*parts: bytes | str) -> bytes:
    """Return one Redis command in the protocol's (RESP) form.

    >>> command("PUBLISH", "c", b"[]")
    b'*3\\r\\n$7\\r\\nPUBLISH\\r\\n$1\\r\\nc\\r\\n$2\\r\\n[]\\r\\n'
    """
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


class _Link(asyncio.Protocol):
    """One raw connection to Redis: each reply, parsed by hiredis, goes to ``on_reply``."""

    def __init__(self, on_reply: Callable[[Any], None], on_lost: Callable[[], None]) -> None:
        self.on_reply = on_reply
        self.on_lost = on_lost
        self.reader = hiredis.Reader()
        self.transport: Any = None
        """The connection's transport (asyncio's or uvloop's, which is no subclass of it)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            self.on_reply(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        self.on_lost()

    def write(self, data: bytes) -> bool:
        """Send bytes; return False when the connection is gone."""
        if self.transport is None or self.transport.is_closing():
            return False
        self.transport.write(data)
        return True

    def close(self) -> None:
        """Close the connection."""
        if self.transport is not None:
            self.transport.close()


class Relay:
    """The messages of one process to and from the others of its site (``redis``: the
    process's ``redis.asyncio`` client, whose address and password the relay uses)."""

    def __init__(self, redis: Any, process: str) -> None:
        self.redis = redis
        self.process = process
        self.handlers: dict[str, Handler] = {}
        """What to do with an envelope of each kind that arrives."""
        self.sent = 0
        self.received = 0
        self._pending: dict[str, list[bytes]] = {}
        self._handle: asyncio.Handle | None = None
        self._pub: _Link | None = None
        self._sub: _Link | None = None
        self._unanswered = 0
        """PUBLISH commands written whose reply has not come yet."""
        self._replied: asyncio.Event | None = None
        self._subscribed: asyncio.Future[None] | None = None
        self._inbox: deque[Envelope] = deque()
        self._wake: asyncio.Future[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False

    # ------------------------------------------------------------------ connections

    async def _connect(self, on_reply: Callable[[Any], None], on_lost: Callable[[], None]) -> _Link:
        """Return a new raw connection to the client's Redis, signed in when it has a
        password (raise what connecting raises)."""
        pool = self.redis.connection_pool
        kwargs = pool.connection_kwargs
        loop = asyncio.get_running_loop()
        link = _Link(on_reply, on_lost)
        if "path" in kwargs:
            connect = loop.create_unix_connection(lambda: link, kwargs["path"])
        else:
            tls = (
                ssl.create_default_context()
                if pool.connection_class.__name__ == "SSLConnection"
                else None
            )
            connect = loop.create_connection(
                lambda: link, kwargs.get("host", "localhost"), kwargs.get("port", 6379), ssl=tls
            )
        await asyncio.wait_for(connect, CONNECT_SECONDS)
        return link

    def _hello(self) -> bytes:
        """Return the AUTH command of the client's Redis (empty without a password)."""
        kwargs = self.redis.connection_pool.connection_kwargs
        password, username = kwargs.get("password"), kwargs.get("username")
        if not password:
            return b""
        return command("AUTH", username, password) if username else command("AUTH", password)

    async def start(self) -> None:
        """Listen on this process's channel and the site's, and be ready to send (raise
        when Redis does not answer)."""
        self._closing = False
        loop = asyncio.get_running_loop()
        await self._connect_publisher()
        await self._subscribe()
        self._tasks = [loop.create_task(self._deliver())]

    async def _connect_publisher(self) -> None:
        self._pub = await self._connect(self._on_published, self._pub_lost)
        hello = self._hello()
        if hello:
            self._pub.write(hello)
            self._unanswered += 1

    async def _subscribe(self) -> None:
        self._subscribed = asyncio.get_running_loop().create_future()
        self._sub = await self._connect(self._on_message, self._sub_lost)
        self._sub.write(self._hello() + command("SUBSCRIBE", channel(self.process), ALL))
        await asyncio.wait_for(asyncio.shield(self._subscribed), CONNECT_SECONDS)

    def _pub_lost(self) -> None:
        self._pub = None
        self._unanswered = 0
        if self._replied is not None:
            self._replied.set()
        if not self._closing:
            log.error("the relay lost its Redis connection for publishing; connecting again")
            self._tasks.append(asyncio.get_running_loop().create_task(self._reconnect(pub=True)))

    def _sub_lost(self) -> None:
        self._sub = None
        if not self._closing:
            log.error("the relay lost its Redis subscription; listening again")
            self._tasks.append(asyncio.get_running_loop().create_task(self._reconnect(pub=False)))

    async def _reconnect(self, pub: bool) -> None:
        while not self._closing:
            await asyncio.sleep(RETRY_SECONDS)
            try:
                if pub:
                    await self._connect_publisher()
                else:
                    await self._subscribe()
                return
            except Exception as exc:
                log.warning("the relay cannot reach Redis yet: %s", exc)

    async def close(self) -> None:
        """Send what is queued, then stop listening."""
        self.flush()
        if self._unanswered and self._pub is not None:
            self._replied = asyncio.Event()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._replied.wait(), 2)
        self._closing = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        for link in (self._pub, self._sub):
            if link is not None:
                link.close()
        self._pub = self._sub = None

    # ------------------------------------------------------------------ sending

    def send(self, process: str, envelope: Envelope) -> None:
        """Queue an envelope for one process (sent at the end of this loop turn)."""
        self._queue(channel(process), envelope)

    def broadcast(self, envelope: Envelope) -> None:
        """Queue an envelope for every process of the site, this one included."""
        self._queue(ALL, envelope)

    def _queue(self, to: str, envelope: Envelope) -> None:
        envelope.origin = self.process
        self._pending.setdefault(to, []).append(_encode(envelope))
        if self._handle is None:
            self._handle = asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Publish this turn's envelopes now, one batch per channel, in one write."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if not self._pending:
            return
        batch, self._pending = self._pending, {}
        data = b"".join(
            command(b"PUBLISH", to.encode(), b"[" + b",".join(items) + b"]")
            for to, items in batch.items()
        )
        count = sum(len(items) for items in batch.values())
        if self._pub is None or not self._pub.write(data):
            log.error("the relay could not publish %d envelopes: Redis is away", count)
            return  # lost (clients resync on reconnect)
        self._unanswered += len(batch)
        self.sent += count

    def _on_published(self, reply: Any) -> None:
        self._unanswered = max(0, self._unanswered - 1)
        if isinstance(reply, hiredis.ReplyError):
            log.error("Redis refused the relay: %s", reply)
        if not self._unanswered and self._replied is not None:
            self._replied.set()

    # ------------------------------------------------------------------ receiving

    def _on_message(self, reply: Any) -> None:
        if isinstance(reply, hiredis.ReplyError):
            log.error("Redis refused the relay's subscription: %s", reply)
            if self._subscribed is not None and not self._subscribed.done():
                self._subscribed.set_exception(ConnectionError(str(reply)))
            return
        if not isinstance(reply, list) or not reply:
            return  # AUTH's OK
        kind = reply[0]
        if kind == b"subscribe":
            if reply[2] == 2 and self._subscribed is not None and not self._subscribed.done():
                self._subscribed.set_result(None)
            return
        if kind != b"message":
            return
        try:
            envelopes = _decode(reply[2])
        except msgspec.DecodeError:
            log.error("the relay dropped a batch it cannot read")
            return
        self._inbox.extend(envelopes)
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    async def _deliver(self) -> None:
        """Handle the envelopes that arrive, one after the other, in order."""
        loop = asyncio.get_running_loop()
        while True:
            while not self._inbox:
                self._wake = loop.create_future()
                try:
                    await self._wake
                finally:
                    self._wake = None
            envelope = self._inbox.popleft()
            self.received += 1
            handler = self.handlers.get(envelope.k)
            if handler is None:
                log.error("the relay has no handler for %r envelopes", envelope.k)
                continue
            try:
                result = handler(envelope)
                if result is not None:
                    await result
            except Exception:
                log.exception("the relay's %s handler failed", envelope.k)

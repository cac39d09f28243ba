"""Messages between the processes of a site, over Redis pub/sub.

Each process listens on its own channel ``meldhall:p:<process>`` and on ``meldhall:all``.
What a process sends in one turn of its event loop goes out as one ``PUBLISH`` per channel
(a JSON array of envelopes), in the order it was sent: one connection publishes them all, so
the envelopes from one process to another arrive in order. Pub/sub keeps nothing: a process
that is down misses what was sent to it (its clients reconnect and get the whole state again).

An envelope is a JSON object with a kind ``k``, the sending process ``from`` and the kind's
own fields; the payload ``m`` of a client's message stays undecoded bytes on the way back
(``msgspec.Raw``): the connection sends it to its client as it came.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

log = logging.getLogger(__name__)

ALL = "meldhall:all"


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


class Relay:
    """The messages of one process to and from the others of its site."""

    def __init__(self, redis: Any, process: str) -> None:
        self.redis = redis
        self.process = process
        self.handlers: dict[str, Handler] = {}
        """What to do with an envelope of each kind that arrives."""
        self._pending: dict[str, list[bytes]] = {}
        self._handle: asyncio.Handle | None = None
        self._out: asyncio.Queue[dict[str, list[bytes]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self.sent = 0
        self.received = 0

    async def start(self) -> None:
        """Listen on this process's channel and the site's, and start sending."""
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(channel(self.process), ALL)
        self._pubsub = pubsub
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read()), loop.create_task(self._send())]

    async def close(self) -> None:
        """Send what is queued, then stop listening."""
        self.flush()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._out.join(), 2)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
            self._pubsub = None

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
        """Hand this turn's envelopes to the sender, one batch per channel."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self._pending:
            batch, self._pending = self._pending, {}
            self._out.put_nowait(batch)

    async def _send(self) -> None:
        """Publish the batches in order (one pipeline per wake-up)."""
        while True:
            batches = [await self._out.get()]
            while not self._out.empty():
                batches.append(self._out.get_nowait())
            try:
                pipe = self.redis.pipeline(transaction=False)
                for batch in batches:
                    for to, items in batch.items():
                        pipe.publish(to, b"[" + b",".join(items) + b"]")
                        self.sent += len(items)
                await pipe.execute()
            except Exception:  # Redis away: these are lost (clients resync on reconnect)
                log.exception("the relay could not publish %d batches", len(batches))
            finally:
                for _ in batches:
                    self._out.task_done()

    async def _read(self) -> None:
        """Handle the envelopes that arrive, one after the other, in order."""
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the relay lost its Redis subscription; listening again")
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await self._pubsub.subscribe(channel(self.process), ALL)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                envelopes = _decode(message["data"])
            except msgspec.DecodeError:
                log.error("the relay dropped a batch it cannot read")
                continue
            for envelope in envelopes:
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

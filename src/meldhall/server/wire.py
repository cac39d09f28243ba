"""The server's WebSocket protocol: uvicorn's sans-I/O ``websockets`` protocol with a short
path for the frames of play.

Every action costs a server one client frame in and four state frames out (one per seat). The
stock protocol parses each incoming frame through ``websockets``' generator-based parser and
sends each message through Starlette's and uvicorn's ASGI layers, the message encoded to
bytes, decoded to text and encoded again. Here, once the handshake is done:

- a whole, final, masked text frame, while no fragmented message is open, is unmasked with
  ``websockets``' C helper and handed to the app as stock does; every other frame (fragments,
  control frames, anything the parser must refuse) goes whole to the stock parser, so the
  protocol a client sees does not change (tests/server/test_wire.py);
- the app may send a text frame of bytes it knows to be UTF-8 (msgspec's output) straight to
  the transport: ``scope["extensions"]["meldhall.wire"]["send_text_bytes"]`` (``text_sender``),
  waiting while the transport's write buffer is full as stock does (framed by the stock code
  when the client negotiated per-message compression), or ``write_text_bytes``
  (``text_writer``): at once, from synchronous code, when the buffer has room.

Serve with it: ``uvicorn --ws meldhall.server.wire:WireProtocol`` (``meldhall serve`` does).
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket
from uvicorn._types import ASGIReceiveEvent, ASGISendEvent
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import OPEN

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - websockets built without its C helper
    from websockets.utils import apply_mask

WIRE_EXTENSION = "meldhall.wire"
"""The ASGI scope extension through which the app sends text frames of bytes."""

PROTOCOL_PATH = "meldhall.server.wire:WireProtocol"
"""uvicorn's ``ws`` setting that serves with this protocol."""

_FINAL_TEXT = 0x81
"""The first byte of a whole text frame: FIN, no reserved bits, the text opcode."""
_MASKED = 0x80
_LENGTH_16 = struct.Struct("!H")
_LENGTH_64 = struct.Struct("!Q")
_HEAD_7 = struct.Struct("!BB")
_HEAD_16 = struct.Struct("!BBH")
_HEAD_64 = struct.Struct("!BBQ")

TextSender = Callable[[bytes], Awaitable[None]]
TextWriter = Callable[[bytes], bool]


def text_frame(payload: bytes) -> bytes:
    """Return the unmasked, final text frame (a server's) carrying ``payload``."""
    size = len(payload)
    if size < 126:
        return _HEAD_7.pack(_FINAL_TEXT, size) + payload
    if size < 65536:
        return _HEAD_16.pack(_FINAL_TEXT, 126, size) + payload
    return _HEAD_64.pack(_FINAL_TEXT, 127, size) + payload


def text_sender(socket: WebSocket) -> TextSender:
    """Return the function that sends a message of UTF-8 bytes to ``socket`` as one text
    frame: the protocol's own when it serves ``WIRE_EXTENSION``, otherwise Starlette's
    ``send_text`` of the decoded text (the test client, another server)."""
    wire = socket.scope.get("extensions", {}).get(WIRE_EXTENSION)
    if wire is not None:
        send: TextSender = wire["send_text_bytes"]
        return send

    async def send_decoded(payload: bytes) -> None:
        await socket.send_text(payload.decode())

    return send_decoded


def text_writer(socket: WebSocket) -> TextWriter | None:
    """Return the function that writes a message of UTF-8 bytes to ``socket`` as one text
    frame at once, returning False when it cannot now (see ``WireProtocol.write_text_bytes``);
    None when the protocol serves no ``WIRE_EXTENSION``."""
    wire = socket.scope.get("extensions", {}).get(WIRE_EXTENSION)
    if wire is None:
        return None
    write: TextWriter = wire["write_text_bytes"]
    return write


class _ReceiveQueue(asyncio.Queue[ASGIReceiveEvent]):
    """The protocol's queue of events for the app, bound to the protocol's loop at once.

    A stock ``asyncio.Queue`` looks up the running loop on every ``get`` that waits, and on
    Python 3.11 that asks the kernel for the process id (``getpid``): one system call for
    every message a client sends."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._bound = loop

    def _get_loop(self) -> asyncio.AbstractEventLoop:
        """Return the loop the queue serves (the protocol's)."""
        return self._bound


class WireProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, reading whole text frames itself and letting the
    app write text frames of bytes (module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = _ReceiveQueue(self.loop)
        self._framing = False
        """Whether this protocol splits the incoming bytes into frames itself (from the
        accept until the connection starts closing)."""
        self._head: bytes | None = b""
        """The bytes received until the handshake's request was parsed; None after."""
        self._clean = False
        """Whether nothing but the request came before the accept (a client that sends
        frames before it has its answer is left to the stock parser throughout)."""
        self._pending = b""
        """The start of a frame not yet whole."""

    def data_received(self, data: bytes) -> None:
        if self._framing:
            self._frames_received(data)
            return
        if self._head is not None:
            self._head += data
        elif self.handshake_initiated:
            self._clean = False
        super().data_received(data)

    def handle_connect(self, event: Request) -> None:
        head, self._head = self._head or b"", None
        self._clean = head.find(b"\r\n\r\n") + 4 == len(head)
        super().handle_connect(event)
        if self.handshake_initiated and not self.close_sent:
            self.scope["extensions"][WIRE_EXTENSION] = {
                "send_text_bytes": self.send_text_bytes,
                "write_text_bytes": self.write_text_bytes,
            }

    async def send(self, message: ASGISendEvent) -> None:
        await super().send(message)
        if message["type"] == "websocket.accept":
            self._framing = (
                self._clean
                and self.handshake_complete
                and not self.close_sent
                and self.conn.state is OPEN
                and not self.conn.extensions
            )

    async def send_text_bytes(self, payload: bytes) -> None:
        """Send ``payload`` (UTF-8, unchecked) as one text frame once the transport's write
        buffer has room; raise ``ClientDisconnected`` when the connection is gone or
        closing, ``RuntimeError`` before the accept or after the app's close (as a stock
        ``websocket.send`` does)."""
        if not self.writable.is_set():
            await self.writable.wait()
        refusal = self._refusal()
        if refusal is not None:
            raise refusal
        self._write_text(payload)

    def write_text_bytes(self, payload: bytes) -> bool:
        """Write ``payload`` (UTF-8, unchecked) as one text frame now and return True, or
        return False when it cannot go now (the write buffer full, the connection not open:
        ``send_text_bytes`` then waits, or raises)."""
        if not self.writable.is_set() or self._refusal() is not None:
            return False
        self._write_text(payload)
        return True

    def _refusal(self) -> Exception | None:
        """Return what a text frame sent now raises, or None when it may be sent."""
        if self.disconnected:
            return ClientDisconnected()
        if self.close_sent or not self.handshake_complete or self.initial_response is not None:
            return RuntimeError("a text frame sent before the accept or after the close")
        if self.conn.state is not OPEN or self.transport.is_closing():
            return ClientDisconnected()
        return None

    def _write_text(self, payload: bytes) -> None:
        if self.conn.extensions:  # per-message deflate: the stock framing compresses
            self.conn.send_text(payload)
            self.transport.write(b"".join(self.conn.data_to_send()))
        else:
            self.transport.write(text_frame(payload))

    def _frames_received(self, data: bytes) -> None:
        """Take the whole frames in the bytes received so far: a final text frame goes to the
        app here, any other to the stock parser, whole; the rest waits for more bytes. Once
        the stock parser has left the open state (a close, an error), or a frame is longer
        than the connection allows, every byte from there goes to the stock parser."""
        buffer = self._pending + data if self._pending else data
        end = len(buffer)
        limit = self.conn.max_message_size
        at = 0
        while end - at >= 2:
            if self.conn.state is not OPEN or self.close_sent:
                if not self.transport.is_closing():
                    self._to_stock(buffer[at:])
                else:  # the connection failed: nothing more is read
                    self._framing = False
                    self._pending = b""
                return
            head1 = buffer[at]
            head2 = buffer[at + 1]
            length = head2 & 0x7F
            start = at + 2
            if length == 126:
                if end - start < 2:
                    break
                (length,) = _LENGTH_16.unpack_from(buffer, start)
                start += 2
            elif length == 127:
                if end - start < 8:
                    break
                (length,) = _LENGTH_64.unpack_from(buffer, start)
                start += 8
            if limit is not None and length > limit:
                self._to_stock(buffer[at:])  # refused by the parser (1009) before it is read
                return
            masked = head2 & _MASKED
            stop = start + (4 if masked else 0) + length
            if stop > end:
                break
            if head1 == _FINAL_TEXT and masked and self.conn.current_size is None:
                self.curr_msg_data_type = "text"
                self.frames = [apply_mask(buffer[start + 4 : stop], buffer[start : start + 4])]
                self.send_receive_event_to_app()
            else:
                super().data_received(buffer[at:stop])
            at = stop
        self._pending = buffer[at:]

    def _to_stock(self, data: bytes) -> None:
        """Leave every byte from now on to the stock parser, starting with ``data``."""
        self._framing = False
        self._pending = b""
        if data:
            super().data_received(data)

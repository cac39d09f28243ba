"""The server's WebSocket protocol (server/wire.py) against uvicorn's stock sans-I/O one: the
same bytes out for the same bytes in, however the bytes are split, for messages, fragments,
pings, closes and the frames the parser must refuse; the app's sends wait while the transport's
write buffer is full. Each protocol is driven directly (a recording transport, the bytes handed
in chunks chosen by the test), and once over real sockets under uvicorn."""

from __future__ import annotations

import asyncio
import base64
import socket
import struct
import zlib
from collections.abc import Callable
from typing import Any

import pytest
import uvicorn
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from meldhall.server.wire import (
    PROTOCOL_PATH,
    WireProtocol,
    text_frame,
    text_sender,
    text_writer,
)
from tests.server.online_client import run as run_coroutine

PROTOCOLS = (WebSocketsSansIOProtocol, WireProtocol)
MAX_SIZE = 100_000
KEY = base64.b64encode(b"0123456789abcdef")
REQUEST = (
    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: " + KEY + b"\r\nSec-WebSocket-Version: 13\r\n\r\n"
)
MASK = b"\x37\xfa\x21\x3d"


def frame(opcode: int, payload: bytes, fin: bool = True, masked: bool = True) -> bytes:
    """Return a client's frame (masked unless told otherwise)."""
    head = bytes([(0x80 if fin else 0) | opcode])
    bit = 0x80 if masked else 0
    size = len(payload)
    if size < 126:
        head += bytes([bit | size])
    elif size < 65536:
        head += bytes([bit | 126]) + struct.pack("!H", size)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", size)
    if not masked:
        return head + payload
    return head + MASK + bytes(b ^ MASK[i % 4] for i, b in enumerate(payload))


def text(message: str, fin: bool = True) -> bytes:
    """Return a client's text frame."""
    return frame(0x1, message.encode(), fin)


def close(code: int = 1000) -> bytes:
    """Return a client's close frame."""
    return frame(0x8, struct.pack("!H", code))


def server_frames(data: bytes) -> list[tuple[int, bytes]]:
    """Return the (opcode, payload) of each whole server frame in ``data``."""
    frames = []
    at = 0
    while at < len(data):
        opcode, size, at = data[at] & 0x0F, data[at + 1] & 0x7F, at + 2
        if size == 126:
            (size,), at = struct.unpack_from("!H", data, at), at + 2
        elif size == 127:
            (size,), at = struct.unpack_from("!Q", data, at), at + 8
        frames.append((opcode, data[at : at + size]))
        at += size
    return frames


async def echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An app that answers each text with ``echo:`` and it (``flood:N``: N numbered
    messages; ``close``: closes with 1008), a binary message with its length, through the
    sender ``ws.py`` uses; it notes what it received in ``scope["state"]["seen"]``."""
    socket_ = WebSocket(scope, receive, send)
    seen = scope["state"].setdefault("seen", [])
    await socket_.accept()
    sender = text_sender(socket_)
    while True:
        message = await socket_.receive()
        seen.append({k: v for k, v in message.items() if k != "reason"})
        if message["type"] == "websocket.disconnect":
            return
        if "bytes" in message and message["bytes"] is not None:
            await sender(b"bytes:%d" % len(message["bytes"]))
        elif message["text"] == "close":
            await socket_.close(1008, "asked")
        elif message["text"].startswith("flood:"):
            for n in range(int(message["text"][6:])):
                await sender(b"%d:" % n + b"x" * 1000)
                seen.append({"sent": n})
        else:
            await sender(("echo:" + message["text"]).encode())


class Recording(asyncio.Transport):
    """A transport that keeps what is written and tells its protocol when it is closed."""

    def __init__(self, protocol: asyncio.Protocol) -> None:
        super().__init__()
        self.protocol = protocol
        self.written = bytearray()
        self.closed = False
        self.reading = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        extra = {"peername": ("127.0.0.1", 40000), "sockname": ("127.0.0.1", 8000)}
        return extra.get(name, default)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        assert not self.closed, "written after the close"
        self.written += data

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            asyncio.get_running_loop().call_soon(self.protocol.connection_lost, None)

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True


class Session:
    """One connection of a protocol class to the ``echo`` app, driven by hand."""

    def __init__(self, cls: type[asyncio.Protocol], max_size: int = MAX_SIZE) -> None:
        config = Config(
            app=echo, ws_max_size=max_size, ws_ping_interval=None, lifespan="off", log_config=None
        )
        config.load()
        self.state: dict[str, Any] = {}
        self.protocol: Any = cls(config=config, server_state=ServerState(), app_state=self.state)
        self.transport = Recording(self.protocol)
        self.protocol.connection_made(self.transport)

    @property
    def seen(self) -> list[dict[str, Any]]:
        """What the app received (the state is copied into each connection's scope)."""
        seen: list[dict[str, Any]] = self.protocol.scope["state"].get("seen", [])
        return seen

    async def feed(self, *chunks: bytes) -> None:
        """Hand the protocol each chunk once it reads, letting the app run after each."""
        for chunk in chunks:
            await settle()
            if self.transport.closed:
                return
            assert self.transport.reading, "fed while the protocol paused its reading"
            self.protocol.data_received(chunk)
        await settle()

    def take(self) -> bytes:
        """Return (and forget) what the protocol wrote so far."""
        out = bytes(self.transport.written)
        self.transport.written.clear()
        return out


async def settle() -> None:
    """Let the app's task and the protocol's callbacks run until they wait for input."""
    for _ in range(40):
        await asyncio.sleep(0)


async def opened(
    cls: type[asyncio.Protocol], max_size: int = MAX_SIZE, request: bytes = REQUEST
) -> Session:
    """Return a session past its handshake (its 101 response taken)."""
    session = Session(cls, max_size)
    await session.feed(request)
    assert session.take().startswith(b"HTTP/1.1 101")
    return session


def both(run: Callable[[type[asyncio.Protocol]], Any]) -> tuple[Any, Any]:
    """Return what ``run`` gave for the stock protocol and for the wire protocol."""
    return run_coroutine(run(PROTOCOLS[0])), run_coroutine(run(PROTOCOLS[1]))


MESSAGES = ["", "a", "é✓ ok", "x" * 125, "y" * 126, "z" * 1000, "w" * 65535, "v" * 65536]
SPLITS = {
    "whole frames": lambda data: [data],
    "one byte at a time": lambda data: [data[i : i + 1] for i in range(len(data))],
    "7 bytes at a time": lambda data: [data[i : i + 7] for i in range(0, len(data), 7)],
    "all at once": None,
}


@pytest.mark.parametrize("split", list(SPLITS))
def test_messages_both_ways_are_the_stock_protocols_bytes(split: str) -> None:
    async def run(cls: type[asyncio.Protocol]) -> tuple[bytes, list[dict[str, Any]]]:
        session = await opened(cls)
        assert getattr(session.protocol, "_framing", cls is WebSocketsSansIOProtocol)
        frames = [text(m) for m in MESSAGES]
        cut = SPLITS[split]
        if cut is None:
            await session.feed(b"".join(frames))
        else:
            for data in frames:
                if len(data) > 2000:  # the header cut, the payload in a few pieces
                    await session.feed(*cut(data[:14]), data[14:999], data[999:])
                else:
                    await session.feed(*cut(data))
        await session.feed(close())
        assert session.transport.closed
        return session.take(), session.seen

    (stock, stock_seen), (wire, wire_seen) = both(run)
    assert wire == stock
    assert wire_seen == stock_seen
    answers = server_frames(wire)
    assert [p.decode() for _, p in answers[:-1]] == ["echo:" + m for m in MESSAGES]
    assert answers[-1] == (0x8, struct.pack("!H", 1000))
    assert wire_seen[-1] == {"type": "websocket.disconnect", "code": 1000}


def test_the_app_waits_for_messages_without_looking_the_loop_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The stock protocol's queue asks for the running loop on every wait (a ``getpid``
    system call on Python 3.11); the wire protocol's queue is bound to its loop."""
    lookups = [0]
    lookup = asyncio.events._get_running_loop

    def counted() -> asyncio.AbstractEventLoop | None:
        lookups[0] += 1
        return lookup()

    async def run(cls: type[asyncio.Protocol]) -> int:
        session = await opened(cls)
        lookups[0] = 0
        for message in MESSAGES:
            await session.feed(text(message))
        return lookups[0]

    monkeypatch.setattr(asyncio.events, "_get_running_loop", counted)
    stock, wire = both(run)
    assert stock >= len(MESSAGES)
    assert wire == 0


def test_a_fragmented_message_with_a_ping_inside_is_the_stock_protocols() -> None:
    word = "héllo wörld".encode()

    async def run(cls: type[asyncio.Protocol]) -> bytes:
        session = await opened(cls)
        await session.feed(
            frame(0x1, word[:2], fin=False),  # cut inside the é
            frame(0x9, b"inside"),
            frame(0x0, word[2:8], fin=False),
            frame(0x0, word[8:]),
            text("after"),
            close(),
        )
        return session.take()

    stock, wire = both(run)
    assert wire == stock
    assert server_frames(wire) == [
        (0xA, b"inside"),
        (0x1, "echo:héllo wörld".encode()),
        (0x1, b"echo:after"),
        (0x8, struct.pack("!H", 1000)),
    ]


def test_pings_are_answered_and_pongs_ignored_as_stock_does() -> None:
    async def run(cls: type[asyncio.Protocol]) -> bytes:
        session = await opened(cls)
        await session.feed(frame(0x9, b"p1") + frame(0xA, b"unasked") + text("t") + frame(0x9, b""))
        await session.feed(close())
        return session.take()

    stock, wire = both(run)
    assert wire == stock
    # the pongs are written as the frames are read, the echo when the app has run
    assert server_frames(wire) == [(0xA, b"p1"), (0xA, b""), (0x1, b"echo:t"), (0x8, b"\x03\xe8")]


def test_the_apps_close_and_the_clients_answer_are_the_stock_protocols() -> None:
    async def run(cls: type[asyncio.Protocol]) -> tuple[bytes, bytes, bool]:
        session = await opened(cls)
        await session.feed(text("close"))
        closing = session.take()
        await session.feed(text("ignored") + close(1008))
        return closing, session.take(), session.transport.closed

    stock, wire = both(run)
    assert wire == stock
    closing, after, closed = wire
    assert server_frames(closing) == [(0x8, struct.pack("!H", 1008) + b"asked")]
    assert after == b"" and closed


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (frame(0x1, b"ok \xff\xfe"), 1007),  # not UTF-8
        (text("a" * (MAX_SIZE + 1)), 1009),  # longer than the connection allows
        (frame(0x1, b"bare", masked=False), 1002),  # a client's frame must be masked
        (frame(0x0, b"orphan"), 1002),  # a continuation of nothing
        (frame(0x9, b"p" * 126), 1002),  # a control frame longer than 125
        (bytes([0xC1]) + frame(0x1, b"rsv")[1:], 1002),  # a reserved bit, no extension
        (frame(0x3, b"opcode"), 1002),  # a reserved opcode
    ],
)
def test_a_refused_frame_closes_with_the_stock_protocols_code(data: bytes, code: int) -> None:
    async def run(cls: type[asyncio.Protocol]) -> tuple[bytes, list[dict[str, Any]], bool]:
        session = await opened(cls)
        await session.feed(text("before"), data + text("after"))
        return session.take(), session.seen, session.transport.closed

    stock, wire = both(run)
    assert wire == stock
    written, seen, closed = wire
    answers = server_frames(written)
    assert answers[0] == (0x1, b"echo:before")
    assert answers[-1][0] == 0x8 and struct.unpack("!H", answers[-1][1][:2])[0] == code
    assert closed and {"type": "websocket.receive", "text": "after"} not in seen


def test_an_oversized_frame_is_refused_from_its_header_alone() -> None:
    async def run(cls: type[asyncio.Protocol]) -> tuple[bytes, bool]:
        session = await opened(cls, max_size=1000)
        await session.feed(text("z" * 5000)[:8])  # the header and a few bytes, no more
        return session.take(), session.transport.closed

    stock, wire = both(run)
    assert wire == stock
    written, closed = wire
    assert closed and server_frames(written)[0][1][:2] == struct.pack("!H", 1009)


def test_frames_sent_with_the_request_are_read_by_the_stock_parser_throughout() -> None:
    async def run(cls: type[asyncio.Protocol]) -> tuple[bytes, Any]:
        session = Session(cls)
        await session.feed(REQUEST + text("early")[:4], text("early")[4:] + text("next"))
        await session.feed(close())
        return session.take().partition(b"\r\n\r\n")[2], getattr(session.protocol, "_framing", 0)

    (stock, _), (wire, framing) = both(run)
    assert wire == stock and framing is False
    assert server_frames(wire) == [(0x1, b"echo:early"), (0x1, b"echo:next"), (0x8, b"\x03\xe8")]


def test_with_per_message_compression_the_stock_framing_is_used_both_ways() -> None:
    offer = REQUEST.replace(
        b"\r\n\r\n", b"\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n"
    )
    squeeze = zlib.compressobj(wbits=-15)
    deflated = squeeze.compress(b"packed") + squeeze.flush(zlib.Z_SYNC_FLUSH)

    async def run(cls: type[asyncio.Protocol]) -> tuple[bytes, list[dict[str, Any]]]:
        session = await opened(cls, request=offer)
        compressed = bytes([0xC1]) + frame(0x1, deflated[:-4])[1:]  # RSV1: deflated
        await session.feed(text("plain"), compressed, text("x" * 300), close())
        return session.take(), session.seen

    (stock, stock_seen), (wire, wire_seen) = both(run)
    assert wire == stock and wire_seen == stock_seen
    answers = server_frames(wire)
    assert wire[0] & 0x40  # RSV1: the first echo is compressed
    assert [m.get("text") for m in wire_seen[:3]] == ["plain", "packed", "x" * 300]
    assert len(answers) == 4


def test_a_binary_message_goes_through_the_stock_parser() -> None:
    async def run(cls: type[asyncio.Protocol]) -> bytes:
        session = await opened(cls)
        await session.feed(frame(0x2, b"\x00\xff" * 10), text("t"), close())
        return session.take()

    stock, wire = both(run)
    assert wire == stock
    assert server_frames(wire)[:2] == [(0x1, b"bytes:20"), (0x1, b"echo:t")]


@pytest.mark.parametrize("cls", PROTOCOLS)
def test_sends_wait_while_the_write_buffer_is_full(cls: type[asyncio.Protocol]) -> None:
    async def run() -> None:
        session = await opened(cls)
        session.protocol.pause_writing()  # the transport's buffer is over its high mark
        await session.feed(text("flood:3"))
        assert session.take() == b""
        assert {"sent": 0} not in session.seen
        session.protocol.resume_writing()
        await settle()
        answers = server_frames(session.take())
        assert [p[:2] for _, p in answers] == [b"0:", b"1:", b"2:"]
        assert {"sent": 2} in session.seen

    run_coroutine(run())


def test_a_message_before_a_refused_frame_in_the_same_read_reaches_the_app() -> None:
    """The one difference from stock, invisible on the wire: stock drops the messages parsed
    in the same read before a frame its parser refuses; here they reach the app, as they do
    from both when they came in an earlier read. Either way the client gets only the close."""

    async def run(cls: type[asyncio.Protocol]) -> tuple[bytes, list[dict[str, Any]]]:
        session = await opened(cls)
        await session.feed(text("before") + frame(0x0, b"orphan"))
        return session.take(), session.seen

    (stock, stock_seen), (wire, wire_seen) = both(run)
    assert wire == stock and server_frames(wire)[0][0] == 0x8
    assert {"type": "websocket.receive", "text": "before"} not in stock_seen
    assert {"type": "websocket.receive", "text": "before"} in wire_seen


def test_a_write_at_once_is_refused_while_the_buffer_is_full_or_the_connection_closes() -> None:
    async def run() -> None:
        session = await opened(WireProtocol)
        write = text_writer(WebSocket(session.protocol.scope, _never, session.protocol.send))
        assert write is not None
        session.protocol.pause_writing()
        assert not write(b"held")
        session.protocol.resume_writing()
        assert write(b"now")
        assert server_frames(session.take()) == [(0x1, b"now")]
        await session.feed(close())
        assert not write(b"late") and server_frames(session.take()) == [(0x8, b"\x03\xe8")]

    run_coroutine(run())


def test_the_stock_protocol_offers_no_write_at_once() -> None:
    async def run() -> None:
        session = await opened(WebSocketsSansIOProtocol)
        assert text_writer(WebSocket(session.protocol.scope, _never, session.protocol.send)) is None

    run_coroutine(run())


@pytest.mark.parametrize("cls", PROTOCOLS)
def test_a_send_after_the_client_left_raises_as_stock_does(cls: type[asyncio.Protocol]) -> None:
    async def run() -> None:
        session = await opened(cls)
        session.transport.close()
        await settle()
        socket_ = WebSocket(session.protocol.scope, _never, session.protocol.send)
        socket_.application_state = WebSocketState.CONNECTED
        with pytest.raises((OSError, WebSocketDisconnect)):  # the app's writer ends on either
            await text_sender(socket_)(b"late")

    run_coroutine(run())


async def _never() -> dict[str, Any]:
    raise AssertionError("not read")


def test_text_frame_headers() -> None:
    for size in (0, 125, 126, 65535, 65536):
        payload = b"a" * size
        assert server_frames(text_frame(payload)) == [(0x1, payload)]
    assert text_frame(b"hi") == b"\x81\x02hi"


def test_under_uvicorn_a_client_that_stops_reading_holds_the_apps_sends() -> None:
    """Over loopback sockets: while the client reads nothing (a small receive buffer), the
    app's sends stop once the buffers fill (the transport pauses the protocol); then every
    message arrives, in order."""

    async def run() -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        config = uvicorn.Config(
            echo, host="127.0.0.1", port=port, ws=PROTOCOL_PATH, lifespan="off", log_config=None
        )
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        while not server.started and not serving.done():
            await asyncio.sleep(0.01)
        client = socket.socket()
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.connect(("127.0.0.1", port))
        reader, writer = await asyncio.open_connection(sock=client)
        try:
            writer.write(REQUEST)
            assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
            count = 10_000  # 10 MB: more than the socket buffers hold
            writer.write(text(f"flood:{count}"))
            while not server.server_state.connections:
                await asyncio.sleep(0.01)
            protocol: Any = next(iter(server.server_state.connections))
            assert isinstance(protocol, WireProtocol)
            while protocol.writable.is_set():  # the app writes until the buffers fill
                await asyncio.sleep(0.01)
            seen = protocol.scope["state"]["seen"]
            assert {"sent": count - 1} not in seen
            assert protocol.transport.get_write_buffer_size() < 2**20
            for n in range(count):
                head = await reader.readexactly(4)
                assert head[:2] == b"\x81\x7e"
                payload = await reader.readexactly(struct.unpack("!H", head[2:])[0])
                assert payload.startswith(b"%d:" % n)
            assert {"sent": count - 1} in seen
        finally:
            writer.close()
            server.should_exit = True
            await serving

    run_coroutine(run())

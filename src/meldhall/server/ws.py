"""One WebSocket per client: reads messages, checks them, routes them to tables.

Every problem with a message is answered with a ``rejected`` message and the connection stays
open; nothing changes anywhere (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from typing import Any

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

from meldhall.bots.levels import DEFAULT_LEVEL, check_level
from meldhall.core.errors import MeldhallError
from meldhall.games.registry import UnknownGame
from meldhall.server.edge import EdgeError, decode_json, frame_text
from meldhall.server.games import available_games
from meldhall.server.limits import Limits
from meldhall.server.protocol import SchemaError, check_client
from meldhall.server.security import AddressBook
from meldhall.server.wire import text_sender, text_writer
from meldhall.store.repository import Store
from meldhall.tables.manager import TableManager
from meldhall.tables.table import Listener, Rejected, Table

log = logging.getLogger(__name__)

POLICY_VIOLATION = 1008
"""The WebSocket close code of a connection closed for breaking a limit (RFC 6455)."""

HELLO_PROTOCOL = "meldhall.hello"
"""The WebSocket subprotocol of a client that says hello in its handshake: the server answers
with the welcome at once, a round trip sooner than a hello sent after the socket opens."""
TOKEN_PROTOCOL = "meldhall.token."
"""The prefix of the offered subprotocol that carries the hello's token (never logged: a
header, unlike the URL's query, is in no access log)."""

OUTBOX_LIMIT = 2_000
"""Messages a connection may have waiting to be sent; a client that falls further behind is
closed (it reconnects and gets the whole state again)."""


class OutboxOverflow(Exception):
    """The client reads more slowly than its table plays."""


Message = dict[str, Any] | msgspec.Raw | bytes
"""A message to send, or one encoded already: relayed from another process (``Raw``), or a
table's state message (UTF-8 JSON text, ``Outbox.put_bytes``)."""


class Outbox:
    """A connection's messages waiting to be sent, in order; its writer takes them all at
    once (lighter than ``asyncio.Queue``: one waiter, no task accounting). While the writer
    waits with nothing before it, a message goes out at once through ``direct`` when that
    can send it (no task switch a message)."""

    def __init__(self, limit: int = OUTBOX_LIMIT) -> None:
        self.limit = limit
        self.overflowed = False
        self.direct: Callable[[Message], bool] | None = None
        """Sends a message now and returns True, or returns False (the message then waits
        for the writer); set by the connection when its protocol can write at once."""
        self._items: deque[Message] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Message) -> None:
        """Take one message to send (at once through ``direct`` when nothing waits before
        it); past the limit, drop them all and mark the overflow."""
        if (
            self._waiter is not None
            and self.direct is not None
            and not self._items
            and not self.overflowed
            and self.direct(item)
        ):
            return
        if len(self._items) >= self.limit:
            self.overflowed = True
            self._items.clear()
        else:
            self._items.append(item)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def put_bytes(self, payload: bytes) -> None:
        """Take one message encoded already as UTF-8 JSON text (a table's state message: see
        ``Table.send_states``), as ``put_nowait``."""
        self.put_nowait(payload)

    async def take(self) -> list[Message]:
        """Return every waiting message, waiting for one if there is none; raise
        ``OutboxOverflow`` once messages were dropped."""
        while not self._items and not self.overflowed:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        if self.overflowed:
            raise OutboxOverflow(f"more than {self.limit} messages waited to be sent")
        items = list(self._items)
        self._items.clear()
        return items


_encode = msgspec.json.Encoder().encode


def _payload(message: Message) -> bytes | None:
    """Return a message's JSON text as UTF-8 bytes, or None when it cannot be encoded (logged:
    the message is dropped, the others go on)."""
    if type(message) is bytes:  # a table's state message, encoded by msgspec
        return message
    try:
        payload = _encode(message)
        if type(message) is not dict:
            payload.decode()  # relayed bytes: sent as text only when UTF-8
    except (UnicodeError, TypeError, msgspec.EncodeError) as exc:
        kind = message.get("type") if isinstance(message, dict) else "relayed"
        log.error("dropped a %s message: %s", kind, exc)
        return None
    return payload


def handshake_hello(subprotocols: list[str]) -> str | None:
    """Return the hello a client said in its handshake, as the text of a ``hello`` message
    (checked and answered like one sent after the socket opened), or None when it offered no
    ``meldhall.hello`` subprotocol. Its token is the offered ``meldhall.token.<token>``; none
    (a new session) when it offered none."""
    if HELLO_PROTOCOL not in subprotocols:
        return None
    tokens = [p.removeprefix(TOKEN_PROTOCOL) for p in subprotocols if p.startswith(TOKEN_PROTOCOL)]
    message = {"type": "hello", "token": tokens[0] if tokens else None}
    return msgspec.json.encode(message).decode()


class Connection:
    """The state of one client connection: its session, its table and seat."""

    def __init__(
        self,
        socket: WebSocket,
        manager: TableManager,
        store: Store,
        limits: Limits | None = None,
        addresses: AddressBook | None = None,
    ) -> None:
        self.socket = socket
        self.manager = manager
        self.store = store
        self.limits = limits or Limits()
        self.addresses = addresses or AddressBook(self.limits)
        client = getattr(socket, "client", None)
        self.address = client.host if client else ""
        self.token: str | None = None
        self.table: Table | None = None
        self.seat: int | None = None
        self.listener: Listener | None = None
        self.out = Outbox()
        self.closed = False
        """Whether the client has gone."""

    async def run(self) -> None:
        """Serve the connection until the client leaves (or breaks a limit: then it is closed
        with code 1008 and a reason)."""
        hello = handshake_hello(self.socket.scope.get("subprotocols") or [])
        await self.socket.accept(subprotocol=HELLO_PROTOCOL if hello is not None else None)
        if not self.addresses.connect(self.address):
            await self._close(f"at most {self.limits.connections_per_address} connections")
            return
        writer = asyncio.get_running_loop().create_task(self._write())
        try:
            with contextlib.suppress(WebSocketDisconnect):
                if hello is not None:
                    await self._handle(hello)
                await self._read()
        finally:
            self.closed = True
            self.addresses.disconnect(self.address)
            self._leave_table()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer

    async def _read(self) -> None:
        """Handle the client's frames until it leaves; one that has not said hello within
        ``hello_seconds`` is closed."""
        hello_by = asyncio.get_running_loop().time() + self.limits.hello_seconds
        while True:
            if self.token is None:
                left = hello_by - asyncio.get_running_loop().time()
                try:
                    frame = await asyncio.wait_for(self.socket.receive(), max(left, 0.0))
                except TimeoutError:
                    await self._close(f"say hello within {self.limits.hello_seconds:g} seconds")
                    return
            else:
                frame = await self.socket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            try:
                text = frame_text(frame, self.limits.max_frame_chars)
            except EdgeError as exc:
                self._reject(exc.code, exc.reason)
                continue
            await self._handle(text)

    async def _close(self, reason: str) -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await self.socket.close(code=POLICY_VIOLATION, reason=reason)

    async def _write(self) -> None:
        """Send the queued messages in order until the client is gone (``OSError``: the
        protocol's own sender saw it go); a message that cannot be encoded is logged and
        dropped (the others go on). While it waits, the protocol's writer (when it has one)
        sends each new message at once."""
        send = text_sender(self.socket)
        write = text_writer(self.socket)
        if write is not None:

            def direct(message: Message) -> bool:
                payload = _payload(message)
                return payload is None or write(payload)  # an unencodable message is dropped

            self.out.direct = direct
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            try:
                while True:
                    for message in await self.out.take():
                        payload = _payload(message)
                        if payload is not None:
                            await send(payload)
            except OutboxOverflow:
                await self.socket.close(code=1013, reason="too far behind: reconnect")
            finally:
                self.out.direct = None

    def _reject(self, code: str, reason: str, engine_code: str | None = None) -> None:
        self.out.put_nowait(Rejected(code, reason, engine_code).to_json())

    async def _handle(self, text: str) -> None:
        try:
            message = decode_json(text, self.limits.max_depth)
        except EdgeError as exc:
            self._reject(exc.code, exc.reason)
            return
        try:
            kind = check_client(message)
        except KeyError:
            self._reject("unknown_type", f"unknown message type {message.get('type')!r}")
            return
        except SchemaError as exc:
            self._reject("bad_message", str(exc))
            return
        if kind != "hello" and self.token is None:
            self._reject("no_session", "say hello first")
            return
        await self._dispatch(kind, message)

    async def _dispatch(self, kind: str, message: dict[str, Any]) -> None:
        """Run the handler of a checked message; a refusal becomes a ``rejected`` message."""
        try:
            await getattr(self, f"_on_{kind}")(message)
        except Rejected as exc:
            self.out.put_nowait(exc.to_json())

    # ------------------------------------------------------------------ handlers

    async def _on_hello(self, message: dict[str, Any]) -> None:
        token = message.get("token")
        refusal = self.addresses.session_refusal(self.address, self.store.has_session(token))
        if refusal is not None:
            raise Rejected("too_many_sessions", refusal)
        info = self.store.session(token)
        self.token = info.token
        self.out.put_nowait(
            {
                "type": "welcome",
                "token": info.token,
                "next_commitment": info.next_commitment,
                "playing": info.playing,
            }
        )

    async def _on_start(self, message: dict[str, Any]) -> None:
        assert self.token is not None
        game_id = message["game"]
        game = available_games().get(game_id)
        if game is None:
            raise Rejected("unknown_game", f"no game {game_id!r}")
        options = message.get("options", {})
        try:
            game.options(options)
        except (UnknownGame, MeldhallError, ValueError) as exc:
            raise Rejected("bad_options", str(exc)) from exc
        try:
            level = check_level(message.get("level", DEFAULT_LEVEL))
        except MeldhallError as exc:
            raise Rejected("bad_options", str(exc)) from exc
        self._leave_table()
        try:
            table = await self.manager.start_solo(
                self.token,
                game_id,
                message.get("contribution", ""),
                options,
                level,
            )
        except (UnknownGame, MeldhallError) as exc:
            raise Rejected("bad_options", str(exc)) from exc
        self._join(table, table.seat_of(self.token), None)

    async def _on_resume(self, message: dict[str, Any]) -> None:
        assert self.token is not None
        table = await self.manager.get(message["match"])
        if table is None:
            raise Rejected("no_match", f"no match {message['match']!r}")
        seat = table.seat_of(self.token)
        if seat is None:
            raise Rejected("not_your_seat", "this session has no seat in that match")
        self._leave_table()
        self._join(table, seat, message.get("state_id"))

    async def _on_pace(self, message: dict[str, Any]) -> None:
        table, _ = self._seated()
        table.set_pace(message["pace"])

    async def _on_act(self, message: dict[str, Any]) -> None:
        table, seat = self._seated()
        if "seat" in message and message["seat"] != seat:
            raise Rejected("not_your_seat", f"this connection plays seat {seat}")
        await table.act(seat, message["action"], message["state_id"])

    async def _on_appraise(self, message: dict[str, Any]) -> None:
        table, seat = self._seated()
        self.out.put_nowait(table.appraise(seat, message["action"], message["state_id"]))

    async def _on_sync(self, message: dict[str, Any]) -> None:
        table, _seat = self._seated()
        assert self.listener is not None
        table.resync(self.listener)

    async def _on_continue(self, message: dict[str, Any]) -> None:
        table, _seat = self._seated()
        await table.resume_play()

    # ------------------------------------------------------------------ tables

    def _seated(self) -> tuple[Table, int]:
        if self.table is None or self.seat is None:
            raise Rejected("no_match", "start or resume a match first")
        return self.table, self.seat

    def _join(self, table: Table, seat: int | None, since: int | None) -> None:
        self.table, self.seat = table, seat
        self.listener = table.attach(seat, self.out, since)

    def _leave_table(self) -> None:
        if self.table is not None and self.listener is not None:
            self.table.detach(self.listener)
        self.table = self.seat = self.listener = None


async def websocket_endpoint(socket: WebSocket) -> None:
    """Serve one client's WebSocket."""
    app = socket.app
    await Connection(
        socket, app.state.manager, app.state.store, app.state.limits, app.state.addresses
    ).run()

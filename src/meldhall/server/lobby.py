"""The online lobby: tables waiting for people (public ones listed, private ones reached by
their invite link), the countdown and seating when a match starts, spectators, and the
connection class that speaks both the solo and the online messages (docs/online.md).

No rules here: seats come from tables/clock.py, moves are judged by the engine.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from starlette.websockets import WebSocket

from meldhall.bots.levels import seat_player
from meldhall.core.errors import MeldhallError
from meldhall.games.registry import UnknownGame
from meldhall.server.chat import Chat, flood_limit
from meldhall.server.games import available_games
from meldhall.server.limits import Limits, TokenBucket
from meldhall.server.people import People
from meldhall.server.security import AddressBook
from meldhall.server.ws import Connection
from meldhall.store.lobby import LobbyData
from meldhall.tables.clock import table_settings
from meldhall.tables.online import OnlineManager, OnlineTable
from meldhall.tables.table import Rejected

log = logging.getLogger(__name__)

COOKIE = "meldhall_session"
TOKEN_HEADER = "x-meldhall-token"
"""The request header that names a solo session (never a URL: URLs reach logs)."""
NAME_MAX = 32
RATE = 100.0
"""Messages a connection may send per second on average (setting ``--rate``)."""
BURST = 200.0
"""Messages a connection may send at once (setting ``--burst``)."""
LISTED = 100
"""How many waiting tables, and how many tables in play, the lobby lists."""


def clean_name(raw: object, fallback: str = "Guest") -> str:
    """Return a display name fit to store: no control characters, trimmed, at most NAME_MAX
    characters, no lone surrogates, ``fallback`` when nothing is left (pages escape it
    wherever it is shown)."""
    text = "".join(ch for ch in str(raw) if ch >= " " and ch != "\x7f" and not _surrogate(ch))
    return text.strip()[:NAME_MAX] or fallback


def _surrogate(ch: str) -> bool:
    return "\ud800" <= ch <= "\udfff"


class Waiting:
    """A lobby table before its match starts, and the connections sitting at it."""

    def __init__(self, data: LobbyData, address: str = "") -> None:
        self.data = data
        self.address = address
        """The client address of the connection that opened the table ("" once restored)."""
        self.members: dict[str, OnlineConnection] = {}
        self.countdown: asyncio.Task[None] | None = None
        self.starts_at: float | None = None
        self.ratings: list[dict[str, Any] | None] = []
        """Each person's rating in the table's game (None: a guest), see ``Lobby.rate_seats``."""

    def json(self, viewer: str | None = None) -> dict[str, Any]:
        """Return what the people at (and before) the table may know of it; for the session
        ``viewer``, also whether it is the host and its place among the people."""
        left = None
        if self.starts_at is not None:
            left = round(max(0.0, self.starts_at - time.monotonic()), 2)
        return {
            "id": self.data.id,
            "game": self.data.game,
            "options": self.data.options,
            "settings": self.data.settings,
            "public": self.data.public,
            "people": [p["name"] for p in self.data.people],
            "ratings": list(self.ratings),
            "host": next(
                (p["name"] for p in self.data.people if p["session"] == self.data.host), None
            ),
            "host_index": next(
                (i for i, p in enumerate(self.data.people) if p["session"] == self.data.host),
                None,
            ),
            "seats": available_games()[self.data.game].default_seats,
            "status": self.data.status,
            "match": self.data.match_id,
            "countdown": left,
            "you_host": viewer is not None and viewer == self.data.host,
            "you": next(
                (i for i, p in enumerate(self.data.people) if p["session"] == viewer), None
            ),
        }


class Lobby:
    """Every online table of the server, waiting or playing."""

    def __init__(
        self,
        manager: OnlineManager,
        limits: Limits | None = None,
        rate: float = RATE,
        burst: float = BURST,
    ) -> None:
        self.manager = manager
        self.limits = limits or Limits()
        self.rate, self.burst = rate, burst
        """Each connection's message budget (see ``rate_limit``)."""
        self.store = manager.lobby_store
        self.tables: dict[str, Waiting] = {}
        self.rematches: dict[str, str] = {}
        """The waiting table opened for the next match of a finished one, by lobby id."""
        self.people: People | None = None
        """Accounts, ratings and chat (server/people.py), when the app has them."""
        self.connections: set[OnlineConnection] = set()
        """Every open connection (the chat finds a room's readers among them)."""
        self.chat: Chat | None = None
        manager.unloaded.append(self.forget)

    def shown_name(self, conn: OnlineConnection, raw: object) -> str:
        """Return the name ``conn`` shows at a table: its account's, or its guest name."""
        name = clean_name(raw)
        return self.people.shown_name(conn.token, name) if self.people else name

    def forget(self, match_id: str) -> None:
        """Drop the lobby table of a finished match once its table is unloaded."""
        for table_id, waiting in list(self.tables.items()):
            if waiting.data.match_id == match_id and waiting.data.status != "playing":
                del self.tables[table_id]
                self.rematches.pop(table_id, None)

    async def restore(self) -> None:
        """Reload the lobby after a restart: waiting tables wait again, matches in play are
        replayed from their logs and go on (a computer plays a seat nobody reclaims)."""
        for data in self.store.active():
            for person in data.people:
                person["name"] = clean_name(person.get("name", ""))
            self.tables[data.id] = Waiting(data)
            self.rate_seats(self.tables[data.id])
            if data.status == "playing" and data.match_id is not None:
                self.manager.register(data)
                try:
                    await self.manager.get(data.match_id)
                except Rejected as exc:  # quarantined or of other rules: logged, kept as stored
                    log.warning("not resumed: %s", exc.reason, extra={"match": data.match_id})

    def listing(self) -> list[dict[str, Any]]:
        """Return the public tables waiting for people, newest first, then those in play (to
        watch), at most ``LISTED`` of each."""
        public = [w for w in reversed(self.tables.values()) if w.data.public]
        waiting = [w for w in public if w.data.status == "waiting"][:LISTED]
        playing = [w for w in public if w.data.status == "playing"][:LISTED]
        return [w.json() for w in waiting + playing]

    def _find(self, table_id: str) -> Waiting:
        waiting = self.tables.get(table_id)
        if waiting is None:
            raise Rejected("no_table", f"no table {table_id!r}")
        return waiting

    def rate_seats(self, waiting: Waiting) -> None:
        """Look up the ratings of the people at a waiting table (shown beside their names)."""
        if self.people is not None:
            sessions = [str(p["session"]) for p in waiting.data.people]
            waiting.ratings = self.people.seat_ratings(waiting.data.game, sessions)

    def _tell(self, waiting: Waiting) -> None:
        self.rate_seats(waiting)
        for token, conn in waiting.members.items():
            conn.out.put_nowait({"type": "table", "table": waiting.json(token)})
        self.changed(waiting)

    def changed(self, waiting: Waiting) -> None:
        """Take note that a table changed (a site's lobby tells the other processes)."""

    async def new_table_id(self) -> str:
        """Return the id of a new lobby table (a site's lobby takes its lease first)."""
        return secrets.token_urlsafe(12)

    def check_new(
        self, conn: OnlineConnection, game_id: str, options: dict[str, Any], settings: Any
    ) -> dict[str, float]:
        """Return the complete table options of a table ``conn`` may open; raise ``Rejected``
        (changing nothing) for an unknown or one-seat game, bad options, or an address
        that has ``tables_per_address`` waiting tables open."""
        game = available_games().get(game_id)
        if game is None:
            raise Rejected("unknown_game", f"no game {game_id!r}")
        if game.default_seats < 2:
            raise Rejected("bad_options", f"{game_id} is played alone")
        try:
            game.options(options)
            complete = table_settings(settings, self.manager.clock_floors)
        except (UnknownGame, MeldhallError, ValueError) as exc:
            raise Rejected("bad_options", str(exc)) from exc
        cap = self.limits.tables_per_address
        mine = [
            w
            for w in self.tables.values()
            if w.address == conn.address and w.data.status == "waiting" and w is not conn.waiting
        ]
        if len(mine) >= cap:
            raise Rejected("too_many_tables", f"at most {cap} open tables from one address")
        return complete

    def create(
        self,
        conn: OnlineConnection,
        game_id: str,
        options: dict[str, Any],
        settings: dict[str, Any],
        public: bool,
        name: str,
        table_id: str | None = None,
    ) -> Waiting:
        """Return a new waiting table (id ``table_id``, default a new one) with its creator
        (``conn``) seated as host (raise ``Rejected`` as ``check_new`` does)."""
        settings = self.check_new(conn, game_id, options, settings)
        assert conn.token is not None
        data = LobbyData(
            id=table_id or secrets.token_urlsafe(12),
            game=game_id,
            options=dict(options),
            settings=settings,
            public=public,
            host=conn.token,
            people=[{"session": conn.token, "name": name}],
        )
        self.store.save(data)
        waiting = Waiting(data, conn.address)
        waiting.members[conn.token] = conn
        self.tables[data.id] = waiting
        self._tell(waiting)
        return waiting

    def check_join(self, conn: OnlineConnection, table_id: str) -> Waiting:
        """Return the table ``conn`` may join (or take its seat back at); raise ``Rejected``
        (changing nothing) otherwise."""
        waiting = self._find(table_id)
        seated = any(p["session"] == conn.token for p in waiting.data.people)
        if waiting.data.status in ("playing", "over"):
            if not seated:
                raise Rejected("table_started", "this table is playing; watch it instead")
            if waiting.data.match_id is not None:
                broken = self.manager.store.quarantined(waiting.data.match_id)
                if broken is not None:
                    raise Rejected(
                        "match_broken", f"this table's match is set aside: {broken.summary}"
                    )
        elif waiting.data.status != "waiting":
            raise Rejected("no_table", "this table is closed")
        elif not seated:
            seats = available_games()[waiting.data.game].default_seats
            if len(waiting.data.people) >= seats:
                raise Rejected("table_full", "every seat is taken")
        return waiting

    async def join(self, conn: OnlineConnection, table_id: str, name: str) -> None:
        """Seat a person at a waiting table, or bring one back to the seat they hold (raise
        ``Rejected`` as ``check_join`` does)."""
        waiting = self.check_join(conn, table_id)
        token = conn.token
        assert token is not None
        seated = any(p["session"] == token for p in waiting.data.people)
        if waiting.data.status in ("playing", "over"):  # a seat back, or the result
            conn.out.put_nowait({"type": "table", "table": waiting.json(token)})
            await conn.sit(waiting, None)
            return
        if not seated:
            waiting.data.people.append({"session": token, "name": name})
            self.store.save(waiting.data)
        waiting.members[token] = conn
        self._tell(waiting)
        if len(waiting.data.people) >= available_games()[waiting.data.game].default_seats:
            self._count_down(waiting)

    def leave(self, conn: OnlineConnection, table_id: str) -> None:
        """Take a person off a waiting table (the next person becomes host; an empty table
        closes)."""
        waiting = self.tables.get(table_id)
        if waiting is None or waiting.data.status != "waiting" or conn.token is None:
            return
        if waiting.members.get(conn.token) is not conn:
            return
        del waiting.members[conn.token]
        waiting.data.people = [p for p in waiting.data.people if p["session"] != conn.token]
        if waiting.countdown is not None and len(waiting.data.people) < 2:
            waiting.countdown.cancel()
            waiting.countdown = None
            waiting.starts_at = None
        if not waiting.data.people:
            waiting.data.status = "closed"
            del self.tables[table_id]
        elif waiting.data.host == conn.token:
            waiting.data.host = waiting.data.people[0]["session"]
        self.store.save(waiting.data)
        self._tell(waiting)

    def drop(self, conn: OnlineConnection, table_id: str) -> None:
        """Hold a person's place at a waiting table for its ``hold_seconds`` after their
        connection closed (a reload, a network blip); take them off if they are not back."""
        token = conn.token
        waiting = self.tables.get(table_id)
        if waiting is None:
            return

        def gone() -> None:
            waiting = self.tables.get(table_id)
            if waiting is not None and token is not None and waiting.members.get(token) is conn:
                self.leave(conn, table_id)

        hold = table_settings(waiting.data.settings)["hold_seconds"]
        asyncio.get_running_loop().call_later(hold, gone)

    def begin(self, conn: OnlineConnection, table_id: str) -> None:
        """Start the countdown of a waiting table at its host's word."""
        waiting = self._find(table_id)
        if waiting.data.host != conn.token:
            raise Rejected("not_host", "only the host starts the table")
        if waiting.data.status != "waiting":
            raise Rejected("table_started", "this table has started")
        if len(waiting.data.people) < 2:
            raise Rejected("need_players", "online play needs at least two people")
        self._count_down(waiting)

    def _count_down(self, waiting: Waiting) -> None:
        if waiting.countdown is not None:
            return
        seconds = waiting.data.settings["countdown_seconds"]
        waiting.starts_at = time.monotonic() + seconds
        waiting.countdown = asyncio.get_running_loop().create_task(self._start(waiting, seconds))
        self._tell(waiting)

    async def _start(self, waiting: Waiting, seconds: float) -> None:
        await asyncio.sleep(seconds)
        data = waiting.data
        game = available_games()[data.game]
        people = list(data.people)
        seats = game.default_seats
        places = game.seating(len(people), seats)
        computer = seat_player(data.game, table_settings(data.settings)["bots"])
        players: list[dict[str, Any]] = [dict(computer) for _ in range(seats)]
        self.rate_seats(waiting)
        ratings = waiting.ratings or [None] * len(people)
        for seat, person, rating in zip(places, people, ratings, strict=True):
            players[seat] = {"kind": "person", "session": person["session"], "name": person["name"]}
            if rating is not None:
                players[seat]["rating"] = rating
        store = self.manager.store
        secret = store.take_secret(data.host)
        match = store.create_match(
            f"online:{data.id}",
            data.game,
            dict(data.options),
            players,
            secret,
            [data.id],
        )
        data.match_id = match.id
        data.status = "playing"
        self.store.save(data)
        waiting.countdown = None
        waiting.starts_at = None
        self.manager.register(data)
        self._tell(waiting)
        members = list(waiting.members.values())
        waiting.members.clear()  # from now on the match's table speaks to them
        for conn in members:
            if not conn.closed:  # a person whose place was held sits on return
                await conn.sit(waiting, None)

    async def rematch(self, conn: OnlineConnection, table: OnlineTable) -> Waiting:
        """Return the waiting table of the next match of a finished online match: the one
        another person of that match opened (``conn`` joins it), or a new one with the same
        game, options and table options, ``conn`` its host, which everyone at the finished
        table hears of (a ``rematch`` message)."""
        assert conn.seat is not None
        name = clean_name(table.data.players[conn.seat].get("name", ""))
        message: dict[str, Any] = {
            "type": "rematch",
            "match": table.id,
            "seat": conn.seat,
            "name": name,
        }
        waiting = self.tables.get(self.rematches.get(table.lobby.id, ""))
        if waiting is not None and waiting.data.status == "waiting":
            await self.join(conn, waiting.data.id, name)
            conn.out.put_nowait({**message, "table": waiting.data.id})
            return waiting
        old = table.lobby
        table_id = await self.new_table_id()
        waiting = self.create(
            conn, old.game, dict(old.options), dict(old.settings), old.public, name, table_id
        )
        self.rematches[old.id] = waiting.data.id
        table.send_all({**message, "table": waiting.data.id})
        return waiting

    async def watch(self, conn: OnlineConnection, table_id: str) -> OnlineTable:
        """Return the table a spectator watches (public information only)."""
        waiting = self._find(table_id)
        if waiting.data.match_id is None:
            raise Rejected("not_started", "this table has not started yet")
        table = await self.manager.get(waiting.data.match_id)
        if not isinstance(table, OnlineTable):
            raise Rejected("no_table", "this table is not in play")
        return table


def rate_limit(rate: float = RATE, burst: float = BURST) -> TokenBucket:
    """Return a connection's message budget: ``RATE`` a second on average, ``BURST`` at once."""
    return TokenBucket(rate, burst)


class OnlineConnection(Connection):
    """A client connection that also speaks the lobby and online-table messages."""

    def __init__(
        self,
        socket: WebSocket,
        manager: OnlineManager,
        lobby: Lobby,
        addresses: AddressBook | None = None,
    ) -> None:
        super().__init__(socket, manager, manager.store, lobby.limits, addresses)
        self.lobby = lobby
        self.waiting: Waiting | None = None
        self.limit = rate_limit(lobby.rate, lobby.burst)
        self.chat_limit = flood_limit()

    def _chat(self) -> Chat:
        if self.lobby.chat is None:
            raise Rejected("chat_off", "this server has no chat")
        return self.lobby.chat

    async def _on_chat(self, message: dict[str, Any]) -> None:
        self._chat().send(self, message.get("text"), message.get("quick"))

    async def _on_chat_open(self, message: dict[str, Any]) -> None:
        self.out.put_nowait(self._chat().history(self))

    async def _on_mute(self, message: dict[str, Any]) -> None:
        self.out.put_nowait(self._chat().mute(self, message["author"], message.get("on", True)))

    async def _on_report(self, message: dict[str, Any]) -> None:
        self.out.put_nowait(self._chat().report(self, message["message"]))

    async def run(self) -> None:
        """Serve the connection; leaving takes the person off a waiting table."""
        self.lobby.connections.add(self)
        try:
            await super().run()
        finally:
            self.lobby.connections.discard(self)
            if self.waiting is not None:
                self.lobby.drop(self, self.waiting.data.id)

    async def _handle(self, text: str) -> None:
        if not self.limit.allow():
            self._reject(
                "rate_limited", f"at most {self.limit.rate:g} messages a second; slow down"
            )
            return
        await super()._handle(text)

    async def _on_hello(self, message: dict[str, Any]) -> None:
        if not message.get("token"):
            message = {**message, "token": self.socket.cookies.get(COOKIE)}
        await super()._on_hello(message)

    async def sit(self, waiting: Waiting, since: int | None) -> None:
        """Attach this connection to the match of its table at its own seat."""
        assert waiting.data.match_id is not None and self.token is not None
        table = await self.manager.get(waiting.data.match_id)
        if table is None:
            raise Rejected("no_table", "the match of this table is gone")
        self._leave_table()
        self.waiting = None
        self._join(table, table.seat_of(self.token), since)

    async def _on_lobby(self, message: dict[str, Any]) -> None:
        self.out.put_nowait({"type": "lobby", "tables": self.lobby.listing()})

    async def _on_create(self, message: dict[str, Any]) -> None:
        self.lobby.check_new(
            self, message["game"], message.get("options", {}), message.get("settings", {})
        )
        self._leave_all()
        self.waiting = self.lobby.create(
            self,
            message["game"],
            message.get("options", {}),
            message.get("settings", {}),
            bool(message.get("public", True)),
            self.lobby.shown_name(self, message.get("name", "")),
            await self.lobby.new_table_id(),
        )

    async def _on_join(self, message: dict[str, Any]) -> None:
        waiting = self.lobby.check_join(self, message["table"])
        if self.waiting is not waiting:
            self._leave_all()
        self.waiting = waiting
        try:
            await self.lobby.join(
                self, message["table"], self.lobby.shown_name(self, message.get("name", ""))
            )
        except Rejected:
            self.waiting = None
            raise

    async def _on_leave(self, message: dict[str, Any]) -> None:
        self._leave_all()
        self.out.put_nowait({"type": "left"})

    async def _on_begin(self, message: dict[str, Any]) -> None:
        if self.waiting is None:
            raise Rejected("no_table", "join a table first")
        self.lobby.begin(self, self.waiting.data.id)

    async def _on_rematch(self, message: dict[str, Any]) -> None:
        table = self.table
        if not isinstance(table, OnlineTable) or self.seat is None:
            raise Rejected("no_table", "only a person of a finished online match asks for that")
        if not table.over:
            raise Rejected("not_over", "the match is still being played")
        self.waiting = await self.lobby.rematch(self, table)
        self._leave_table()

    async def _on_watch(self, message: dict[str, Any]) -> None:
        table = await self.lobby.watch(self, message["table"])
        self._leave_all()
        self._join(table, None, None)

    async def _on_act(self, message: dict[str, Any]) -> None:
        if self.table is not None and self.seat is None:
            raise Rejected("spectator", "spectators do not act")
        if "match" in message and (self.table is None or message["match"] != self.table.id):
            raise Rejected("not_your_table", "this connection does not play that match")
        await super()._on_act({k: v for k, v in message.items() if k != "match"})

    async def _on_continue(self, message: dict[str, Any]) -> None:
        if self.table is not None and self.seat is None:
            raise Rejected("spectator", "spectators do not act")
        await super()._on_continue(message)

    def _leave_all(self) -> None:
        if self.waiting is not None:
            self.lobby.leave(self, self.waiting.data.id)
            self.waiting = None
        self._leave_table()


async def websocket_endpoint(socket: WebSocket) -> None:
    """Serve one client's WebSocket (solo and online messages)."""
    app = socket.app
    await OnlineConnection(socket, app.state.manager, app.state.lobby, app.state.addresses).run()


def guest_cookie(token: str, secure: bool = False) -> dict[str, Any]:
    """Return the keyword arguments of ``Response.set_cookie`` for a guest's session token
    (``secure``: sent over HTTPS only)."""
    return {
        "key": COOKIE,
        "value": token,
        "httponly": True,
        "secure": secure,
        "samesite": "lax",
        "path": "/",
        "max_age": 60 * 60 * 24 * 365,
    }

"""Table chat over the WebSocket (docs/protocol.md, "Chat"): short text messages and quick
phrases in a waiting room and at a table, a flood limit, muting a person for oneself,
reporting a message for an operator, and the operator's bans.

A message is text only: control characters are dropped and pages insert it as text, never as
HTML. The room of a connection is its lobby table's id (waiting or playing); spectators read
the chat and do not write.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from meldhall.server.names import name_key
from meldhall.server.people import People, author_id
from meldhall.store.chat import ChatMessage
from meldhall.tables.online import OnlineTable
from meldhall.tables.table import Rejected

if TYPE_CHECKING:
    from meldhall.server.lobby import OnlineConnection

TEXT_MAX = 200
"""Characters of one message."""
HISTORY = 50
"""Messages a person gets on entering a room."""
FLOOD_RATE = 0.5
FLOOD_BURST = 5.0
"""A person may send ``FLOOD_BURST`` messages at once, then one every 2 seconds."""
QUICK_PHRASES = ("good_luck", "well_played", "thanks")
"""The quick phrases (catalog keys ``chat.quick.<key>``: each reader sees its language)."""


class FloodLimit:
    """A token bucket for one connection's chat messages."""

    def __init__(self, rate: float = FLOOD_RATE, burst: float = FLOOD_BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def allow(self) -> bool:
        """Return whether one more message may be sent now (and count it)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def clean_text(raw: str) -> str:
    """Return a chat text fit to store: control characters and lone surrogates dropped,
    spaces squeezed at both ends (the text stays text: nothing here is markup).

    >>> clean_text("  <b>hi</b>\\x00  ")
    '<b>hi</b>'
    """
    kept = "".join(
        ch
        for ch in raw
        if (ch >= " " or ch == "\n") and ch != "\x7f" and not "\ud800" <= ch <= "\udfff"
    )
    return kept.strip()


def room_of(conn: OnlineConnection) -> tuple[str, bool, dict[str, Any]] | None:
    """Return the room of a connection (its lobby table's id), whether it may write there (a
    person at the table, not a spectator), and the table options; None outside any table."""
    if conn.waiting is not None:
        return conn.waiting.data.id, True, conn.waiting.data.settings
    table = conn.table
    if isinstance(table, OnlineTable):
        return table.lobby.id, conn.seat is not None, table.lobby.settings
    return None


class Chat:
    """The chat of one server: rooms are found from the lobby's open connections."""

    def __init__(self, people: People, connections: Iterable[OnlineConnection]) -> None:
        self.people = people
        self.connections = connections
        self._muted: dict[str, set[str]] = {}
        """Authors each session muted, read from the store once per session."""

    def _room(self, conn: OnlineConnection, write: bool) -> str:
        if not self.people.chat_on:
            raise Rejected("chat_off", "chat is switched off on this server")
        room = room_of(conn)
        if room is None:
            raise Rejected("no_room", "join or watch a table first")
        room_id, may_write, settings = room
        if not settings.get("chat", True):
            raise Rejected("chat_off", "chat is switched off at this table")
        if write and not may_write:
            raise Rejected("spectator", "spectators read the chat and do not write")
        return room_id

    def muted_by(self, session: str) -> set[str]:
        """Return the authors a session has muted."""
        if session not in self._muted:
            self._muted[session] = self.people.chat.muted_by(session)
        return self._muted[session]

    def history(self, conn: OnlineConnection) -> dict[str, Any]:
        """Return the ``chat_history`` message of the connection's room (muted authors
        left out)."""
        assert conn.token is not None
        room = self._room(conn, write=False)
        muted = self.muted_by(conn.token)
        messages = [
            self._json(m, conn.token)
            for m in self.people.chat.recent(room, HISTORY)
            if m.author not in muted
        ]
        return {"type": "chat_history", "room": room, "messages": messages}

    def _json(self, message: ChatMessage, reader: str) -> dict[str, Any]:
        return {"type": "chat", **message.to_json(), "you": message.session == reader}

    def send(self, conn: OnlineConnection, text: str | None, quick: str | None) -> None:
        """Store a message of ``conn`` in its room and send it to everyone there who has not
        muted its author; raise ``Rejected`` (nothing sent) for an empty, too long or
        flooding message, an unknown quick phrase, a ban, or chat switched off."""
        assert conn.token is not None
        room = self._room(conn, write=True)
        if (text is None) == (quick is None):
            raise Rejected("bad_message", "a chat message has a text or a quick phrase")
        if quick is not None and quick not in QUICK_PHRASES:
            raise Rejected(
                "bad_message", f"no quick phrase {quick!r}; known: {', '.join(QUICK_PHRASES)}"
            )
        body = clean_text(text) if text is not None else ""
        if text is not None and not body:
            raise Rejected("empty", "the message is empty")
        if len(body) > TEXT_MAX:
            raise Rejected("too_long", f"a chat message has at most {TEXT_MAX} characters")
        name = self._name(conn, room)
        if self.people.chat.banned("address", conn.address) or self.people.chat.banned(
            "name", name_key(name) if name else ""
        ):
            raise Rejected("banned", "the operator has banned this name or address from chat")
        if not conn.chat_limit.allow():
            raise Rejected(
                "rate_limited",
                f"at most {FLOOD_BURST:g} chat messages at once, then one every "
                f"{1 / FLOOD_RATE:g} seconds",
            )
        author = author_id(conn.token)
        message = self.people.chat.add(room, conn.token, author, name, conn.address, body, quick)
        for other in list(self.connections):
            if other.token is None or other.closed:
                continue
            here = room_of(other)
            if here is None or here[0] != room or author in self.muted_by(other.token):
                continue
            other.out.put_nowait(self._json(message, other.token))

    def _name(self, conn: OnlineConnection, room: str) -> str:
        """Return the name the author has at the table (its seat's or waiting room's)."""
        assert conn.token is not None
        if conn.waiting is not None:
            people = conn.waiting.data.people
            return next((str(p["name"]) for p in people if p["session"] == conn.token), "")
        if conn.table is not None and conn.seat is not None:
            return str(conn.table.data.players[conn.seat].get("name", ""))
        return ""

    def mute(self, conn: OnlineConnection, author: str, on: bool) -> dict[str, Any]:
        """Mute (or unmute) an author for this connection's session; return the ``muted``
        answer."""
        assert conn.token is not None
        if author == author_id(conn.token):
            raise Rejected("bad_message", "one does not mute oneself")
        self.people.chat.mute(conn.token, author, on)
        muted = self.muted_by(conn.token)
        if on:
            muted.add(author)
        else:
            muted.discard(author)
        return {"type": "muted", "author": author, "on": on}

    def report(self, conn: OnlineConnection, message_id: int) -> dict[str, Any]:
        """Store a report of a message of the connection's room (with its context); return
        the ``reported`` answer."""
        assert conn.token is not None
        room = self._room(conn, write=False)
        message = self.people.chat.get(message_id)
        if message is None or message.room != room:
            raise Rejected("no_message", f"no message {message_id} at this table")
        self.people.chat.report(message, conn.token)
        return {"type": "reported", "message": message_id}

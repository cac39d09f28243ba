"""Table chat over the WebSocket (in-process, SQLite and PostgreSQL): messages reach the room as
text (an XSS payload stays literal), quick phrases, every bad message refused with its code,
the flood limit answered with ``rate_limited``, muting for oneself, reports with context, chat
switched off per table, and bans."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from meldhall.server.chat import FLOOD_BURST, TEXT_MAX
from tests.server.conftest import Peer

WAIT = {"countdown_seconds": 600, "turn_seconds": 600, "claim_seconds": 600}
XSS = '<img src=x onerror="alert(1)"><script>alert(2)</script>'


@pytest.fixture
def room(client: TestClient) -> Iterator[tuple[Peer, Peer]]:
    """Yield two people at one waiting toy table."""
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b = Peer(ws_a), Peer(ws_b)
        a.hello()
        b.hello()
        a.send({"type": "create", "game": "toy", "settings": WAIT, "name": "Ann"})
        table = a.until("table")["table"]["id"]
        b.send({"type": "join", "table": table, "name": "Bo"})
        b.until("table")
        yield a, b


def _chat(peer: Peer) -> dict[str, Any]:
    return peer.until("chat")


def test_messages_reach_the_room_as_text(room: tuple[Peer, Peer]) -> None:
    a, b = room
    a.send({"type": "chat", "text": XSS})
    got = _chat(b)
    assert got["text"] == XSS and got["name"] == "Ann" and got["you"] is False
    assert _chat(a)["you"] is True
    b.send({"type": "chat", "quick": "well_played"})
    assert _chat(a)["quick"] == "well_played" and a.received[-1]["text"] == ""
    a.send({"type": "chat_open"})
    history = a.until("chat_history")["messages"]
    assert [m["text"] for m in history] == [XSS, ""]
    assert "session" not in history[0] and "address" not in history[0]


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "chat", "text": "   "}, "empty"),
        ({"type": "chat", "text": "x" * (TEXT_MAX + 1)}, "too_long"),
        ({"type": "chat", "quick": "insult"}, "bad_message"),
        ({"type": "chat"}, "bad_message"),
        ({"type": "chat", "text": "a", "quick": "thanks"}, "bad_message"),
        ({"type": "chat", "text": 5}, "bad_message"),
        ({"type": "report", "message": 999999}, "no_message"),
        ({"type": "mute"}, "bad_message"),
    ],
)
def test_bad_chat_messages_are_refused(
    room: tuple[Peer, Peer], message: dict[str, Any], code: str
) -> None:
    a, _b = room
    a.send(message)
    assert a.until("rejected")["code"] == code
    a.send({"type": "chat_open"})
    assert a.until("chat_history")["messages"] == []


def test_chat_outside_a_table_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "chat", "text": "hello?"})
        assert peer.until("rejected")["code"] == "no_room"


def test_flooding_the_chat_is_answered_rate_limited(room: tuple[Peer, Peer]) -> None:
    a, _b = room
    for i in range(int(FLOOD_BURST)):
        a.send({"type": "chat", "text": f"m{i}"})
        _chat(a)
    a.send({"type": "chat", "text": "one too many"})
    refused = a.until("rejected")
    assert refused["code"] == "rate_limited" and "chat messages" in refused["reason"]


def test_a_muted_person_is_muted_for_the_muter_only(room: tuple[Peer, Peer]) -> None:
    a, b = room
    a.send({"type": "chat", "text": "before"})
    author = _chat(b)["author"]
    _chat(a)
    b.send({"type": "mute", "author": author})
    assert b.until("muted") == {"type": "muted", "author": author, "on": True}
    a.send({"type": "chat", "text": "after"})
    assert _chat(a)["text"] == "after"  # the author still sees it
    b.send({"type": "chat", "text": "can you hear me"})
    assert _chat(b)["text"] == "can you hear me"  # nothing of a's came in between
    assert _chat(a)["text"] == "can you hear me"
    b.send({"type": "chat_open"})
    assert [m["text"] for m in b.until("chat_history")["messages"]] == ["can you hear me"]
    b.send({"type": "mute", "author": author, "on": False})
    b.until("muted")
    a.send({"type": "chat", "text": "back"})
    assert _chat(b)["text"] == "back"


def test_a_report_keeps_the_context_and_bans_stop_chat(
    client: TestClient, room: tuple[Peer, Peer]
) -> None:
    a, b = room
    for text in ("one", "two", "rude"):
        a.send({"type": "chat", "text": text})
        last = _chat(b)
    b.send({"type": "report", "message": last["id"]})
    assert b.until("reported") == {"type": "reported", "message": last["id"]}
    people = client.app.state.people  # type: ignore[attr-defined]
    (report,) = people.chat.reports()
    assert [c["text"] for c in report["context"]] == ["one", "two", "rude"]
    people.chat.ban("address", "testclient")
    a.send({"type": "chat", "text": "still here"})
    assert a.until("rejected")["code"] == "banned"


def test_chat_can_be_switched_off_per_table(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "create", "game": "toy", "settings": {**WAIT, "chat": False}})
        peer.until("table")
        peer.send({"type": "chat", "text": "hi"})
        assert peer.until("rejected")["code"] == "chat_off"

"""The protocol: hello/resume, start, act, sync, and every rejection leaving everything as it
was (docs/protocol.md)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import Peer, make_client


def _start(peer: Peer, game: str = "toy") -> dict[str, Any]:
    peer.hello()
    peer.send({"type": "start", "game": game, "contribution": "abc"})
    match = peer.until("match")
    assert match["seat"] == 0 and match["game"] == game
    return match


def _sync(peer: Peer) -> dict[str, Any]:
    peer.send({"type": "sync"})
    return peer.until("state")


def test_hello_gives_a_token_and_keeps_it(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        first = peer.hello()
        assert len(first["token"]) > 20 and len(first["next_commitment"]) == 64
        again = peer.hello(first["token"])
        assert again["token"] == first["token"]
        assert again["next_commitment"] == first["next_commitment"]


def test_start_commits_to_the_shown_secret_and_reveals_it(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        welcome = peer.hello()
        peer.send({"type": "start", "game": "toy", "contribution": "mine"})
        match = peer.until("match")
        assert match["commitment"] == welcome["next_commitment"]
        assert match["contributions"] == ["mine"]
        over = _play_to_end(peer)
        secret = bytes.fromhex(over["secret"])
        assert hashlib.sha256(secret).hexdigest() == match["commitment"]
        assert over["outcome"]["scores"]


def _play_to_end(peer: Peer) -> dict[str, Any]:
    while True:
        message = peer.recv()
        if message["type"] == "match_over":
            return message
        if message["type"] != "state":
            continue
        if message["legal"]:
            action = message["legal"][0]["json"]
            peer.send({"type": "act", "state_id": message["state_id"], "action": action})
        elif message["paused"]:
            peer.send({"type": "continue"})


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{not json", "bad_json"),
        ('{"type": "fly"}', "unknown_type"),
        ("[1, 2]", "bad_message"),
        ('{"type": "act", "state_id": -1, "action": {}}', "bad_message"),
        ('{"type": "act", "action": {}}', "bad_message"),
        ('{"type": "sync", "extra": 1}', "bad_message"),
        ('{"type": "start", "game": 7}', "bad_message"),
    ],
)
def test_malformed_messages_are_rejected_and_change_nothing(
    client: TestClient, raw: str, code: str
) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        _start(peer)
        before = _sync(peer)
        peer.send(raw)
        rejected = peer.until("rejected")
        assert rejected["code"] == code and rejected["reason"]
        after = _sync(peer)
        assert after["state_id"] == before["state_id"]
        assert after["observation"] == before["observation"]


def test_illegal_action_is_rejected_with_the_engine_code(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        _start(peer)
        state = peer.my_turn()
        mine = set(state["observation"]["hand"])
        other = next(f"c{n}{c}" for n in range(1, 9) for c in "ab" if f"c{n}{c}" not in mine)
        peer.send(
            {
                "type": "act",
                "state_id": state["state_id"],
                "action": {"type": "play", "card": other},
            }
        )
        rejected = peer.until("rejected")
        assert rejected["code"] == "illegal_action"
        assert rejected["engine_code"] == "TILE_NOT_IN_HAND"
        peer.send({"type": "act", "state_id": state["state_id"], "action": {"type": "fly"}})
        assert peer.until("rejected")["engine_code"] == "PARSE_ERROR"
        after = _sync(peer)
        assert after["state_id"] == state["state_id"]
        assert after["observation"] == state["observation"]


def test_stale_state_id_is_rejected(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        _start(peer)
        state = peer.my_turn()
        action = state["legal"][0]["json"]
        peer.send({"type": "act", "state_id": state["state_id"] + 5, "action": action})
        assert peer.until("rejected")["code"] == "stale_state"
        assert _sync(peer)["state_id"] == state["state_id"]


def test_not_your_seat_and_not_your_turn(tmp_path: Path, toy_registered: None) -> None:
    with make_client(tmp_path, bot_delay=60) as client, client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        _start(peer)
        state = peer.my_turn()
        action = state["legal"][0]["json"]
        peer.send({"type": "act", "state_id": state["state_id"], "action": action, "seat": 1})
        assert peer.until("rejected")["code"] == "not_your_seat"
        peer.send({"type": "act", "state_id": state["state_id"], "action": action})
        moved = peer.until("state", state_id=state["state_id"] + 1)
        assert moved["to_act"] == [1] and moved["legal"] == []
        peer.send({"type": "act", "state_id": moved["state_id"], "action": action})
        assert peer.until("rejected")["code"] == "not_your_turn"
        assert _sync(peer)["state_id"] == moved["state_id"]


def test_acting_before_hello_or_without_a_match(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.send({"type": "sync"})
        assert peer.until("rejected")["code"] == "no_session"
        peer.hello()
        peer.send({"type": "act", "state_id": 0, "action": {}})
        assert peer.until("rejected")["code"] == "no_match"
        peer.send({"type": "start", "game": "chess"})
        assert peer.until("rejected")["code"] == "unknown_game"
        peer.send({"type": "resume", "match": "nope"})
        assert peer.until("rejected")["code"] == "no_match"


def test_another_session_cannot_resume_my_match(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        match = _start(Peer(ws))
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "resume", "match": match["match"]})
        assert peer.until("rejected")["code"] == "not_your_seat"


def test_events_are_sent_with_states(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        _start(peer)
        state = peer.my_turn()
        card = state["legal"][0]["json"]["card"]
        peer.send(
            {"type": "act", "state_id": state["state_id"], "action": state["legal"][0]["json"]}
        )
        moved = peer.until("state", state_id=state["state_id"] + 1)
        kinds = [e["kind"] for e in moved["events"]]
        assert kinds[0] == "play" and moved["events"][0]["card"] == card
        draw = moved["events"][1]
        assert draw["kind"] == "draw" and draw["card"] in moved["observation"]["hand"]


def test_a_hand_end_pauses_the_bots_until_continue(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        _start(peer)
        while True:
            message = peer.recv()
            if message["type"] == "state" and message["paused"]:
                break
            if message["type"] == "state" and message["legal"]:
                peer.send(
                    {
                        "type": "act",
                        "state_id": message["state_id"],
                        "action": message["legal"][0]["json"],
                    }
                )
        assert message["last_hand"]["kind"] == "hand_over"
        paused_at = message["state_id"]
        if message["legal"]:
            return  # the person starts the next hand: nothing waits
        assert _sync(peer)["state_id"] == paused_at
        peer.send({"type": "continue"})
        resumed = peer.until("state", paused=False)
        assert resumed["state_id"] >= paused_at

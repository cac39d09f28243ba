"""Every accepted action is stored before it is broadcast; a restart resumes exactly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import Peer, make_client, store_of


def _act(peer: Peer, state: dict[str, Any]) -> None:
    action = state["legal"][-1]["json"]
    peer.send({"type": "act", "state_id": state["state_id"], "action": action})


def test_a_restarted_server_resumes_the_same_position(
    tmp_path: Path, toy_registered: None, database_url: str
) -> None:
    with make_client(tmp_path) as client, client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        token = peer.hello()["token"]
        peer.send({"type": "start", "game": "toy"})
        match_id = peer.until("match")["match"]
        for _ in range(3):
            state = peer.my_turn()
            _act(peer, state)
        before = peer.my_turn()  # the bots wait for the person: the position is still
    stored = store_of(tmp_path).load_match(match_id)
    assert stored is not None and len(stored.log) == before["state_id"]
    with make_client(tmp_path) as client, client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        welcome = peer.hello(token)
        assert welcome["playing"] == {"toy": match_id}
        peer.send({"type": "resume", "match": match_id})
        after = peer.until("state")
        assert after["state_id"] == before["state_id"]
        assert after["observation"] == before["observation"]
        assert after["legal"] == before["legal"]


def test_each_broadcast_state_is_already_in_the_log(
    tmp_path: Path, toy_registered: None, database_url: str
) -> None:
    store = store_of(tmp_path)
    with make_client(tmp_path) as client, client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "start", "game": "toy"})
        match_id = peer.until("match")["match"]
        for _ in range(4):
            state = peer.my_turn()
            stored = store.load_match(match_id)
            assert stored is not None and len(stored.log) >= state["state_id"]
            _act(peer, state)


def test_starting_again_abandons_the_unfinished_match(
    tmp_path: Path, toy_registered: None, database_url: str
) -> None:
    with make_client(tmp_path) as client, client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "start", "game": "toy"})
        first = peer.until("match")["match"]
        peer.send({"type": "start", "game": "toy"})
        second = peer.until("match")["match"]
    store = store_of(tmp_path)
    old, new = store.load_match(first), store.load_match(second)
    assert old is not None and old.status == "abandoned"
    assert new is not None and new.status == "playing"

"""Hints: the strong bot's move for the asker's own seat, from its observation alone; nobody
else's seat, no hint off turn, a clear refusal for every bad request."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from meldhall.server.lobby import TOKEN_HEADER
from meldhall.tables.clock import table_settings
from tests.server.conftest import Peer

JSON_TYPE = {"content-type": "application/json"}


def test_a_hint_is_a_listed_move_of_the_askers_seat(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        token = peer.hello()["token"]
        peer.send({"type": "start", "game": "okey", "contribution": "hint"})
        match_id = peer.until("match")["match"]
        state = peer.my_turn()
        headers = {**JSON_TYPE, TOKEN_HEADER: token}
        answer = client.post("/api/hint", json={"match": match_id}, headers=headers)
        assert answer.status_code == 200, answer.text
        got = answer.json()
        assert got["state_id"] == state["state_id"]
        assert got["action"] in [a["json"] for a in state["legal"]]
        assert got["text"] in [a["text"] for a in state["legal"]]
        stranger = {**JSON_TYPE, TOKEN_HEADER: "not-a-session"}
        assert (
            client.post("/api/hint", json={"match": match_id}, headers=stranger).status_code == 403
        )
        assert client.post("/api/hint", json={"match": "nope"}, headers=headers).status_code == 404
        assert client.post("/api/hint", json={"game": 1}, headers=headers).status_code == 400


def test_the_hints_table_option_is_on_or_off() -> None:
    assert table_settings(None)["hints"] is True
    assert table_settings({"hints": False})["hints"] is False
    with pytest.raises(ValueError, match="'hints' must be true or false"):
        table_settings({"hints": 1})

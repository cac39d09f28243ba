"""Replays over HTTP: frames equal the engine's observations, seats are open only after the
match, a match in play is shown to spectators only, and the match file verifies (a changed one
names its first differing action)."""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import replace

from starlette.testclient import TestClient

from meldhall.core.matchfile import from_json, steps
from meldhall.core.replay import log_from_json
from meldhall.server.games import available_games
from meldhall.server.replays import file_of, visible_actions
from meldhall.store.repository import MatchData
from tests.server.conftest import Peer
from tests.server.test_api import _finish_a_match

JSON_TYPE = {"content-type": "application/json"}


def test_frames_are_the_engines_observations(client: TestClient) -> None:
    _token, match_id, over = _finish_a_match(client)
    file_json = client.get(f"/api/matches/{match_id}/file").json()
    assert "session" not in json.dumps(file_json["players"])
    file, game = from_json(file_json, available_games())
    expected = [step.state.observation(1) for step in steps(file, game)]
    got = client.get(f"/api/replay/{match_id}", params={"seat": 1, "count": 200}).json()
    assert got["steps"] == len(expected) and got["viewer"] == 1
    assert got["hands"][0] == 0 and len(got["hands"]) >= 2
    frames = got["frames"]
    assert [f["step"] for f in frames] == list(range(len(expected) + 1))
    assert [f["observation"] for f in frames[1:]] == expected
    assert frames[-1]["observation"]["over"] is True
    assert sum(1 for f in frames if f["hand_over"]) == len(got["hands"]) - 1
    later = client.get(f"/api/replay/{match_id}", params={"seat": 0, "start": 3, "count": 2})
    assert [f["step"] for f in later.json()["frames"]] == [3, 4]
    assert over["outcome"] == file_json["outcome"]


def test_bad_replay_requests_are_refused_with_reasons(client: TestClient) -> None:
    _token, match_id, _over = _finish_a_match(client)
    for params, status in (({"seat": 7}, 400), ({"start": -1}, 400), ({"count": "x"}, 400)):
        answer = client.get(f"/api/replay/{match_id}", params=params)
        assert answer.status_code == status, params
    assert client.get("/api/replay/no-such-match").status_code == 404
    assert client.get("/api/matches/no-such-match/file").status_code == 404


def test_a_match_in_play_is_replayed_for_spectators_only(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "start", "game": "toy"})
        match_id = peer.until("match")["match"]
        state = peer.my_turn()
        peer.send(
            {"type": "act", "state_id": state["state_id"], "action": state["legal"][0]["json"]}
        )
        peer.until("state", state_id=state["state_id"] + 1)
    assert client.get(f"/api/replay/{match_id}", params={"seat": 0}).status_code == 403
    assert client.get(f"/api/matches/{match_id}/file").status_code == 409
    watched = client.get(f"/api/replay/{match_id}").json()
    data = client.app.state.store.load_match(match_id)  # type: ignore[attr-defined]
    assert watched["viewer"] is None and watched["steps"] == len(data.log) >= 1
    file = replace(
        file_of(data), log=log_from_json(available_games()["toy"], [list(e) for e in data.log])
    )
    spectator = [s.state.observation(None) for s in steps(file, available_games()["toy"])]
    assert [f["observation"] for f in watched["frames"][1:]] == spectator


def test_the_match_file_verifies_and_a_changed_one_names_its_action(client: TestClient) -> None:
    _token, match_id, _over = _finish_a_match(client)
    file_json = client.get(f"/api/matches/{match_id}/file").json()
    verdict = client.post(
        "/api/verify-file", content=json.dumps(file_json), headers=JSON_TYPE
    ).json()
    assert verdict["ok"] is True, verdict
    file_json["checks"][2] = "0" * 12
    verdict = client.post(
        "/api/verify-file", content=json.dumps(file_json), headers=JSON_TYPE
    ).json()
    assert (verdict["ok"], verdict["action_index"]) == (False, 2)
    assert "action 2 " in verdict["problem"]
    broken = client.post("/api/verify-file", content=b"{not json", headers=JSON_TYPE).json()
    assert broken["ok"] is False and broken["problem"]
    assert client.get("/verify").status_code == 200
    assert client.get(f"/replay/{match_id}").status_code == 200


def _finish_okey_cards(client: TestClient) -> str:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "start", "game": "okey-cards", "contribution": "review"})
        match_id: str = peer.until("match")["match"]
        while True:
            message = peer.recv()
            if message["type"] == "match_over":
                return match_id
            if message["type"] == "state" and message["legal"]:
                action = message["legal"][-1]["json"]
                peer.send({"type": "act", "state_id": message["state_id"], "action": action})
            elif message["type"] == "state" and message["paused"]:
                peer.send({"type": "continue"})


def test_a_review_runs_in_the_background_and_is_stored(client: TestClient) -> None:
    match_id = _finish_okey_cards(client)
    url = f"/api/review/{match_id}"
    assert client.get(url, params={"seat": 0}).json()["state"] == "none"
    assert client.post(url, json={"seat": 5}).status_code == 400
    started = client.post(url, json={"seat": 0}).json()
    assert started["state"] in ("running", "done")
    deadline = time.monotonic() + 120
    status = started
    while status["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.2)
        status = client.get(url, params={"seat": 0}).json()
    assert status["state"] == "done", status
    assert status["review"]["seat"] == 0 and status["review"]["decisions"]
    again = client.post(url, json={"seat": 0}).json()
    assert again["state"] == "done" and again["review"] == status["review"]


def test_a_match_in_play_is_shown_the_spectator_delay_behind() -> None:
    data = MatchData("m", "o", "toy", {}, 2, [], "00", "", [], "playing", log=[(0, {})] * 5)
    assert visible_actions(data, 2) == 3
    assert visible_actions(data, 9) == 0
    assert visible_actions(dataclasses.replace(data, status="over"), 9) == 5

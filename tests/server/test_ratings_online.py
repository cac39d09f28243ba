"""Ratings from real online matches (the toy game, in-process): two accounts play a whole match,
both get a rating (the winner's higher), the seat panels and the lobby show ratings, the
leaderboard and the profile list them with the history and its SVG plot; a guest who takes an
account's name is marked; every bad leaderboard or profile request is a 404."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from meldhall.server.lobby import COOKIE
from tests.server.conftest import Peer
from tests.server.conftest import browser as _browser

QUICK = {
    "countdown_seconds": 0.05,
    "turn_seconds": 600,
    "claim_seconds": 600,
    "hand_pause_seconds": 0.05,
}
PASSWORD = "a long enough password"


def _account(c: TestClient, name: str) -> str:
    c.post("/api/guest", json={"name": name})
    assert (
        c.post("/api/account/claim", json={"name": name, "password": PASSWORD}).status_code == 200
    )
    return str(c.cookies[COOKIE])


def _next(peer: Peer) -> dict[str, Any]:
    while True:
        message = peer.recv()
        if message["type"] in ("state", "match_over"):
            return message


def _play_out(a: Peer, b: Peer) -> dict[str, Any]:
    """Play the first legal action whenever a seat may act; return the match_over message."""
    states = [_next(a), _next(b)]
    while True:
        over = [m for m in states if m["type"] == "match_over"]
        if over:
            return over[0]
        movers = [(p, m) for p, m in zip((a, b), states, strict=True) if m["legal"]]
        if not movers:
            states = [_next(a), _next(b)]
            continue
        peer, state = movers[0]
        peer.send(
            {"type": "act", "state_id": state["state_id"], "action": state["legal"][0]["json"]}
        )
        states = [_next(a), _next(b)]


def test_two_accounts_get_ratings_from_a_finished_online_match(client: TestClient) -> None:
    token_a = _account(client, "Ayla")
    with _browser(client) as other:
        token_b = _account(other, "Burak")
        with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
            a, b = Peer(ws_a), Peer(ws_b)
            a.hello(token_a)
            b.hello(token_b)
            a.send({"type": "create", "game": "toy", "settings": QUICK, "name": "anything"})
            table = a.until("table")["table"]
            assert table["people"] == ["Ayla"] and table["ratings"] == [
                {"rating": 1000, "provisional": True}
            ]
            b.send({"type": "join", "table": table["id"], "name": "Ayla"})
            match = a.until("match")
            assert [p.get("name") for p in match["players"]] == ["Ayla", "Burak"]
            assert all(p["rating"]["provisional"] for p in match["players"])
            over = _play_out(a, b)
        ranks = over["outcome"]["ranks"]
        board = client.get("/api/leaderboard/toy").json()
        assert [r["name"] for r in board["top"]] == (
            ["Burak", "Ayla"] if ranks[1] < ranks[0] else ["Ayla", "Burak"]  # a draw: by name
        )
        if ranks[0] != ranks[1]:
            assert board["top"][0]["rating"] > board["top"][1]["rating"]
        assert all(r["matches"] == 1 and r["provisional"] for r in board["top"])
        mine = board["you"]
        assert mine is not None and mine["name"] == "Ayla" and mine["place"] in (1, 2)
        assert other.get("/api/leaderboard/toy").json()["you"]["name"] == "Burak"
    profile = client.get("/api/players/ayla").json()
    (toy,) = profile["games"]
    assert toy["game"] == "toy" and toy["matches"] == 1 and len(toy["history"]) == 1
    assert toy["history"][0]["match"] == over["match"]
    assert profile["recent"][0]["match"] == over["match"]
    svg = client.get("/api/players/Ayla/plot/toy.svg")
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert "<polyline" in svg.text and "Ayla" in svg.text
    assert client.get("/players/Ayla").status_code == 200
    assert client.get("/leaderboard").status_code == 200


def test_a_guest_with_an_account_name_is_marked(client: TestClient) -> None:
    _account(client, "Zeynep")
    with _browser(client) as guest, guest.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "create", "game": "toy", "settings": QUICK, "name": "zeynep"})
        table = peer.until("table")["table"]
        assert table["people"] == ["zeynep?"] and table["ratings"] == [None]


def test_bad_leaderboard_and_profile_requests_are_404(client: TestClient) -> None:
    assert client.get("/api/leaderboard/nogame").status_code == 404
    assert client.get("/api/leaderboard/toy").json() == {"game": "toy", "top": [], "you": None}
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/api/players/x").status_code == 404  # not even a name
    assert client.get("/players/nobody").status_code == 404
    _account(client, "Deniz")
    assert client.get("/api/players/Deniz/plot/nogame.svg").status_code == 404
    empty = client.get("/api/players/Deniz/plot/toy.svg").text
    assert "<svg" in empty and "<polyline" not in empty
    assert client.get("/api/players/Deniz").json() == {"name": "Deniz", "games": [], "recent": []}

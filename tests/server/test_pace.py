"""The computers' speed of a solo match (docs/protocol.md, Pace): set by ``pace`` once a
match is running; a wrong speed or no match is refused and changes nothing."""

from __future__ import annotations

from starlette.testclient import TestClient

from meldhall.tables.table import PACES
from tests.server.conftest import Peer


def test_a_solo_player_sets_the_computers_speed(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "pace", "pace": "fast"})
        assert peer.until("rejected")["code"] == "no_match"
        peer.send({"type": "start", "game": "toy", "contribution": "abc"})
        peer.until("match")
        for pace in PACES:
            peer.send({"type": "pace", "pace": pace})
        peer.send({"type": "pace", "pace": "warp"})
        refused = peer.until("rejected")
        assert refused["code"] == "bad_message" and "pace" in refused["reason"]
        peer.send({"type": "sync"})
        peer.until("state")
        assert [m["code"] for m in peer.received if m["type"] == "rejected"] == [
            "no_match",
            "bad_message",
        ]


def test_the_speeds_scale_the_pause_before_a_computer_move() -> None:
    assert PACES["slow"] > PACES["normal"] == 1.0 > PACES["fast"] > 0

"""Levels at tables: a solo match seats computers at the level the person chose (hard by
default), every seat tells its level, a bad level is refused and changes nothing; an online
table's option ``bots`` names the level of the computers that fill its seats."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from meldhall.bots.levels import EasyBot
from meldhall.bots.remi import GreedyRemiBot
from meldhall.bots.remi_strong import StrongRemiBot
from meldhall.tables.clock import table_settings
from tests.server.conftest import Peer


@pytest.mark.parametrize(
    ("level", "bot", "kind"),
    [
        ("easy", "easy", EasyBot),
        ("normal", "greedy", GreedyRemiBot),
        ("hard", "strong", StrongRemiBot),
    ],
)
def test_a_solo_match_seats_computers_at_the_chosen_level(
    client: TestClient, level: str, bot: str, kind: type
) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "start", "game": "remi", "level": level})
        match = peer.until("match")
        computers = [p for p in match["players"] if p["kind"] == "bot"]
        assert len(computers) == 3
        assert all(p == {"kind": "bot", "bot": bot, "level": level} for p in computers)
        table = client.app.state.manager.tables[match["match"]]  # type: ignore[attr-defined]
        assert all(type(b) is kind for b in table.bots.values())


def test_a_solo_match_is_hard_unless_told(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "start", "game": "remi"})
        players = peer.until("match")["players"]
        assert {p.get("level") for p in players if p["kind"] == "bot"} == {"hard"}


def test_an_unknown_level_is_refused_and_changes_nothing(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "start", "game": "remi", "level": "normal"})
        first = peer.until("match")["match"]
        peer.send({"type": "start", "game": "remi", "level": "expert"})
        refusal = peer.until("rejected")
        assert refusal["code"] == "bad_options" and "no level 'expert'" in refusal["reason"]
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert manager.store.load_match(first).status != "abandoned"


def test_the_online_level_option() -> None:
    assert table_settings(None)["bots"] == "hard"
    assert table_settings({"bots": "easy"})["bots"] == "easy"
    with pytest.raises(ValueError, match="'bots' takes one of easy, normal, hard"):
        table_settings({"bots": "expert"})

"""Appraise (docs/protocol.md): what an action would do, asked before making it. Remi weighs
an opening against its need with the engine's own count; nothing at the table changes, an
action type the game does not declare is refused, and a stale state id too."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from meldhall.games.registry import find_game
from meldhall.games.remi.actions import Open
from meldhall.games.remi.pieces import TOKEN as CARDS
from tests.server.conftest import Peer

LOW_OPENING = ["2S#1", "3S#1", "4S#1"]
SEED = b"\x02" * 32


def _options() -> dict[str, Any]:
    """Seat 0 plays first and holds 2 3 4 of spades (a run worth 9, below the 30 needed)."""
    rest = [c for c in reversed(CARDS) if c not in LOW_OPENING and not c.startswith("JK")]
    want = {0: LOW_OPENING[0], 4: LOW_OPENING[1], 8: LOW_OPENING[2]}
    return {"deck": [want[i] if i in want else rest.pop(0) for i in range(9)], "first_dealer": 3}


def test_remi_weighs_an_opening_with_the_engines_numbers_and_changes_nothing() -> None:
    game = find_game("remi")
    state = game.new_state(game.options(_options()), 4, SEED)
    state.apply(0, game.action_from_json({"type": "draw_stock"}))
    before = state.snapshot()
    low = game.action_from_json({"type": "open", "melds": [{"cards": LOW_OPENING}]})
    verdict = game.appraise(state, 0, low)
    assert verdict["ok"] is False and verdict["code"] == "OPENING_TOO_LOW"
    assert verdict["details"] == {"value": 9, "need": 30}
    assert "9 < 30" in verdict["reason"]
    openings = [a for a in state.legal_actions(0) if isinstance(a, Open)]
    for opening in openings[:5]:
        verdict = game.appraise(state, 0, opening)
        assert verdict["ok"] is True
        (opened,) = [e for e in verdict["events"] if e["kind"] == "open"]
        assert opened["value"] >= 30
    assert state.snapshot() == before
    assert "draw_stock" not in game.appraisable and "open" in game.appraisable


def test_appraise_over_the_protocol(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "start", "game": "remi", "contribution": "x", "options": _options()})
        state = peer.my_turn()
        peer.send({"type": "act", "state_id": state["state_id"], "action": {"type": "draw_stock"}})
        state = peer.my_turn()
        sid = state["state_id"]
        low = {"type": "open", "melds": [{"cards": LOW_OPENING}]}
        peer.send({"type": "appraise", "state_id": sid, "action": low})
        answer = peer.until("appraisal")
        assert answer["ok"] is False and answer["state_id"] == sid
        assert answer["code"] == "OPENING_TOO_LOW"
        assert answer["details"] == {"value": 9, "need": 30}
        peer.send({"type": "appraise", "state_id": sid, "action": {"type": "draw_stock"}})
        assert peer.until("rejected")["code"] == "not_appraisable"
        peer.send({"type": "appraise", "state_id": sid + 5, "action": low})
        assert peer.until("rejected")["code"] == "stale_state"
        peer.send({"type": "appraise", "state_id": sid, "action": {"type": "open"}})
        assert peer.until("rejected")["code"] == "illegal_action"
        peer.send({"type": "sync"})
        again = peer.until("state")
        assert again["state_id"] == sid and again["observation"] == state["observation"]

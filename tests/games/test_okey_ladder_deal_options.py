"""Ladder Okey's deal options (okey-ladder.md 16, okey.md 4.2): ``first_player`` seats the
first player of round 1, ``wall`` puts its tiles first in an explicit deal's centre stack.
Each test fails when its option is ignored (the default used instead)."""

from __future__ import annotations

from meldhall.core.engine import Event
from meldhall.core.rng import seed_from_text
from meldhall.games.okey_ladder import GAME
from meldhall.games.okey_ladder.deal import first_player
from meldhall.games.okey_ladder.state import LadderState

HANDS = [
    "R1 R2 R3 Y1 Y2 Y3 K2 K3 K4 B1 B2 B3 B4 B5 K9",
    "R5 R6 R7 R8 Y5 Y6 Y7 Y8 B7 B8 B9 B10 K11 K12",
    "R11 R12 R13 Y11 Y12 Y13 B11 B12 B13 K5 K6 K7 K8 Y9",
    "R4 Y4 B6 K1 R1 R2 R3 Y1 Y2 Y3 K13 K10 B6 Y10",
]
"""An explicit deal: seat 0 holds the first player's 15 tiles."""


def _act(state: LadderState, seat: int, text: str) -> list[Event]:
    action = GAME.parse_action(text)
    assert action in state.legal_actions(seat), f"{text} is not listed"
    events = list(state.apply(seat, action))
    state.check_invariants()
    return events


def _drawn(events: list[Event]) -> str:
    """Return the tile a draw event shows its drawer."""
    draw = next(e for e in events if e.kind == "draw")
    tile: str = draw.for_viewer(draw.seat)["tile"]
    return tile


def test_first_player_seats_the_first_player_of_the_first_round() -> None:
    checked = 0
    for k in range(4):
        for n in range(12):
            seed = seed_from_text(f"first {k} {n}")
            if first_player(seed) == k:
                continue
            state = GAME.new_state(GAME.options({"first_player": k}), 4, seed)
            assert state.first == k and state.to_act() == {k}
            assert state.observation(None)["hand_counts"] == [
                15 if s == k else 14 for s in range(4)
            ]
            checked += 1
    assert checked >= 30


def test_first_player_of_an_explicit_deal_holds_the_fifteenth_tile() -> None:
    hands = HANDS[2:] + HANDS[:2]  # seat 2 holds the 15 tiles
    options = {"deal": "explicit", "indicator": "R9", "hands": hands, "first_player": 2}
    state = GAME.new_state(GAME.options(options), 4, seed_from_text("explicit first"))
    assert state.to_act() == {2} and state.first == 2
    events = _act(state, 2, "discard K9a")
    assert state.to_act() == {3} and not any(e.kind == "draw" for e in events)


def test_wall_puts_its_tiles_first_in_the_centre_stack() -> None:
    options = {"deal": "explicit", "indicator": "R9", "hands": HANDS, "wall": "B13 Y6 K13"}
    state = GAME.new_state(GAME.options(options), 4, seed_from_text("wall"))
    assert state.observation(None)["centre"] == 106 - 1 - 57
    _act(state, 0, "discard K9a")
    assert _drawn(_act(state, 1, "draw")) == "B13b"
    _act(state, 1, "discard K12a")
    assert _drawn(_act(state, 2, "draw")) == "Y6b"
    _act(state, 2, "discard Y9a")
    assert _drawn(_act(state, 3, "draw")) == "K13b"


def test_without_a_wall_the_unlisted_tiles_follow_in_id_order() -> None:
    options = {"deal": "explicit", "indicator": "R9", "hands": HANDS}
    state = GAME.new_state(GAME.options(options), 4, seed_from_text("wall"))
    _act(state, 0, "discard K9a")
    first = _drawn(_act(state, 1, "draw"))
    assert first not in ("B13b", "Y6b", "K13b")

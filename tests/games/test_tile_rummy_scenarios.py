"""The scenario vectors T15-T33 of rules/tile-rummy.md (VECTORS.md 6), each built from an
explicit position and played through the engine protocol. Seats 0, 1, 2 are A, B, C."""

from __future__ import annotations

import pytest

from meldhall.core.engine import Action
from meldhall.core.errors import IllegalAction
from meldhall.games.tile_rummy.actions import (
    DRAW,
    END_ROUND,
    Add,
    Discard,
    Meld,
    Rearrange,
    TakeDiscard,
)
from meldhall.games.tile_rummy.pieces import parse_tile
from meldhall.games.tile_rummy.position import build_position
from meldhall.games.tile_rummy.state import TileRummyState


def ids(text: str) -> tuple[int, ...]:
    return tuple(parse_tile(t) for t in text.split())


def tile(text: str) -> int:
    return parse_tile(text)


def meld_of(state: TileRummyState, meld_id: int) -> dict[str, object]:
    return next(m for m in state.observation(None)["melds"] if m["id"] == meld_id)


def rejected(state: TileRummyState, seat: int, action: Action, code: str) -> None:
    """Assert that the action is not listed, is rejected with ``code`` and changes nothing."""
    before = state.snapshot()
    assert action not in state.legal_actions(seat)
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert info.value.code == code
    assert state.snapshot() == before


def test_tile_rummy_T15_feed_low_end_scores_for_owner() -> None:
    state = build_position(racks=["K1a K2a", "R4a Y9a"], melds=[(0, "run", "R5a R6a R7a")], turn=1)
    add = Add(tile("R4a"), 1, "low")
    assert add in state.legal_actions(1)
    events = state.apply(1, add)
    assert [e.kind for e in events] == ["add"]
    assert events[0].public["feed"] is True
    meld = meld_of(state, 1)
    assert meld["owner"] == 0 and meld["tiles"] == ["R4a", "R5a", "R6a", "R7a"]
    obs = state.observation(1)
    assert obs["table_points"] == [4 + 5 + 6 + 7, 0]
    assert obs["hand"] == ["Y9a"] and obs["turn"] == 1 and obs["phase"] == "play"


def test_tile_rummy_T16_one_tile_after_the_13_then_nothing() -> None:
    state = build_position(
        racks=["K1a K2a", "R1a Y9a Y8a", "R2a B4a"], melds=[(0, "run", "R11a R12a R13a")], turn=1
    )
    state.apply(1, Add(tile("R1a"), 1, "high"))
    assert meld_of(state, 1)["tiles"] == ["R11a", "R12a", "R13a", "R1a"]
    state.apply(1, Discard(tile("Y9a")))
    state.apply(2, DRAW)
    rejected(state, 2, Add(tile("R2a"), 1, "high"), "DOES_NOT_FIT")
    assert not [a for a in state.legal_actions(2) if isinstance(a, Add) and a.meld == 1]


def test_tile_rummy_T17_no_12_before_13_1_2() -> None:
    state = build_position(
        racks=["K1a K2a", "R12a Y9a"], melds=[(0, "run", "R13a R1a R2a")], turn=1
    )
    rejected(state, 1, Add(tile("R12a"), 1, "low"), "DOES_NOT_FIT")
    assert not [a for a in state.legal_actions(1) if isinstance(a, Add)]


def test_tile_rummy_T18_13_before_1() -> None:
    state = build_position(racks=["K1a K2a", "R13a Y9a"], melds=[(0, "run", "R1a R2a R3a")], turn=1)
    add = Add(tile("R13a"), 1, "low")
    assert add in state.legal_actions(1)
    state.apply(1, add)
    meld = meld_of(state, 1)
    assert meld["tiles"] == ["R13a", "R1a", "R2a", "R3a"] and meld["start"] == 0


def test_tile_rummy_T19_no_stealing_the_smiley() -> None:
    state = build_position(
        racks=["K1a K2a", "R5b R3a R7a Y9a"], melds=[(0, "run", "R4a Sa R6a")], turn=1
    )
    assert meld_of(state, 1)["jokers"] == ["R5"]
    adds = {(a.tile, a.end) for a in state.legal_actions(1) if isinstance(a, Add) and a.meld == 1}
    assert adds == {(tile("R3a"), "low"), (tile("R7a"), "high")}
    rejected(state, 1, Add(tile("R5b"), 1, "low"), "DOES_NOT_FIT")
    rejected(state, 1, Add(tile("R5b"), 1, "high"), "DOES_NOT_FIT")
    swap = Rearrange((1,), (Meld("run", ids("R4a R5b R6a")),))
    rejected(state, 1, swap, "NOT_YOUR_MELD")
    assert not [a for a in state.legal_actions(1) if isinstance(a, Rearrange)]
    assert meld_of(state, 1)["tiles"] == ["R4a", "Sa", "R6a"]


def test_tile_rummy_T20_smiley_takes_the_last_colour_of_a_set() -> None:
    state = build_position(
        racks=["K1a K2a", "Y5a Y9a Y8a", "B5a B4a"], melds=[(0, "set", "R5a K5a Sa")], turn=1
    )
    assert meld_of(state, 1)["jokers"] == ["?5"]
    state.apply(1, Add(tile("Y5a"), 1))
    meld = meld_of(state, 1)
    assert meld["tiles"] == ["R5a", "K5a", "Sa", "Y5a"] and meld["jokers"] == ["B5"]
    state.apply(1, Discard(tile("Y9a")))
    state.apply(2, DRAW)
    rejected(state, 2, Add(tile("B5a"), 1), "DOES_NOT_FIT")


def test_tile_rummy_T21_split_a_run_without_rack_tiles() -> None:
    state = build_position(
        racks=["K1a K2a", "Y9a"], melds=[(0, "run", "R1a R2a R3a R4a R5a R6a R7a")]
    )
    split = Rearrange((1,), (Meld("run", ids("R1a R2a R3a")), Meld("run", ids("R4a R5a R6a R7a"))))
    events = state.apply(0, split)
    assert [e.kind for e in events] == ["rearrange"]
    obs = state.observation(0)
    assert [(m["owner"], m["tiles"]) for m in obs["melds"]] == [
        (0, ["R1a", "R2a", "R3a"]),
        (0, ["R4a", "R5a", "R6a", "R7a"]),
    ]
    assert obs["hand"] == ["K1a", "K2a"] and obs["phase"] == "play"
    assert 1 not in {m["id"] for m in obs["melds"]}


def test_tile_rummy_T22_table_tiles_never_return_to_the_rack() -> None:
    state = build_position(
        racks=["K1a K2a", "Y9a"], melds=[(0, "run", "R1a R2a R3a R4a R5a R6a R7a")]
    )
    shorter = Rearrange((1,), (Meld("run", ids("R3a R4a R5a R6a R7a")),))
    rejected(state, 0, shorter, "TABLE_TILE_TO_RACK")


def test_tile_rummy_T23_leftover_fed_to_another_player() -> None:
    state = build_position(
        racks=["K2a K3a", "Y9a"],
        melds=[(0, "run", "R1a R2a R3a R4a R5a R6a R7a"), (1, "set", "K1a Y1a B1a")],
    )
    feed = Rearrange(
        (1,), (Meld("run", ids("R2a R3a R4a R5a R6a R7a")),), (Add(tile("R1a"), 2, None),)
    )
    state.apply(0, feed)
    obs = state.observation(0)
    assert meld_of(state, 2)["tiles"] == ["K1a", "Y1a", "B1a", "R1a"]
    assert obs["table_points"] == [2 + 3 + 4 + 5 + 6 + 7, 4]
    assert obs["hand"] == ["K2a", "K3a"]


def test_tile_rummy_T24_a_set_tile_joins_a_new_run() -> None:
    state = build_position(racks=["R6a R7a K9a", "Y9a"], melds=[(0, "set", "R5a K5a Y5a B5a")])
    move = Rearrange((1,), (Meld("set", ids("K5a Y5a B5a")), Meld("run", ids("R5a R6a R7a"))))
    state.apply(0, move)
    obs = state.observation(0)
    assert sorted(tuple(m["tiles"]) for m in obs["melds"]) == [
        ("K5a", "Y5a", "B5a"),
        ("R5a", "R6a", "R7a"),
    ]
    assert obs["hand"] == ["K9a"]


def test_tile_rummy_T25_owner_moves_his_smiley() -> None:
    state = build_position(racks=["R5b K9a Y9a B1a", "B9a"], melds=[(0, "run", "R4a Sa R6a")])
    move = Rearrange((1,), (Meld("run", ids("R4a R5b R6a")), Meld("set", ids("K9a Y9a Sa"))))
    state.apply(0, move)
    obs = state.observation(0)
    melds = {tuple(m["tiles"]): m for m in obs["melds"]}
    assert melds[("K9a", "Y9a", "Sa")]["jokers"] == ["?9"]
    assert ("R4a", "R5b", "R6a") in melds
    assert obs["hand"] == ["B1a"] and obs["round"] == 1


def test_tile_rummy_T26_nobody_rearranges_another_players_meld() -> None:
    state = build_position(racks=["K1a K2a", "R7a Y9a"], melds=[(0, "run", "R4a R5a R6a")], turn=1)
    grab = Rearrange((1,), (Meld("run", ids("R4a R5a R6a R7a")),))
    rejected(state, 1, grab, "NOT_YOUR_MELD")


def _pile_position(rack: str) -> TileRummyState:
    return build_position(racks=[rack, "B8a B9a"], pile="Y9a B2a K7a R3a", phase="draw")


def test_tile_rummy_T27_take_from_depth_with_everything_above() -> None:
    state = _pile_position("K5a K6a")
    take = TakeDiscard(3, Meld("run", ids("K5a K6a K7a")))
    assert take in state.legal_actions(0)
    state.apply(0, take)
    obs = state.observation(0)
    assert obs["pile"] == ["Y9a", "B2a"]
    assert obs["hand"] == ["R3a"]
    assert [m["tiles"] for m in obs["melds"]] == [["K5a", "K6a", "K7a"]]
    assert obs["phase"] == "play" and obs["turn"] == 0


def test_tile_rummy_T28_the_taken_tile_must_be_placed() -> None:
    state = _pile_position("K5a K6a R1a R2a")
    rejected(state, 0, TakeDiscard(3, Meld("run", ids("R1a R2a R3a"))), "TARGET_NOT_PLACED")


def test_tile_rummy_T29_take_the_top_to_feed_another_player() -> None:
    state = build_position(
        racks=["K1a Y8a", "B8a B9a", "K4a"],
        melds=[(2, "run", "R4a R5a R6a")],
        pile="Y9a R3a",
        phase="draw",
    )
    take = TakeDiscard(2, Add(tile("R3a"), 1, "low"))
    assert take in state.legal_actions(0)
    state.apply(0, take)
    obs = state.observation(0)
    assert meld_of(state, 1)["tiles"] == ["R3a", "R4a", "R5a", "R6a"]
    assert obs["table_points"] == [0, 0, 3 + 4 + 5 + 6]
    assert obs["pile"] == ["Y9a"] and obs["hand"] == ["Y8a", "K1a"]


def test_tile_rummy_T30_no_take_without_a_use() -> None:
    state = build_position(racks=["R1a K4a B12a", "B8a B9a"], pile="R2a Y9a", phase="draw")
    assert not [a for a in state.legal_actions(0) if isinstance(a, TakeDiscard) and a.index == 2]
    uses: list[tuple[Meld | Add, str]] = [
        (Meld("run", ids("Y9a R1a K4a")), "INVALID_MELD"),
        (Meld("set", ids("Y9a K4a B12a")), "INVALID_MELD"),
        (Add(tile("Y9a"), 1, "low"), "NO_SUCH_MELD"),
        (Meld("run", ids("R1a R2a K4a")), "TARGET_NOT_PLACED"),
    ]
    for use, code in uses:
        rejected(state, 0, TakeDiscard(2, use), code)


def test_tile_rummy_T31_going_out_by_laying_down() -> None:
    state = build_position(racks=["R7a R8a R9a", "K13a B2a"], melds=[(1, "set", "K5a Y5a B5a")])
    events = state.apply(0, Meld("run", ids("R7a R8a R9a")))
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["meld", "hand_over"] and "discard" not in kinds
    result = events[1].public
    assert result["went_out"] == 0 and result["blocked"] is False
    assert result["scores"] == [7 + 8 + 9 + 10 + 2, 15]
    assert result["round_winners"] == [0]
    assert state.round == 2


def test_tile_rummy_T32_going_out_by_discarding() -> None:
    state = build_position(racks=["K2a", "K13a B2a"], melds=[(0, "set", "K5a Y5a B5a")])
    events = state.apply(0, Discard(tile("K2a")))
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["discard", "hand_over"]
    result = events[1].public
    assert result["went_out"] == 0
    assert result["scores"] == [15 + 10 + 2, 0]
    assert state.round == 2


def test_tile_rummy_T33_end_round_on_an_empty_stock() -> None:
    state = build_position(
        racks=["K2a K9a", "K13a B2a"],
        melds=[(0, "set", "K5a Y5a B5a"), (1, "run", "R10a R11a R12a R13a")],
        rest="pile",
        phase="draw",
    )
    legal = state.legal_actions(0)
    assert END_ROUND in legal and DRAW not in legal
    rejected(state, 0, DRAW, "STOCK_EMPTY")
    events = state.apply(0, END_ROUND)
    result = next(e.public for e in events if e.kind == "hand_over")
    assert result["blocked"] is True and result["went_out"] is None
    assert result["scores"] == [15, 40]
    assert result["round_winners"] == [1]

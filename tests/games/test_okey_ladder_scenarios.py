"""The scenario vectors of okey-ladder.md 15 (VECTORS.md 6): L9-L27, L31a, L34, each built
from an explicit position or deal and played through the engine protocol."""

from __future__ import annotations

from typing import Any

import pytest

from meldhall.core.engine import Event
from meldhall.core.errors import IllegalAction
from meldhall.core.rng import seed_from_text
from meldhall.games.okey_ladder import GAME
from meldhall.games.okey_ladder.position import build_position
from meldhall.games.okey_ladder.state import LadderState

A, B, C, D = 0, 1, 2, 3


def act(state: LadderState, seat: int, text: str) -> list[Event]:
    """Apply an action given in its text form; it must be listed as legal."""
    action = GAME.parse_action(text)
    assert action in state.legal_actions(seat), f"{text} is not listed"
    events = list(state.apply(seat, action))
    state.check_invariants()
    return events


def rejects(state: LadderState, seat: int, text: str, code: str) -> None:
    """Assert that an action is unlisted and rejected with ``code``, the state unchanged."""
    action = GAME.parse_action(text)
    assert action not in state.legal_actions(seat)
    before = state.snapshot()
    with pytest.raises(IllegalAction) as err:
        state.apply(seat, action)
    assert err.value.code == code
    assert state.snapshot() == before


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def penalties(events: list[Event]) -> list[tuple[int | None, Any, Any]]:
    return [(e.seat, e.public["amount"], e.public["reason"]) for e in events if e.kind == "penalty"]


def rack(state: LadderState, seat: int) -> list[str]:
    obs = state.observation(seat)
    hand: list[str] = obs["hand"]
    return hand


def table(state: LadderState) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = state.observation(None)["table"]
    return tables


# ---------------------------------------------------------------- L9-L13 openings, the ladder


def test_okey_ladder_L9_series_opening_of_21_raises_the_need_to_22() -> None:
    s = build_position(
        indicator="K2",
        racks=["R11 R12 R13 K9 Y9 B9 Y1 K5", "B1 B2", "Y5 Y6", "K7 K8"],
    )
    act(s, A, "meld run R11a R12a R13a")
    act(s, A, "meld set Y9a B9a K9a")
    events = act(s, A, "discard Y1a")
    opening = next(e for e in events if e.kind == "opening")
    assert opening.public == {"kind": "series", "value": 21, "need": 22, "pairs_need": 33}
    obs = s.observation(None)
    assert obs["opened"][A] == "series" and obs["need"] == 22 and obs["pairs_need"] == 33
    assert [c["provisional"] for c in obs["table"]] == [False, False]
    assert s.to_act() == {B} and obs["phase"] == "take"


def test_okey_ladder_L10_too_low_opening_returns_without_penalty() -> None:
    s = build_position(
        indicator="B2",
        racks=["R1 R2 R3 K4 Y4 B4 K10 Y12", "B1 B6", "Y5 Y6", "K7 K8"],
    )
    act(s, A, "meld run R1a R2a R3a")
    act(s, A, "meld set Y4a B4a K4a")
    events = act(s, A, "discard K10a")
    assert "opening" not in kinds(events)
    returned = next(e for e in events if e.kind == "opening_returned")
    assert returned.public["value"] == 6 and returned.public["need"] == 17
    assert penalties(events) == []
    assert rack(s, A) == ["R1a", "R2a", "R3a", "Y4a", "Y12a", "B4a", "K4a"]
    obs = s.observation(None)
    assert obs["table"] == [] and obs["opened"][A] == "none" and obs["need"] == 17
    assert obs["discards"][A]["tiles"] == ["K10a"] and obs["scores"]["round"] == [0, 0, 0, 0]


def test_okey_ladder_L11_pairs_opening_of_26_meets_26() -> None:
    s = build_position(
        indicator="Y2",
        racks=["R13 R13 K13 K13 Y7 B1", "B5 B6", "Y5 Y6", "K7 K8"],
    )
    act(s, A, "meld pair R13a R13b")
    act(s, A, "meld pair K13a K13b")
    events = act(s, A, "discard Y7a")
    opening = next(e for e in events if e.kind == "opening")
    assert opening.public == {"kind": "pairs", "value": 26, "need": 18, "pairs_need": 27}
    assert s.observation(None)["opened"][A] == "pairs"


def test_okey_ladder_L12_the_threshold_climbs_series_series_pairs() -> None:
    s = build_position(
        indicator="K2",
        racks=[
            "R11 R12 R13 K9 Y9 B9 R1 Y2",
            "B5 B6 B7 B8 R13 K13 Y13 K3 Y1",
            "B13 B13 Y12 Y12 K10 K10 R4 R4 Y3 K1",
            "K5 K6",
        ],
        wall="Y6 K6",
    )
    act(s, A, "meld run R11a R12a R13a")
    act(s, A, "meld set Y9a B9a K9a")
    act(s, A, "discard R1a")
    assert (s.need, s.requirement(2)) == (22, 33)
    act(s, B, "draw")
    act(s, B, "meld run B5a B6a B7a B8a")
    act(s, B, "meld set R13b Y13a K13a")
    events = act(s, B, "discard K3a")
    assert next(e for e in events if e.kind == "opening").public["value"] == 25
    assert (s.need, s.requirement(2)) == (26, 39)
    act(s, C, "draw")
    for pair in ("B13a B13b", "Y12a Y12b", "K10a K10b", "R4a R4b"):
        act(s, C, f"meld pair {pair}")
    events = act(s, C, "discard Y3a")
    opening = next(e for e in events if e.kind == "opening")
    assert opening.public == {"kind": "pairs", "value": 39, "need": 27, "pairs_need": 41}
    assert s.observation(None)["opened"] == ["series", "series", "pairs", "none"]


def test_okey_ladder_L13_series_of_26_under_need_27_is_returned() -> None:
    s = build_position(
        indicator="K2",
        racks=["Y1 Y2", "B1 B2", "Y5 Y6", "R13 K13 Y13 B8 B9 B10 R2 Y11"],
        table=[(A, "run", "K8 K9 K10 K11"), (B, "set", "R12 Y12 B12")],
        opened=["series", "series", "none", "none"],
        to_move=D,
        need=27,
    )
    act(s, D, "meld set R13a Y13a K13a")
    act(s, D, "meld run B8a B9a B10a")
    assert s.provisional_value() == 26
    events = act(s, D, "discard R2a")
    assert "opening_returned" in kinds(events) and "opening" not in kinds(events)
    obs = s.observation(None)
    assert obs["opened"][D] == "none" and len(obs["table"]) == 2 and obs["need"] == 27
    assert len(rack(s, D)) == 7


# ---------------------------------------------------------------- L14-L16 the taken discard


def _taken_position() -> LadderState:
    s = build_position(
        indicator="B2",
        racks=["R10 Y10 Y1 R5", "B1 B2", "Y5 Y6", "K1 K2"],
        table=[(A, "run", "R1 R2 R3"), (B, "run", "K7 K8 K9")],
        opened=["series", "series", "none", "none"],
        phase="take",
        piles=["", "", "", "K10"],
    )
    act(s, A, "take")
    assert s.observation(C)["taken"] == "K10a"
    return s


def test_okey_ladder_L14_taken_tile_cannot_be_laid_off() -> None:
    s = _taken_position()
    rejects(s, A, "layoff K10a 2 high", "TAKEN_TILE_NEW_COMBINATION_ONLY")


def test_okey_ladder_L15_taken_tile_in_a_new_set_then_discard() -> None:
    s = _taken_position()
    act(s, A, "meld set R10a Y10a K10a")
    events = act(s, A, "discard Y1a")
    assert kinds(events) == ["discard"] and s.to_act() == {B}


def test_okey_ladder_L16_unused_taken_tile_return_then_draw() -> None:
    s = _taken_position()
    rejects(s, A, "discard Y1a", "TAKEN_TILE_UNUSED")
    rejects(s, A, "discard K10a", "TAKEN_TILE_UNUSED")
    events = act(s, A, "return")
    assert penalties(events) == []
    assert s.observation(A)["discards"][D]["tiles"] == ["K10a"]
    assert s.observation(A)["phase"] == "must_draw"
    rejects(s, A, "take", "WRONG_PHASE")
    assert [str(a) for a in s.legal_actions(A)] == ["draw"]
    act(s, A, "draw")
    assert s.observation(A)["phase"] == "act" and s.observation(A)["taken"] is None


# ---------------------------------------------------------------- L17 one tile per end


def test_okey_ladder_L17_one_tile_per_end_per_turn() -> None:
    s = build_position(
        indicator="K2",
        racks=["B3 B7 B8 Y1", "R1 R2", "Y5 Y6", "K7 K8"],
        table=[(A, "set", "R9 Y9 K9"), (B, "run", "B4 B5 B6")],
        opened=["series", "series", "none", "none"],
    )
    act(s, A, "layoff B3a 2 low")
    act(s, A, "layoff B7a 2 high")
    rejects(s, A, "layoff B8a 2 high", "END_ALREADY_EXTENDED")
    assert table(s)[1]["tiles"] == ["B3a", "B4a", "B5a", "B6a", "B7a"]


# ---------------------------------------------------------------- L18 opening type lock


def test_okey_ladder_L18_pairs_opener_lays_no_runs() -> None:
    s = build_position(
        indicator="B2",
        racks=["Y2 Y3 Y4 R9 K5 K5 Y11", "B1 B2", "Y5 Y6", "K1 K2"],
        table=[(A, "pair", "R1 R1"), (B, "run", "R6 R7 R8")],
        opened=["pairs", "series", "none", "none"],
    )
    rejects(s, A, "meld run Y2a Y3a Y4a", "OPENING_TYPE_LOCKED")
    act(s, A, "layoff R9a 2 high")
    act(s, A, "meld pair K5a K5b")
    assert [c["kind"] for c in table(s)] == ["pair", "run", "pair"]


# ---------------------------------------------------------------- L19 pushing pairs


def test_okey_ladder_L19_pairs_pushed_onto_a_pairs_opener_only() -> None:
    s = build_position(
        indicator="B2",
        racks=["Y9 Y9 R2 R2 K11", "B1 B5", "Y5 Y6", "K1 K2"],
        table=[(A, "run", "K4 K5 K6"), (B, "pair", "R12 R12"), (C, "set", "R7 Y7 B7")],
        opened=["series", "pairs", "series", "none"],
    )
    events = act(s, A, "give 1 Y9a Y9b")
    assert penalties(events) == [(B, 180, "pair_received")]
    assert table(s)[-1]["owner"] == B and table(s)[-1]["tiles"] == ["Y9a", "Y9b"]
    rejects(s, A, "give 2 R2a R2b", "RECIPIENT_NOT_PAIRS_OPENER")
    assert s.observation(None)["scores"]["round"] == [0, 180, 0, 0]


# ---------------------------------------------------------------- L20-L23 jokers


def _l20(a_status: str) -> LadderState:
    a_combo = "K1 K1" if a_status == "pairs" else "Y1 Y2 Y3"
    return build_position(
        indicator="R4",
        racks=["K7 B11 Y13", "B1 B2", "Y5 Y6", "K3 K12"],
        table=[(A, "pair" if a_status == "pairs" else "run", a_combo), (C, "run", "K6 R5 K8")],
        opened=[a_status, "none", "series", "none"],
    )


def test_okey_ladder_L20_exchange_a_joker_out_of_another_players_run() -> None:
    s = _l20("series")
    events = act(s, A, "replace 2 R5a K7a")
    assert table(s)[1]["tiles"] == ["K6a", "K7a", "K8a"] and table(s)[1]["jokers"] == []
    assert "R5a" in rack(s, A) and "K7a" not in rack(s, A)
    assert penalties(events) == [(C, 70, "joker_exchanged")]
    s = _l20("pairs")
    events = act(s, A, "replace 2 R5a K7a")
    assert penalties(events) == [(C, 140, "joker_exchanged")]


def test_okey_ladder_L20b_exchange_a_joker_out_of_a_pair() -> None:
    s = build_position(
        indicator="R4",
        racks=["R9 B11 Y13", "B1 B2", "Y5 Y6", "K3 K12"],
        table=[(A, "run", "Y1 Y2 Y3"), (D, "pair", "R9 R5")],
        opened=["series", "none", "none", "pairs"],
    )
    events = act(s, A, "replace 2 R5a R9a")
    assert table(s)[1]["tiles"] == ["R9a", "R9b"]
    assert "R5a" in rack(s, A)
    assert penalties(events) == [(D, 180, "joker_exchanged")]


def test_okey_ladder_L21_real_joker_laid_off_on_another_players_run() -> None:
    s = build_position(
        indicator="R4",
        racks=["R5 B11 Y13", "B1 B2", "Y5 Y6", "K3 K12"],
        table=[(A, "run", "Y1 Y2 Y3"), (D, "run", "K6 K7 K8")],
        opened=["series", "none", "none", "series"],
    )
    events = act(s, A, "layoff R5a 2 high")
    combo = table(s)[1]
    assert combo["tiles"] == ["K6a", "K7a", "K8a", "R5a"] and combo["jokers"] == ["K9"]
    assert penalties(events) == [(D, 90, "joker_added")]


def test_okey_ladder_L22_set_exchange_must_complete_four_colours() -> None:
    s = build_position(
        indicator="R4",
        racks=["Y7 B7 B11 Y13", "B1 B2", "Y5 Y6", "K3 K12"],
        table=[(A, "run", "Y1 Y2 Y3"), (C, "set", "R7 K7 R5")],
        opened=["series", "none", "series", "none"],
    )
    rejects(s, A, "replace 2 R5a Y7a", "GROUP_MUST_COMPLETE_FOUR_COLOURS")
    events = act(s, A, "replace 2 R5a Y7a B7a")
    assert sorted(table(s)[1]["tiles"]) == sorted(["R7a", "K7a", "Y7a", "B7a"])
    assert table(s)[1]["value"] == 8 and "R5a" in rack(s, A)
    assert penalties(events) == [(C, 70, "joker_exchanged")]


def test_okey_ladder_L23_joker_placed_this_turn_stays() -> None:
    s = build_position(
        indicator="R4",
        racks=["R5 K9 B11 Y13", "B1 B2", "Y5 Y6", "K3 K12"],
        table=[(A, "run", "K6 K7 K8")],
        opened=["series", "none", "none", "none"],
    )
    events = act(s, A, "layoff R5a 1 high")
    assert penalties(events) == []  # own combination: no charge
    assert table(s)[0]["jokers"] == ["K9"]
    rejects(s, A, "replace 1 R5a K9a", "JOKER_PLACED_THIS_TURN")


# ---------------------------------------------------------------- L24-L27 discard penalties


def _l24(status: str, a_rack: str) -> LadderState:
    own = (A, "pair", "K1 K1") if status == "pairs" else (A, "run", "Y1 Y2 Y3")
    return build_position(
        indicator="B2",
        racks=[a_rack, "B1 B5", "Y5 Y6", "K3 K12"],
        table=[own, (B, "run", "R6 R7 R8")],
        opened=[status, "series", "none", "none"],
    )


@pytest.mark.parametrize(("status", "amount"), [("series", 100), ("pairs", 200)])
def test_okey_ladder_L24_wrong_discard_is_charged_and_returned(status: str, amount: int) -> None:
    s = _l24(status, "R9 Y12")
    events = act(s, A, "discard R9a")
    assert penalties(events) == [(A, amount, "wrong_discard")]
    assert kinds(events)[-1] == "wrong_discard_returned"
    assert "R9a" in rack(s, A) and s.observation(None)["discards"][A]["count"] == 0
    assert s.to_act() == {A} and s.observation(A)["phase"] == "act"
    act(s, A, "discard Y12a")
    assert s.to_act() == {B}


def test_okey_ladder_L25_last_tile_fitting_is_no_wrong_discard() -> None:
    s = _l24("series", "R9")
    events = act(s, A, "discard R9a")
    assert penalties(events) == []
    over = next(e for e in events if e.kind == "hand_over")
    assert over.public["winner"] == A and over.public["penalties"] == [0, 0, 0, 0]


def test_okey_ladder_L26_wrong_discard_applies_before_opening() -> None:
    s = build_position(
        indicator="B2",
        racks=["R5 Y12 K1", "B1 B5", "Y5 Y6", "K3 K12"],
        table=[(B, "run", "R6 R7 R8")],
        opened=["none", "series", "none", "none"],
    )
    events = act(s, A, "discard R5a")
    assert penalties(events) == [(A, 100, "wrong_discard")]
    assert "R5a" in rack(s, A) and s.to_act() == {A}


@pytest.mark.parametrize(("status", "amount"), [("none", 600), ("pairs", 1200)])
def test_okey_ladder_L27_real_joker_discard_costs_the_base(status: str, amount: int) -> None:
    table_ = [(A, "pair", "K1 K1")] if status == "pairs" else []
    s = build_position(
        indicator="Y3",
        racks=["Y4 R12 K7", "B1 B5 R2", "Y5 Y6", "K3 K12"],
        table=table_,
        opened=[status, "none", "none", "none"],
    )
    assert s.observation(None)["base"] == 600
    events = act(s, A, "discard Y4a")
    assert penalties(events) == [(A, amount, "joker_discarded")]
    assert s.observation(None)["discards"][A]["tiles"] == ["Y4a"] and s.to_act() == {B}
    act(s, B, "take")
    rejects(s, B, "discard R2a", "TAKEN_TILE_UNUSED")
    assert not any(str(a).startswith("layoff") for a in s.legal_actions(B))
    assert GAME.parse_action("meld pair B5a Y4a") in s.legal_actions(B)


# ---------------------------------------------------------------- L31a the one-go finish


def test_okey_ladder_L31a_one_go_finish_below_the_threshold() -> None:
    hands = [
        "R1 R2 R3 Y1 Y2 Y3 K2 K3 K4 B1 B2 B3 B4 B5 K9",
        "R5 R6 R7 R8 Y5 Y6 Y7 Y8 B7 B8 B9 B10 K11 K12",
        "R11 R12 R13 Y11 Y12 Y13 B11 B12 B13 K5 K6 K7 K8 Y9",
        "R4 Y4 B6 K1 R1 R2 R3 Y1 Y2 Y3 K13 K10 B6 Y10",
    ]
    opts = GAME.options({"deal": "explicit", "indicator": "R9", "hands": hands, "rounds": 1})
    s = GAME.new_state(opts, 4, seed_from_text("L31a"))
    assert s.observation(A)["base"] == 400 and len(rack(s, A)) == 15
    for meld in (
        "run R1a R2a R3a",
        "run Y1a Y2a Y3a",
        "run K2a K3a K4a",
        "run B1a B2a B3a B4a B5a",
    ):
        act(s, A, f"meld {meld}")
    assert s.provisional_value() == 13
    events = act(s, A, "discard K9a")
    over = next(e for e in events if e.kind == "hand_over")
    assert over.public["winner"] == A and over.public["from_hand"] is True
    assert over.public["settlement"] == [-160, 1600, 1600, 1600]
    outcome = s.outcome()
    assert outcome is not None and outcome.scores == (-160, 1600, 1600, 1600)
    assert outcome.winners == {A}


def test_okey_ladder_L31a_off_without_the_one_go_option() -> None:
    s = build_position(
        indicator="R9",
        racks=["R1 R2 R3 K9", "B1 B5", "Y5 Y6", "K3 K12"],
        options={"one_go_finish_ignores_threshold": False},
    )
    act(s, A, "meld run R1a R2a R3a")
    events = act(s, A, "discard K9a")
    assert "opening_returned" in kinds(events) and "hand_over" not in kinds(events)


# ---------------------------------------------------------------- L34 no safe tile


def test_okey_ladder_L34_wrong_discard_stands_without_a_safe_tile() -> None:
    s = build_position(
        indicator="R3",
        racks=["R5 Y5", "B1 B5", "Y6 Y8", "K3 K12"],
        table=[(A, "run", "R6 R7 R8"), (B, "run", "Y2 Y3 Y4")],
        opened=["series", "series", "none", "none"],
        phase="take",
        wall="R4",
    )
    act(s, A, "draw")
    assert rack(s, A) == ["R4a", "R5a", "Y5a"]
    events = act(s, A, "discard Y5a")
    assert penalties(events) == [(A, 100, "wrong_discard")]
    assert "wrong_discard_returned" not in kinds(events)
    assert s.observation(None)["discards"][A]["tiles"] == ["Y5a"]
    assert rack(s, A) == ["R4a", "R5a"] and s.to_act() == {B}


def test_okey_ladder_L34_the_joker_finish_instead() -> None:
    s = build_position(
        indicator="R3",
        racks=["R5 Y5 R4", "B1 B5", "Y6 Y8", "K3 K12"],
        table=[(A, "run", "R6 R7 R8"), (B, "run", "Y2 Y3 Y4")],
        opened=["series", "series", "none", "none"],
        options={"rounds": 1},
    )
    act(s, A, "layoff R5a 1 low")
    act(s, A, "layoff Y5a 2 high")
    events = act(s, A, "discard R4a")
    over = next(e for e in events if e.kind == "hand_over")
    assert over.public["joker_finish"] is True and over.public["winner"] == A
    # b = 400 (red): W -80; B series with 2 tiles: 10 x 2 x 2; C, D not opened: 800
    assert over.public["settlement"] == [-80, 40, 800, 800]

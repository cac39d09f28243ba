"""Ladder Okey rules beyond the scenario vectors: options, actions, the threshold ladder,
scoring (12.4), option variants, the match, observations."""

from __future__ import annotations

import json

import pytest

from meldhall.core.errors import IllegalAction, OptionsError, ParseError
from meldhall.games.okey_ladder import GAME
from meldhall.games.okey_ladder.actions import Discard, GivePair, LayOff, Meld
from meldhall.games.okey_ladder.position import build_position
from meldhall.games.okey_ladder.scoring import NONE, PAIRS, SERIES, settle
from tests.games.test_okey_ladder_scenarios import A, B, C, D, act, kinds, penalties, rejects

# ---------------------------------------------------------------- options


def test_defaults_are_the_seed_preset() -> None:
    opts = GAME.options()
    assert (opts.first_threshold, opts.pairs_factor, opts.threshold_mode) == (17, 1.5, "ladder")
    assert opts.bases == (400, 500, 600, 800) and opts.rounds == 7
    assert [opts.base(c) for c in "RKYB"] == [400, 500, 600, 800]
    assert opts.credit(800) == 80 and opts.tile_penalty == 10
    assert opts.wrong_discard == "returned" and opts.finish_from_hand_factor == 4
    assert opts.one_go_finish_ignores_threshold and not opts.layoff_in_opening_turn


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"colour": 1}, "unknown option 'colour'"),
        ({"first_threshold": "17"}, "first_threshold"),
        ({"threshold_mode": "rising"}, "threshold_mode"),
        ({"pairs_factor": 0}, "pairs_factor"),
        ({"pairs_factor": True}, "pairs_factor"),
        ({"bases": {"R": 400}}, "bases"),
        ({"bases": [400, 500, 600, 805]}, "bases"),
        ({"winner_credit": "b/5"}, "winner_credit"),
        ({"pair_gift_amount": "double"}, "pair_gift_amount"),
        ({"joker_left_in_hand": "twice"}, "joker_left_in_hand"),
        ({"rounds": 0}, "rounds"),
        ({"wrong_discard": "stands"}, "wrong_discard"),
        ({"hands": ["R1"] * 4}, "explicit"),
        ({"deal": "explicit", "indicator": "R4", "hands": ["R1", "", "", ""]}, "seat 0 needs 15"),
        ({"deal": "explicit", "indicator": "J", "hands": ["", "", "", ""]}, "indicator"),
        ({"deal": "explicit", "indicator": "R4a", "hands": ["R4a", "", "", ""]}, "twice"),
    ],
)
def test_bad_options_name_the_option(raw: dict[str, object], words: str) -> None:
    with pytest.raises(OptionsError, match=words):
        GAME.options(raw)


def test_option_spellings() -> None:
    opts = GAME.options({"bases": "R 100, K 200, Y 300, B 400", "winner_credit": "b/10"})
    assert opts.bases == (100, 200, 300, 400) and opts.winner_credit == "b / 10"
    assert GAME.options({"bases": {"R": 10, "K": 20, "Y": 30, "B": 40}}).base("Y") == 30
    assert GAME.options({"winner_credit": 25}).credit(800) == 25


@pytest.mark.parametrize(
    ("need", "pairs_need"), [(17, 26), (18, 27), (19, 29), (22, 33), (26, 39), (27, 41)]
)
def test_pairs_need_is_one_and_a_half_times_rounded_up(need: int, pairs_need: int) -> None:
    assert GAME.options().pairs_need(need) == pairs_need


@pytest.mark.parametrize(("value", "need"), [(26, 18), (27, 19), (39, 27), (40, 27), (41, 28)])
def test_need_after_a_pairs_opening(value: int, need: int) -> None:
    opts = GAME.options()
    assert opts.need_after_pairs(value) == need
    assert opts.pairs_need(need) > value >= opts.pairs_need(need - 1)


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize(
    "text",
    [
        "draw",
        "take",
        "return",
        "recall",
        "discard R5a",
        "discard Jb",
        "meld run R3a R4b R5a",
        "meld set R7b Y7a K7a",
        "meld pair R9a R9b",
        "layoff R6a 3 high",
        "layoff K7b 12 set",
        "replace 3 R5a K7b",
        "replace 4 R5b Y7a B7a",
        "give 1 Y9a Y9b",
    ],
)
def test_actions_round_trip(text: str) -> None:
    action = GAME.parse_action(text)
    assert str(action) == text
    assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action


def test_sets_pairs_and_exchanges_are_kept_sorted() -> None:
    assert str(GAME.parse_action("meld set K7a R7b Y7a")) == "meld set R7b Y7a K7a"
    assert GAME.parse_action("give 2 Y9b Y9a") == GAME.parse_action("give 2 Y9a Y9b")
    assert Meld(1, (80, 2, 30)).tiles == (2, 30, 80)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "dance",
        "discard",
        "discard X5",
        "meld run R1a R1a R2a",
        "meld quad R1a R2a R3a",
        "layoff R5a x high",
        "layoff R5a 3 middle",
        "give 7 R1a R1b",
        "draw now",
    ],
)
def test_bad_action_text_is_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        GAME.parse_action(text)


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"type": "fly"},
        {"type": "discard"},
        {"type": "discard", "tile": 5},
        {"type": "draw", "extra": 1},
        {"type": "meld", "kind": "run", "tiles": "R1 R2 R3"},
    ],
)
def test_bad_action_json_is_a_parse_error(data: object) -> None:
    with pytest.raises(ParseError):
        GAME.action_from_json(data)


# ---------------------------------------------------------------- scoring (12.4)


@pytest.mark.parametrize(
    ("joker", "winner_status", "amounts"),
    [
        (False, SERIES, [-80, 50, 60, 800]),
        (True, SERIES, [-160, 100, 120, 1600]),
        (False, PAIRS, [-160, 100, 120, 1600]),
        (True, PAIRS, [-320, 200, 240, 3200]),
    ],
)
def test_worked_examples_of_12_4(joker: bool, winner_status: int, amounts: list[int]) -> None:
    opened = [winner_status, SERIES, PAIRS, NONE]
    result = settle(GAME.options(), 800, 0, opened, [0, 5, 3, 9], joker_finish=joker)
    assert result.amounts == amounts


def test_finish_from_hand_and_variants() -> None:
    opts = GAME.options()
    opened = [SERIES, NONE, NONE, NONE]
    assert settle(opts, 400, 0, opened, [0] * 4, from_hand=True).amounts == [-160] + [1600] * 3
    joker = settle(opts, 400, 0, opened, [0] * 4, from_hand=True, joker_finish=True)
    assert joker.amounts == [-320] + [3200] * 3
    two = GAME.options({"finish_from_hand_factor": 2})
    assert settle(two, 400, 0, opened, [0] * 4, from_hand=True).amounts == [-80] + [800] * 3
    plain = GAME.options({"multiply_unopened_and_credit": False})
    result = settle(plain, 800, 0, [PAIRS, SERIES, PAIRS, NONE], [0, 5, 3, 9], joker_finish=True)
    assert result.amounts == [-80, 200, 240, 800]


def test_no_winner_everyone_pays_their_own() -> None:
    result = settle(GAME.options(), 600, None, [SERIES, PAIRS, NONE, NONE], [4, 6, 11, 14])
    assert result.amounts == [40, 120, 600, 600]
    assert [line["reason"] for line in result.lines] == ["tiles left"] * 2 + ["not opened"] * 2


def test_joker_left_in_hand_option() -> None:
    opts = GAME.options({"joker_left_in_hand": "base"})
    result = settle(
        opts, 500, 0, [SERIES, PAIRS, NONE, SERIES], [0, 2, 9, 3], jokers_left=[0, 1, 1, 0]
    )
    assert result.amounts == [-50, 40 + 1000, 500 + 500, 30]


# ---------------------------------------------------------------- option variants in play


def test_fixed_threshold_mode_keeps_17_and_26() -> None:
    s = build_position(
        indicator="K2",
        racks=["R11 R12 R13 K9 Y9 B9 Y1 K5", "B1 B2", "Y5 Y6", "K7 K8"],
        options={"threshold_mode": "fixed"},
    )
    act(s, A, "meld run R11a R12a R13a")
    act(s, A, "meld set Y9a B9a K9a")
    act(s, A, "discard Y1a")
    assert (s.need, s.requirement(PAIRS)) == (17, 26)


def test_wrong_discard_charged_and_stands_option() -> None:
    s = build_position(
        indicator="B2",
        racks=["R9 Y12", "B1 B5", "Y5 Y6", "K3 K12"],
        table=[(A, "run", "Y1 Y2 Y3"), (B, "run", "R6 R7 R8")],
        opened=["series", "series", "none", "none"],
        options={"wrong_discard": "charged_and_stands"},
    )
    events = act(s, A, "discard R9a")
    assert penalties(events) == [(A, 100, "wrong_discard")] and s.to_act() == {B}


def test_return_taken_penalty_option() -> None:
    s = build_position(
        indicator="B2",
        racks=["R10 Y1", "B1 B5", "Y5 Y6", "K3 K12"],
        table=[(A, "pair", "K1 K1")],
        opened=["pairs", "none", "none", "none"],
        phase="take",
        piles=["", "", "", "K10"],
        options={"return_taken_penalty": 100},
    )
    act(s, A, "take")
    assert penalties(act(s, A, "return")) == [(A, 200, "return_taken")]


def test_pair_gift_fixed_amount_and_per_turn_limit() -> None:
    s = build_position(
        indicator="B2",
        racks=["Y9 Y9 R2 R2 K11", "B1 B5", "Y5 Y6", "K1 K2"],
        table=[(A, "run", "K4 K5 K6"), (B, "pair", "R12 R12")],
        opened=["series", "pairs", "none", "none"],
        options={"pair_gift_amount": 50, "pairs_per_turn_limit": 1},
    )
    assert penalties(act(s, A, "give 1 Y9a Y9b")) == [(B, 50, "pair_received")]
    rejects(s, A, "give 1 R2a R2b", "PAIRS_PER_TURN_LIMIT")


def test_pushed_pair_with_a_joker_charges_the_joker_too() -> None:
    s = build_position(
        indicator="R4",
        racks=["Y9 R5 K11 B3", "B1 B5", "Y5 Y6", "K1 K2"],
        table=[(A, "run", "K6 K7 K8"), (B, "pair", "R12 R12")],
        opened=["series", "pairs", "none", "none"],
    )
    events = act(s, A, "give 1 Y9a R5a")
    assert penalties(events) == [(B, 180, "pair_received"), (B, 180, "joker_added")]


def test_joker_event_credit_option() -> None:
    s = build_position(
        indicator="R4",
        racks=["R5 B11 Y13", "B1 B2", "Y5 Y6", "K3 K12"],
        table=[(A, "run", "Y1 Y2 Y3"), (D, "run", "K6 K7 K8")],
        opened=["series", "none", "none", "series"],
        options={"joker_event_sign": "credit"},
    )
    assert penalties(act(s, A, "layoff R5a 2 high")) == [(D, -90, "joker_added")]


def test_layoff_in_opening_turn_settles_the_opening_early() -> None:
    s = build_position(
        indicator="K2",
        racks=["R11 R12 R13 K9 Y9 B9 B4 Y1", "B1 B2", "Y5 Y6", "K7 K8"],
        table=[(B, "run", "B5 B6 B7")],
        opened=["none", "series", "none", "none"],
        options={"layoff_in_opening_turn": True},
    )
    act(s, A, "meld run R11a R12a R13a")
    rejects(s, A, "layoff B4a 1 low", "NOT_OPENED_BEFORE_THIS_TURN")
    act(s, A, "meld set Y9a B9a K9a")
    events = act(s, A, "layoff B4a 1 low")
    assert kinds(events)[0] == "opening" and s.observation(None)["opened"][A] == "series"
    assert "recall" not in [str(a) for a in s.legal_actions(A)]


def test_default_no_table_work_in_the_opening_turn() -> None:
    s = build_position(
        indicator="K2",
        racks=["R11 R12 R13 K9 Y9 B9 B4 Y1", "B1 B2", "Y5 Y6", "K7 K8"],
        table=[(B, "run", "B5 B6 B7")],
        opened=["none", "series", "none", "none"],
    )
    act(s, A, "meld run R11a R12a R13a")
    act(s, A, "meld set Y9a B9a K9a")
    rejects(s, A, "layoff B4a 1 low", "NOT_OPENED_BEFORE_THIS_TURN")


# ---------------------------------------------------------------- turn rules and reason codes


def test_reason_codes_of_the_turn() -> None:
    s = build_position(
        indicator="K2",
        racks=["R1 R2 R3 R7 Y9 B9", "B1 B2", "Y5 Y6", "K7 K8"],
        table=[(B, "set", "R13 Y13 B13"), (C, "pair", "K4 K4")],
        opened=["none", "series", "pairs", "none"],
    )
    rejects(s, B, "draw", "NOT_YOUR_TURN")
    rejects(s, A, "draw", "WRONG_PHASE")
    rejects(s, A, "recall", "NOTHING_TO_RECALL")
    rejects(s, A, "return", "NOTHING_TO_RETURN")
    rejects(s, A, "discard K1a", "TILE_NOT_IN_HAND")
    rejects(s, A, "meld run R1a R2a R7a", "INVALID_COMBINATION")
    act(s, A, "meld run R1a R2a R3a")
    rejects(s, A, "meld pair R7a R7b", "TILE_NOT_IN_HAND")
    rejects(s, A, "layoff R7a 1 set", "NOT_OPENED_BEFORE_THIS_TURN")
    act(s, A, "recall")
    rejects(s, A, "meld run R1a R2a R3a R7a", "INVALID_COMBINATION")


def test_mixed_opening_and_keep_a_tile() -> None:
    s = build_position(indicator="K2", racks=["R1 R2 R3 Y9 Y9", "B1 B2", "Y5 Y6", "K7 K8"])
    act(s, A, "meld run R1a R2a R3a")
    rejects(s, A, "meld pair Y9a Y9b", "MIXED_OPENING")
    s = build_position(indicator="K2", racks=["R1 R2 R3", "B1 B2", "Y5 Y6", "K7 K8"])
    rejects(s, A, "meld run R1a R2a R3a", "MUST_KEEP_DISCARD_TILE")


def test_run_limit_group_full_and_pairs_take_nothing() -> None:
    s = build_position(
        indicator="K2",
        racks=["R4 B13 Y9 K1 R12", "B1 B2", "Y5 Y6", "K7 K8"],
        table=[
            (A, "run", "R1 R2 R3"),
            (B, "run", "B10 B11 B12"),
            (C, "set", "R9 B9 K9 Y9"),
            (D, "pair", "R11 R11"),
        ],
        opened=["series", "series", "series", "pairs"],
    )
    rejects(s, A, "layoff K1a 1 low", "RUN_LIMIT")
    rejects(s, A, "layoff Y9a 3 set", "GROUP_FULL")
    rejects(s, A, "layoff R12a 4 high", "INVALID_COMBINATION")
    act(s, A, "layoff B13a 2 high")
    rejects(s, A, "layoff R4a 2 high", "RUN_LIMIT")


def test_an_unused_taken_tile_is_no_tile_to_discard() -> None:
    s = build_position(
        indicator="B2",
        racks=["K6", "B1 B5", "Y5 Y6", "K3 K12"],
        table=[(A, "run", "K7 K8 K9")],
        opened=["series", "none", "none", "none"],
        phase="take",
        piles=["", "", "", "R10"],
    )
    act(s, A, "take")
    rejects(s, A, "layoff K6a 1 low", "MUST_KEEP_DISCARD_TILE")
    act(s, A, "return")
    act(s, A, "draw")
    act(s, A, "layoff K6a 1 low")


# ---------------------------------------------------------------- run order, malformed actions


def test_a_run_given_descending_is_laid_and_stored_ascending() -> None:
    # okey-ladder.md 6.1: runs count in both orders; the engine stores them ascending.
    s = build_position(indicator="R2", racks=["K13 K12 K11 Y1 B5", "B1 B2", "Y5 Y6", "K7 K8"])
    listed = GAME.parse_action("meld run K11a K12a K13a")
    assert listed in s.legal_actions(A), "the listing names each run once, ascending"
    events = s.apply(A, GAME.parse_action("meld run K13a K12a K11a"))
    assert events[0].public["combo"]["tiles"] == ["K11a", "K12a", "K13a"]
    assert s.observation(A)["hand"] == ["Y1a", "B5a"]


@pytest.mark.parametrize(
    "action",
    [Discard(106), Discard(-1), LayOff(0, 1, 3), Meld(0, (200, 201, 202)), GivePair(9, ())],
)
def test_an_action_object_out_of_range_is_refused_as_malformed(action: object) -> None:
    s = build_position(indicator="R2", racks=["K13 K12 K11 Y1 B5", "B1 B2", "Y5 Y6", "K7 K8"])
    before = s.snapshot()
    with pytest.raises(IllegalAction) as info:
        s.apply(A, action)
    assert info.value.code == "MALFORMED_ACTION"
    assert s.snapshot() == before

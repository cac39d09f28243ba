"""The Remi match engine: option switches in play, observations, hand and match ends."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldhall.core.errors import IllegalAction
from meldhall.games.remi import GAME
from meldhall.games.remi.actions import (
    Discard,
    DrawDiscard,
    Exchange,
    LayOff,
    MeldAction,
    Open,
    RemiAction,
)
from meldhall.games.remi.pieces import FIRST_JOKER
from meldhall.games.remi.state import RemiState
from meldhall.testing.conformance import check_observations, check_replay, play_random
from tests.games.test_remi_helpers import (
    deal,
    hand_of,
    kinds,
    meld_view,
    pass_turn,
    play,
    position,
    rejected,
)

KINGS = "KC KD KS"

# ---------------------------------------------------------------- options in play


def test_discard_draw_must_use_lists_the_discard_only_when_usable() -> None:
    state = deal(["KC KD", ""], upcard="KS", discard_draw_must_use=True)
    assert DrawDiscard() in state.legal_actions(0)
    play(state, 0, "DRAW_DISCARD")
    assert state.observation(0)["must_use"] == "KS#1"
    legal = state.legal_actions(0)
    assert legal and all(isinstance(a, Open) and "KS#1" in str(a) for a in legal)
    rejected(state, 0, "DISCARD KC", "TAKEN_CARD_UNUSED")
    play(state, 0, "OPEN [KC KD KS]")
    assert state.observation(0)["must_use"] is None
    assert any(str(a).startswith("DISCARD") for a in state.legal_actions(0))
    unusable = deal(["KC", ""], upcard="KS", discard_draw_must_use=True)
    assert DrawDiscard() not in unusable.legal_actions(0)
    rejected(unusable, 0, "DRAW_DISCARD", "TAKEN_CARD_UNUSABLE")


def test_released_joker_must_be_used_the_same_turn() -> None:
    options = {"released_joker_must_be_used": True}
    state = position(
        options=options,
        hands=["5H 9C 9D", "2C 3C 4C"],
        discard="AD",
        melds=[("4H JK 6H", 1), ("QC QD QS", 0)],
        opened=[True, True],
    )
    play(state, 0, "DRAW_STOCK", "EXCHANGE m0 give 5H take JK")
    assert state.observation(0)["must_use"] == "JK#1"
    rejected(state, 0, "DISCARD 9C", "JOKER_UNUSED")
    assert all(
        isinstance(a, LayOff | MeldAction) and "JK#1" in str(a) for a in state.legal_actions(0)
    )
    play(state, 0, "LAY_OFF JK m1")
    assert state.observation(0)["must_use"] is None


def test_released_joker_needs_a_place() -> None:
    state = position(
        options={"released_joker_must_be_used": True},
        hands=["5H", "2C 3C 4C"],
        discard="AD",
        melds=[("4H JK 6H", 1)],
        opened=[True, True],
        stock="9S",
    )
    play(state, 0, "DRAW_STOCK")
    # after the exchange the hand would be [9S, JK]: the joker fits the run's ends
    assert any(isinstance(a, Exchange) for a in state.legal_actions(0))


def test_exchange_without_opening_when_allowed() -> None:
    state = position(
        options={"exchange_requires_open": False},
        hands=["5H 9C", "2C 3C 4C"],
        discard="AD",
        melds=[("4H JK 6H", 1)],
        opened=[False, True],
    )
    play(state, 0, "DRAW_STOCK")
    play(state, 0, "EXCHANGE m0 give 5H take JK")
    assert "JK#1" in hand_of(state, 0)


def test_two_joker_set_exchange_can_be_switched_off() -> None:
    state = position(
        options={"set_two_joker_exchange": False},
        hands=["10S 9C", "2C 3C 4C"],
        discard="AD",
        melds=[("10H JK=10? JK=10?", 1), ("QC QD QS", 0)],
    )
    play(state, 0, "DRAW_STOCK")
    assert not any(isinstance(a, Exchange) for a in state.legal_actions(0))
    rejected(state, 0, "EXCHANGE m0 give 10S take JK#1", "EXCHANGE_NEEDS_BOTH")


def test_joker_discard_can_be_forbidden_unless_only_jokers_are_left() -> None:
    state = position(
        options={"joker_discard_allowed": False},
        hands=["JK#1 9C", "2C 3C 4C"],
        discard="AD",
        stock="JK#2",
    )
    play(state, 0, "DRAW_STOCK")
    rejected(state, 0, "DISCARD JK#1", "JOKER_DISCARD")
    play(state, 0, "DISCARD 9C")
    pass_turn(state, 1)
    play(state, 0, "DRAW_STOCK")
    assert [str(a) for a in state.legal_actions(0)][-3:] != []
    only = position(
        options={"joker_discard_allowed": False},
        hands=["JK#1", "2C 3C 4C"],
        discard="AD",
        stock="JK#2",
    )
    play(only, 0, "DRAW_STOCK", "DISCARD JK#2")
    assert hand_of(only, 0) == ["JK#1"]


def test_rediscarding_the_taken_card_when_allowed() -> None:
    state = deal(["", "9C"], stock="2H#2", no_rediscard_taken_card=False)
    pass_turn(state, 0)
    play(state, 1, "DRAW_STOCK", "DISCARD 9C")
    play(state, 0, "DRAW_DISCARD", "DISCARD 9C")
    assert state.observation(None)["discard_top"] == "9C#1"


def test_limited_stock_rebuilds_end_the_hand() -> None:
    state = position(
        options={"max_stock_rebuilds": 0},
        hands=["KD 5S", "7C"],
        discard="4C 9H",
        phase="play",
        rest=1,
    )
    events = play(state, 0, "DISCARD KD")
    assert kinds(events)[:2] == ["discard", "hand_over"]
    assert events[1].public["dead"] is True


def test_a_hand_nobody_can_finish_is_dead() -> None:
    state = position(
        hands=["KD 5S", "7C 8C"],
        discard="4C",
        melds=[("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", 0), ("QC QD QS QH", 1)],
        phase="play",
    )
    events = play(state, 0, "DISCARD KD")
    over = next(e for e in events if e.kind == "hand_over")
    assert over.public["dead"] is True and over.public["penalties"] == [0, 0]


LOCKED_TABLE = [
    ("AS 2S 3S 4S", 0),
    ("5S 5H 5D 5C", 1),
    ("JK 9C 9D 9S", 0),
    ("JK 10C 10D 10S", 1),
]
"""Melds whose only open place (5S above the spade run) no card off the table fits once
the second set of fives is down too, with both jokers locked in closed sets."""


@pytest.mark.parametrize("fives_down", [True, False])
def test_a_hand_whose_places_no_free_card_fits_is_dead(fives_down: bool) -> None:
    melds = [*LOCKED_TABLE, ("5S 5H 5D 5C" if fives_down else "5H 5D 5C", 0)]
    state = position(hands=["KD 7C", "8C"], discard="4C", melds=melds, phase="play")
    events = play(state, 0, "DISCARD KD")
    assert ("hand_over" in kinds(events)) is fives_down


def test_hand_size_jokers_and_players_options() -> None:
    state = GAME.new_state(GAME.options({"hand_size": 15, "jokers": 4, "players": 6}), 6, b"x")
    view = state.observation(None)
    assert view["hand_counts"] == [15] * 6 and view["stock"] == 108 - 90 - 1
    state.check_invariants()


def test_ace_rules_in_openings() -> None:
    high_only = deal(["AH 2H 3H QS KS AS", ""], ace_low_allowed=False)
    play(high_only, 0, "DRAW_STOCK")
    rejected(high_only, 0, "OPEN [AH 2H 3H] [QS KS AS]", "INVALID_MELD")
    play(high_only, 0, "OPEN [QS KS AS]")
    wrap = deal(["QS KS AS 2S JS", ""], run_wrap=True)
    play(wrap, 0, "DRAW_STOCK", "OPEN [QS KS AS 2S]")
    assert meld_view(wrap, 0)["low"] == "Q" and meld_view(wrap, 0)["value"] == 10 + 10 + 11 + 2
    play(wrap, 0, "LAY_OFF JS m0 low")
    assert meld_view(wrap, 0)["high"] == "2"
    low = deal(["AH 2H 3H 4H 5H 6H", ""], ace_value_low_run=1)
    play(low, 0, "DRAW_STOCK")
    rejected(low, 0, "OPEN [AH 2H 3H 4H 5H 6H]", "OPENING_TOO_LOW")


def test_turn_timer_default_actions() -> None:
    state = deal(["KD KH JK 2C", ""], stock="3S#2", turn_timer=30)
    assert str(state.expiry_action(0)) == "DRAW_STOCK"
    play(state, 0, "DRAW_STOCK")
    assert str(state.expiry_action(0)) == "DISCARD JK#1"  # 25 points, the highest
    with pytest.raises(IllegalAction):
        state.expiry_action(1)


def test_turn_timer_sets_the_turn_clock_and_the_expiry_move() -> None:
    timed = deal(["KD KH JK 2C", ""], stock="3S#2", turn_timer=30)
    assert GAME.turn_seconds(timed) == 30.0
    play(timed, 0, "DRAW_STOCK")
    assert str(GAME.timeout_action(timed, 0, "3S#2")) == "DISCARD JK#1"
    untimed = deal(["KD KH JK 2C", ""], stock="3S#2")
    assert GAME.turn_seconds(untimed) is None and untimed.expiry_action(0) is None
    play(untimed, 0, "DRAW_STOCK")
    # timer off: the table's own clock and default move, the discard of the card just drawn
    assert str(GAME.timeout_action(untimed, 0, "3S#2")) == "DISCARD 3S#2"


# ---------------------------------------------------------------- hand end and match end


def test_remi_R35_settlement_through_the_engine() -> None:
    state = position(
        hands=["9S", "KH 7S AD JK", "2C 2D"],
        discard="3H",
        melds=[("10S JS QS", 0)],
        phase="play",
        opened=[True, False, False],
    )
    events = play(state, 0, "DISCARD 9S")
    over = next(e for e in events if e.kind == "hand_over")
    assert over.public["penalties"] == [0, 53, 4] and over.public["kalooki"] is False
    assert over.public["hands"][1] == ["7S#1", "KH#1", "AD#1", "JK#1"]
    assert state.observation(2)["last_result"] == over.public
    assert state.observation(None)["totals"] == [0, 53, 4]


def test_remi_R36_kalooki_settlement_through_the_engine() -> None:
    state = position(
        hands=["KC KD KS QC QD QS JC JD JS 2H 3H 4H 5H", "9C", "QH JK 3D 4D KH"],
        discard="2S",
        stock="9S",
    )
    play(state, 0, "DRAW_STOCK", "OPEN [KC KD KS] [QC QD QS] [JC JD JS] [2H 3H 4H 5H]")
    events = play(state, 0, "DISCARD 9S")
    over = next(e for e in events if e.kind == "hand_over")
    assert over.public["kalooki"] is True
    assert over.public["penalties"] == [0, 9 + 25, 10 + 25 + 3 + 4 + 10 + 25]


def test_remi_R40_elimination_and_the_next_deal() -> None:
    state = position(
        hands=["KS QS", "3H", "9D"],
        discard="4C",
        melds=[("10S JS QS", 2)],
        current=2,
        phase="play",
        totals=[140, 120, 60],
        dealer=2,
    )
    events = play(state, 2, "DISCARD 9D")
    over = next(e for e in events if e.kind == "hand_over")
    assert over.public["penalties"] == [20, 3, 0]
    assert over.public["totals"] == [160, 123, 60] and over.public["eliminated"] == [0]
    assert over.public["match_over"] is False
    view = state.observation(None)
    assert view["active"] == [False, True, True] and view["hand_counts"] == [0, 13, 13]
    assert view["dealer"] == 1 and view["first_player"] == 2 and state.to_act() == {2}
    assert state.legal_actions(0) == ()


def test_last_survivor_wins_the_match() -> None:
    state = position(
        hands=["KS QS", "9D"],
        discard="4C",
        melds=[("10S JS QS", 1)],
        current=1,
        phase="play",
        totals=[140, 10],
    )
    events = play(state, 1, "DISCARD 9D")
    assert kinds(events)[-1] == "match_over"
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == frozenset({1})
    assert outcome.scores == (160, 10) and outcome.ranks == (2, 1)
    assert state.to_act() == frozenset() and state.observation(0)["over"] is True
    rejected(state, 0, "DRAW_STOCK", "MATCH_OVER")


@pytest.mark.parametrize(
    ("options", "totals", "over"),
    [
        ({"match_end": "first_to_limit"}, [140, 10], True),
        ({"match_end": "first_to_limit", "match_limit": 200}, [140, 10], False),
        ({"match_end": "fixed_hands", "match_hands": 2}, [0, 0], True),
        ({"match_end": "fixed_hands", "match_hands": 3}, [0, 0], False),
    ],
)
def test_other_match_ends(options: dict[str, object], totals: list[int], over: bool) -> None:
    state = position(
        options=options,
        hands=["KS QS", "9D"],
        discard="4C",
        melds=[("10S JS QS", 1)],
        current=1,
        phase="play",
        totals=totals,
    )
    play(state, 1, "DISCARD 9D")
    assert (state.outcome() is not None) == over
    assert state.observation(None)["active"] == [True, True]


# ---------------------------------------------------------------- observations and events


def test_observations_show_own_cards_only() -> None:
    state = deal(["KC KD KS", "5H 6H"], stock="9S#2")
    events = play(state, 0, "DRAW_STOCK")
    assert events[0].for_viewer(0)["card"] == "9S#2"
    assert "card" not in events[0].for_viewer(1) and "card" not in events[0].for_viewer(None)
    mine, theirs, spectator = (state.observation(v) for v in (0, 1, None))
    assert "9S#2" in mine["hand"] and "9S#2" not in theirs["hand"]
    assert spectator["hand"] is None and mine["hand_counts"] == [14, 13]
    assert "deck" not in mine["options"] and mine["phase"] == "play" and mine["to_act"] == [0]
    text = json.dumps(mine)
    assert "5H#1" not in text and json.loads(text) == mine
    documented = GAME.__class__.__module__
    assert documented == "meldhall.games.remi.game"
    keys = set(mine)
    doc = __import__("meldhall.games.remi", fromlist=["__doc__"]).__doc__ or ""
    assert all(f"``{key}``" in doc for key in keys)


def test_the_deal_events_give_each_seat_its_cards() -> None:
    state = position(hands=["9S", "2C 5D"], discard="3H", melds=[("10S JS QS", 0)], phase="play")
    events = play(state, 0, "DISCARD 9S")
    dealt = [e for e in events if e.kind == "dealt"]
    assert len(dealt) == 2 and all(len(e.private["cards"]) == 13 for e in dealt)  # type: ignore[index]
    assert kinds(events)[:3] == ["discard", "hand_over", "deal"]


# ---------------------------------------------------------------- random play

option_sets = st.fixed_dictionaries(
    {},
    optional={
        "hand_size": st.sampled_from([13, 15]),
        "jokers": st.sampled_from([2, 4]),
        "opening_minimum": st.sampled_from([30, 40, 51]),
        "run_wrap": st.booleans(),
        "ace_value_low_run": st.sampled_from([11, 1]),
        "kalooki_penalty": st.sampled_from([25, 0, "double"]),
        "discard_draw_must_use": st.booleans(),
        "no_rediscard_taken_card": st.booleans(),
        "exchange_requires_open": st.booleans(),
        "released_joker_must_be_used": st.booleans(),
        "set_two_joker_exchange": st.booleans(),
        "joker_discard_allowed": st.booleans(),
        "unopened_penalty": st.sampled_from(["none", "double", "fixed_100"]),
        "match_end": st.sampled_from(["elimination", "first_to_limit", "fixed_hands"]),
        "max_stock_rebuilds": st.sampled_from(["unlimited", 0, 1]),
    },
)


@settings(max_examples=25, deadline=None)
@given(option_sets, st.integers(2, 4), st.integers(0, 10_000))
def test_random_play_under_any_options_keeps_the_invariants(
    raw: dict[str, object], seats: int, seed: int
) -> None:
    options = GAME.options({**raw, "match_hands": 2})
    played = play_random(GAME, f"remi-{seed}", seats=seats, options=options, stop_at=400)
    check_replay(GAME, played)
    check_observations(GAME, played.state, random.Random(seed))


def _single_card_moves(state: RemiState, seat: int) -> list[RemiAction]:
    """Every lay-off, exchange and discard the seat could name with its hand."""
    hand = state.hands[seat]
    jokers = [c for m in state.melds for c in m.cards if c >= FIRST_JOKER]
    melds = range(len(state.melds) + 1)
    out: list[RemiAction] = [Discard(c) for c in hand]
    out += [LayOff(c, m, e) for c in hand for m in melds for e in (None, "low", "high")]
    out += [Exchange(m, (c,), j) for c in hand for m in melds for j in jokers]
    out += [
        Exchange(m, (a, b), j)
        for a, b in itertools.combinations(sorted(hand), 2)
        for m in melds
        for j in jokers
    ]
    return out


@settings(max_examples=20, deadline=None)
@given(option_sets, st.integers(0, 10_000), st.integers(20, 300))
def test_the_checks_accept_exactly_the_listed_moves(
    raw: dict[str, object], seed: int, steps: int
) -> None:
    options = GAME.options(raw)
    played = play_random(GAME, f"remi-moves-{seed}", seats=3, options=options, stop_at=steps)
    state = played.state
    assert isinstance(state, RemiState)
    if state.outcome() is not None:
        return
    seat = state.current
    if state.phase == 0:
        state.apply(seat, state.legal_actions(seat)[0])
    legal = set(state.legal_actions(seat))
    for action in _single_card_moves(state, seat):
        trial = state.copy()
        try:
            trial.apply(seat, action)
        except IllegalAction:
            assert action not in legal, action
        else:
            assert action in legal, action

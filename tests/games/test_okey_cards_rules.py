"""okey-cards: the score tables, options, action forms, observations and random play."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldhall.core.errors import OptionsError, ParseError
from meldhall.core.tiles import parse_okey_cards
from meldhall.games.okey_cards import GAME
from meldhall.games.okey_cards.actions import Action, Discard, Draw, Quit, Select, Unselect
from meldhall.games.okey_cards.pieces import ALL_CARDS, mask_of
from meldhall.games.okey_cards.scoring import TRIPLES, best_total, classify, has_combination, points
from meldhall.games.okey_cards.state import OkeyCardsState
from meldhall.games.okey_cards.summary import reward_shares


def ids(text: str) -> list[int]:
    return [c.id for c in parse_okey_cards(text)]


@pytest.mark.parametrize(
    ("cards", "current", "legacy"),
    [
        ("R1 B1 Y1", 20, 30),  # groups 10n + 10 (legacy 10n + 20)
        ("R8 B8 Y8", 90, 100),
        ("R1 B2 Y3", 10, 10),  # mixed runs 10n in both tables
        ("R6 B7 R8", 60, 60),  # two of one colour is mixed
        ("B1 B2 B3", 50, 40),  # same colour 10n + 40 (legacy 10n + 30)
        ("Y8 Y6 Y7", 100, 90),
    ],
)
def test_score_tables(cards: str, current: int, legacy: int) -> None:
    combo = classify(ids(cards))
    assert combo is not None
    assert (points(combo, "current"), points(combo, "legacy")) == (current, legacy)
    for table, value in (("current", current), ("legacy", legacy)):
        answer = GAME.answer_vector("meld", {"tiles": cards}, GAME.options({"score_table": table}))
        assert answer["value"] == value


@pytest.mark.parametrize(
    "cards", ["R2 R4 R5", "R7 R8 R1", "R5 B5 B6", "R1 B1 Y2", "R1 R2", "R1 R2 R3 R4"]
)
def test_invalid_triples(cards: str) -> None:
    assert classify(ids(cards)) is None
    assert GAME.answer_vector("meld", {"tiles": cards}, GAME.options()) == {"valid": False}


def test_bad_vector_inputs_raise() -> None:
    opts = GAME.options()
    for kind, data in (
        ("meld", {"tiles": "R1 R1 R2"}),
        ("meld", {"tiles": "R1 R2 R3", "type": "pair"}),
        ("best", {"tiles": "R1", "indicator": "R2"}),
        ("score", {"score": "300"}),
        ("hand", {}),
    ):
        with pytest.raises(ParseError):
            GAME.answer_vector(kind, data, opts)


def test_triple_count_and_best_total() -> None:
    assert len(TRIPLES) == 8 + 6 * 27
    assert best_total(ALL_CARDS, "current") == 560
    assert best_total(mask_of(ids("R1 R2 R3 B2 B3 B4")), "current") == 50 + 60
    assert has_combination(mask_of(ids("R1 Y2 B3"))) and not has_combination(
        mask_of(ids("R1 B3 Y8"))
    )


def test_best_total_matches_brute_force_on_small_sets() -> None:
    rng = random.Random(5)
    for _ in range(200):
        cards = rng.sample(range(24), rng.randint(0, 9))
        assert best_total(mask_of(cards), "current") == _brute(mask_of(cards))


def _brute(mask: int) -> int:
    best = 0
    for t, combo in TRIPLES:
        if t & mask == t:
            best = max(best, points(combo, "current") + _brute(mask & ~t))
    return best


def test_reward_thresholds_option() -> None:
    opts = GAME.options({"reward_thresholds": "250, 350"})
    assert opts.reward_thresholds == (250, 350)
    assert [GAME.answer_vector("score", {"score": s}, opts)["reward"] for s in (249, 250, 350)] == [
        "bronze",
        "silver",
        "gold",
    ]
    assert reward_shares([0, 300, 500, 500]) == {"bronze": 0.25, "silver": 0.25, "gold": 0.5}


@pytest.mark.parametrize(
    ("raw", "named"),
    [
        ({"draw_mode": "triple"}, "draw_mode"),
        ({"score_table": "old"}, "score_table"),
        ({"reward_thresholds": [400, 300]}, "reward_thresholds"),
        ({"reward_thresholds": "lots"}, "reward_thresholds"),
        ({"confirm_discard": "yes"}, "confirm_discard"),
        ({"auto_end": 1}, "auto_end"),
        ({"deck": "explicit"}, "deck"),
        ({"deck_order": "R1"}, "deck_order"),
        ({"deck": "explicit", "deck_order": "R1 R1"}, "deck_order"),
        ({"jokers": 2}, "jokers"),
    ],
)
def test_bad_options_are_named(raw: dict[str, object], named: str) -> None:
    with pytest.raises(OptionsError, match=named):
        GAME.options(raw)


def test_partial_explicit_deck_is_completed_from_the_seed() -> None:
    opts = GAME.options({"deck": "explicit", "deck_order": ["Y8", "R1"]})
    a = GAME.new_state(opts, 1, b"one").snapshot()["deck"]
    b = GAME.new_state(opts, 1, b"two").snapshot()["deck"]
    assert a[:2] == b[:2] == ["Y8", "R1"] and sorted(a) == sorted(b) and len(a) == 24
    assert a != b and a == GAME.new_state(opts, 1, b"one").snapshot()["deck"]
    with pytest.raises(OptionsError):
        GAME.new_state(opts, 2, b"one")


def test_action_forms_round_trip() -> None:
    card = parse_okey_cards("B7")[0]
    for action in (Draw(), Quit(), Select(card), Unselect(card), Discard(card)):
        assert GAME.parse_action(str(action)) == action
        assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action
    for bad in ("", "pick R1", "select", "select R9", "draw R1", "select R1 R2"):
        with pytest.raises(ParseError):
            GAME.parse_action(bad)
    for data in ({}, {"type": "select"}, {"type": "draw", "card": "R1"}, {"type": "quit", "x": 1}):
        with pytest.raises(ParseError):
            GAME.action_from_json(data)


def test_spectator_does_not_see_the_hand() -> None:
    state = GAME.new_state(GAME.options(), 1, b"obs")
    state.apply(0, Draw())
    player, spectator = state.observation(0), state.observation(None)
    assert len(player["hand"]) == 5 and "hand" not in spectator and "hand_slots" not in spectator
    assert spectator["hand_count"] == 5 and spectator["deck_count"] == 19
    assert json.loads(json.dumps(player)) == player


def _play_randomly(state: OkeyCardsState, rng: random.Random) -> None:
    while state.outcome() is None:
        legal = state.legal_actions(0)
        moves: list[Action] = [a for a in legal if not isinstance(a, Quit)] or list(legal)
        state.apply(0, rng.choice(moves))
        state.check_invariants()


@settings(max_examples=60, deadline=None)
@given(
    seed=st.binary(min_size=1, max_size=8),
    choice=st.integers(0, 2**32),
    draw_mode=st.sampled_from(["fill", "single"]),
    score_table=st.sampled_from(["current", "legacy"]),
    auto_end=st.booleans(),
)
def test_random_play_keeps_every_invariant(
    seed: bytes, choice: int, draw_mode: str, score_table: str, auto_end: bool
) -> None:
    opts = GAME.options({"draw_mode": draw_mode, "score_table": score_table, "auto_end": auto_end})
    state = GAME.new_state(opts, 1, seed)
    _play_randomly(state, random.Random(choice))
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (state.score,)
    assert state.score == sum(line["points"] for line in state.observation(0)["played"])
    assert state.score <= best_total(ALL_CARDS, score_table)
    if not auto_end:
        assert outcome.termination == "cards_used"

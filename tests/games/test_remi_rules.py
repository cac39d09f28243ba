"""Remi rule pieces: options, action forms, meld validation and search, scoring, match end."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldhall.core.errors import OptionsError, ParseError
from meldhall.games.remi import GAME
from meldhall.games.remi.actions import action_from_json, parse_action
from meldhall.games.remi.best import best_value, exact_best_value, meld_cards
from meldhall.games.remi.melds import MeldKind, RunRules, find_melds, joker_identities, read_meld
from meldhall.games.remi.options import RemiOptions
from meldhall.games.remi.pieces import FIRST_JOKER, RANK, SUIT, card_token, parse_card_list
from meldhall.games.remi.scoring import match_end, settle

# ---------------------------------------------------------------- options


def test_defaults_are_the_seed_game() -> None:
    options = GAME.options()
    assert options == RemiOptions()
    assert (options.hand_size, options.jokers, options.opening_minimum) == (13, 2, 30)
    assert (options.joker_hand_penalty, options.kalooki_penalty) == (25, 25)
    assert (options.match_end, options.match_limit, options.max_stock_rebuilds) == (
        "elimination",
        150,
        "unlimited",
    )
    assert options.ace_low_allowed and not options.run_wrap and options.set_two_joker_exchange


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"colour": 1}, "unknown option 'colour'"),
        ({"opening_minimum": 35}, "option 'opening_minimum'"),
        ({"hand_size": "13"}, "option 'hand_size'"),
        ({"run_wrap": "yes"}, "option 'run_wrap'"),
        ({"kalooki_penalty": "triple"}, "takes 25, 0, 'double'"),
        ({"max_stock_rebuilds": -1}, "'unlimited' or a whole number 0 to 1000"),
        ({"turn_timer": "on"}, "'off' or a whole number 5 to 3600"),
        ({"unopened_penalty": "triple"}, "option 'unopened_penalty'"),
        ({"match_end": "sudden_death"}, "option 'match_end'"),
        ({"players": 7}, "option 'players' takes 2 to 6"),
        ({"run_wrap": True, "ace_low_allowed": False}, "needs 'ace_low_allowed'"),
        ({"first_dealer": 3, "players": 3}, "not a seat of 3 players"),
        ({"deck": "10H 10H 10H"}, "option 'deck'"),
        ({"deck": ["JK#3"]}, "this game has 2 jokers"),
        ({"deck": 5}, "option 'deck'"),
    ],
)
def test_bad_options_name_the_option(raw: dict[str, object], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        GAME.options(raw)


def test_every_listed_alternative_is_accepted() -> None:
    options = GAME.options(
        {
            "players": 6,
            "hand_size": 15,
            "jokers": 4,
            "opening_minimum": 51,
            "ace_low_allowed": True,
            "ace_value_low_run": 1,
            "run_wrap": True,
            "joker_hand_penalty": 15,
            "kalooki_penalty": "double",
            "discard_draw_must_use": True,
            "no_rediscard_taken_card": False,
            "exchange_requires_open": False,
            "released_joker_must_be_used": True,
            "set_two_joker_exchange": False,
            "joker_discard_allowed": False,
            "unopened_penalty": "fixed_100",
            "match_end": "fixed_hands",
            "match_hands": 3,
            "max_stock_rebuilds": 2,
            "turn_timer": 30,
            "deck": "JK#4 AS",
            "first_dealer": 5,
        }
    )
    assert options.total_cards == 108 and options.deck == ("JK#4", "AS")


def test_seat_count_must_fit_the_players_option() -> None:
    with pytest.raises(OptionsError, match="2 to 4 players"):
        GAME.new_state(GAME.options(), 5, b"s")
    state = GAME.new_state(GAME.options({"players": 6}), 6, b"s")
    assert state.observation(None)["hand_counts"] == [13] * 6


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize(
    "text",
    [
        "DRAW_STOCK",
        "DRAW_DISCARD",
        "DISCARD 9C#2",
        "OPEN [10H#1 10S#1 JK#1=10?] [2C#1 3C#1 4C#1]",
        "MELD [5H#1 JK#2=6H 7H#1]",
        "LAY_OFF JS#1 m0 low",
        "LAY_OFF 7D#2 m12",
        "EXCHANGE m2 give 10D#1 10C#2 take JK#1",
        "DISCARD JK#4",
    ],
)
def test_action_forms_round_trip(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text
    assert action_from_json(action.to_json()) == action
    assert GAME.parse_action(text.lower()) == action


def test_copies_are_assigned_over_the_whole_action() -> None:
    action = parse_action("OPEN [7H 7S 7D] [5H 6H 7H]")
    assert str(action) == "OPEN [7H#1 7S#1 7D#1] [5H#1 6H#1 7H#2]"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "PASS",
        "DRAW_STOCK now",
        "DISCARD",
        "DISCARD 11H",
        "OPEN 7H 7S 7D",
        "OPEN [7H 7S] junk",
        "OPEN []",
        "MELD [7H 7S 7D] [8H 8S 8D]",
        "MELD [7H=7C 7S 7D]",
        "MELD [JK=XX 7S 7D]",
        "LAY_OFF 7H 0",
        "LAY_OFF 7H m0 middle",
        "EXCHANGE m0 give 5H",
        "EXCHANGE m0 give take JK",
        "DISCARD 7H#3",
        "OPEN [7H 7H 7H]",
    ],
)
def test_bad_action_texts_raise_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        parse_action(text)


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"type": "fly"},
        {"type": "discard"},
        {"type": "discard", "card": 7},
        {"type": "draw_stock", "card": "7H"},
        {"type": "open", "melds": []},
        {"type": "open", "melds": [{"cards": "7H 7S 7D"}]},
        {"type": "meld", "meld": {"cards": ["JK", "7S", "7D"], "declare": ["7H", "7C"]}},
        {"type": "lay_off", "card": "7H", "meld": -1},
        {"type": "lay_off", "card": "7H", "meld": 0, "end": 3},
        {"type": "exchange", "meld": 0, "give": [], "take": "JK"},
    ],
)
def test_bad_action_json_raises_parse_error(data: object) -> None:
    with pytest.raises(ParseError):
        action_from_json(data)


# ---------------------------------------------------------------- melds

DEFAULT = RunRules()


def reading_of(text: str, rules: RunRules = DEFAULT, kind: MeldKind | None = None) -> str:
    """Return ``kind value identities`` of a meld, or its reason code."""
    cards = parse_card_list(text, 4)
    found = read_meld(cards, None, rules, kind)
    if isinstance(found, str):
        return found
    jokers = " ".join(joker_identities(cards, found, rules))
    return f"{found.kind} {found.value} {jokers}".strip()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7H 7S 7D", "set 21"),
        ("7H#1 7H#2 7S", "INVALID_MELD"),
        ("7H 7S 7D 7C JK", "INVALID_MELD"),
        ("JK JK 7S", "set 21 7? 7?"),
        ("7S JK JK", "run 24 8S 9S"),
        ("7S 7H 7D JK", "set 28 7C"),
        ("AH 2H 3H", "run 16"),
        ("QS KS AS", "run 31"),
        ("KS AS 2S", "INVALID_MELD"),
        ("JK AH JK", "set 33 A? A?"),
        ("JK JK AH", "set 33 A? A?"),
        ("AH JK JK", "set 33 A? A?"),
        ("JK 2C 3C", "run 16 AC"),
        ("5H 6H 7D", "INVALID_MELD"),
        ("JK JK JK", "INVALID_MELD"),
        ("5H 7H 6H", "INVALID_MELD"),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "run 95"),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "INVALID_MELD"),
    ],
)
def test_meld_readings(text: str, expected: str) -> None:
    assert reading_of(text) == expected


def test_a_reading_can_be_asked_for() -> None:
    assert reading_of("JK JK AH", kind="run") == "run 31 QH KH"
    assert reading_of("10H JK JK", kind="set") == "set 30 10? 10?"
    assert reading_of("10H JK JK") == "run 30 JH QH"


@pytest.mark.parametrize(
    ("text", "rules", "expected"),
    [
        ("AH 2H 3H", RunRules(ace_low=False), "INVALID_MELD"),
        ("QH KH AH", RunRules(ace_low=False), "run 31"),
        ("JK 2H 3H", RunRules(ace_low=False), "INVALID_MELD"),
        ("KS AS 2S", RunRules(wrap=True), "run 23"),
        ("QS KS AS 2S 3S", RunRules(wrap=True), "run 36"),
        ("AH 2H 3H", RunRules(ace_low_value=1), "run 6"),
        ("JK 2H 3H", RunRules(ace_low_value=1), "run 6 AH"),
        ("QH KH AH", RunRules(ace_low_value=1), "run 31"),
        ("AH AS AD", RunRules(ace_low_value=1), "set 33"),
    ],
)
def test_meld_readings_under_options(text: str, rules: RunRules, expected: str) -> None:
    assert reading_of(text, rules) == expected


def test_declarations_must_match_the_position() -> None:
    cards = parse_card_list("5H JK 7H")
    assert read_meld(cards, ["7H"], DEFAULT) == "DECLARATION_MISMATCH"
    assert read_meld(cards, ["6H"], DEFAULT) != "DECLARATION_MISMATCH"
    ten = parse_card_list("10H JK JK")
    found = read_meld(ten, ["10?", "10S"], DEFAULT)
    assert not isinstance(found, str) and found.kind == "set"
    found = read_meld(ten, ["JH", None], DEFAULT)
    assert not isinstance(found, str) and found.kind == "run"
    assert read_meld(ten, ["10H", None], DEFAULT) == "DECLARATION_MISMATCH"


def _brute_melds(hand: list[int], rules: RunRules) -> set[tuple[frozenset[int], str]]:
    """Every (cards, kind) that forms a valid meld, found by trying every ordering."""
    out: set[tuple[frozenset[int], str]] = set()
    for size in range(3, len(hand) + 1):
        for subset in itertools.combinations(hand, size):
            for order in itertools.permutations(subset):
                for kind in ("run", "set"):
                    if not isinstance(read_meld(order, None, rules, kind), str):  # type: ignore[arg-type]
                        out.add((frozenset(subset), kind))
    return out


hands = st.lists(st.integers(0, 105), min_size=3, max_size=6, unique=True)


@settings(max_examples=60, deadline=None)
@given(hands, st.sampled_from([RunRules(), RunRules(wrap=True), RunRules(ace_low=False)]))
def test_find_melds_finds_exactly_the_valid_melds(hand: list[int], rules: RunRules) -> None:
    found = find_melds(hand, rules)
    for cand in found:
        reading = read_meld(cand.cards, list(cand.declare) or None, rules, cand.reading.kind)
        assert reading == cand.reading, (cand, reading)
    assert {(frozenset(c.cards), c.reading.kind) for c in found} == _brute_melds(hand, rules)
    assert len({(c.cards, c.reading.kind) for c in found}) == len(found)


def _weighted_hand() -> st.SearchStrategy[list[int]]:
    """Hands of 6 to 14 cards from a few ranks and suits, so melds are common."""
    cards = [c for c in range(104) if RANK[c] in (1, 2, 3, 4, 5, 12, 13) and SUIT[c] < 3]
    return st.lists(st.sampled_from([*cards, 104, 105]), min_size=6, max_size=14, unique=True)


@settings(max_examples=60, deadline=None)
@given(_weighted_hand())
def test_solver_and_exact_search_agree_on_the_best_value(hand: list[int]) -> None:
    value = best_value(hand, DEFAULT)
    assert value == exact_best_value(hand, DEFAULT)
    used = meld_cards(hand, DEFAULT)
    assert exact_best_value(sorted(used), DEFAULT) == value


def test_best_keeps_a_natural_in_every_meld() -> None:
    assert best_value(parse_card_list("JK JK"), DEFAULT) == 0
    two_jokers = parse_card_list("JK JK 2C")
    assert best_value(two_jokers, DEFAULT) == exact_best_value(two_jokers, DEFAULT) == 16
    assert best_value(two_jokers, RunRules(ace_low_value=1)) == 2 + 3 + 4


def test_best_vectors_answer_value_and_opens() -> None:
    answer = GAME.answer_vector("best", {"tiles": "AH 2H 3H 7C 7D 7S"}, GAME.options())
    assert answer == {"value": 37, "opens": True}
    answer = GAME.answer_vector(
        "best", {"tiles": "AH 2H 3H 7C 7D 7S"}, GAME.options({"opening_minimum": 40})
    )
    assert answer == {"value": 37, "opens": False}
    wrap = GAME.answer_vector("best", {"tiles": "KS AS 2S"}, GAME.options({"run_wrap": True}))
    assert wrap["value"] == 23


# ---------------------------------------------------------------- scoring and match end


def test_scoring_options() -> None:
    hands = [parse_card_list(t) for t in ("", "KH 7S AD JK", "2C 2D")]
    opened = [True, False, True]
    on = [True] * 3

    def penalties(**raw: object) -> list[int]:
        return settle(hands, 0, True, opened, on, GAME.options(raw)).penalties

    assert penalties() == [0, 53 + 25, 4 + 25]
    assert penalties(kalooki_penalty=0) == [0, 53, 4]
    assert penalties(kalooki_penalty="double") == [0, 106, 8]
    assert penalties(joker_hand_penalty=15) == [0, 43 + 25, 29]
    assert penalties(unopened_penalty="double") == [0, 106 + 25, 29]
    assert penalties(unopened_penalty="fixed_100") == [0, 125, 29]
    assert settle(hands, None, False, opened, on, GAME.options()).penalties == [0, 0, 0]


def test_match_end_variants() -> None:
    totals, on = [160, 123, 151], [True] * 3
    assert match_end(totals, on, 1, GAME.options()).eliminated == (0, 2)
    end = match_end(totals, on, 1, GAME.options())
    assert end.over and end.winners == (1,)
    end = match_end([100, 151, 100], on, 1, GAME.options({"match_end": "first_to_limit"}))
    assert end.over and end.winners == (0, 2)
    fixed = GAME.options({"match_end": "fixed_hands", "match_hands": 2})
    assert not match_end([1, 2, 3], on, 1, fixed).over
    end = match_end([1, 2, 3], on, 2, fixed)
    assert end.over and end.winners == (0,) and end.eliminated == ()


def test_score_vector_input_errors() -> None:
    with pytest.raises(ParseError):
        GAME.answer_vector("score", {"hands": ["", "7H"], "closer": 5}, GAME.options())
    with pytest.raises(ParseError):
        GAME.answer_vector("score", {"hands": ["", 7]}, GAME.options())
    with pytest.raises(ParseError):
        GAME.answer_vector("hand", {}, GAME.options())
    with pytest.raises(ParseError):
        GAME.answer_vector("meld", {"tiles": "5H JK 7H", "declare": ["7Z"]}, GAME.options())
    fixed = GAME.options({"match_end": "fixed_hands"})
    answer = GAME.answer_vector("score", {"hands": ["", "7H"], "closer": 0}, fixed)
    assert "match_over" not in answer and answer["penalties"] == [0, 7]


def test_cards_and_tokens() -> None:
    assert [card_token(c) for c in parse_card_list("JK JK JK", 4)] == ["JK#1", "JK#2", "JK#3"]
    assert all(c >= FIRST_JOKER for c in parse_card_list("JK#3 JK#4", 4))
    with pytest.raises(ParseError):
        parse_card_list("JK#3")

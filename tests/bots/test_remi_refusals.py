"""What the next remi player refused (bots/remi_refusals.py) and how the take chance reads it
(bots/remi_feed.py)."""

from __future__ import annotations

from typing import Any

from meldhall.bots.remi_feed import take_chance
from meldhall.bots.remi_refusals import NextRefusals
from meldhall.games.remi.melds import RunRules
from meldhall.games.remi.pieces import CARD_ID, parse_card_list

BASE: dict[str, Any] = {"hand_number": 3, "stock_rebuilds": 0, "active": [True] * 4}


def _faces(*tokens: str) -> set[int]:
    return {CARD_ID[t] >> 1 for t in tokens}


def _after_throw(next_opened: bool, pile: list[str], hand: int = 3) -> frozenset[int]:
    """Return the faces read when seat 0 threw the 9H on ``["2C#1"]`` and later sees
    ``pile`` in hand ``hand``."""
    refusals = NextRefusals()
    refusals.note_discard({**BASE, "discard": ["2C#1"]}, CARD_ID["9H#1"], 1, next_opened)
    return refusals.update({**BASE, "hand_number": hand, "discard": pile}, 1)


def test_a_pass_and_his_own_discard_are_read() -> None:
    pile = ["2C#1", "9H#1", "KS#1", "4D#1", "5D#1"]
    assert _after_throw(True, pile) == _faces("9H#1", "KS#1")


def test_an_unopened_pass_says_nothing_but_his_discard_does() -> None:
    pile = ["2C#1", "9H#1", "KS#1", "4D#1", "5D#1"]
    assert _after_throw(False, pile) == _faces("KS#1")


def test_his_discard_after_taking_the_seats() -> None:
    pile = ["2C#1", "KS#1", "4D#1", "5D#1"]
    assert _after_throw(True, pile) == _faces("KS#1")


def test_an_ambiguous_pile_is_not_read_past_the_pass() -> None:
    pile = ["2C#1", "9H#1", "KS#1", "5D#1"]  # a later player took a discard
    assert _after_throw(True, pile) == _faces("9H#1")
    assert _after_throw(True, ["2C#1", "KS#1", "5D#1"]) == frozenset()


def test_a_new_hand_forgets() -> None:
    assert _after_throw(True, ["2C#1", "9H#1", "KS#1", "4D#1", "5D#1"], hand=4) == frozenset()


def test_a_refused_face_makes_its_pairs_less_likely() -> None:
    unseen = [2] * 52
    seven_h, seven_c = parse_card_list("7H 7C")
    known = parse_card_list("7S 7D")
    rules = RunRules()
    before = take_chance(seven_h, known, 13, unseen, 80, rules)
    after = take_chance(seven_h, known, 13, unseen, 80, rules, _faces("7C#1"))
    assert after < before - 0.1  # the 7S-7D pair he holds no longer counts in full
    refused_itself = take_chance(seven_h, known, 13, unseen, 80, rules, _faces("7H#2"))
    assert refused_itself < after
    assert take_chance(seven_h, known, 13, unseen, 80, rules, {seven_c >> 1}) == after
    unrelated = take_chance(seven_h, known, 13, unseen, 80, rules, _faces("KS#1"))
    assert unrelated == before

"""Remi's belief about the next player's hand (bots/remi_belief.py) and the strong bot's use
of it: a discard that lets him open is held back."""

from __future__ import annotations

import json
import random
from typing import Any

from meldhall.bots.remi_belief import (
    Pass,
    has_played,
    next_hands,
    passed_on,
    take_shares,
    unseen_cards,
)
from meldhall.bots.remi_strong import StrongRemiBot
from meldhall.games.remi.actions import Discard
from meldhall.games.remi.best import best_value
from meldhall.games.remi.hints import joins_meld
from meldhall.games.remi.melds import RunRules
from meldhall.games.remi.pieces import CARD_ID, parse_card_list
from meldhall.games.remi.state import RemiState
from tests.games.test_remi_helpers import position


def _later(state: RemiState, turn: int) -> dict[str, Any]:
    """Return seat 0's JSON observation with the hand ``turn`` turns old (seat 0 began)."""
    state.first = 0
    state.turn = turn
    observation: dict[str, Any] = json.loads(json.dumps(state.observation(0)))
    return observation


def _feeding_position() -> RemiState:
    """Seat 0 has drawn; seat 1, next, unopened, took QS and KS face up: the AS lets him
    open (Q-K-A is 31), the 2C or the 9D does not."""
    state = position(
        hands=["AS 2C 3C 9D 9H", "QS KS 4H 8D", "5S 6D 7C 10H", "JD 4C 8S 10C"],
        discard="6H",
        phase="play",
    )
    state.known[1] = set(parse_card_list("QS KS"))
    return state


def test_has_played_counts_the_turns_of_the_hand() -> None:
    state = _feeding_position()
    assert not has_played(_later(state, 1), 1)  # seat 1 plays the hand's second turn
    assert has_played(_later(state, 5), 1)
    assert has_played(_later(state, 2), 0) and not has_played(_later(state, 1), 0)


def test_unseen_cards_leave_out_everything_face_up() -> None:
    observation = _later(_feeding_position(), 5)
    unseen = unseen_cards(observation)
    assert len(unseen) == 106 - 5 - 1 - 2  # own hand, the pile, seat 1's known cards
    assert CARD_ID["QS#1"] not in unseen and CARD_ID["4H#1"] in unseen


def test_passed_on_finds_the_discard_still_on_the_pile() -> None:
    observation = _later(_feeding_position(), 5)
    six = CARD_ID["6H#1"]
    last = Pass(observation["hand_number"], observation["stock_rebuilds"], six, 1)
    assert passed_on(observation, last) == six
    assert passed_on(observation, Pass(last.hand_number, 0, CARD_ID["9D#1"], 1)) is None
    assert passed_on(observation, Pass(last.hand_number + 1, 0, six, 1)) is None
    assert passed_on(observation, None) is None


def test_next_hands_agree_with_what_he_did() -> None:
    observation = _later(_feeding_position(), 5)
    rules = RunRules()
    refused = CARD_ID["10S#1"]  # he drew from the stock over it

    def takers(hands: list[list[int]]) -> int:
        """Return how many hands would have opened with the 10S (J-Q-K-10 and the like)."""
        return sum(
            joins_meld(refused, h, rules) and best_value([*h, refused], rules) >= 30 for h in hands
        )

    hands = next_hands(observation, 1, refused, rules, random.Random(4), draws=200)
    assert all(len(h) == 4 and {CARD_ID["QS#1"], CARD_ID["KS#1"]} <= set(h) for h in hands)
    assert all(best_value(h, rules) < 30 for h in hands)  # unopened after his turns
    plain = next_hands(observation, 1, None, rules, random.Random(4), draws=200)
    assert takers(hands) < takers(plain)


def test_take_shares_count_the_hands_that_take() -> None:
    rules = RunRules()
    ace, two = (CARD_ID[t] for t in ("AS#1", "2C#1"))
    hands = [parse_card_list("QS KS 4H 8D"), parse_card_list("QS KS 3C 4C")]
    assert take_shares([ace, two], hands, False, lambda c: False, rules, 30) == [1.0, 0.0]
    assert take_shares([ace, two], hands, True, lambda c: False, rules, 30) == [1.0, 0.5]
    assert take_shares([ace], hands, True, lambda c: True, rules, 30) == [1.0]


def test_strong_holds_back_the_card_that_lets_the_next_player_open() -> None:
    state = _feeding_position()
    observation = _later(state, 5)
    legal = state.legal_actions(0)
    assert all(isinstance(a, Discard) for a in legal)
    blind = StrongRemiBot(sampled=False, feed_weight=(0.0, 0.0))
    ace = CARD_ID["AS#1"]
    first = blind.choose(observation, legal, random.Random(0))
    assert isinstance(first, Discard) and first.card == ace  # the loosest card
    assert StrongRemiBot().choose(observation, legal, random.Random(0)) == first  # pairs only
    second = StrongRemiBot(sampled=True).choose(observation, legal, random.Random(0))
    assert isinstance(second, Discard) and second.card != ace


def test_strong_samples_the_unopened_next_player() -> None:
    state = _feeding_position()
    observation = _later(state, 5)
    legal = state.legal_actions(0)
    plain = StrongRemiBot(sample_unopened=False, feed_weight=(20.0, 40.0))
    thrown = plain.choose(observation, legal, random.Random(0))
    assert isinstance(thrown, Discard) and thrown.card == CARD_ID["AS#1"]  # pairs only
    hybrid = StrongRemiBot(sample_unopened=True, feed_weight=(20.0, 40.0))
    held = hybrid.choose(observation, legal, random.Random(0))
    assert isinstance(held, Discard) and held.card != CARD_ID["AS#1"]

"""The Sichuan ``strong`` bot: legal choices from search over sampled worlds."""

from __future__ import annotations

import random

from meldhall.bots.search import Budget
from meldhall.bots.sichuan import GreedyBot
from meldhall.bots.sichuan_strong import StrongBot, fast_action
from meldhall.games.sichuan import GAME
from meldhall.simulate import play_match

QUICK = Budget(seconds=0.0, min_rounds=2, max_rounds=2)


def test_strong_plays_a_whole_match_with_listed_actions() -> None:
    bots = [StrongBot(QUICK), GreedyBot(), StrongBot(QUICK), GreedyBot()]
    run = play_match(GAME, bots, b"strong", GAME.options(), check=True)
    assert run.outcome is not None


def test_the_fast_policy_finishes_every_deal() -> None:
    for i in range(5):
        state = GAME.new_state(GAME.options(), 4, bytes([i]))
        while state.outcome() is None:
            seat = min(state.to_act())
            legal = state.legal_actions(seat)
            action = fast_action(state, seat, legal)
            assert action in legal
            state.apply(seat, action)


def test_a_forced_move_costs_no_search() -> None:
    class Counting(StrongBot):
        def _candidates(self, *args: object) -> list[object]:  # type: ignore[override]
            raise AssertionError("searched a forced move")

    state = GAME.new_state(GAME.options(), 4, b"forced")
    obs = state.observation(0)
    legal = state.legal_actions(0)[:1]
    assert Counting(QUICK).choose(obs, legal, random.Random(0)) == legal[0]

"""okey-cards: the options the table and the end of the game read (found untested by
``scripts/option_audit.py``): each test fails when its option is ignored."""

from __future__ import annotations

from meldhall.games.okey_cards import GAME
from meldhall.games.okey_cards.actions import Quit


def test_confirm_discard_reaches_the_observation() -> None:
    for raw, expected in (({}, True), ({"confirm_discard": False}, False)):
        state = GAME.new_state(GAME.options(raw), 1, b"flags")
        assert state.observation(0)["confirm_discard"] is expected
        assert state.observation(None)["confirm_discard"] is expected


def test_reward_thresholds_decide_the_tier_of_a_finished_game() -> None:
    tiers = []
    for raw in ({}, {"reward_thresholds": [0, 1000]}, {"reward_thresholds": [0, 0]}):
        state = GAME.new_state(GAME.options(raw), 1, b"flags")
        events = state.apply(0, Quit())
        over = next(e for e in events if e.kind == "hand_over")
        tiers.append((over.public["reward"], state.observation(0)["reward"]))
    assert tiers == [("bronze", "bronze"), ("silver", "silver"), ("gold", "gold")]

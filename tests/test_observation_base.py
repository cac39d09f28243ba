"""The observation base (docs/protocol.md, "Observations"): in random play of every game, each
viewer's observation carries the common keys with their one meaning."""

from __future__ import annotations

import random

import pytest

from meldhall.core.observation import COMMON_KEYS
from meldhall.core.rng import seed_from_text
from meldhall.games.registry import find_game, game_ids

STEPS = 2500


def _check(state: object, viewer: int | None, previous_hand: int) -> int:
    obs = state.observation(viewer)  # type: ignore[attr-defined]
    assert set(COMMON_KEYS) <= set(obs)
    seats = state.seats  # type: ignore[attr-defined]
    outcome = state.outcome()  # type: ignore[attr-defined]
    assert obs["seat"] == viewer
    assert obs["to_act"] == sorted(state.to_act())  # type: ignore[attr-defined]
    assert obs["phase"] == obs["phase"].lower() and obs["phase"]
    assert obs["over"] is (outcome is not None)
    assert obs["hand_number"] >= max(previous_hand, 1)
    assert len(obs["match_scores"]) == len(obs["hidden_counts"]) == seats
    assert all(isinstance(n, int) and n >= 0 for n in obs["hidden_counts"])
    if viewer is not None and obs.get("hand") is not None and not obs["over"]:
        assert obs["hidden_counts"][viewer] == len(obs["hand"])
    if outcome is not None:
        assert obs["match_scores"] == list(outcome.scores)
    return int(obs["hand_number"])


@pytest.mark.parametrize("game_id", game_ids())
def test_every_observation_has_the_common_keys(game_id: str) -> None:
    game = find_game(game_id)
    for match in range(2):
        state = game.new_state(game.options(), game.default_seats, seed_from_text(f"base{match}"))
        rng = random.Random(match)
        hand = 1
        for _ in range(STEPS):
            for viewer in [None, *range(state.seats)]:
                hand = _check(state, viewer, hand)
            if not state.to_act():
                break
            seat = rng.choice(sorted(state.to_act()))
            state.apply(seat, rng.choice(state.legal_actions(seat)))

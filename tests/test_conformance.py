"""The engine contract's conformance suite, run for every registered game."""

from __future__ import annotations

import random

import pytest

from meldhall.core.registry import find_game, game_ids
from meldhall.testing.conformance import check_observations, check_replay, play_random


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_random_play_probes_every_action(game_id: str, seed: str) -> None:
    game = find_game(game_id)
    played = play_random(game, f"{game_id}-{seed}", probe_every=7)
    assert played.state.outcome() is not None
    check_replay(game, played)


@pytest.mark.parametrize("game_id", game_ids())
def test_seat_counts(game_id: str) -> None:
    game = find_game(game_id)
    for seats in range(game.min_seats, game.max_seats + 1):
        played = play_random(game, f"{game_id}-seats-{seats}", seats=seats)
        assert played.state.outcome() is not None
        check_replay(game, played)


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("stop_at", [0, 5, 23, 61, 150])
def test_observations_hide_what_they_must(game_id: str, stop_at: int) -> None:
    game = find_game(game_id)
    played = play_random(game, f"{game_id}-obs-{stop_at}", stop_at=stop_at)
    check_observations(game, played.state, random.Random(stop_at))
    check_replay(game, played)

"""The engine contract's conformance suite, run for every registered game."""

from __future__ import annotations

import random

import pytest

from meldhall.games.registry import find_game, game_ids
from meldhall.testing.conformance import check_observations, check_replay, play_random


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_random_play_probes_every_action(game_id: str, seed: str) -> None:
    game = find_game(game_id)
    played = play_random(game, f"{game_id}-{seed}", probe_every=7)
    check_replay(game, played)


@pytest.mark.parametrize("game_id", game_ids())
def test_seat_counts(game_id: str) -> None:
    game = find_game(game_id)
    for seats in range(game.min_seats, game.max_seats + 1):
        played = play_random(game, f"{game_id}-seats-{seats}", seats=seats, max_hands=1)
        check_replay(game, played)


@pytest.mark.parametrize("game_id", game_ids())
def test_whole_match_ends(game_id: str) -> None:
    """Seeded play by the game's own random bots (which still win when they can) finishes a
    whole match, and no loser ranks ahead of a winner."""
    from meldhall.bots.base import make_bot
    from meldhall.core.rng import seed_from_text
    from meldhall.simulate import play_match

    game = find_game(game_id)
    bots = [make_bot(game_id, "random") for _ in range(game.default_seats)]
    run = play_match(game, bots, seed_from_text(f"{game_id}-match"), check=True)
    assert run.outcome is not None
    ranks, winners = run.outcome.ranks, run.outcome.winners
    assert winners, "a finished match has a winner"
    losers = set(range(game.default_seats)) - winners
    assert all(ranks[w] <= ranks[loser] for w in winners for loser in losers)


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("stop_at", [0, 5, 23, 61, 150])
def test_observations_hide_what_they_must(game_id: str, stop_at: int) -> None:
    game = find_game(game_id)
    played = play_random(game, f"{game_id}-obs-{stop_at}", stop_at=stop_at)
    check_observations(game, played.state, random.Random(stop_at))
    check_replay(game, played)

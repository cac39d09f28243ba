"""Samplers for search: a sample depends on the observation alone, and agrees with it.

For positions of seeded random matches: the seat's observation of every sample equals the real
one, and a second true state with the same observation (its hidden tiles dealt anew by
``shuffled_hidden``) gives identical samples for the same rng.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from meldhall.bench.clone import positions
from meldhall.games.okey.sample import sample as okey_sample
from meldhall.games.okey_cards.sample import sample as okey_cards_sample
from meldhall.games.okey_ladder.sample import sample as okey_ladder_sample
from meldhall.games.remi.sample import sample as remi_sample
from meldhall.games.sichuan.sample import sample as sichuan_sample
from meldhall.games.tile_rummy.sample import sample as tile_rummy_sample

SAMPLERS: dict[str, Callable[..., Any]] = {
    "okey": okey_sample,
    "okey-cards": okey_cards_sample,
    "okey-ladder": okey_ladder_sample,
    "remi": remi_sample,
    "sichuan": sichuan_sample,
    "tile-rummy": tile_rummy_sample,
}


@pytest.mark.parametrize("bot", ["", "greedy"])
@pytest.mark.parametrize("game_id", sorted(SAMPLERS))
def test_samples_depend_on_the_observation_alone(game_id: str, bot: str) -> None:
    sample = SAMPLERS[game_id]
    rng = random.Random(7)
    checked = 0
    for state in positions(game_id, 120, "samplers", every=3, bot=bot):
        if state.outcome() is not None:
            continue
        for seat in sorted(state.to_act())[:1] or [0]:
            obs = state.observation(seat)
            twin = state.shuffled_hidden(seat, rng)
            assert twin.observation(seat) == obs
            one = sample(obs, random.Random(checked))
            two = sample(twin.observation(seat), random.Random(checked))
            assert one.snapshot() == two.snapshot()
            assert one.observation(seat) == obs
            one.check_invariants()
            if checked % 10 == 0:
                _play_out(one, rng)
            checked += 1
    assert checked >= 100


def _play_out(state: Any, rng: random.Random, actions: int = 300) -> None:
    """Play a sampled world on by random moves (to the end of the match or ``actions``
    actions), checking invariants."""
    for _ in range(actions):
        if state.outcome() is not None:
            break
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
        state.check_invariants()

"""Observation arrays never depend on pieces hidden from their seat: reshuffling those
pieces (``State.shuffled_hidden``) leaves every array and mask of that seat unchanged."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldhall.rl.match import Match
from meldhall.rl.specs import SPECS


def _views(match: Match, seat: int) -> tuple[np.ndarray, np.ndarray]:
    match.decision = None
    return match.observe(seat), match.mask(seat)


@pytest.mark.parametrize("game_id", sorted(SPECS))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 120))
def test_arrays_ignore_the_hidden_pieces(game_id: str, seed: int, steps: int) -> None:
    match = Match(game_id)
    match.reset(seed.to_bytes(4, "big"))
    rng = random.Random(seed)
    for _ in range(steps):
        if match.over():
            break
        seat = min(match.to_act())
        legal = match.state.legal_actions(seat)
        match.apply(seat, legal[rng.randrange(len(legal))])
    original = match.state
    for seat in range(match.seats):
        before = _views(match, seat)
        match.state = original.shuffled_hidden(seat, rng)
        after = _views(match, seat)
        match.state = original
        assert np.array_equal(before[0], after[0]), f"{game_id}: seat {seat} array"
        assert np.array_equal(before[1], after[1]), f"{game_id}: seat {seat} mask"

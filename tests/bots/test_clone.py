"""``State.clone()`` in every game: an equal copy that neither side's play can change."""

from __future__ import annotations

import random

import pytest

from meldhall.bench.clone import check_clone, positions
from meldhall.games.registry import game_ids


@pytest.mark.parametrize("game_id", game_ids())
def test_clone_is_equal_and_independent(game_id: str) -> None:
    rng = random.Random(1)
    for state in positions(game_id, 12, "clone-test", every=11):
        check_clone(state, rng, actions=60)
        copy = state.clone()  # type: ignore[attr-defined]
        before = copy.snapshot()
        check_clone(state, rng, actions=1)
        # play the original on: the earlier copy keeps its position
        for _ in range(60):
            if state.outcome() is not None:
                break
            seat = min(state.to_act())
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
        assert copy.snapshot() == before
        copy.check_invariants()

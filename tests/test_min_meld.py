"""Each game's declared ``min_meld`` (the page offers to lay a selection at least that large,
/api/games) is the size of the smallest meld its rules list: over seeded random play, the
smallest listed meld has exactly that many pieces, and a game that declares none lists no
meld from a rack."""

from __future__ import annotations

import random
from typing import Any

import pytest

from meldhall.games.registry import find_game, game_ids
from meldhall.server.games import games_json

MELD_TYPES = ("meld", "open")


def _pieces(data: Any) -> list[int]:
    """Return the sizes of the piece lists (``tiles`` / ``cards``) of a meld action's JSON."""
    if isinstance(data, dict):
        sizes = [len(v) for k, v in data.items() if k in ("tiles", "cards") and isinstance(v, list)]
        return sizes + [n for v in data.values() for n in _pieces(v)]
    if isinstance(data, list):
        return [n for v in data for n in _pieces(v)]
    return []


def _listed_meld_sizes(game_id: str, matches: int = 6, steps: int = 500) -> list[int]:
    game = find_game(game_id)
    sizes: list[int] = []
    for m in range(matches):
        state = game.new_state(game.options(), game.default_seats, f"min-meld {m}".encode())
        rng = random.Random(m)
        for _ in range(steps):
            if state.outcome() is not None:
                break
            seat = sorted(state.to_act())[0]
            legal = state.legal_actions(seat)
            for action in legal:
                data = action.to_json()
                if data.get("type") in MELD_TYPES:
                    sizes.extend(_pieces(data))
            state.apply(seat, rng.choice(legal))
    return sizes


@pytest.mark.parametrize("game_id", game_ids())
def test_the_declared_smallest_meld_is_the_smallest_listed(game_id: str) -> None:
    declared = find_game(game_id).min_meld
    sizes = _listed_meld_sizes(game_id)
    if declared == 0:
        assert sizes == []
    else:
        assert sizes and min(sizes) == declared


def test_the_pages_read_the_smallest_meld_from_the_game_list() -> None:
    listed = {g["id"]: g["min_meld"] for g in games_json()}
    assert listed == {gid: find_game(gid).min_meld for gid in game_ids()}
    assert listed["remi"] == 3 and listed["okey-ladder"] == 2

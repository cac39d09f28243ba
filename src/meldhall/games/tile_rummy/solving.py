"""Tile Rummy 500 on the arrangement solver (``meldhall.core.solver``): its rule set, and the
conversions between tile ids and the solver's count arrays."""

from __future__ import annotations

from collections.abc import Sequence

from meldhall.games.tile_rummy.faces import FACES, SMILEY_A
from meldhall.games.tile_rummy.options import TileRummyOptions


def counts_of(tiles: Sequence[int]) -> tuple[list[int], int]:
    """Return the face counts (index colour × 13 + number − 1) and the Smiley count."""
    counts = [0] * FACES
    jokers = 0
    for t in tiles:
        if t >= SMILEY_A:
            jokers += 1
        else:
            counts[t >> 1] += 1
    return counts, jokers


def best_value(tiles: Sequence[int], options: TileRummyOptions) -> int:
    """Return the highest total value of disjoint valid melds among the tiles."""
    raise NotImplementedError("waiting for meldhall.core.solver")


def best_count(tiles: Sequence[int], options: TileRummyOptions) -> int:
    """Return the most tiles disjoint valid melds among the tiles can hold."""
    raise NotImplementedError("waiting for meldhall.core.solver")

"""REARRANGE candidates (rules section 7): which recombinations of one's own melds to list."""

from __future__ import annotations

from collections.abc import Sequence

from meldhall.games.tile_rummy.actions import Rearrange
from meldhall.games.tile_rummy.melds import Shape

OwnMeld = tuple[int, Shape, list[int]]


def rearrange_actions(
    own: Sequence[OwnMeld], rack: Sequence[int], wrap: bool, others: Sequence[OwnMeld]
) -> list[Rearrange]:
    """Return the listed rearrangements of the player's own melds that place rack tiles."""
    return []

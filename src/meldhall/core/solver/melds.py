"""The solver's answers: melds and solutions, on (colour, number) pairs, never physical tiles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

MeldKind = Literal["run", "set", "pair"]
Face = tuple[int, int]
"""(colour, number) of a natural tile: colour 0..colours-1, number 1..numbers."""


@dataclass(frozen=True, slots=True)
class Meld:
    """One meld: per slot (runs in ascending order) the natural tile or ``None`` for a joker,
    and what each slot stands for (colour ``None`` while a set leaves it open)."""

    kind: MeldKind
    tiles: tuple[Face | None, ...]
    stands_for: tuple[tuple[int | None, int], ...]
    value: int

    @property
    def jokers(self) -> int:
        """Return the number of jokers in the meld."""
        return sum(1 for t in self.tiles if t is None)


@dataclass(frozen=True, slots=True)
class Solution:
    """Disjoint melds and what they leave: ``placed`` counts tiles in melds (jokers included;
    rack tiles only for ``max_placed_with_table``), ``leftover`` the counts not placed."""

    melds: tuple[Meld, ...]
    value: int
    placed: int
    leftover: tuple[int, ...]
    leftover_jokers: int

"""The best opening of a rack, series or pairs, by the core arrangement solver
(``meldhall.core.solver`` with ``LadderValue``), turned back into MELD actions on physical
tiles. Bots import it; it reads nothing but tile ids and the jokers of the hand.

>>> from meldhall.core.tiles import parse_okey_many
>>> j = Jokers.of(parse_okey_many("B10")[0].id)
>>> rack = [t.id for t in parse_okey_many("R11 R12 R13 K9 Y9 B9 B12")]
>>> o = best_opening(rack, j, pairs=False)
>>> o.value, [str(m) for m in o.melds]
(21, ['meld run R11a R12a R13a', 'meld set Y9a B9a K9a'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from meldhall.core.solver import LadderValue, MeldRules, best_pairs, best_partition
from meldhall.core.solver import Meld as SolverMeld
from meldhall.games.okey_ladder.actions import Meld
from meldhall.games.okey_ladder.combos import KIND_NAMES
from meldhall.games.okey_ladder.tiles import WILD, Jokers, colour_of, number_of

LADDER_RULES = MeldRules(value=LadderValue())
"""Runs 3..13 inside 1..13, sets of 3..4 colours, values of okey-ladder.md 6."""


@dataclass(frozen=True, slots=True)
class Opening:
    """The most valuable combinations of one opening type among a rack's tiles."""

    value: int
    melds: tuple[Meld, ...]
    placed: int


def rack_counts(tiles: Sequence[int], eff: Sequence[int]) -> tuple[list[int], int]:
    """Return the solver's count array (false jokers as the okey face) and the number of
    real jokers among ``tiles``."""
    counts = [0] * 52
    jokers = 0
    for t in tiles:
        f = eff[t]
        if f == WILD:
            jokers += 1
        else:
            counts[f] += 1
    return counts, jokers


def to_actions(melds: Sequence[SolverMeld], tiles: Sequence[int], eff: Sequence[int]) -> list[Meld]:
    """Return MELD actions for solver melds, giving each slot a physical tile of ``tiles``
    (lowest id first; ``None`` slots take the real jokers)."""
    free: dict[int, list[int]] = {}
    for t in sorted(tiles, reverse=True):
        free.setdefault(eff[t], []).append(t)
    out = []
    for meld in melds:
        ids = []
        for slot in meld.tiles:
            key = WILD if slot is None else slot[0] * 13 + slot[1] - 1
            ids.append(free[key].pop())
        out.append(Meld(KIND_NAMES.index(meld.kind), tuple(ids)))
    return out


def best_opening(tiles: Sequence[int], jokers: Jokers, pairs: bool) -> Opening:
    """Return the most valuable series (runs and sets) or pairs opening among ``tiles``
    (ties: more tiles), as MELD actions."""
    counts, wild = rack_counts(tiles, jokers.eff)
    if pairs:
        identity = (colour_of(jokers.okey), number_of(jokers.okey))
        sol = best_pairs(counts, wild, LADDER_RULES, identity)
    else:
        sol = best_partition(counts, wild, LADDER_RULES, "value")
    melds = to_actions(sol.melds, tiles, jokers.eff)
    return Opening(sol.value, tuple(melds), sol.placed)

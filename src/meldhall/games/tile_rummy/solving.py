"""Tile Rummy 500 on the arrangement solver (``meldhall.core.solver``): its rule set, and the
conversions between tile ids and the solver's count arrays.

>>> from meldhall.games.tile_rummy.pieces import parse_tile
>>> opts = TileRummyOptions()
>>> best_value([parse_tile(t) for t in "R12a R13a R1a K1a Y1a".split()], opts)
21
>>> best_count([parse_tile(t) for t in "R12a R13a R1a K1a Y1a".split()], opts)
3
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from meldhall.core.solver import MeldRules, TileSum, best_partition, max_placed_with_table
from meldhall.games.tile_rummy.melds import MAX_RUN, judge
from meldhall.games.tile_rummy.options import TileRummyOptions
from meldhall.games.tile_rummy.pieces import FACES, SMILEY_A, face_of

SolvedMeld = tuple[str, tuple[int, ...]]
"""A meld by faces: kind and one slot per tile (a face 0..51, -1 for a Smiley)."""


@cache
def meld_rules(tile_values: str, smiley_value: int, wrap: bool) -> MeldRules:
    """Return the solver's rule set for these options (section 5 and the value tables)."""
    values = tuple(range(1, 14)) if tile_values == "face" else (*range(1, 10), 10, 10, 10, 10)
    return MeldRules(
        run_line="both_ends" if wrap else "plain",
        max_run=MAX_RUN if wrap else 13,
        value=TileSum(values=values, joker_value=smiley_value),
    )


def rules_of(options: TileRummyOptions) -> MeldRules:
    """Return the solver's rule set for a match's options."""
    return meld_rules(options.tile_values, options.smiley_value, options.wrap)


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
    counts, jokers = counts_of(tiles)
    return best_partition(counts, jokers, rules_of(options), "value").value


def best_count(tiles: Sequence[int], options: TileRummyOptions) -> int:
    """Return the most tiles disjoint valid melds among the tiles can hold."""
    counts, jokers = counts_of(tiles)
    return best_partition(counts, jokers, rules_of(options), "placed").placed


@lru_cache(maxsize=4096)
def rearranged(
    table: tuple[int, ...], rack: tuple[int, ...], rules: MeldRules
) -> tuple[SolvedMeld, ...] | None:
    """Return melds (by faces) that hold every table tile and the most rack tiles, or None
    when no rack tile can join. ``table`` and ``rack`` are sorted faces, -1 for a Smiley."""
    table_counts = [0] * FACES
    rack_counts = [0] * FACES
    for f in table:
        if f >= 0:
            table_counts[f] += 1
    for f in rack:
        if f >= 0:
            rack_counts[f] += 1
    solution = max_placed_with_table(
        table_counts, table.count(-1), rack_counts, rack.count(-1), rules
    )
    if solution.placed == 0:
        return None
    out = []
    for meld in solution.melds:
        slots = tuple(-1 if t is None else face_of(t[0], t[1]) for t in meld.tiles)
        out.append((meld.kind, slots))
    return tuple(out)


def physical(
    melds: Sequence[SolvedMeld], table: Sequence[int], rack: Sequence[int], wrap: bool
) -> list[tuple[str, tuple[int, ...]]] | None:
    """Return the melds with tile ids: table tiles first for each face, then the lowest rack
    ids; None if a meld does not come out valid (never expected)."""
    free: dict[int, list[int]] = {}
    for t in [*table, *sorted(rack)]:
        free.setdefault(-1 if t >= SMILEY_A else t >> 1, []).append(t)
    out = []
    for kind, slots in melds:
        tiles = tuple(free[f].pop(0) for f in slots)
        if judge(kind, tiles, wrap) is None:
            return None
        out.append((kind, tiles))
    return out

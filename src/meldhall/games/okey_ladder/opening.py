"""The best opening of a rack, series or pairs, by the core arrangement solver
(``meldhall.core.solver`` with ``LadderValue``), turned back into MELD actions on physical
tiles. Bots import it; it reads nothing but tile ids and the jokers of the hand.

>>> from meldhall.core.tiles import parse_okey_many
>>> j = Jokers.of(parse_okey_many("B10")[0].id)
>>> rack = [t.id for t in parse_okey_many("R11 R12 R13 K9 Y9 B9 B12")]
>>> o = best_opening(rack, j, pairs=False)
>>> o.value, sorted(str(m) for m in o.melds)
(21, ['meld run R11a R12a R13a', 'meld set Y9a B9a K9a'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from meldhall.core.solver import LadderValue, MeldRules, best_pairs, best_partition
from meldhall.core.solver import Meld as SolverMeld
from meldhall.games.okey_ladder.actions import Meld
from meldhall.games.okey_ladder.combos import KIND_NAMES
from meldhall.games.okey_ladder.pieces import WILD, Jokers, colour_of, number_of

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


_GUARD = sum(4 << (3 * r) for r in range(52))
"""A guard bit above every 3-bit count field: a subtraction that clears one went below 0."""

_MEMO: dict[tuple[bool, Any], dict[int, int]] = {}
"""Best packing scores of face multisets (key: packed counts << 2 | jokers) per objective
and tag (pure: the score depends on the multiset alone)."""

_MEMO_LIMIT = 400_000


def _field(face: int) -> int:
    """Return the bit offset of a face's count: number-major, so sets are neighbours."""
    return 3 * ((face % 13) * 4 + face // 13)


_BITS: dict[int, tuple[Sequence[int], tuple[int, ...]]] = {}
_TILE_LIST = attrgetter("tiles")
_Shape = tuple[tuple[int, int], int, int]
"""A meld's ((packed counts, real jokers), size, lowest face rank)."""

_SHAPES: dict[int, dict[Meld, _Shape]] = {}
"""Packed face counts of melds, per table of tile units (that is, per okey)."""


def _bits(eff: Sequence[int]) -> tuple[int, ...]:
    """Return every tile's unit in the packed counts under ``eff`` (0 for a real joker)."""
    known = _BITS.get(id(eff))
    if known is None or known[0] is not eff:
        known = (eff, tuple(0 if f == WILD else 1 << _field(f) for f in eff))
        _BITS[id(eff)] = known
    return known[1]


def best_from_melds(
    melds: Sequence[Meld],
    values: Sequence[int],
    eff: Sequence[int],
    by_size: bool = False,
    tag: Any = None,
    least: int = 0,
) -> Opening:
    """Return the most valuable set of pairwise disjoint ``melds`` (ties: more tiles) or,
    with ``by_size``, the one placing the most tiles (ties: more value). Below ``least``
    (value, or tiles with ``by_size``) only the value and tiles placed are returned.

    Exact: a search on packed face counts, each combination tried at its lowest face in
    number-major order, physically equal combinations merged. ``melds`` must hold every
    combination of some rack (e.g. the legal MELD actions of one kind); then the best
    packing of each part of the rack is a function of its faces alone, kept across calls
    under ``tag`` (which must tell apart what changes values, such as the okey for pairs).

    >>> from meldhall.games.okey_ladder.pieces import FACE_OF
    >>> ms = [Meld(0, (0, 2, 4)), Meld(0, (2, 4, 6)), Meld(0, (0, 2, 4, 6))]
    >>> best_from_melds(ms, [2, 3, 4], FACE_OF)
    Opening(value=4, melds=(Meld(kind=0, tiles=(0, 2, 4, 6)),), placed=4)
    """
    bits = _bits(eff)
    shapes = _SHAPES.setdefault(id(bits), {})
    if len(shapes) > _MEMO_LIMIT:
        shapes.clear()
    entries: dict[tuple[int, int], list[Any]] = {}
    pivots: dict[int, list[list[Any]]] = {}
    for m, v in zip(melds, values, strict=True):
        rec = shapes.get(m)
        if rec is None:
            mask = wild = 0
            for t in m.tiles:
                b = bits[t]
                if b:
                    mask += b
                else:
                    wild += 1
            pivot = (mask & -mask).bit_length() // 3 if mask else -1
            rec = shapes[m] = ((mask, wild), len(m.tiles), pivot)
        key, size, pivot = rec
        score = size << 10 | v if by_size else v << 10 | size
        entry = entries.get(key)
        if entry is None:
            entry = entries[key] = [key[0], key[1], score, key, v]
            found = pivots.get(pivot)
            if found is None:
                pivots[pivot] = [entry]
            else:
                found.append(entry)
        elif score > entry[2]:
            entry[2], entry[4] = score, v
    covered: set[int] = set().union(*map(_TILE_LIST, melds))
    memo = _MEMO.setdefault((by_size, tag), {}) if tag is not None else {}
    if len(memo) > _MEMO_LIMIT:
        memo.clear()

    def solve(state: int, jokers: int) -> int:
        """Return the best score (primary << 10 | secondary) of a packed multiset."""
        best = memo.get(state << 2 | jokers)
        if best is not None:
            return best
        if state:
            low = state & -state
            pivot = low.bit_length() // 3
            best = solve(state - low, jokers)
        else:
            pivot, best = -1, 0
        for mask, wilds, score, _, _ in pivots.get(pivot, ()):
            if wilds > jokers:
                continue
            rest = (state | _GUARD) - mask
            if rest & _GUARD != _GUARD:
                continue
            total = solve(rest - _GUARD, jokers - wilds) + score
            if total > best:
                best = total
        memo[state << 2 | jokers] = best
        return best

    state = sum(bits[t] for t in covered)
    jokers = sum(1 for t in covered if not bits[t])
    top = solve(state, jokers)
    if top >> 10 < least:
        value, placed = (top & 1023, top >> 10) if by_size else (top >> 10, top & 1023)
        return Opening(value, (), placed)
    variants: dict[tuple[int, int], list[Meld]] = {}
    for m, v in zip(melds, values, strict=True):
        key = shapes[m][0]
        if v == entries[key][4]:
            variants.setdefault(key, []).append(m)
    used: set[int] = set()
    picked: list[Meld] = []
    total = 0
    while True:
        target = solve(state, jokers)
        pivot = (state & -state).bit_length() // 3 if state else -1
        for mask, wilds, score, key, value in pivots.get(pivot, ()):
            rest = (state | _GUARD) - mask
            if wilds > jokers or rest & _GUARD != _GUARD:
                continue
            if solve(rest - _GUARD, jokers - wilds) + score == target:
                m = next(m for m in variants[key] if used.isdisjoint(m.tiles))
                used.update(m.tiles)
                picked.append(m)
                total += value
                state, jokers = rest - _GUARD, jokers - wilds
                break
        else:
            if not state:
                break
            state -= state & -state
    return Opening(total, tuple(picked), len(used))


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

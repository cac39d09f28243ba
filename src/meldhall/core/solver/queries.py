"""The questions games ask the solver, on count arrays (see the package docstring)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from meldhall.core.solver.bound import SCALE, lp_prices
from meldhall.core.solver.distance import distance
from meldhall.core.solver.melds import Meld, Solution
from meldhall.core.solver.rules import LadderValue, MeldRules
from meldhall.core.solver.search import NEG, FrontSearch, Search
from meldhall.core.solver.universe import (
    Template,
    by_slot,
    compile_universe,
    decode,
    encode,
)

Objective = Literal["value", "placed"]
OpeningObjective = Literal["value", "placed", "naturals"]
Counts = Sequence[int]

PRICED_SIZE = 24
"""Tiles from which the most-tiles question first solves its LP relaxation for prices that
cut the search (``bound.py``): below, the search is cheaper than the LP."""

_SCALE = 1 << 24
"""Weight of the main objective over the tie-break in one score."""


def _value_first(t: Template) -> int:
    return t.value * _SCALE + t.naturals + t.jokers


def _placed_first(t: Template) -> int:
    return (t.naturals + t.jokers) * _SCALE + t.value


def _score(objective: str) -> Callable[[Template], int]:
    """Return the score of a meld for ``objective`` (one function per objective: the search
    caches scores per function)."""
    if objective == "value":
        return _value_first
    if objective == "placed":
        return _placed_first
    raise ValueError(f"objective must be 'value' or 'placed', got {objective!r}")


def _solution(
    melds: Sequence[Meld], hand: int, rules: MeldRules, placed: int | None = None
) -> Solution:
    counts, jokers = decode(hand, rules)
    leftover = list(counts)
    n = rules.numbers
    for m in melds:
        for t in m.tiles:
            if t is None:
                jokers -= 1
            else:
                leftover[t[0] * n + t[1] - 1] -= 1
    size = sum(len(m.tiles) for m in melds)
    return Solution(
        melds=tuple(melds),
        value=sum(m.value for m in melds),
        placed=size if placed is None else placed,
        leftover=tuple(leftover),
        leftover_jokers=jokers,
    )


def _search(
    hand: int, jokers: int, rules: MeldRules, free: Counts, free_jokers: int, objective: str
) -> list[Meld] | None:
    """Return the best melds for ``objective`` (value, placed, or tiles: placed, ties any)."""
    tiles_only = objective == "tiles"
    universe = compile_universe(rules, jokers)
    score = _tiles if tiles_only else _score(objective)
    slot_free = by_slot(free, rules)
    search = Search(universe, score, slot_free, free_jokers, hand)
    if tiles_only and 2 * (sum(free) + free_jokers) > search.size:
        # mostly free tiles, many of them left out: one exact pass beats deepening
        best = search.best(search.start)
    elif tiles_only:  # deepening: lose no tile, then at most one, two, ...
        dual = search.unit_dual()
        if search.size >= PRICED_SIZE:
            prices = lp_prices(universe, search.groups(), search.start, slot_free, free_jokers)
            if prices is not None:
                dual = search.price(*prices)
        need = min(search.size, dual // SCALE)
        while True:
            best = search.most_tiles(search.start, 0, search.size, need, dual)
            if best >= need:
                break
            if best < 0:  # not even every table tile can be placed
                best = NEG
                break
            # a failed round returns an upper bound: every need above it fails too
            need = min(need - 1, best)
        if best != NEG:
            return [t.meld() for t in search.placed_melds()]
    else:
        best = search.best(search.start)
    if best == NEG:
        return None
    return [t.meld() for t in search.melds(search.start)]


def _tiles(t: Template) -> int:
    return t.naturals + t.jokers


def is_winning(counts: Counts, jokers: int, rules: MeldRules) -> bool:
    """Return True when every tile (jokers included) fits in some meld.

    >>> from meldhall.core.solver.rules import RUMMIKUB
    >>> hand = [0] * 52
    >>> hand[0:5] = [1, 1, 1, 1, 1]           # colour 0: 1 2 3 4 5
    >>> is_winning(hand, 1, RUMMIKUB), is_winning(hand[:3] + [0] * 49, 1, RUMMIKUB)
    (True, True)
    >>> is_winning(hand[:2] + [0] * 50, 0, RUMMIKUB)
    False
    """
    hand = encode(counts, jokers, rules)
    return _search(hand, jokers, rules, [0] * rules.kinds, 0, "tiles") is not None


def winning_partition(counts: Counts, jokers: int, rules: MeldRules) -> Solution | None:
    """Return the most valuable partition of the whole hand into melds, or None."""
    hand = encode(counts, jokers, rules)
    melds = _search(hand, jokers, rules, [0] * rules.kinds, 0, "value")
    return None if melds is None else _solution(melds, hand, rules)


def best_partition(
    counts: Counts, jokers: int, rules: MeldRules, objective: Objective = "value"
) -> Solution:
    """Return disjoint melds among the tiles (not all must be used) with the most value
    (ties: more tiles placed) or, with ``objective="placed"``, the most tiles placed (ties:
    more value).

    >>> from meldhall.core.solver.rules import RUMMIKUB
    >>> hand = [0] * 52
    >>> hand[10:13] = [1, 1, 1]               # colour 0: 11 12 13
    >>> hand[0] = hand[13] = hand[26] = 1     # 1 in colours 0, 1, 2
    >>> sol = best_partition(hand, 0, RUMMIKUB)
    >>> sol.value, sol.placed, [m.kind for m in sol.melds]
    (39, 6, ['set', 'run'])
    """
    hand = encode(counts, jokers, rules)
    melds = _search(hand, jokers, rules, counts, jokers, objective)
    assert melds is not None  # leaving everything out is always possible
    return _solution(melds, hand, rules)


def max_placed_with_table(
    table_counts: Counts,
    table_jokers: int,
    rack_counts: Counts,
    rack_jokers: int,
    rules: MeldRules,
) -> Solution:
    """Return melds holding every table tile and as many rack tiles as possible (ties: any
    of them); ``placed`` counts the rack tiles placed, ``leftover`` the rack tiles kept.
    Raises ValueError when the table tiles alone cannot all be placed.

    >>> from meldhall.core.solver.rules import RUMMIKUB
    >>> table, rack = [0] * 52, [0] * 52
    >>> table[4:7] = [1, 1, 1]                # on the table: 5 6 7 of colour 0
    >>> rack[3] = rack[8] = 1                 # in the rack: 4 and 9 of colour 0
    >>> max_placed_with_table(table, 0, rack, 1, RUMMIKUB).placed    # 4 5 6 7 J 9
    3
    """
    total = [t + r for t, r in zip(table_counts, rack_counts, strict=True)]
    hand = encode(total, table_jokers + rack_jokers, rules)
    melds = _search(hand, table_jokers + rack_jokers, rules, rack_counts, rack_jokers, "tiles")
    if melds is None:
        raise ValueError("the table tiles cannot all be placed in melds")
    table_size = sum(table_counts) + table_jokers
    placed = sum(len(m.tiles) for m in melds) - table_size
    return _solution(melds, hand, rules, placed)


def tiles_left(counts: Counts, jokers: int, rules: MeldRules) -> int:
    """Return how many tiles stay out of melds when the most tiles are placed.

    >>> from meldhall.core.solver.rules import RUMMIKUB
    >>> tiles_left([1, 1, 1, 1] + [0] * 48, 1, RUMMIKUB)
    0
    """
    hand = encode(counts, jokers, rules)
    melds = _search(hand, jokers, rules, counts, jokers, "tiles")
    assert melds is not None  # leaving everything out is always possible
    return sum(counts) + jokers - sum(len(m.tiles) for m in melds)


def best_opening(
    counts: Counts,
    jokers: int,
    rules: MeldRules,
    need: int,
    objective: OpeningObjective = "value",
) -> tuple[Solution, bool]:
    """Return an opening and whether it is worth at least ``need``.

    ``value``: the most valuable melds (ties: more tiles). ``placed``: among openings worth at
    least ``need``, the most tiles placed (ties: more value); ``naturals``: the same counting
    natural tiles only (jokers kept back when they add no tile), rummikub-solver's
    ``SolverMode.INITIAL``. When no opening reaches ``need``: the most valuable melds (ties:
    more tiles placed, with ``naturals`` more natural tiles).

    >>> from meldhall.core.solver.rules import RUMMIKUB
    >>> hand = [0] * 52
    >>> hand[8:13] = [1, 1, 1, 1, 1]          # colour 0: 9 10 11 12 13
    >>> hand[13] = hand[26] = hand[39] = 1    # the 1 of colours 1, 2, 3
    >>> sol, ok = best_opening(hand, 0, RUMMIKUB, 30, "placed")
    >>> ok, sol.placed, sol.value
    (True, 8, 58)
    >>> best_opening(hand[:13] + [0] * 39, 0, RUMMIKUB, 60)[1]
    False
    """
    if objective == "value":
        sol = best_partition(counts, jokers, rules, "value")
        return sol, sol.value >= need
    if objective not in ("placed", "naturals"):
        raise ValueError(f"objective must be value, placed or naturals, got {objective!r}")
    hand = encode(counts, jokers, rules)
    weight = _weight_naturals if objective == "naturals" else _weight_placed
    search = FrontSearch(compile_universe(rules, jokers), weight, hand)
    front = search.front(search.start)
    reached = [(w, v) for w, v in front.items() if v >= need]
    if not reached:
        v, w = max((v, w) for w, v in front.items())
        return _solution([t.meld() for t in search.melds(search.start, w, v)], hand, rules), False
    w, v = max(reached)
    return _solution([t.meld() for t in search.melds(search.start, w, v)], hand, rules), True


def _weight_naturals(t: Template) -> int:
    return t.naturals


def _weight_placed(t: Template) -> int:
    return t.naturals + t.jokers


def best_pairs(
    counts: Counts,
    jokers: int,
    rules: MeldRules,
    joker_identity: tuple[int, int] | None = None,
) -> Solution:
    """Return the most valuable disjoint pairs (ties: more tiles): two identical tiles, a
    joker with any tile, or two jokers standing for ``joker_identity`` (colour, number), by
    default the most valuable number with its colour open. Pairs are worth ``rules.value``:
    their number with ``LadderValue`` (okey-ladder 6.3), the sum of both slots with TileSum.

    >>> from meldhall.core.solver.rules import LadderValue, MeldRules
    >>> ladder = MeldRules(value=LadderValue())
    >>> hand = [0] * 52
    >>> hand[8], hand[12], hand[30] = 2, 1, 1     # two R9, one R13, one Y5
    >>> sol = best_pairs(hand, 1, ladder)
    >>> sol.value, sol.placed, sol.leftover[30]
    (22, 4, 1)
    """
    encode(counts, jokers, rules)
    n = rules.numbers
    # best[j]: (value, tiles) of pairs using j jokers on natural tiles, and the pairs
    best: list[tuple[tuple[int, int], list[Meld]] | None] = [((0, 0), [])] + [None] * jokers
    for k, c in enumerate(counts):
        if not c:
            continue
        face = (k // n, k % n + 1)
        whole = Meld("pair", (face, face), (face, face), _pair_value(rules, face[1], 0))
        half = Meld("pair", (face, None), (face, face), _pair_value(rules, face[1], 1))
        nxt: list[tuple[tuple[int, int], list[Meld]] | None] = [None] * (jokers + 1)
        for j, got in enumerate(best):
            if got is None:
                continue
            for w in range(c // 2 + 1):
                for h in range(min(c - 2 * w, jokers - j) + 1):
                    key = (got[0][0] + w * whole.value + h * half.value, got[0][1] + 2 * (w + h))
                    cur = nxt[j + h]
                    if cur is None or key > cur[0]:
                        nxt[j + h] = (key, got[1] + [whole] * w + [half] * h)
        best = nxt
    double = _double_joker_pair(rules, joker_identity)
    top: tuple[tuple[int, int], list[Meld], int] = ((-1, -1), [], 0)
    for j, got in enumerate(best):
        if got is not None:
            jj = (jokers - j) // 2
            key = (got[0][0] + jj * double.value, got[0][1] + 2 * jj)
            if key > top[0]:
                top = (key, got[1] + [double] * jj, j + 2 * jj)
    (value, placed), melds, used_jokers = top
    used = [0] * rules.kinds
    for m in melds:
        for t in m.tiles:
            if t is not None:
                used[t[0] * n + t[1] - 1] += 1
    rest = tuple(c - u for c, u in zip(counts, used, strict=True))
    return Solution(tuple(melds), value, placed, rest, jokers - used_jokers)


def _pair_value(rules: MeldRules, number: int, jokers: int) -> int:
    if isinstance(rules.value, LadderValue):
        return number
    v = rules.value.tile_value(number, top=False)
    jv = v if rules.value.joker_value is None else rules.value.joker_value
    return v * (2 - jokers) + jv * jokers


def _double_joker_pair(rules: MeldRules, identity: tuple[int, int] | None) -> Meld:
    if identity is not None:
        return Meld("pair", (None, None), (identity, identity), _pair_value(rules, identity[1], 2))
    number = max(range(1, rules.numbers + 1), key=lambda x: (_pair_value(rules, x, 2), x))
    stands: tuple[int | None, int] = (None, number)
    return Meld("pair", (None, None), (stands, stands), _pair_value(rules, number, 2))


def most_pairs(counts: Iterable[int], jokers: int) -> int:
    """Return the most disjoint pairs among tiles given as counts per face and wild jokers:
    two tiles of a face, a joker with a single tile, two jokers.

    >>> most_pairs([2, 1, 3, 0], 1)   # a pair of face 0, of face 2, a joker with face 1
    3
    """
    pairs = singles = 0
    for n in counts:
        pairs += n >> 1
        singles += n & 1
    matched = min(jokers, singles)
    return pairs + matched + (jokers - matched) // 2


def distance_to_win(counts: Counts, jokers: int, rules: MeldRules) -> int:
    """Return the fewest tiles to exchange (take one out, bring any tile in) for a winning
    hand: 0 when winning. Tiles brought in count as wild, so the answer is exact while any tile
    may be brought in; it is a lower bound where copies run out, and where a meld of jokers
    alone breaks ``min_natural`` (jokers brought in may form a meld on their own).
    Raises ValueError when no hand of this size wins.

    >>> from meldhall.core.solver.rules import RUMMIKUB
    >>> hand = [0] * 52
    >>> hand[0:4] = [1, 1, 0, 1]              # colour 0: 1 2 4
    >>> hand[20] = 1                          # colour 1: 8
    >>> distance_to_win(hand, 0, RUMMIKUB)    # the 8 out, a 3 in: 1 2 3 4
    1
    """
    return distance(encode(counts, 0, rules), sum(counts), jokers, rules)


__all__ = [
    "best_opening",
    "best_pairs",
    "best_partition",
    "distance_to_win",
    "is_winning",
    "max_placed_with_table",
    "most_pairs",
    "tiles_left",
    "winning_partition",
]

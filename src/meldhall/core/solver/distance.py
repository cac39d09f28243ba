"""The distance to a win: the fewest tiles to exchange for a hand that splits into melds.

A tile brought in may be any tile, so it is counted as a wild joker that may form a meld on
its own and sit anywhere (``min_natural`` 0, ``loose_jokers``). For d = 0, 1, 2, ... a
memoised recursion asks whether d natural tiles can leave while the rest, the jokers and d
wilds split into melds exactly: it settles the lowest natural tile each step (it leaves, or
joins a meld with higher tiles and some wilds); the wilds left at the end must fill
jokers-only melds exactly.
"""

from __future__ import annotations

from functools import lru_cache

from meldhall.core.solver.rules import MeldRules
from meldhall.core.solver.search import prepare
from meldhall.core.solver.universe import FIELD, Template, Universe, compile_universe


@lru_cache(maxsize=64)
def _wild_sizes(rules: MeldRules) -> frozenset[int]:
    """Return the wild counts up to 256 that jokers-only melds can hold exactly."""
    sizes = [*range(rules.min_run, rules.max_run + 1), *range(rules.min_set, rules.max_set + 1)]
    ok = {0}
    for j in range(1, 257):
        if any(j - s in ok for s in sizes if s <= j):
            ok.add(j)
    return frozenset(ok)


def distance(hand: int, naturals: int, jokers: int, rules: MeldRules) -> int:
    """Return the fewest exchanges for packed natural tiles ``hand`` (``naturals`` of them,
    no joker field) and ``jokers`` wild jokers; ValueError when no hand of this size wins."""
    top = max(min(rules.max_run, 2 * rules.min_run - 1), rules.max_set)
    wild = _wild_sizes(rules)
    for d in range(naturals + 1):
        universe = compile_universe(rules, min(jokers + d, top), True)
        start = hand + ((jokers + d) << universe.joker_shift)
        cands, _, _ = prepare(universe, start, [0] * universe.kinds)
        if _can_win(universe, cands, start, d, {}, wild):
            return d
    raise ValueError(f"no winning hand has {naturals + jokers} tiles")


def _can_win(
    u: Universe,
    cands: list[tuple[Template, ...]],
    hand: int,
    budget: int,
    memo: dict[int, bool],
    wild: frozenset[int],
) -> bool:
    key = hand << 8 | budget
    got = memo.get(key)
    if got is not None:
        return got
    nat = hand & u.natural_mask
    if not nat:
        result = budget == 0 and (hand >> u.joker_shift) in wild
    else:
        k = ((nat & -nat).bit_length() - 1) // FIELD
        result = budget > 0 and _can_win(
            u, cands, hand - (1 << (FIELD * k)), budget - 1, memo, wild
        )
        if not result:
            guard = u.guard
            for t in cands[k]:
                r = (hand | guard) - t.mask
                if r & guard == guard and _can_win(u, cands, r ^ guard, budget, memo, wild):
                    result = True
                    break
    memo[key] = result
    return result

"""The most a set of cards can lay down: the best total of disjoint valid melds (VECTORS 4.3).

The arrangement solver (``meldhall.core.solver``) answers for the rules it can express (ace low
or high at 11, no wrap: the default game); other option sets use an exact search over the
hand's melds, which also cross-checks the solver in the tests. Both keep a natural card in
every meld (R-D7).

>>> from meldhall.games.remi.pieces import parse_card_list
>>> best_value(parse_card_list("AH 2H 3H 7C 7D 7S"), RunRules())
37
>>> exact_best_value(parse_card_list("10H JK JK 2C"), RunRules())
30
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from meldhall.core.solver import MeldRules, TileSum, best_partition
from meldhall.games.remi.melds import RunRules, find_melds
from meldhall.games.remi.pieces import FIRST_JOKER, RANK, RANK_VALUE, SUIT

SOLVER_RULES = MeldRules(
    colours=4,
    numbers=13,
    run_line="ace_high",
    max_run=13,
    value=TileSum(values=RANK_VALUE[1:]),
)
"""Remi for the solver: suits as colours (S, H, D, C), runs on A..K plus the high ace, at most
13 cards, values A 11, 2..10 face, J/Q/K 10, jokers the card they stand for."""


def counts_of(cards: Sequence[int]) -> tuple[list[int], int]:
    """Return the solver's count array (index suit × 13 + rank − 1) and the number of jokers."""
    counts = [0] * 52
    jokers = 0
    for c in cards:
        if c >= FIRST_JOKER:
            jokers += 1
        else:
            counts[SUIT[c] * 13 + RANK[c] - 1] += 1
    return counts, jokers


def solver_fits(rules: RunRules) -> bool:
    """Return True when the solver's remi rules are these run rules."""
    return rules.ace_low and not rules.wrap and rules.ace_low_value == 11


def best_value(cards: Sequence[int], rules: RunRules) -> int:
    """Return the highest total value of disjoint valid melds among the cards (0: none)."""
    if solver_fits(rules):
        counts, jokers = counts_of(cards)
        return best_partition(counts, jokers, SOLVER_RULES, "value").value
    return exact_best_value(cards, rules)


def meld_cards(cards: Sequence[int], rules: RunRules) -> set[int]:
    """Return the cards that the most valuable disjoint melds among ``cards`` use."""
    if not solver_fits(rules):
        return _exact_best(cards, rules)[1]
    counts, jokers = counts_of(cards)
    solution = best_partition(counts, jokers, SOLVER_RULES, "value")
    need: dict[tuple[int, int], int] = {}
    wild = 0
    for meld in solution.melds:
        for face in meld.tiles:
            if face is None:
                wild += 1
            else:
                need[face] = need.get(face, 0) + 1
    out: set[int] = set()
    for c in sorted(cards):
        if c >= FIRST_JOKER:
            if wild:
                out.add(c)
                wild -= 1
            continue
        face = (SUIT[c], RANK[c])
        if need.get(face, 0):
            out.add(c)
            need[face] -= 1
    return out


def exact_best_value(cards: Sequence[int], rules: RunRules) -> int:
    """Return the same answer as ``best_value`` by searching the hand's own melds."""
    return _exact_best(cards, rules)[0]


def _exact_best(cards: Sequence[int], rules: RunRules) -> tuple[int, set[int]]:
    candidates = find_melds(cards, rules)
    ordered = sorted(set(cards))
    holding: dict[int, list[tuple[int, int]]] = {c: [] for c in ordered}
    for cand in candidates:
        holding[min(cand.cards)].append((cand.mask, cand.reading.value))

    @cache
    def best(mask: int) -> tuple[int, int]:
        """Return the best value among the cards of ``mask`` and the mask of cards used."""
        if mask == 0:
            return 0, 0
        low = (mask & -mask).bit_length() - 1
        result = best(mask & ~(1 << low))
        for meld, value in holding[low]:
            if meld & mask == meld:
                sub_value, sub_used = best(mask & ~meld)
                if value + sub_value > result[0]:
                    result = (value + sub_value, sub_used | meld)
        return result

    full = 0
    for c in ordered:
        full |= 1 << c
    value, used = best(full)
    return value, {c for c in ordered if used >> c & 1}

"""Combinations of three cards, the score tables and the reward tiers (okey-cards.md 6-8).

Cards are the spec's ids 0..23 (colour × 8 + number − 1, R=0, B=1, Y=2); a set of cards is a
bitmask with bit ``id`` set. Every valid triple is precomputed once.

>>> from meldhall.core.tiles import parse_okey_cards
>>> combo = classify([c.id for c in parse_okey_cards("B5 B3 B4")])
>>> combo.kind, combo.same_colour, combo.low, points(combo, "current")
('run', True, 3, 70)
>>> classify([c.id for c in parse_okey_cards("R7 R8 R1")]) is None
True
>>> from meldhall.games.okey_cards.pieces import ALL_CARDS
>>> best_total(ALL_CARDS, "current")
560
>>> reward(299, (300, 400)), reward(300, (300, 400)), reward(400, (300, 400))
('bronze', 'silver', 'gold')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

from meldhall.games.okey_cards.pieces import CARD_COUNT, cards_of, colour_of, mask_of, number_of

ScoreTable = Literal["current", "legacy"]
Kind = Literal["set", "run"]
TIERS = ("bronze", "silver", "gold")


@dataclass(frozen=True, slots=True)
class Combination:
    """A valid combination: a set ("group") or a run, its lowest number and whether a run is
    all one colour."""

    kind: Kind
    low: int
    same_colour: bool


def points(combo: Combination, table: ScoreTable) -> int:
    """Return the points of a combination under a score table (section 7, option score_table)."""
    n = combo.low
    if combo.kind == "set":
        return 10 * n + (10 if table == "current" else 20)
    if combo.same_colour:
        return 10 * n + (40 if table == "current" else 30)
    return 10 * n


def classify(cards: Sequence[int]) -> Combination | None:
    """Return the combination three card ids form (in any order), or None when invalid."""
    return _classify(tuple(cards))


@lru_cache(maxsize=4096)
def _classify(cards: tuple[int, ...]) -> Combination | None:
    """Return ``classify(cards)`` (cached: every observation classifies the played lines)."""
    if len(cards) != 3 or len(set(cards)) != 3:
        return None
    numbers = sorted(number_of(c) for c in cards)
    colours = {colour_of(c) for c in cards}
    if numbers[0] == numbers[2]:
        return Combination("set", numbers[0], False)
    if numbers[1] == numbers[0] + 1 and numbers[2] == numbers[0] + 2:
        return Combination("run", numbers[0], len(colours) == 1)
    return None


def _all_triples() -> tuple[tuple[int, Combination], ...]:
    out: list[tuple[int, Combination]] = []
    for a in range(CARD_COUNT):
        for b in range(a + 1, CARD_COUNT):
            for c in range(b + 1, CARD_COUNT):
                combo = classify((a, b, c))
                if combo is not None:
                    out.append((mask_of((a, b, c)), combo))
    return tuple(out)


TRIPLES: tuple[tuple[int, Combination], ...] = _all_triples()
"""Every valid triple as (bitmask, combination): 8 sets and 162 runs."""


@cache
def triple_points(table: ScoreTable) -> tuple[tuple[int, int], ...]:
    """Return every valid triple as (bitmask, points) under a score table, best first."""
    scored = [(mask, points(combo, table)) for mask, combo in TRIPLES]
    return tuple(sorted(scored, key=lambda mp: (-mp[1], mp[0])))


def has_combination(mask: int) -> bool:
    """Return True when some three of the cards in ``mask`` form a valid combination."""
    return any(t & mask == t for t, _ in TRIPLES)


@lru_cache(maxsize=1 << 16)
def best_triple(mask: int, table: ScoreTable) -> tuple[int, int]:
    """Return (bitmask, points) of the best valid triple inside ``mask``, or (0, 0)
    (cached: the planner asks it of the same few cards at every step)."""
    for t, value in triple_points(table):
        if t & mask == t:
            return t, value
    return 0, 0


@cache
def _triples_led_by(table: ScoreTable) -> tuple[tuple[tuple[int, int], ...], ...]:
    # For each card: the triples holding it whose lowest number is the card's number.
    led: list[list[tuple[int, int]]] = [[] for _ in range(CARD_COUNT)]
    for mask, combo in TRIPLES:
        for card in cards_of(mask):
            if number_of(card) == combo.low:
                led[card].append((mask, points(combo, table)))
    return tuple(tuple(x) for x in led)


_BY_NUMBER = tuple(sorted(range(CARD_COUNT), key=lambda c: (number_of(c), c)))


@cache
def best_total(mask: int, table: ScoreTable) -> int:
    """Return the highest total of disjoint valid combinations among the cards of ``mask``
    (deck order and hand limit ignored; VECTORS.md 4.3)."""
    low = next((c for c in _BY_NUMBER if mask >> c & 1), None)
    if low is None:
        return 0
    rest = mask & ~(1 << low)
    best = best_total(rest, table)
    for t, value in _triples_led_by(table)[low]:
        if t & mask == t:
            best = max(best, value + best_total(mask & ~t, table))
    return best


def reward(score: int, thresholds: tuple[int, int]) -> str:
    """Return the reward tier of a final score: ``bronze``, ``silver`` or ``gold`` (section 8)."""
    silver, gold = thresholds
    if score >= gold:
        return "gold"
    if score >= silver:
        return "silver"
    return "bronze"

"""Planning maths for okey-cards bots and hints, on card bitmasks (no State needed).

A position is what the player knows: ``held`` (hand and field cards), ``unseen`` (the cards
still in the deck, as a set) and the rule options. Every turn comes down to one decision:
which held cards to ``keep`` for the next draw; of the others, the best triple is played and
the rest are discarded (at most one triple, as five cards cannot hold two). ``next_action``
turns such a plan into the engine action to apply now.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations

from meldhall.core.engine import JSON
from meldhall.core.engine import Action as AnyAction
from meldhall.core.tiles import OKEY_CARDS
from meldhall.games.okey_cards.actions import Action, Discard, Draw, Quit, Select, Unselect
from meldhall.games.okey_cards.pieces import ALL_CARDS, CARD_COUNT, CARD_IDS, cards_of
from meldhall.games.okey_cards.scoring import (
    TRIPLES,
    ScoreTable,
    best_triple,
    points,
    triple_points,
)
from meldhall.games.okey_cards.weights import FIRST_DECK, WEIGHTS

HAND_LIMIT = 5


@dataclass(frozen=True, slots=True)
class Position:
    """What the player knows: held cards, field cards, the unseen set and the rules."""

    held: int
    field: tuple[int, ...]
    unseen: int
    table: ScoreTable
    single_draw: bool


def position_of(obs: Mapping[str, JSON]) -> Position:
    """Return the position a player's observation describes."""
    hand = [CARD_IDS[t] for t in obs["hand"]]
    field = tuple(CARD_IDS[t] for t in obs["field"] if t is not None)
    gone = [CARD_IDS[t] for t in obs["discards"]]
    gone += [CARD_IDS[t] for line in obs["played"] for t in line["cards"]]
    held = _mask(hand) | _mask(field)
    unseen = ALL_CARDS & ~held & ~_mask(gone)
    return Position(held, field, unseen, obs["score_table"], obs["draw_mode"] == "single")


def _mask(cards: list[int] | tuple[int, ...]) -> int:
    out = 0
    for card in cards:
        out |= 1 << card
    return out


def popcount(mask: int) -> int:
    """Return the number of cards in a bitmask."""
    return mask.bit_count()


@cache
def triples_of_card(table: ScoreTable) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Return, per card id, the valid triples holding it as (bitmask, points), best first."""
    out: list[list[tuple[int, int]]] = [[] for _ in range(CARD_COUNT)]
    for mask, value in triple_points(table):
        for card in cards_of(mask):
            out[card].append((mask, value))
    return tuple(tuple(x) for x in out)


def live_cards(remaining: int, table: ScoreTable) -> int:
    """Return the cards of ``remaining`` that still belong to some triple inside it."""
    out = 0
    for mask, _ in triple_points(table):
        if mask & remaining == mask:
            out |= mask
    return out


def draw_size(keep: int, unseen: int, single_draw: bool) -> int:
    """Return how many cards a draw brings when ``keep`` is held (0: no draw possible)."""
    room = HAND_LIMIT - popcount(keep)
    return min(1 if single_draw else room, popcount(unseen), max(room, 0))


def submasks(mask: int) -> list[int]:
    """Return every subset of a bitmask (the empty set last)."""
    out = []
    sub = mask
    while True:
        out.append(sub)
        if sub == 0:
            return out
        sub = (sub - 1) & mask


def next_action(pos: Position, keep: int, legal: tuple[AnyAction, ...]) -> Action:
    """Return the action that carries out the plan "keep ``keep``, play the best triple among
    the other held cards, discard the rest, then draw"; quit when nothing is left to do."""
    spare = pos.held & ~keep
    triple, _ = best_triple(spare, pos.table)
    for card in pos.field:
        if not triple >> card & 1:
            return Unselect(OKEY_CARDS[card])
    for card in cards_of(triple):
        if card not in pos.field:
            return Select(OKEY_CARDS[card])
    for card in cards_of(spare):
        return Discard(OKEY_CARDS[card])
    draw = Draw()
    return draw if draw in legal else Quit()


FEATURES = (
    "bias",
    "set0",
    "mixed0",
    "same0",
    "set1",
    "mixed1",
    "same1",
    "set2",
    "mixed2",
    "same2",
    "count1",
    "count2",
    "best2",
    "ready",
    "kept",
    "outs",
    "live",
)
"""The names of the features ``keep_features`` computes for a kept set of cards."""


def keep_options(unseen: int, held: int, table: ScoreTable) -> list[tuple[int, int]]:
    """Return every sensible (keep, points now) decision: ``keep`` a subset of the held cards
    of at most four that can still score (a card no triple can use is always discarded), and
    the points of the best triple among the cards let go."""
    remaining = unseen | held
    useful = live_cards(remaining, table) & held
    out = []
    for keep in submasks(useful):
        if popcount(keep) < HAND_LIMIT:
            out.append((keep, best_triple(held & ~keep, table)[1]))
    return out


@cache
def _categories(table: ScoreTable) -> tuple[tuple[int, float, int], ...]:
    # Every valid triple as (bitmask, points / 100, category 0 set, 1 mixed run, 2 same run).
    out = []
    for mask, combo in TRIPLES:
        category = 0 if combo.kind == "set" else 2 if combo.same_colour else 1
        out.append((mask, points(combo, table) / 100.0, category))
    return tuple(out)


def keep_features(unseen: int, held: int, keeps: list[int], table: ScoreTable) -> list[list[float]]:
    """Return the features (``FEATURES``) of keeping each of ``keeps`` (subsets of ``held``)
    with ``unseen`` cards in the deck, over the triples that can still be completed: the sum
    of their points (/100) per category and number of kept cards j (0..2); the counts for
    j = 1, 2; the best triple one card from complete; the points of complete kept triples; the
    number of kept cards; the unseen cards that complete a triple; the live unseen cards."""
    remaining = unseen | held
    alive = [
        (t, value, category, t & held)
        for t, value, category in _categories(table)
        if t & remaining == t
    ]
    rows = []
    for keep in keeps:
        sums = [0.0] * 9
        count1 = count2 = 0
        best2 = ready = 0.0
        outs = live = 0
        for t, value, category, mine in alive:
            if mine & ~keep:
                continue
            j = mine.bit_count()
            live |= t
            if j == 3:
                ready += value
                continue
            sums[3 * j + category] += value
            if j == 1:
                count1 += 1
            elif j == 2:
                count2 += 1
                outs |= t
                best2 = max(best2, value)
        rows.append(
            [
                1.0,
                *sums,
                count1 / 10.0,
                float(count2),
                best2,
                ready,
                float(popcount(keep)),
                float(popcount(outs & unseen)),
                popcount(live & unseen) / 10.0,
            ]
        )
    return rows


EXACT_DECK = FIRST_DECK - 1
"""With this many unseen cards or fewer, decisions are valued exactly (full expectimax)."""


@lru_cache(maxsize=1 << 17)
def exact_value(unseen: int, held: int, table: ScoreTable, single_draw: bool) -> float:
    """Return the expected points still to come from a turn with ``held`` cards in hand and
    ``unseen`` in the deck under the best play (exact expectimax over every draw)."""
    if not unseen:
        return float(best_triple(held, table)[1])
    return max(
        now + exact_keep_value(unseen, keep, table, single_draw)
        for keep, now in keep_options(unseen, held, table)
    )


@lru_cache(maxsize=1 << 17)
def exact_keep_value(unseen: int, keep: int, table: ScoreTable, single_draw: bool) -> float:
    """Return the expected points still to come when ``keep`` is held and the hand is drawn
    up from ``unseen`` (exact: every possible draw, equally likely)."""
    size = draw_size(keep, unseen, single_draw)
    total = 0.0
    count = 0
    for drawn in combinations(cards_of(unseen), size):
        bits = sum(1 << card for card in drawn)
        total += exact_value(unseen & ~bits, keep | bits, table, single_draw)
        count += 1
    return total / count


def keep_values(pos: Position) -> list[tuple[float, int]]:
    """Return (expected points from now on, keep) for every sensible decision of a position:
    the points of the triple played now plus the value of what is kept, exact with few cards
    left in the deck, else from the fitted model (``weights``)."""
    unseen, held, table = pos.unseen, pos.held, pos.table
    options = keep_options(unseen, held, table)
    deck = popcount(unseen)
    if deck <= EXACT_DECK:
        return [
            (now + exact_keep_value(unseen, keep, table, pos.single_draw), keep)
            for keep, now in options
        ]
    rows = keep_features(unseen, held, [keep for keep, _ in options], table)
    weights = WEIGHTS[min(deck, FIRST_DECK + len(WEIGHTS) - 1) - FIRST_DECK]
    out = []
    for (keep, now), row in zip(options, rows, strict=True):
        w = weights[popcount(keep)]
        out.append((now + sum(a * b for a, b in zip(w, row, strict=True)), keep))
    return out


def best_keep(pos: Position) -> int:
    """Return the decision (cards to keep) of highest expected value; ties go to the
    smaller bitmask."""
    return max(keep_values(pos), key=lambda vk: (vk[0], -vk[1]))[1]

"""One draw of look-ahead over the okey-cards value model (a candidate policy for ``expert``).

The expert values a decision (the cards to keep) by the fitted model of what is kept. Here the
few decisions the model ranks best are valued one draw further: the mean, over the draws that
may follow (every one when there are at most ``samples``, else ``samples`` random orders of the
unseen cards, the same orders for every decision), of the model's value of the hand then (the
best keep of it, exact with at most three cards unseen).
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

from meldhall.bots.okey_cards_values import ModelValues
from meldhall.games.okey_cards.pieces import cards_of
from meldhall.games.okey_cards.planner import (
    EXACT_DECK,
    Position,
    best_keep,
    draw_size,
    exact_value,
    keep_values,
)
from meldhall.games.okey_cards.scoring import best_triple

EARLY_UNSEEN = 16
"""With this many unseen cards or more, a decision looks ahead over fewer choices and draws
(``EARLY_TOP``, ``EARLY_SAMPLES``): early on the value one draw later tells little more than
the model's own, and the full breadth cost 105-180 ms of CPU a decision there (p99 222 ms)
against 11 ms in all (p99 47 ms), with no loss measured (paired over the tournament's decks
0-199: +0.2 points a game, 95 % interval about -1.0 to +1.4; docs/bots.md)."""

EARLY_TOP = 3
EARLY_SAMPLES = 48

MEMO_LIMIT = 20_000
"""Remembered hand values kept between decisions (cleared beyond this: about 3 MB)."""


def draws_of(unseen: int, size: int, orders: list[list[int]]) -> list[int]:
    """Return the draws (bitmasks) a decision is averaged over: every ``size`` cards of
    ``unseen`` when there are at most as many as ``orders``, else the first ``size`` cards of
    each order."""
    cards = cards_of(unseen)
    if comb(len(cards), size) <= len(orders):
        return [sum(1 << c for c in drawn) for drawn in combinations(cards, size)]
    return [sum(1 << c for c in order[:size]) for order in orders]


def lookahead_keep(pos: Position, values: ModelValues, samples: int = 128, top: int = 5) -> int:
    """Return the cards to keep: of the ``top`` decisions the model ranks best, the one whose
    points now plus mean model value after the next draw is highest (ties to the smaller
    bitmask); the expert's choice when the deck is small (exact there) or draws are single.
    With ``EARLY_UNSEEN`` cards unseen or more, at most ``EARLY_TOP`` decisions over
    ``EARLY_SAMPLES`` draws."""
    unseen, held, table = pos.unseen, pos.held, pos.table
    if unseen.bit_count() <= EXACT_DECK or pos.single_draw:
        return best_keep(pos)
    if unseen.bit_count() >= EARLY_UNSEEN:
        top, samples = min(top, EARLY_TOP), min(samples, EARLY_SAMPLES)
    ranked = sorted(keep_values(pos), key=lambda vk: (-vk[0], vk[1]))[:top]
    rng = random.Random(unseen << 24 | held)
    cards = cards_of(unseen)
    orders = [rng.sample(cards, len(cards)) for _ in range(samples)]
    if len(values.hands) > MEMO_LIMIT:
        values.hands.clear()
    best: tuple[float, int] | None = None
    for _, keep in ranked:
        now = best_triple(held & ~keep, table)[1]
        size = draw_size(keep, unseen, False)
        draws = draws_of(unseen, size, orders)
        left = unseen.bit_count() - size
        if left <= EXACT_DECK:
            after = [exact_value(unseen & ~d, keep | d, table, False) for d in draws]
        else:
            after = values.hands_batch(unseen | keep, [(unseen & ~d, keep | d) for d in draws])
        score = now + sum(after) / len(after)
        if best is None or (score, -keep) > (best[0], -best[1]):
            best = (score, keep)
    assert best is not None
    return best[1]

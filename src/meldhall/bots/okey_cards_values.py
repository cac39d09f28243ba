"""The okey-cards value model on many positions at once (numpy), for the dual bound.

``planner.keep_values`` values one decision at a time in pure Python. The information-relaxation
bound (``bots/okey_cards_bound.py``) needs the model's value of every card that could come next,
at every step of every line the deck-knowing search tries: hundreds of thousands of values a
deck. ``ModelValues`` computes the same numbers (``Q``: the value of a kept set before the draw;
``V``: the value of a full hand, the best keep) for a batch of positions sharing the cards still
in play, and falls back to the planner's exact expectimax when at most ``EXACT_DECK`` cards are
unseen. Its numbers equal the planner's (tests/bots/test_okey_cards_bound.py).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from meldhall.games.okey_cards.planner import (
    EXACT_DECK,
    HAND_LIMIT,
    _categories,
    exact_keep_value,
    exact_value,
    submasks,
)
from meldhall.games.okey_cards.scoring import ScoreTable, best_triple
from meldhall.games.okey_cards.weights import FIRST_DECK, WEIGHTS

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

_POP12 = np.array([bin(i).count("1") for i in range(1 << 12)], dtype=np.int64)
_W = np.array(WEIGHTS, dtype=np.float64)  # (deck sizes, kept 0..4, features)


def popcounts(masks: Ints) -> Ints:
    """Return the number of set bits of each 24-bit mask."""
    counts: Ints = _POP12[masks & 4095] + _POP12[(masks >> 12) & 4095]
    return counts


def _weights(deck: int) -> Floats:
    """Return the (kept count, feature) weights for ``deck`` unseen cards (deck >= 4)."""
    weights: Floats = _W[min(deck, FIRST_DECK + len(WEIGHTS) - 1) - FIRST_DECK]
    return weights


@lru_cache(maxsize=1 << 14)
def _alive(remaining: int, table: ScoreTable) -> tuple[Ints, Floats, Floats, int]:
    """Return the triples inside ``remaining``: masks, points / 100, a one-hot of their
    category (set, mixed run, same-colour run) and the union of their cards."""
    rows = [(t, v, c) for t, v, c in _categories(table) if t & remaining == t]
    masks = np.array([t for t, _, _ in rows], dtype=np.int64)
    values = np.array([v for _, v, _ in rows], dtype=np.float64)
    onehot = np.zeros((len(rows), 3), dtype=np.float64)
    for k, (_, _, c) in enumerate(rows):
        onehot[k, c] = 1.0
    union = 0
    for t, _, _ in rows:
        union |= t
    return masks, values, onehot, union


def model_rows(
    remaining: int, deck: int, unseen: Ints, held: Ints, keep: Ints, table: ScoreTable
) -> Floats:
    """Return the model's value of keeping ``keep[r]`` (a subset of ``held[r]``, at most four
    cards) with ``unseen[r]`` in the deck, for every row r; every row has ``deck`` unseen cards
    and the same cards still in play (``remaining`` = unseen | held). The same sum as
    ``planner.keep_values`` without the points played now."""
    masks, values, onehot, _ = _alive(remaining, table)
    rows = len(keep)
    if not len(masks):
        feats = np.zeros((rows, 17))
        feats[:, 0] = 1.0
        feats[:, 14] = popcounts(keep)
        return np.asarray((feats * _weights(deck)[popcounts(keep)]).sum(axis=1))
    mine = held[:, None] & masks[None, :]
    inside = (mine & ~keep[:, None]) == 0
    level = np.where(inside, popcounts(mine), -1)
    feats = np.empty((rows, 17), dtype=np.float64)
    feats[:, 0] = 1.0
    for j in range(3):
        at = np.where(level == j, values[None, :], 0.0)
        feats[:, 1 + 3 * j : 4 + 3 * j] = at @ onehot
    two = level == 2
    feats[:, 10] = (level == 1).sum(axis=1) / 10.0
    feats[:, 11] = two.sum(axis=1)
    feats[:, 12] = np.where(two, values[None, :], 0.0).max(axis=1)
    feats[:, 13] = np.where(level == 3, values[None, :], 0.0).sum(axis=1)
    kept = popcounts(keep)
    feats[:, 14] = kept
    outs = np.bitwise_or.reduce(np.where(two, masks[None, :], 0), axis=1)
    live = np.bitwise_or.reduce(np.where(inside, masks[None, :], 0), axis=1)
    feats[:, 15] = popcounts(outs & unseen)
    feats[:, 16] = popcounts(live & unseen) / 10.0
    return np.asarray((feats * _weights(deck)[kept]).sum(axis=1))


class ModelValues:
    """The expert's value estimates, exact with at most ``EXACT_DECK`` cards unseen:
    ``after_card(unseen, kept)`` values every card that may be drawn next."""

    def __init__(self, table: ScoreTable, exact_deck: int = EXACT_DECK, scale: float = 1.0) -> None:
        """``exact_deck``: the most unseen cards valued exactly; ``scale``: the factor of the
        model's values in ``after_card`` (0: every position with more unseen cards priced 0,
        so a bound's charges come from the exact end of the game only)."""
        self.table = table
        self.exact_deck = exact_deck
        self.scale = scale
        self.hands: dict[tuple[int, int], float] = {}

    def after_card(self, unseen: int, kept: int) -> dict[int, float]:
        """Return, for each card c of ``unseen`` drawn next onto ``kept`` (at most four cards),
        the value of the position it makes: a full hand (five cards, or the deck empty) is
        valued as a decision (``V``), a hand still filling as a kept set (``Q``)."""
        cards = [c for c in range(24) if unseen >> c & 1]
        deck = len(cards) - 1
        full = kept.bit_count() + 1 >= HAND_LIMIT or deck == 0
        if deck <= self.exact_deck:
            table = self.table
            if full:
                return {
                    c: exact_value(unseen & ~(1 << c), kept | 1 << c, table, False) for c in cards
                }
            return {
                c: exact_keep_value(unseen & ~(1 << c), kept | 1 << c, table, False) for c in cards
            }
        if not self.scale:
            return dict.fromkeys(cards, 0.0)
        if self.scale != 1.0:
            scaled = self.after_card_model(unseen, kept, cards, full)
            return {c: self.scale * v for c, v in scaled.items()}
        return self.after_card_model(unseen, kept, cards, full)

    def after_card_model(
        self, unseen: int, kept: int, cards: list[int], full: bool
    ) -> dict[int, float]:
        """Return the model's (unscaled) values of ``after_card``."""
        deck = len(cards) - 1
        if full:
            return self.hand_values(unseen, kept, cards)
        unseen_rows = np.array([unseen & ~(1 << c) for c in cards], dtype=np.int64)
        keep_rows = np.array([kept | 1 << c for c in cards], dtype=np.int64)
        got = model_rows(unseen | kept, deck, unseen_rows, keep_rows, keep_rows, self.table)
        return dict(zip(cards, got.tolist(), strict=True))

    def hand_values(self, unseen: int, kept: int, cards: list[int]) -> dict[int, float]:
        """Return ``hand_value(unseen - c, kept + c)`` for each card c of ``cards`` (all in
        ``unseen``), the model evaluated once for every hand not yet remembered."""
        pairs = [(unseen & ~(1 << c), kept | 1 << c) for c in cards]
        got = self.hands_batch(unseen | kept, pairs)
        return dict(zip(cards, got, strict=True))

    def hands_batch(self, remaining: int, pairs: list[tuple[int, int]]) -> list[float]:
        """Return ``hand_value(unseen, held)`` for each (unseen, held) of ``pairs``, all with
        ``remaining`` = unseen | held and the same number of unseen cards (at least
        ``FIRST_DECK``), the model evaluated once for every hand not yet remembered."""
        union = _alive(remaining, self.table)[3]
        out: list[float] = [0.0] * len(pairs)
        todo: list[tuple[int, int, int]] = []
        for index, (left, held) in enumerate(pairs):
            found = self.hands.get((left, held & union))
            if found is None:
                todo.append((index, left, held & union))
            else:
                out[index] = found
        if not todo:
            return out
        rows_u: list[int] = []
        rows_h: list[int] = []
        rows_k: list[int] = []
        now: list[int] = []
        spans: list[tuple[int, int]] = []
        for _, left, live in todo:
            start = len(rows_k)
            for k in submasks(live):
                if k.bit_count() < HAND_LIMIT:
                    rows_u.append(left)
                    rows_h.append(live)
                    rows_k.append(k)
                    now.append(best_triple(live & ~k, self.table)[1])
            spans.append((start, len(rows_k)))
        got = np.asarray(now, dtype=np.float64) + model_rows(
            remaining,
            todo[0][1].bit_count(),
            np.array(rows_u, dtype=np.int64),
            np.array(rows_h, dtype=np.int64),
            np.array(rows_k, dtype=np.int64),
            self.table,
        )
        for (index, left, live), (start, end) in zip(todo, spans, strict=True):
            value = float(got[start:end].max())
            self.hands[(left, live)] = value
            out[index] = value
        return out

    def hand_value(self, unseen: int, held: int) -> float:
        """Return the model's value of deciding with ``held`` in hand and ``unseen`` in the
        deck (at least ``FIRST_DECK`` cards): the best keep, points played now included."""
        return self.hands_batch(unseen | held, [(unseen, held)])[0]

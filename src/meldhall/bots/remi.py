"""Remi bots: ``random`` and ``greedy``. They see only the observation and the legal actions.

- ``random`` opens with the opening that places the most cards, melds and lays off whatever
  it can; otherwise it draws from the stock (the top discard only when it joins a meld) and
  discards at random among its least connected cards, so hands end the way real ones do
  (BENCHMARKS.md).
- ``greedy`` plays the best immediate move: it takes the top discard when that card joins a
  meld of its hand or fits the table (once open), opens with the most cards, melds, frees
  jokers and lays off, and discards the card that helps its hand least (never a joker while it
  has another card), keeping back cards the next player could lay off.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from meldhall.core.engine import JSON, Action, Bot
from meldhall.games.remi.actions import (
    DRAW_DISCARD,
    DRAW_STOCK,
    Discard,
    DrawDiscard,
    DrawStock,
    Exchange,
    LayOff,
    MeldAction,
    Open,
)
from meldhall.games.remi.best import meld_cards
from meldhall.games.remi.cards import CARD_ID, FIRST_JOKER, RANK, SUIT, hand_value
from meldhall.games.remi.hints import joins_meld, partner_counts
from meldhall.games.remi.melds import RunRules
from meldhall.games.remi.table import TableMeld

_ID_OF = CARD_ID


def _open_size(action: Open) -> int:
    return sum(len(m.cards) for m in action.melds)


class RandomRemiBot:
    """Random among sensible moves: it opens (the most cards), melds and lays off whenever it
    can, takes the top discard only when it joins a meld, and discards a random card among
    those with the fewest partners in its hand (so its hands move towards melds and end).

    It reads the observation only to draw (its hand and the top discard); during its play it
    works from the legal actions alone, so it asks for an observation only when its next
    decision is a draw (``needs_observation`` turns on after each of its discards)."""

    def __init__(self) -> None:
        self.needs_observation = True

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return an opening, a meld, a lay-off, else a draw or a discard as described."""
        best: Action | None = None
        size = -1_000
        lays: list[Action] = []
        discards: list[Discard] = []
        for action in legal:
            kind = type(action)
            if kind is Discard:
                discards.append(action)  # type: ignore[arg-type]
            elif kind is Open or kind is MeldAction:
                cards = (
                    _open_size(action)  # type: ignore[arg-type]
                    if kind is Open
                    else len(action.meld.cards) - 100  # type: ignore[attr-defined]
                )
                if cards > size:
                    best, size = action, cards
            elif kind is LayOff:
                lays.append(action)
        self.needs_observation = False
        if best is not None:
            return best
        if lays:
            return lays[rng.randrange(len(lays))]
        if legal[0] == DRAW_STOCK:
            if DRAW_DISCARD in legal and observation and _top_joins(observation):
                return DRAW_DISCARD
            return DRAW_STOCK
        if not discards:
            return legal[rng.randrange(len(legal))]
        self.needs_observation = True
        hand = [d.card for d in discards]
        counts = partner_counts(hand)
        scores = [99 if c >= FIRST_JOKER else k for c, k in zip(hand, counts, strict=True)]
        low = min(scores)
        pool = [d for d, k in zip(discards, scores, strict=True) if k == low]
        return pool[rng.randrange(len(pool))]


def _top_joins(observation: Mapping[str, Any]) -> bool:
    top = observation["discard_top"]
    hand = [CARD_ID[t] for t in observation["hand"]]
    options = observation["options"]
    rules = RunRules(options["ace_low_allowed"], options["run_wrap"], options["ace_value_low_run"])
    return joins_meld(CARD_ID[top], hand, rules)


class GreedyRemiBot:
    """The best immediate move, judged on the bot's own hand and the table."""

    needs_observation = True

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the greedy choice among ``legal``."""
        view = _View(observation)
        if any(isinstance(a, DrawStock) for a in legal):
            take = any(isinstance(a, DrawDiscard) for a in legal) and view.wants_top()
            return DrawDiscard() if take else DrawStock()
        opens = [a for a in legal if isinstance(a, Open)]
        if opens:
            return max(opens, key=lambda a: (_open_size(a), -legal.index(a)))
        melds = [a for a in legal if isinstance(a, MeldAction)]
        if melds:
            return max(melds, key=lambda a: (len(a.meld.cards), -legal.index(a)))
        swaps = [a for a in legal if isinstance(a, Exchange)]
        if swaps:
            return swaps[0]
        lays = [a for a in legal if isinstance(a, LayOff)]
        if lays:
            return max(lays, key=lambda a: (a.card < FIRST_JOKER, view.points(a.card)))
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            return legal[0]
        keep = view.keep_scores()
        return min(discards, key=lambda a: (keep[a.card], -view.points(a.card), a.card))


class _View:
    """What the greedy bot reads from an observation."""

    def __init__(self, observation: Mapping[str, Any]) -> None:
        self.obs = observation
        self.seat: int = observation["seat"]
        self.hand = [_ID_OF[t] for t in observation["hand"]]
        options = observation["options"]
        self.rules = RunRules(
            options["ace_low_allowed"], options["run_wrap"], options["ace_value_low_run"]
        )
        self.joker_penalty: int = options["joker_hand_penalty"]
        self.opened: bool = observation["opened"][self.seat]
        self.table = [TableMeld.from_view(m) for m in observation["melds"]]

    def points(self, card: int) -> int:
        """Return the penalty points of a card left in hand."""
        return hand_value(card, self.joker_penalty)

    def fits_table(self, card: int) -> bool:
        """Return True when the card could be laid off on some meld of the table."""
        return any(
            m.lay_off_error(card, end, self.rules) is None
            for m in self.table
            for end, _rank, _suit in m.wanted(self.rules)
        )

    def wants_top(self) -> bool:
        """Return True when the top discard joins a meld of the hand or (open) fits the
        table."""
        top = _ID_OF[self.obs["discard_top"]]
        if top >= FIRST_JOKER:
            return True
        if self.opened and self.fits_table(top):
            return True
        return top in meld_cards([*self.hand, top], self.rules)

    def keep_scores(self) -> dict[int, int]:
        """Return how much each hand card is worth keeping: in a meld of the best partition,
        a joker, partners for future melds, a card the next player could lay off."""
        in_melds = meld_cards(self.hand, self.rules)
        danger = self._next_is_open()
        out: dict[int, int] = {}
        for c in self.hand:
            if c >= FIRST_JOKER:
                out[c] = 100
                continue
            score = 50 if c in in_melds else 0
            for other in self.hand:
                if other == c or other >= FIRST_JOKER:
                    continue
                same_rank = RANK[other] == RANK[c] and SUIT[other] != SUIT[c]
                near = SUIT[other] == SUIT[c] and 0 < _gap(RANK[other], RANK[c]) <= 2
                score += 3 if same_rank or near else 0
            if self.fits_table(c):
                score += 20 if danger else 5
            out[c] = score
        return out

    def _next_is_open(self) -> bool:
        active: Sequence[bool] = self.obs["active"]
        n = len(active)
        for step in range(1, n):
            seat = (self.seat + step) % n
            if active[seat]:
                opened: bool = self.obs["opened"][seat]
                return opened
        return False


def _gap(a: int, b: int) -> int:
    """Return the distance of two ranks, the ace also next to the king."""
    d = abs(a - b)
    return min(d, 13 - d) if 1 in (a, b) else d


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomRemiBot, "greedy": GreedyRemiBot}

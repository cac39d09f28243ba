"""Remi bots: ``random`` and ``greedy``. They see only the observation and the legal actions.

- ``random`` opens with the opening that places the most cards, melds and lays off whatever
  it can; otherwise it draws from the stock (the top discard when it can place it this turn;
  before opening, half the time when it joins a meld) and discards at random among its least
  connected cards (a quarter of the time any card but a joker), so hands end the way real
  ones do (BENCHMARKS.md).
- ``greedy`` plays the best immediate move: it takes the top discard when it can place it this
  turn (it fits the table, makes a new meld, or lets it open), opens with the most cards,
  melds, frees jokers and lays off (naturals first, the costliest first), and discards the
  card that helps its hand least: outside the best partition of its hand (the solver's), with
  the fewest partners, never a joker while it has another card, keeping back cards the next
  player could lay off once open; among equals the costliest. When, open, its hand has not
  shrunk for ``STALL_TURNS`` turns it discards at random, so no hand stalls for ever.
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
    Exchange,
    LayOff,
    MeldAction,
    Open,
)
from meldhall.games.remi.best import meld_cards
from meldhall.games.remi.hints import joins_meld, partner_counts, worth_taking
from meldhall.games.remi.melds import RunRules
from meldhall.games.remi.pieces import CARD_ID, FIRST_JOKER, RANK, SUIT, face_name, hand_value

SHAKE = 0.25
"""How often the random bot discards any card but a joker rather than a least connected one:
its hands keep changing, so no two bots can hold each other's cards for ever."""

STALL_TURNS = 8
"""Turns without its hand shrinking after which the greedy bot, once open, discards at random
(any card but a joker): it gives up partners it has waited for in vain, so hands cannot
stall."""


def _open_size(action: Open) -> int:
    return sum(len(m.cards) for m in action.melds)


class RandomRemiBot:
    """Random among sensible moves: it opens (the most cards), melds and lays off whenever it
    can, takes the top discard when it can place it this turn (before opening: half the time
    when it joins a meld), and discards a random card among those with the fewest partners in
    its hand, a quarter of the time any card but a joker (so its hands move towards melds and
    end).

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
            if DRAW_DISCARD in legal and observation and _top_joins(observation, rng):
                return DRAW_DISCARD
            return DRAW_STOCK
        if not discards:
            return legal[rng.randrange(len(legal))]
        self.needs_observation = True
        hand = [d.card for d in discards]
        counts = partner_counts(hand)
        scores = [99 if c >= FIRST_JOKER else k for c, k in zip(hand, counts, strict=True)]
        if rng.random() < SHAKE:
            scores = [0 if k < 99 else k for k in scores]
        low = min(scores)
        pool = [d for d, k in zip(discards, scores, strict=True) if k == low]
        return pool[rng.randrange(len(pool))]


def _top_joins(observation: Mapping[str, Any], rng: random.Random) -> bool:
    """Return True when the random bot takes the top discard: once open, when it can place
    it this turn; before, at random half the time when it joins a meld of the hand."""
    view = _View(observation)
    top = CARD_ID[observation["discard_top"]]
    if view.opened:
        return worth_taking(top, view.hand, True, view.fits_table, view.rules, 0)
    return len(view.hand) >= 3 and joins_meld(top, view.hand, view.rules) and rng.random() < 0.5


class GreedyRemiBot:
    """The best immediate move, judged on the bot's own hand and the table."""

    needs_observation = True

    def __init__(self) -> None:
        self._hand: tuple[int, int] = (0, 0)
        self._stalled = 0

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the greedy choice among ``legal``."""
        view = _View(observation)
        if legal[0] == DRAW_STOCK:
            take = DRAW_DISCARD in legal and view.wants_top()
            return DRAW_DISCARD if take else DRAW_STOCK
        opening: Action | None = None
        meld: Action | None = None
        best_open = best_meld = 0
        swap: Action | None = None
        lays: list[LayOff] = []
        discards: list[Discard] = []
        for action in legal:
            if isinstance(action, Open):
                if _open_size(action) > best_open:
                    opening, best_open = action, _open_size(action)
            elif isinstance(action, MeldAction):
                if len(action.meld.cards) > best_meld:
                    meld, best_meld = action, len(action.meld.cards)
            elif isinstance(action, Exchange):
                swap = swap or action
            elif isinstance(action, LayOff):
                lays.append(action)
            elif isinstance(action, Discard):
                discards.append(action)
        chosen = opening or meld or swap
        if chosen is not None:
            return chosen
        if lays:
            return max(lays, key=lambda a: (a.card < FIRST_JOKER, view.points(a.card)))
        if not discards:
            return legal[0]
        if self._stall(observation) >= STALL_TURNS and view.opened:
            loose = [d for d in discards if d.card < FIRST_JOKER] or discards
            return loose[rng.randrange(len(loose))]
        keep = view.keep_scores()
        return min(discards, key=lambda a: (keep[a.card], -view.points(a.card), a.card))

    def _stall(self, observation: Mapping[str, Any]) -> int:
        """Return for how many of its discards in this hand the hand has not shrunk."""
        hand: tuple[int, int] = (observation["hand_number"], len(observation["hand"]))
        same_hand = hand[0] == self._hand[0]
        self._stalled = self._stalled + 1 if same_hand and hand[1] >= self._hand[1] else 0
        self._hand = hand
        return self._stalled


class _View:
    """What the greedy bot reads from an observation."""

    def __init__(self, observation: Mapping[str, Any]) -> None:
        self.obs = observation
        self.seat: int = observation["seat"]
        self.hand = [CARD_ID[t] for t in observation["hand"]]
        options = observation["options"]
        self.rules = RunRules(
            options["ace_low_allowed"], options["run_wrap"], options["ace_value_low_run"]
        )
        self.joker_penalty: int = options["joker_hand_penalty"]
        self.opened: bool = observation["opened"][self.seat]
        self._accepts: set[str] | None = None

    def points(self, card: int) -> int:
        """Return the penalty points of a card left in hand."""
        return hand_value(card, self.joker_penalty)

    def fits_table(self, card: int) -> bool:
        """Return True when the card could be laid off on some meld of the table."""
        if self._accepts is None:
            self._accepts = {a["card"] for m in self.obs["melds"] for a in m["accepts"]}
        if card >= FIRST_JOKER:
            return bool(self._accepts)
        return face_name(RANK[card], SUIT[card]) in self._accepts

    def wants_top(self) -> bool:
        """Return True when the top discard can be placed this turn (``worth_taking``)."""
        top = CARD_ID[self.obs["discard_top"]]
        minimum: int = self.obs["options"]["opening_minimum"]
        return worth_taking(top, self.hand, self.opened, self.fits_table, self.rules, minimum)

    def keep_scores(self) -> dict[int, int]:
        """Return how much each hand card is worth keeping: in a meld of the best partition,
        a joker, partners for future melds, a card the next player could lay off."""
        in_melds = meld_cards(self.hand, self.rules)
        danger = self._next_is_open()
        partners = partner_counts(self.hand)
        out: dict[int, int] = {}
        for c, count in zip(self.hand, partners, strict=True):
            if c >= FIRST_JOKER:
                out[c] = 100
                continue
            score = (50 if c in in_melds else 0) + 3 * count
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


def _strong() -> Bot:
    """Return the strong bot (``remi_strong``; imported late, it builds on this module)."""
    from meldhall.bots.remi_strong import StrongRemiBot

    return StrongRemiBot()


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomRemiBot,
    "greedy": GreedyRemiBot,
    "strong": _strong,
}

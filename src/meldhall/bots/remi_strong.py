"""Remi's ``strong`` bot: the greedy bot with live partners and danger (docs/bots.md).

It plays like ``greedy`` (bots/remi.py) except how it judges a discard:

- **Live partners**: a card's worth for future melds counts only the cards still unseen
  (not in its hand, the discard pile or the table melds) that would complete a meld with it
  and one of its partners, so a pair whose third card is dead is no longer held for nothing.
- **Danger**: when an opponent who has opened holds few cards, a card left in hand is likely
  to be paid for soon, so the card's points weigh more the fewer cards that opponent holds
  (``DANGER_WEIGHT``), and a card the next player could lay off (he may take it and go out)
  is held back harder.
- **Feeding**: a card the next player would take (he holds two cards that meld with it) is
  held back by the chance that he does (``remi_feed.take_chance``: his known cards, his hand
  size and the unseen cards), weighted ``FEED_WEIGHT``. The ceiling showed that refusing
  the discards he takes is nearly all its gain (``docs/bots.md``). ``sampled=True`` judges
  the takes on his sampled hands instead (``remi_belief``: redrawn while they contradict his
  play; before he opens he takes only a card that lets him open), weighted
  ``SAMPLED_WEIGHT``: better calibrated, but not shown to win more (docs/bots.md).
  Measured too and not on by default: ``sample_unopened=True`` samples only while he has
  not opened (there the pair estimate tells nothing) and ``refusals=True`` lets
  ``take_chance`` read the faces he refused this hand (``remi_refusals``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from meldhall.bots.remi import STALL_TURNS, GreedyRemiBot, _View
from meldhall.bots.remi_belief import Pass, next_hands, passed_on, take_shares
from meldhall.bots.remi_feed import take_chance
from meldhall.bots.remi_refusals import NextRefusals
from meldhall.core.engine import JSON, Action
from meldhall.games.remi.actions import DRAW_DISCARD, DRAW_STOCK, Discard
from meldhall.games.remi.best import meld_cards
from meldhall.games.remi.hints import joins_meld
from meldhall.games.remi.pieces import CARD_ID, FIRST_JOKER

DANGER_WEIGHT: dict[int, int] = {1: 8, 2: 6, 3: 4, 4: 2, 5: 1}
"""How much a card's points weigh in a discard, by the fewest cards an opened opponent holds
(more cards: 0, the greedy order)."""

LIVE_WEIGHT = 4
"""Keep score per live completing card (capped at ``LIVE_CAP`` per card)."""

LIVE_CAP = 8

FEED_WEIGHT: tuple[float, float] = (20.0, 40.0)
"""Keep score for a discard the next player would take (``remi_feed.take_chance``: the chance
he holds two cards that meld with it), when he has not opened and when he has."""

SAMPLED_WEIGHT: tuple[float, float] = (40.0, 40.0)
"""The same for a discard he surely takes, judged on his sampled hands (``remi_belief``: a
discard counts the share of them that take it); used by ``StrongRemiBot(sampled=True)``."""

TAKE_BEFORE_OPENING = True
"""Before opening, take the top discard whenever it completes a meld of the hand (greedy
takes it only when it lets the hand open at once)."""


def unseen_faces(observation: Mapping[str, Any]) -> list[int]:
    """Return per face (``card >> 1``, 0..51) how many of its two copies the seat has not
    seen: not in its hand, the discard pile or a meld on the table."""
    left = [2] * 52
    seen: list[str] = list(observation["hand"]) + list(observation["discard"])
    for meld in observation["melds"]:
        seen.extend(meld["cards"])
    for token in seen:
        card = CARD_ID[token]
        if card < FIRST_JOKER:
            left[card >> 1] -= 1
    return left


def live_partners(hand: Sequence[int], unseen: Sequence[int]) -> dict[int, int]:
    """Return per natural card of ``hand`` how many unseen cards would complete a meld of
    three with it and one partner of the hand (same rank, or same suit one or two away;
    the ace both below the 2 and above the king)."""
    faces = {c >> 1 for c in hand if c < FIRST_JOKER}
    out: dict[int, int] = {}
    for card in hand:
        if card >= FIRST_JOKER:
            continue
        suit, r = divmod(card >> 1, 13)
        total = 0
        pair_suits = [s for s in range(4) if s != suit and s * 13 + r in faces]
        if pair_suits:
            others = [s for s in range(4) if s != suit and s not in pair_suits]
            total += sum(unseen[s * 13 + r] for s in others)
        for p in _positions(r):
            for other in range(13):
                if other == r or suit * 13 + other not in faces:
                    continue
                for q in _positions(other):
                    lo, hi = min(p, q), max(p, q)
                    if hi - lo == 1:
                        needed = [lo - 1, hi + 1]
                    elif hi - lo == 2:
                        needed = [lo + 1]
                    else:
                        continue
                    total += sum(unseen[suit * 13 + _index(n)] for n in needed if 1 <= n <= 14)
        out[card] = total
    return out


def _positions(rank_index: int) -> tuple[int, ...]:
    """Return the run positions 1..14 of a rank index (0 = ace: both 1 and 14)."""
    return (1, 14) if rank_index == 0 else (rank_index + 1,)


def _index(position: int) -> int:
    """Return the rank index of a run position 1..14."""
    return 0 if position == 14 else position - 1


class StrongRemiBot(GreedyRemiBot):
    """``greedy`` with discards judged by live partners and danger (module docstring)."""

    def __init__(
        self,
        sampled: bool = False,
        feed_weight: tuple[float, float] | None = None,
        refusals: bool = False,
        sample_unopened: bool = False,
    ) -> None:
        """``sampled``: the next player's takes are judged on sampled hands
        (``remi_belief``, not the default: it did not pay clearly, docs/bots.md), else by
        ``remi_feed.take_chance``; ``feed_weight``: the keep score of a sure take, next
        player unopened and opened (by default ``SAMPLED_WEIGHT`` or ``FEED_WEIGHT``);
        ``refusals``: ``take_chance`` reads the faces he refused (``remi_refusals``);
        ``sample_unopened``: his takes are judged on sampled hands while he has not opened
        (``take_chance`` does not see that he takes only a card that lets him open)."""
        super().__init__()
        self.sampled = sampled
        self.feed_weight = feed_weight or (SAMPLED_WEIGHT if sampled else FEED_WEIGHT)
        self._last: Pass | None = None
        self.sample_unopened = sample_unopened
        self._refusals = NextRefusals() if refusals else None
        self._refused: frozenset[int] = frozenset()

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the greedy choice, but the discard chosen by ``discard`` and, before
        opening, the top discard taken whenever it completes a meld with two hand cards."""
        if self._refusals is not None:
            seat: int = observation["seat"]
            self._refused = self._refusals.update(observation, _next_active(observation, seat))
        if legal[0] == DRAW_STOCK and DRAW_DISCARD in legal and TAKE_BEFORE_OPENING:
            view = _View(observation)
            top = CARD_ID[str(observation["discard_top"])]
            if not view.opened and len(view.hand) >= 3 and joins_meld(top, view.hand, view.rules):
                return DRAW_DISCARD
        discards = [a for a in legal if isinstance(a, Discard)]
        if len(discards) != len(legal) or len(discards) < 2:
            return super().choose(observation, legal, rng)
        view = _View(observation)
        if self._stall(observation) >= STALL_TURNS and view.opened:
            loose = [d for d in discards if d.card < FIRST_JOKER] or discards
            choice = loose[rng.randrange(len(loose))]
        else:
            choice = self.discard(observation, view, discards)
        self._last = Pass(
            observation["hand_number"],
            observation["stock_rebuilds"],
            choice.card,
            len(observation["discard"]) + 1,
        )
        if self._refusals is not None:
            after = _next_active(observation, view.seat)
            opened = bool(observation["opened"][after])
            self._refusals.note_discard(observation, choice.card, after, opened)
        return choice

    def discard(
        self,
        observation: Mapping[str, Any],
        view: _View,
        discards: Sequence[Discard],
    ) -> Discard:
        """Return the discard with the lowest keep score (in a meld, live partners, a card
        the next player could lay off), less its points weighted by the danger."""
        seat = view.seat
        n = len(observation["active"])
        fewest = min(
            (
                observation["hand_counts"][s]
                for s in range(n)
                if s != seat and observation["active"][s] and observation["opened"][s]
            ),
            default=99,
        )
        weight = DANGER_WEIGHT.get(fewest, 0)
        in_melds = meld_cards(view.hand, view.rules)
        live = live_partners(view.hand, unseen_faces(observation))
        feeds = view._next_is_open()
        after = _next_active(observation, seat)
        next_count = observation["hand_counts"][after]
        next_opened = bool(observation["opened"][after])
        feed = self.feed_weight[next_opened]
        unseen = unseen_faces(observation) if feed else []
        known = [CARD_ID[t] for t in observation["known"][after]] if feed else []
        total = sum(unseen)
        shares: dict[int, float] = {}
        if feed and (self.sampled or (self.sample_unopened and not next_opened)):
            refused = passed_on(observation, self._last)
            draws = random.Random(observation["hand_number"] * 1_000 + observation["turn"])
            hands = next_hands(observation, after, refused, view.rules, draws)
            minimum: int = observation["options"]["opening_minimum"]
            cards = [d.card for d in discards]
            taken = take_shares(cards, hands, next_opened, view.fits_table, view.rules, minimum)
            shares = dict(zip(cards, taken, strict=True))

        def key(action: Discard) -> tuple[float, int]:
            card = action.card
            points = view.points(card)
            if card >= FIRST_JOKER:
                keep = 100.0
            else:
                keep = (50 if card in in_melds else 0) + LIVE_WEIGHT * min(live[card], LIVE_CAP)
            if view.fits_table(card) and feeds:
                keep += 200 if next_count <= 2 else 20
            elif view.fits_table(card):
                keep += 5
            if shares:
                keep += feed * shares[card]
            elif feed:
                chance = take_chance(
                    card, known, next_count, unseen, total, view.rules, self._refused
                )
                keep += feed * chance
            return keep - weight * points, card

        return min(discards, key=key)


def _next_active(observation: Mapping[str, Any], seat: int) -> int:
    """Return the next active seat after ``seat``."""
    active: Sequence[bool] = observation["active"]
    n = len(active)
    for step in range(1, n):
        if active[(seat + step) % n]:
            return (seat + step) % n
    return seat

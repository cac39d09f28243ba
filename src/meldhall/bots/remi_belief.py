"""Sampled hands of the next remi player, and how likely he takes each discard.

The seat does not see the next player's hand, but it sees how many cards he holds, the cards
he took face up and still holds (``known``) and every card not yet seen; and what he did:
a player who has not opened after a turn of his own could not open (the most his hand lays
down is under the opening minimum), and a player who drew from the stock while the seat's
last discard lay on the pile could not place it at once. ``NextHands`` draws his hand that
many times from the unseen cards and keeps the draws consistent with those facts;
``take_shares`` then says, per discard, in what share of the kept draws he would take it
(``games.remi.hints.worth_taking``: he places it this very turn, before opening only when it
lets him open).

>>> from meldhall.games.remi.pieces import parse_card_list
>>> hands = [parse_card_list("7S 7D 2C"), parse_card_list("KH QH 2C")]
>>> seven, ace = parse_card_list("7H AH")
>>> take_shares([seven, ace], hands, True, lambda c: False, RunRules(), 30)
[0.5, 0.5]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meldhall.games.remi.best import best_value
from meldhall.games.remi.hints import joins_meld, worth_taking
from meldhall.games.remi.melds import RunRules
from meldhall.games.remi.pieces import CARD_ID

DRAWS = 24
"""How many consistent hands of the next player a decision samples."""

TRIES = 4
"""Draws tried per hand kept before the facts are given up (the hand is kept anyway)."""


@dataclass(frozen=True)
class Pass:
    """The seat's last discard and the pile's length just after it, in one hand."""

    hand_number: int
    rebuilds: int
    card: int
    pile: int


def passed_on(observation: Mapping[str, Any], last: Pass | None) -> int | None:
    """Return the seat's last discard when it still lies where it was thrown, so the next
    player drew from the stock instead of taking it (None: no such discard this hand)."""
    if last is None or last.hand_number != observation["hand_number"]:
        return None
    pile: Sequence[str] = observation["discard"]
    if last.rebuilds != observation["stock_rebuilds"] or len(pile) < last.pile:
        return None
    return last.card if CARD_ID[pile[last.pile - 1]] == last.card else None


def has_played(observation: Mapping[str, Any], seat: int) -> bool:
    """Return True when ``seat`` has had a turn in this hand before the current one."""
    active: Sequence[bool] = observation["active"]
    n = len(active)
    first: int = observation["first_player"]
    order = [s for s in ((first + k) % n for k in range(n)) if active[s]]
    return bool(observation["turn"] > order.index(seat) + 1)


def unseen_cards(observation: Mapping[str, Any]) -> list[int]:
    """Return the card ids the seat has not seen: not in its hand, the pile, a table meld or
    the cards taken face up."""
    seen = {CARD_ID[t] for t in observation["hand"]}
    seen.update(CARD_ID[t] for t in observation["discard"])
    for meld in observation["melds"]:
        seen.update(CARD_ID[t] for t in meld["cards"])
    for known in observation["known"]:
        seen.update(CARD_ID[t] for t in known)
    total = 104 + int(observation["options"]["jokers"])
    return [c for c in range(total) if c not in seen]


def next_hands(
    observation: Mapping[str, Any],
    seat: int,
    refused: int | None,
    rules: RunRules,
    rng: random.Random,
    draws: int = DRAWS,
) -> list[list[int]]:
    """Return ``draws`` hands ``seat`` may hold: his known cards and unseen cards at random,
    each redrawn (up to ``TRIES`` times) while it breaks what his play showed: unopened after
    a turn, a hand that could open; ``refused`` (a discard he did not take), a hand that
    would have taken it."""
    known = [CARD_ID[t] for t in observation["known"][seat]]
    free = observation["hand_counts"][seat] - len(known)
    pool = unseen_cards(observation)
    opened: bool = observation["opened"][seat]
    minimum: int = observation["options"]["opening_minimum"]
    closed = not opened and has_played(observation, seat)
    out: list[list[int]] = []
    for _ in range(draws):
        hand = known + rng.sample(pool, free)
        for _ in range(TRIES - 1):
            if not _contradicts(hand, opened, closed, refused, rules, minimum):
                break
            hand = known + rng.sample(pool, free)
        out.append(hand)
    return out


def _contradicts(
    hand: list[int],
    opened: bool,
    closed: bool,
    refused: int | None,
    rules: RunRules,
    minimum: int,
) -> bool:
    """Return True when a player with ``hand`` would have played otherwise: opened (when
    ``closed``: he stayed unopened after a turn) or taken the ``refused`` discard."""
    if closed and best_value(hand, rules) >= minimum:
        return True
    if refused is None or not joins_meld(refused, hand, rules):
        return False
    return opened or best_value([*hand, refused], rules) >= minimum


def take_shares(
    cards: Sequence[int],
    hands: Sequence[Sequence[int]],
    opened: bool,
    fits_table: Callable[[int], bool],
    rules: RunRules,
    minimum: int,
) -> list[float]:
    """Return per card the share of ``hands`` with which the player would take it from the
    pile (``worth_taking``)."""
    if not hands:
        return [0.0] * len(cards)
    return [
        sum(worth_taking(c, h, opened, fits_table, rules, minimum) for h in hands) / len(hands)
        for c in cards
    ]

"""What the next remi player showed he lacks: the faces he refused in this hand.

A player who discards a card, or who is open and draws from the stock while a card lies on
the pile, held no two cards that meld with it (the greedy player keeps a card that is in a
meld of his hand and, open, takes a discard he can place). So every pair of faces that
would have made a meld with a refused face was not in his hand then; he has drawn a few
cards since, so such a pair is only less likely, not impossible (``remi_feed.take_chance``
counts it at a share).

The seat sees the pile at each of its turns. Between its discard and its next turn each
other player drew (taking the top discard or not) and discarded once, so when the pile grew
by exactly one card a player (nobody took a discard) or the next player alone took the
seat's discard, the card just above the seat's discard, or in its place, is the next
player's own discard. Any other growth is ambiguous and read no further.

>>> from meldhall.games.remi.pieces import CARD_ID
>>> refusals = NextRefusals()
>>> base = {"hand_number": 1, "stock_rebuilds": 0, "active": [True] * 4}
>>> refusals.note_discard({**base, "discard": ["2C#1"]}, CARD_ID["9H#1"], 1, True)
>>> later = {**base, "discard": ["2C#1", "9H#1", "KS#1", "4D#1", "5D#1"]}
>>> refusals.update(later, 1) == {CARD_ID["9H#1"] >> 1, CARD_ID["KS#1"] >> 1}
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meldhall.games.remi.pieces import CARD_ID, FIRST_JOKER


@dataclass(frozen=True)
class _Thrown:
    """The seat's last discard: where it lay, who plays next and whether he was open."""

    hand_number: int
    rebuilds: int
    pile: int
    card: int
    next_seat: int
    next_opened: bool


class NextRefusals:
    """The faces (``card >> 1``) the next player refused in the current hand."""

    def __init__(self) -> None:
        self._hand = -1
        self._faces: set[int] = set()
        self._thrown: _Thrown | None = None

    def note_discard(
        self, observation: Mapping[str, Any], card: int, next_seat: int, next_opened: bool
    ) -> None:
        """Remember the seat's discard ``card``, chosen on ``observation``, to read at its
        next turn what the next player did with it."""
        self._thrown = _Thrown(
            observation["hand_number"],
            observation["stock_rebuilds"],
            len(observation["discard"]) + 1,
            card,
            next_seat,
            next_opened,
        )

    def update(self, observation: Mapping[str, Any], next_seat: int) -> frozenset[int]:
        """Read the pile of ``observation`` (any decision of the seat's turn) for what the
        next player refused since the seat's last discard; return every face he refused in
        this hand."""
        hand: int = observation["hand_number"]
        if hand != self._hand:
            self._hand, self._faces = hand, set()
        thrown, self._thrown = self._thrown, None
        if (
            thrown is not None
            and thrown.hand_number == hand
            and thrown.rebuilds == observation["stock_rebuilds"]
            and thrown.next_seat == next_seat
        ):
            others = sum(observation["active"]) - 1
            self._read(observation["discard"], thrown, others)
        return frozenset(self._faces)

    def _read(self, pile: Sequence[str], thrown: _Thrown, others: int) -> None:
        """Add the faces the pile shows the next player refused after ``thrown``."""
        at = thrown.pile - 1
        if len(pile) < at:
            return
        passed = len(pile) > at and CARD_ID[pile[at]] == thrown.card
        if passed and thrown.next_opened:
            self._add(thrown.card)
        if passed and len(pile) == at + 1 + others:
            self._add(CARD_ID[pile[at + 1]])
        elif not passed and len(pile) == at + others:
            self._add(CARD_ID[pile[at]])

    def _add(self, card: int) -> None:
        if card < FIRST_JOKER:
            self._faces.add(card >> 1)

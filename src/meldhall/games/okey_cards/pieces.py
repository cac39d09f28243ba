"""The 24 okey cards as small ints, their tokens and bitmasks (okey-cards.md 2).

A card is the spec's id 0..23: ``colour × 8 + number − 1`` with R=0, B=1, Y=2 (the order of
``meldhall.core.tiles.OKEY_CARDS``); a set of cards is a bitmask with bit ``id`` set. Tokens
(``R3``) appear only in actions, events, observations and snapshots.

>>> card_ids("R1 B3 Y8"), [token(c) for c in (0, 10, 23)]
([0, 10, 23], ['R1', 'B3', 'Y8'])
>>> cards_of(mask_of([5, 2])), colour_of(10), number_of(10)
([2, 5], 1, 3)
"""

from __future__ import annotations

from collections.abc import Iterable

from meldhall.core.engine import JSON
from meldhall.core.tiles import OKEY_CARDS, parse_okey_cards

CARD_COUNT = 24
ALL_CARDS = (1 << CARD_COUNT) - 1
"""The bitmask of all 24 cards."""

TOKENS: tuple[str, ...] = tuple(str(card) for card in OKEY_CARDS)
"""The token of every card id."""

CARD_IDS: dict[str, int] = {tok: card for card, tok in enumerate(TOKENS)}
"""The card id of every token."""


def token(card: int) -> str:
    """Return the token of a card id (``R3``)."""
    return TOKENS[card]


def slots_json(slots: list[int | None]) -> list[str | None]:
    """Return hand or field slots as tokens, None for an empty slot."""
    return [None if c is None else TOKENS[c] for c in slots]


def card_ids(tokens: str | list[JSON]) -> list[int]:
    """Return the card ids of tokens (a list, or one string separated by spaces), or raise
    ``ParseError`` naming a bad token."""
    return [c.id for c in parse_okey_cards(tokens)]


def colour_of(card: int) -> int:
    """Return the colour index (R=0, B=1, Y=2) of a card id."""
    return card // 8


def number_of(card: int) -> int:
    """Return the number 1..8 of a card id."""
    return card % 8 + 1


def mask_of(cards: Iterable[int]) -> int:
    """Return the bitmask of some card ids."""
    out = 0
    for card in cards:
        out |= 1 << card
    return out


def cards_of(mask: int) -> list[int]:
    """Return the card ids of a bitmask, ascending."""
    mask &= ALL_CARDS
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


HAND_SLOTS = 5
"""Cards a player may hold, in hand and field together."""
FIELD_SLOTS = 3
"""Slots of the field (one combination of three)."""

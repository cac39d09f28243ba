"""Remi cards as small ints, their tables and their tokens (remi.md 2).

A card is its physical id (``meldhall.core.tiles.Card.id``): ``suit × 26 + (rank − 1) × 2 +
pack − 1`` for the 104 naturals, 104 and up for the jokers. The default game has two jokers
(``JK#1``, ``JK#2``); the option ``jokers = 4`` adds ``JK#3`` and ``JK#4`` (ids 106, 107), which
core's card table does not hold, so this module extends it.

>>> [card_token(c) for c in parse_card_list("10H JK 10H")]
['10H#1', 'JK#1', '10H#2']
>>> RANK[parse_card_list("QS")[0]], SUIT_LETTERS[SUIT[parse_card_list("QS")[0]]]
(12, 'S')
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from meldhall.core.errors import ParseError
from meldhall.core.tiles import CARDS, RANKS, SUITS, Card, Token, assign_copies, split_tokens

SUIT_LETTERS = SUITS
"""Suit letters in id order: S, H, D, C (index = the suit number of ``SUIT``)."""

FIRST_JOKER = 104
MAX_CARDS = 108

ALL_CARDS: tuple[Card, ...] = (*CARDS, Card(106, None, None, 3), Card(107, None, None, 4))
"""Every card id 0..107 (the last two exist only with ``jokers = 4``)."""

RANK: tuple[int, ...] = tuple(c.rank or 0 for c in ALL_CARDS)
"""Rank 1..13 of a card id (ace 1, king 13); 0 for a joker."""

SUIT: tuple[int, ...] = tuple(-1 if c.suit is None else SUITS.index(c.suit) for c in ALL_CARDS)
"""Suit number 0..3 (S, H, D, C) of a card id; -1 for a joker."""

TOKEN: tuple[str, ...] = tuple(str(c) for c in ALL_CARDS)
"""The token with pack of every card id: ``10H#1``, ``JK#2``."""

CARD_ID: dict[str, int] = {token: i for i, token in enumerate(TOKEN)}
"""The card id of every token with pack (``"10H#1"``)."""

RANK_VALUE: tuple[int, ...] = (0, 11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""Value of a rank 1..13 (index 0 unused): A 11, 2..10 face, J/Q/K 10 (R-D1, R-D3)."""


def card_token(card_id: int) -> str:
    """Return the token of a card id with its pack: ``7H#2``."""
    return TOKEN[card_id]


def face_name(rank: int, suit: int) -> str:
    """Return an identity: ``6H``, or ``10?`` when ``suit`` is -1 (a joker's open suit)."""
    return RANKS[rank - 1] + ("?" if suit < 0 else SUIT_LETTERS[suit])


_CARD_RE = re.compile(r"^(?:(A|[2-9]|10|J|Q|K)([SHDC])|(JK))(?:#([1-4]))?$")
_IDENTITY_RE = re.compile(r"^(A|[2-9]|10|J|Q|K)([SHDC?])$")


def parse_identity(text: str) -> tuple[int, int]:
    """Return ``(rank, suit)`` of an identity such as ``6H`` or ``10?`` (suit -1), or raise
    ``ParseError``."""
    m = _IDENTITY_RE.match(text)
    if m is None:
        raise ParseError(f"not a card identity (like 6H or 10?): {text!r}")
    suit = m.group(2)
    return RANKS.index(m.group(1)) + 1, -1 if suit == "?" else SUIT_LETTERS.index(suit)


def _token(text: str) -> Token:
    m = _CARD_RE.match(text)
    if m is None:
        raise ParseError(f"not a card token: {text!r}")
    rank, suit, _joker, pack = m.groups()
    if rank and pack and int(pack) > 2:
        raise ParseError(f"a natural card has packs #1 and #2 only: {text!r}")
    face: tuple[object, ...] = (RANKS.index(rank) + 1, suit) if rank else (None, None)
    return Token(face, int(pack) - 1 if pack else None)


def parse_card_list(text: str | Sequence[str], jokers: int = 2) -> list[int]:
    """Return distinct card ids for a token list (copies assigned as in core ``parse_cards``:
    a token without ``#`` takes the lowest free copy). ``jokers`` is how many jokers exist.

    Raises ``ParseError`` for a bad token, a copy named twice or more copies than exist.
    """
    texts = split_tokens(text) if isinstance(text, str) else list(text)
    toks = [_token(t) for t in texts]
    copies = assign_copies(toks, max(2, jokers), texts)
    out: list[int] = []
    for tok, copy, name in zip(toks, copies, texts, strict=True):
        rank, suit = tok.face
        if rank is None:
            if copy >= jokers:
                raise ParseError(f"{name!r}: this game has {jokers} jokers")
            out.append(FIRST_JOKER + copy)
            continue
        if copy >= 2:
            raise ParseError(f"{name!r} needs more than the 2 copies that exist")
        assert isinstance(rank, int) and isinstance(suit, str)
        out.append(SUITS.index(suit) * 26 + (rank - 1) * 2 + copy)
    return out


def hand_value(card_id: int, joker_penalty: int) -> int:
    """Return the points of a card left in hand at the end of a hand (section 11)."""
    return joker_penalty if card_id >= FIRST_JOKER else RANK_VALUE[RANK[card_id]]

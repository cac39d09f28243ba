"""Tiles and cards as physical copies, and every token notation of the rule vectors.

Each family has one immutable class, one tuple of all its physical pieces (indexed by the
spec's canonical id) and a parser. A token may name a copy (``R5a``, ``10H#2``) or leave it to
``parse_many``, which gives every unsuffixed token the lowest copy still free.

>>> t = parse_okey("R13b")
>>> t.id, t.colour, t.number, str(t)
(25, 'R', 13, 'R13b')
>>> [str(x) for x in parse_okey_many("R3 R3 J")]
['R3a', 'R3b', 'Ja']
>>> str(parse_card("10H#2")), str(parse_mahjong("5p")), str(parse_okey_card("B8"))
('10H#2', '5p#0', 'B8')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from meldhall.core.errors import ParseError

# ---------------------------------------------------------------- okey family (106 tiles)

OKEY_COLOURS = "RYBK"
"""Colour letters in the canonical id order of okey.md 2: red, yellow, blue, black."""

COPY_LETTERS = "ab"


@dataclass(frozen=True, slots=True)
class OkeyTile:
    """One physical tile of the 106-tile okey family set (okey, okey-ladder, tile-rummy).

    ``colour`` and ``number`` are ``None`` for the two jokers without a number (okey's false
    jokers, tile rummy's Smileys). ``id`` is okey.md's canonical id: colour × 26 +
    (number − 1) × 2 + copy, the jokers 104 and 105.
    """

    id: int
    colour: str | None
    number: int | None
    copy: int

    @property
    def is_blank(self) -> bool:
        """Return True for a tile without a number (false joker or Smiley)."""
        return self.number is None

    @property
    def face(self) -> str:
        """Return the face without copy suffix: ``R5``, or ``J`` for a numberless tile."""
        return "J" if self.colour is None else f"{self.colour}{self.number}"

    def token(self, blank: str = "J") -> str:
        """Return the token with its copy suffix, writing a numberless tile with ``blank``."""
        head = blank if self.colour is None else f"{self.colour}{self.number}"
        return head + COPY_LETTERS[self.copy]

    def __str__(self) -> str:
        return self.token()


def _make_okey_tiles() -> tuple[OkeyTile, ...]:
    tiles = [
        OkeyTile(c * 26 + (n - 1) * 2 + k, colour, n, k)
        for c, colour in enumerate(OKEY_COLOURS)
        for n in range(1, 14)
        for k in range(2)
    ]
    tiles += [OkeyTile(104, None, None, 0), OkeyTile(105, None, None, 1)]
    return tuple(tiles)


OKEY_TILES: tuple[OkeyTile, ...] = _make_okey_tiles()
"""All 106 tiles, ``OKEY_TILES[id].id == id``."""


def okey_tile(colour: str | None, number: int | None, copy: int = 0) -> OkeyTile:
    """Return the physical tile with this face and copy (colour None: a numberless tile)."""
    if colour is None:
        return OKEY_TILES[104 + copy]
    return OKEY_TILES[OKEY_COLOURS.index(colour) * 26 + (number or 0) * 2 - 2 + copy]


_OKEY_RE = re.compile(r"^(?:([RKYB])(1[0-3]|[1-9])|([JS]))([ab]?)(\*?)$")


@dataclass(frozen=True, slots=True)
class Token:
    """A parsed token before its copy is fixed: a face key, an explicit copy or None, a star."""

    face: tuple[object, ...]
    copy: int | None
    star: bool = False


def _okey_token(text: str, blank: str) -> Token:
    m = _OKEY_RE.match(text)
    if m is None or (m.group(3) is not None and m.group(3) != blank):
        raise ParseError(f"not a tile token: {text!r}")
    colour, number, _, copy, star = m.groups()
    if colour is None and star:
        raise ParseError(f"a numberless tile cannot be a real joker: {text!r}")
    face: tuple[object, ...] = (colour, int(number)) if colour else (None, None)
    return Token(face, COPY_LETTERS.index(copy) if copy else None, bool(star))


def _okey_build(tok: Token, copy: int) -> OkeyTile:
    colour, number = tok.face
    assert colour is None or isinstance(colour, str)
    assert number is None or isinstance(number, int)
    return okey_tile(colour, number, copy)


# ---------------------------------------------------------------- remi cards (106 cards)

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card of Remi's two packs and two jokers.

    ``rank`` 1..13 (ace 1, king 13) and ``suit`` one of ``SHDC``; both ``None`` for a joker.
    ``pack`` is 1 or 2 (the ``#1``/``#2`` of remi.md). ``id`` = suit × 26 + (rank − 1) × 2 +
    pack − 1; the jokers are 104 and 105.
    """

    id: int
    rank: int | None
    suit: str | None
    pack: int

    @property
    def is_joker(self) -> bool:
        """Return True for one of the two jokers."""
        return self.rank is None

    @property
    def face(self) -> str:
        """Return the face without pack: ``10H``, ``JK``."""
        return "JK" if self.rank is None else f"{RANKS[self.rank - 1]}{self.suit}"

    def __str__(self) -> str:
        return f"{self.face}#{self.pack}"


def _make_cards() -> tuple[Card, ...]:
    cards = [
        Card(s * 26 + (r - 1) * 2 + p, r, suit, p + 1)
        for s, suit in enumerate(SUITS)
        for r in range(1, 14)
        for p in range(2)
    ]
    cards += [Card(104, None, None, 1), Card(105, None, None, 2)]
    return tuple(cards)


CARDS: tuple[Card, ...] = _make_cards()
"""All 106 Remi cards, ``CARDS[id].id == id``."""


def card(rank: int | None, suit: str | None, pack: int = 1) -> Card:
    """Return the physical card with this rank, suit and pack (rank None: a joker)."""
    if rank is None:
        return CARDS[103 + pack]
    return CARDS[SUITS.index(suit or "") * 26 + (rank - 1) * 2 + pack - 1]


_CARD_RE = re.compile(r"^(?:(A|[2-9]|10|J|Q|K)([SHDC])|(JK))(?:#([12]))?$")


def _card_token(text: str) -> Token:
    m = _CARD_RE.match(text)
    if m is None:
        raise ParseError(f"not a card token: {text!r}")
    rank, suit, _joker, pack = m.groups()
    face: tuple[object, ...] = (RANKS.index(rank) + 1, suit) if rank else (None, None)
    return Token(face, int(pack) - 1 if pack else None)


def _card_build(tok: Token, copy: int) -> Card:
    rank, suit = tok.face
    assert rank is None or isinstance(rank, int)
    assert suit is None or isinstance(suit, str)
    return card(rank, suit, copy + 1)


# ---------------------------------------------------------------- mahjong tiles (108)

MAHJONG_SUITS = "mps"


@dataclass(frozen=True, slots=True)
class MahjongTile:
    """One physical Sichuan tile: ``suit`` in ``mps``, ``rank`` 1..9, ``copy`` 0..3.

    ``id`` = suit × 36 + (rank − 1) × 4 + copy (sichuan.md 3); ``kind`` = suit × 9 + rank − 1
    indexes the 27 tile kinds of the count arrays.
    """

    id: int
    suit: str
    rank: int
    copy: int

    @property
    def kind(self) -> int:
        """Return the tile kind 0..26 (``1m`` is 0, ``9s`` is 26)."""
        return self.id // 4

    @property
    def face(self) -> str:
        """Return the face: ``5p``."""
        return f"{self.rank}{self.suit}"

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}#{self.copy}"


MAHJONG_TILES: tuple[MahjongTile, ...] = tuple(
    MahjongTile(s * 36 + (r - 1) * 4 + k, suit, r, k)
    for s, suit in enumerate(MAHJONG_SUITS)
    for r in range(1, 10)
    for k in range(4)
)
"""All 108 tiles, ``MAHJONG_TILES[id].id == id``."""


def kind_name(kind: int) -> str:
    """Return the face of a tile kind: ``kind_name(13) == '5p'``.

    >>> kind_name(13)
    '5p'
    """
    return f"{kind % 9 + 1}{MAHJONG_SUITS[kind // 9]}"


def parse_kind(text: str) -> int:
    """Return the tile kind 0..26 of a face such as ``5p``."""
    m = _MAHJONG_RE.match(text)
    if m is None or m.group(3):
        raise ParseError(f"not a mahjong tile face: {text!r}")
    return MAHJONG_SUITS.index(m.group(2)) * 9 + int(m.group(1)) - 1


_MAHJONG_RE = re.compile(r"^([1-9])([mps])(?:#([0-3]))?$")


def _mahjong_token(text: str) -> Token:
    m = _MAHJONG_RE.match(text)
    if m is None:
        raise ParseError(f"not a mahjong tile token: {text!r}")
    rank, suit, copy = m.groups()
    return Token((suit, int(rank)), int(copy) if copy else None)


def _mahjong_build(tok: Token, copy: int) -> MahjongTile:
    suit, rank = tok.face
    assert isinstance(suit, str) and isinstance(rank, int)
    return MAHJONG_TILES[MAHJONG_SUITS.index(suit) * 36 + (rank - 1) * 4 + copy]


# ---------------------------------------------------------------- okey cards (24)

OKEY_CARD_COLOURS = "RBY"


@dataclass(frozen=True, slots=True)
class OkeyCard:
    """One of the 24 cards of the Okey card game: colour ``R``/``B``/``Y``, number 1..8.

    ``id`` = colour × 8 + number − 1 with R=0, B=1, Y=2 (okey-cards.md 2).
    """

    id: int
    colour: str
    number: int

    def __str__(self) -> str:
        return f"{self.colour}{self.number}"


OKEY_CARDS: tuple[OkeyCard, ...] = tuple(
    OkeyCard(c * 8 + n - 1, colour, n)
    for c, colour in enumerate(OKEY_CARD_COLOURS)
    for n in range(1, 9)
)

_OKEY_CARD_RE = re.compile(r"^([RYB])([1-8])$")


def _okey_card_token(text: str) -> Token:
    m = _OKEY_CARD_RE.match(text)
    if m is None:
        raise ParseError(f"not an okey card token: {text!r}")
    return Token((m.group(1), int(m.group(2))), None)


def _okey_card_build(tok: Token, copy: int) -> OkeyCard:
    colour, number = tok.face
    assert isinstance(colour, str) and isinstance(number, int)
    return OKEY_CARDS[OKEY_CARD_COLOURS.index(colour) * 8 + number - 1]


# ---------------------------------------------------------------- lists and copies

P = TypeVar("P")


def split_tokens(text: str) -> list[str]:
    """Return the tokens of a tile list: single spaces between tokens, ``""`` is empty.

    >>> split_tokens("R1 R2"), split_tokens("")
    (['R1', 'R2'], [])
    """
    if text == "":
        return []
    tokens = text.split(" ")
    if any(t == "" for t in tokens):
        raise ParseError(f"tile list must separate tokens by single spaces: {text!r}")
    return tokens


def assign_copies(
    tokens: Sequence[Token], copies: int, texts: Sequence[str] | None = None
) -> list[int]:
    """Return a copy number for every token: explicit ones kept, the others given the lowest
    free copy of their face. Raises ``ParseError`` when a copy is named twice or a face needs
    more copies than exist.

    >>> assign_copies([Token(("R", 3), None), Token(("R", 3), 0)], 2)
    [1, 0]
    """
    names = texts if texts is not None else [str(t.face) for t in tokens]
    used: dict[tuple[object, ...], set[int]] = {}
    for tok, name in zip(tokens, names, strict=True):
        if tok.copy is not None:
            taken = used.setdefault(tok.face, set())
            if tok.copy in taken:
                raise ParseError(f"the copy {name!r} is named twice")
            taken.add(tok.copy)
    out: list[int] = []
    for tok, name in zip(tokens, names, strict=True):
        if tok.copy is not None:
            out.append(tok.copy)
            continue
        taken = used.setdefault(tok.face, set())
        free = next((k for k in range(copies) if k not in taken), None)
        if free is None:
            raise ParseError(f"{name!r} needs more than the {copies} copies that exist")
        taken.add(free)
        out.append(free)
    return out


def _many(
    token: Callable[[str], Token], build: Callable[[Token, int], P], copies: int
) -> Callable[[str | Sequence[str]], list[P]]:
    def parse_list(text: str | Sequence[str]) -> list[P]:
        texts = split_tokens(text) if isinstance(text, str) else list(text)
        toks = [token(t) for t in texts]
        return [build(t, k) for t, k in zip(toks, assign_copies(toks, copies, texts), strict=True)]

    return parse_list


def parse_okey(text: str, blank: str = "J") -> OkeyTile:
    """Return the okey-family tile of one token (``R5``, ``K13b``, ``J``; ``S`` with blank="S")."""
    tok = _okey_token(text, blank)
    return _okey_build(tok, tok.copy or 0)


def okey_tokens(text: str | Sequence[str], blank: str = "J") -> list[Token]:
    """Return the parsed tokens of an okey-family list, stars kept (copies not yet fixed)."""
    texts = split_tokens(text) if isinstance(text, str) else list(text)
    return [_okey_token(t, blank) for t in texts]


def parse_okey_many(text: str | Sequence[str], blank: str = "J") -> list[OkeyTile]:
    """Return distinct physical tiles for a list of okey-family tokens (copies assigned)."""
    texts = split_tokens(text) if isinstance(text, str) else list(text)
    toks = [_okey_token(t, blank) for t in texts]
    return [_okey_build(t, k) for t, k in zip(toks, assign_copies(toks, 2, texts), strict=True)]


def parse_card(text: str) -> Card:
    """Return the Remi card of one token (``10H``, ``QS#2``, ``JK#1``)."""
    tok = _card_token(text)
    return _card_build(tok, tok.copy or 0)


def parse_mahjong(text: str) -> MahjongTile:
    """Return the Sichuan tile of one token (``5p``, ``9s#3``)."""
    tok = _mahjong_token(text)
    return _mahjong_build(tok, tok.copy or 0)


def parse_okey_card(text: str) -> OkeyCard:
    """Return the Okey card of one token (``B8``)."""
    return _okey_card_build(_okey_card_token(text), 0)


parse_cards = _many(_card_token, _card_build, 2)
"""Return distinct physical Remi cards for a token list."""

parse_mahjong_many = _many(_mahjong_token, _mahjong_build, 4)
"""Return distinct physical Sichuan tiles for a token list."""

parse_okey_cards = _many(_okey_card_token, _okey_card_build, 1)
"""Return distinct Okey cards for a token list."""


def format_tiles(pieces: Sequence[object]) -> str:
    """Return the tokens of ``pieces`` joined by single spaces (the vectors' list form)."""
    return " ".join(str(p) for p in pieces)

"""The actions of Sichuan mahjong: small immutable values with one text and one JSON form.

Tiles are named by their physical copy (``5p#2``); kongs by their kind (``5p``), since a
concealed kong takes all four copies and an added kong the only free one.

>>> parse_action("discard 5p#2") == Discard(54)
True
>>> str(ConcealedKong(13)), AddedKong(13).to_json()
('concealed_kong 5p', {'type': 'added_kong', 'kind': '5p'})
>>> action_from_json({"type": "declare", "suit": "s"})
Declare(suit=2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meldhall.core.actions import Codec, Coded, Form, Name, Piece, Pieces
from meldhall.core.errors import ParseError
from meldhall.core.tiles import MAHJONG_TILES, kind_name, parse_kind, parse_mahjong
from meldhall.games.sichuan.hand import SUIT_LETTERS

_TOKENS: tuple[str, ...] = tuple(str(t) for t in MAHJONG_TILES)
"""The token of every tile id: ``5p#2``."""


def _tile_id(text: str) -> int:
    if "#" not in text:
        raise ParseError(f"a tile in an action names its copy, like 5p#2: {text!r}")
    return parse_mahjong(text).id


def _three(tokens: Sequence[str]) -> tuple[int, ...]:
    tiles = [_tile_id(t) for t in tokens]
    if len(tiles) != 3 or len(set(tiles)) != 3:
        raise ParseError(f"an exchange passes three different tiles, not {tiles!r}")
    return tuple(sorted(tiles))


TILE = Piece(_TOKENS.__getitem__, _tile_id)
"""A physical tile by its token with its copy (``5p#2``)."""
KIND = Piece(kind_name, parse_kind)
"""A tile kind by its face (``5p``)."""
SUIT = Name("a suit", tuple(SUIT_LETTERS))


@dataclass(frozen=True, slots=True)
class Declare(Coded):
    """Declare the missing suit (0 m, 1 p, 2 s)."""

    suit: int
    form = Form("declare", suit=SUIT)


@dataclass(frozen=True, slots=True)
class Exchange(Coded):
    """Pass three tiles of one suit (the ``exchange_three`` variant); ids ascending."""

    tiles: tuple[int, int, int]
    form = Form("exchange", tiles=Pieces(TILE, _three, count=3))


@dataclass(frozen=True, slots=True)
class Discard(Coded):
    """Discard one concealed tile (by id)."""

    tile: int
    form = Form("discard", tile=TILE)


@dataclass(frozen=True, slots=True)
class ConcealedKong(Coded):
    """Lay down the four concealed copies of a kind."""

    kind: int
    form = Form("concealed_kong", kind=KIND)


@dataclass(frozen=True, slots=True)
class AddedKong(Coded):
    """Add the fourth copy of a kind to one's exposed pung."""

    kind: int
    form = Form("added_kong", kind=KIND)


@dataclass(frozen=True, slots=True)
class Win(Coded):
    """Declare a win: by self-draw on one's turn, on a discard, or by robbing a kong."""

    form = Form("win")


@dataclass(frozen=True, slots=True)
class Pung(Coded):
    """Claim the discard for an exposed pung."""

    form = Form("pung")


@dataclass(frozen=True, slots=True)
class Kong(Coded):
    """Claim the discard for an exposed kong."""

    form = Form("kong")


@dataclass(frozen=True, slots=True)
class Pass(Coded):
    """Let a discard (or an added kong) go."""

    form = Form("pass")


SichuanAction = Declare | Exchange | Discard | ConcealedKong | AddedKong | Win | Pung | Kong | Pass
CODEC = Codec(
    "sichuan", (Declare, Exchange, Discard, ConcealedKong, AddedKong, Win, Pung, Kong, Pass)
)
"""The actions of Sichuan mahjong."""

WIN = Win()
PUNG = Pung()
KONG = Kong()
PASS = Pass()
DISCARDS: tuple[Discard, ...] = tuple(Discard(t) for t in range(108))
CONCEALED_KONGS: tuple[ConcealedKong, ...] = tuple(ConcealedKong(k) for k in range(27))
ADDED_KONGS: tuple[AddedKong, ...] = tuple(AddedKong(k) for k in range(27))
DECLARES: tuple[Declare, ...] = tuple(Declare(s) for s in range(3))


def parse_action(text: str) -> SichuanAction:
    """Return the action of its text form, or raise ``ParseError``."""
    action: SichuanAction = CODEC.parse_action(text)
    return action


def action_from_json(data: Any) -> SichuanAction:
    """Return the action of its JSON form, or raise ``ParseError``."""
    action: SichuanAction = CODEC.action_from_json(data)
    return action

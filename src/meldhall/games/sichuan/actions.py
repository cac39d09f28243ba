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

from dataclasses import dataclass
from typing import Any

from meldhall.core.actions import BareAction, TileAction, by_text
from meldhall.core.errors import ParseError
from meldhall.core.tiles import MAHJONG_TILES, kind_name, parse_kind, parse_mahjong
from meldhall.games.sichuan.hand import SUIT_LETTERS

_TOKENS: tuple[str, ...] = tuple(str(t) for t in MAHJONG_TILES)
"""The token of every tile id: ``5p#2``."""


def _tile_id(text: object) -> int:
    if not isinstance(text, str) or "#" not in text:
        raise ParseError(f"a tile in an action names its copy, like 5p#2: {text!r}")
    return parse_mahjong(text).id


def _kind(text: object) -> int:
    if not isinstance(text, str):
        raise ParseError(f"not a tile kind: {text!r}")
    return parse_kind(text)


def _suit(text: object) -> int:
    if not isinstance(text, str) or len(text) != 1 or text not in SUIT_LETTERS:
        raise ParseError(f"a suit is m, p or s, not {text!r}")
    return SUIT_LETTERS.index(text)


@dataclass(frozen=True, slots=True)
class Declare:
    """Declare the missing suit (0 m, 1 p, 2 s)."""

    suit: int

    def __str__(self) -> str:
        return f"declare {SUIT_LETTERS[self.suit]}"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "declare", "suit": SUIT_LETTERS[self.suit]}


@dataclass(frozen=True, slots=True)
class Exchange:
    """Pass three tiles of one suit (the ``exchange_three`` variant); ids ascending."""

    tiles: tuple[int, int, int]

    def __str__(self) -> str:
        return "exchange " + " ".join(_TOKENS[t] for t in self.tiles)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "exchange", "tiles": [_TOKENS[t] for t in self.tiles]}


@dataclass(frozen=True, slots=True)
class Discard(TileAction):
    """Discard one concealed tile (by id)."""

    verb = json_type = "discard"
    tokens = _TOKENS


@dataclass(frozen=True, slots=True)
class ConcealedKong:
    """Lay down the four concealed copies of a kind."""

    kind: int

    def __str__(self) -> str:
        return f"concealed_kong {kind_name(self.kind)}"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "concealed_kong", "kind": kind_name(self.kind)}


@dataclass(frozen=True, slots=True)
class AddedKong:
    """Add the fourth copy of a kind to one's exposed pung."""

    kind: int

    def __str__(self) -> str:
        return f"added_kong {kind_name(self.kind)}"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "added_kong", "kind": kind_name(self.kind)}


@dataclass(frozen=True, slots=True)
class Win(BareAction):
    """Declare a win: by self-draw on one's turn, on a discard, or by robbing a kong."""

    text = json_type = "win"


@dataclass(frozen=True, slots=True)
class Pung(BareAction):
    """Claim the discard for an exposed pung."""

    text = json_type = "pung"


@dataclass(frozen=True, slots=True)
class Kong(BareAction):
    """Claim the discard for an exposed kong."""

    text = json_type = "kong"


@dataclass(frozen=True, slots=True)
class Pass(BareAction):
    """Let a discard (or an added kong) go."""

    text = json_type = "pass"


SichuanAction = Declare | Exchange | Discard | ConcealedKong | AddedKong | Win | Pung | Kong | Pass

WIN = Win()
PUNG = Pung()
KONG = Kong()
PASS = Pass()
DISCARDS: tuple[Discard, ...] = tuple(Discard(t) for t in range(108))
CONCEALED_KONGS: tuple[ConcealedKong, ...] = tuple(ConcealedKong(k) for k in range(27))
ADDED_KONGS: tuple[AddedKong, ...] = tuple(AddedKong(k) for k in range(27))
DECLARES: tuple[Declare, ...] = tuple(Declare(s) for s in range(3))
_SINGLE: dict[str, SichuanAction] = by_text((WIN, PUNG, KONG, PASS))


def _exchange(tiles: list[int]) -> Exchange:
    if len(tiles) != 3 or len(set(tiles)) != 3:
        raise ParseError(f"an exchange passes three different tiles, not {tiles!r}")
    a, b, c = sorted(tiles)
    return Exchange((a, b, c))


def parse_action(text: str) -> SichuanAction:
    """Return the action of its text form, or raise ``ParseError``."""
    if not isinstance(text, str):
        raise ParseError(f"an action is text, not {text!r}")
    words = text.split()
    if len(words) == 1 and words[0] in _SINGLE:
        return _SINGLE[words[0]]
    if len(words) == 2:
        verb, arg = words
        if verb == "discard":
            return DISCARDS[_tile_id(arg)]
        if verb == "concealed_kong":
            return CONCEALED_KONGS[_kind(arg)]
        if verb == "added_kong":
            return ADDED_KONGS[_kind(arg)]
        if verb == "declare":
            return DECLARES[_suit(arg)]
    if len(words) == 4 and words[0] == "exchange":
        return _exchange([_tile_id(w) for w in words[1:]])
    raise ParseError(f"not a sichuan action: {text!r}")


def action_from_json(data: Any) -> SichuanAction:
    """Return the action of its JSON form, or raise ``ParseError``."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ParseError(f'a sichuan action is {{"type": ...}}, not {data!r}')
    kind = data["type"]
    keys = set(data) - {"type"}
    if kind in _SINGLE and not keys:
        return _SINGLE[kind]
    if kind == "discard" and keys == {"tile"}:
        return DISCARDS[_tile_id(data["tile"])]
    if kind == "concealed_kong" and keys == {"kind"}:
        return CONCEALED_KONGS[_kind(data["kind"])]
    if kind == "added_kong" and keys == {"kind"}:
        return ADDED_KONGS[_kind(data["kind"])]
    if kind == "declare" and keys == {"suit"}:
        return DECLARES[_suit(data["suit"])]
    if kind == "exchange" and keys == {"tiles"} and isinstance(data["tiles"], list):
        return _exchange([_tile_id(t) for t in data["tiles"]])
    raise ParseError(f"not a sichuan action: {data!r}")

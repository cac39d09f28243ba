"""Okey's actions (okey.md 5): small frozen values with one text form and one JSON form.

>>> parse_action("discard R5a"), str(DiscardWin(8))
(Discard(tile=8), 'win R5a')
>>> action_from_json({"type": "discard_win", "tile": "R5a"}) == DiscardWin(8)
True
>>> parse_action("discard R5")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
meldhall.core.errors.ParseError: okey action 'discard R5': name one physical tile ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldhall.core.actions import BareAction, TileAction, by_json_type, by_text
from meldhall.core.errors import ParseError
from meldhall.games.okey.pieces import OKEY_TILE_IDS, TILE_COUNT, TOKENS


@dataclass(frozen=True, slots=True)
class Draw(BareAction):
    """DRAW: take the first wall tile."""

    text = "draw"
    json_type = "draw"


@dataclass(frozen=True, slots=True)
class TakeDiscard(BareAction):
    """TAKE_DISCARD: take the previous player's most recent discard."""

    text = "take"
    json_type = "take_discard"


@dataclass(frozen=True, slots=True)
class ShowIndicator(BareAction):
    """SHOW_INDICATOR: show the indicator's twin (gösterme)."""

    text = "show"
    json_type = "show_indicator"


@dataclass(frozen=True, slots=True)
class EndHand(BareAction):
    """END_HAND: with the wall empty, decline the discard; the hand ends without score."""

    text = "end"
    json_type = "end_hand"


@dataclass(frozen=True, slots=True)
class Discard(TileAction):
    """DISCARD(t): put tile id ``tile`` on top of one's discard pile."""

    verb = json_type = "discard"
    tokens = TOKENS


@dataclass(frozen=True, slots=True)
class DiscardWin(TileAction):
    """DISCARD_WIN(t): discard tile id ``tile`` to the centre and expose the other 14."""

    verb = "win"
    json_type = "discard_win"
    tokens = TOKENS


OkeyAction = Draw | TakeDiscard | ShowIndicator | EndHand | Discard | DiscardWin

DRAW = Draw()
TAKE = TakeDiscard()
SHOW = ShowIndicator()
END = EndHand()
DISCARDS: tuple[Discard, ...] = tuple(Discard(t) for t in range(TILE_COUNT))
"""The discard action of every tile id (shared instances: legal lists are built often)."""
WINS: tuple[DiscardWin, ...] = tuple(DiscardWin(t) for t in range(TILE_COUNT))
"""The winning-discard action of every tile id."""

_BARE: tuple[OkeyAction, ...] = (DRAW, TAKE, SHOW, END)
_BY_TYPE = by_json_type(_BARE)
_PLAIN = by_text(_BARE) | _BY_TYPE
"""The bare actions by text form; the JSON types are read as text too."""
_WITH_TILE: dict[str, tuple[OkeyAction, ...]] = {
    "discard": DISCARDS,
    "win": WINS,
    "discard_win": WINS,
}


def _tile(token: object, where: str) -> int:
    if not isinstance(token, str) or token not in OKEY_TILE_IDS:
        raise ParseError(f"okey action {where}: name one physical tile with its copy (R5a, Jb)")
    return OKEY_TILE_IDS[token]


def parse_action(text: str) -> OkeyAction:
    """Return the action of its text form (``draw``, ``take``, ``show``, ``end``,
    ``discard R5a``, ``win R5a``), or raise ``ParseError`` naming the text."""
    if not isinstance(text, str):
        raise ParseError(f"okey action must be text, not {text!r}")
    words = text.split()
    if len(words) == 1 and words[0] in _PLAIN:
        return _PLAIN[words[0]]
    if len(words) == 2 and words[0] in _WITH_TILE:
        return _WITH_TILE[words[0]][_tile(words[1], repr(text))]
    raise ParseError(f"not an okey action: {text!r}")


def action_from_json(data: Any) -> OkeyAction:
    """Return the action of its JSON form, or raise ``ParseError`` naming the data."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ParseError(f"an okey action is an object with a 'type': {data!r}")
    kind = data["type"]
    if kind in _BY_TYPE and set(data) == {"type"}:
        return _BY_TYPE[kind]
    if kind in ("discard", "discard_win") and set(data) == {"type", "tile"}:
        return _WITH_TILE[kind][_tile(data["tile"], repr(data))]
    raise ParseError(f"not an okey action: {data!r}")

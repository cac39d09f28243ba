"""Okey's actions (okey.md 5): small frozen values with one text form and one JSON form.

>>> parse_action("discard R5a"), str(DiscardWin(8))
(Discard(tile=8), 'win R5a')
>>> action_from_json({"type": "discard_win", "tile": "R5a"}) == DiscardWin(8)
True
>>> parse_action("discard R5")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
meldhall.core.errors.ParseError: okey action 'discard R5': tile: name one physical tile ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldhall.core.actions import Codec, Coded, Form, Piece
from meldhall.core.errors import ParseError
from meldhall.games.okey.pieces import OKEY_TILE_IDS, TILE_COUNT, TOKENS


def _tile_id(token: str) -> int:
    tile = OKEY_TILE_IDS.get(token)
    if tile is None:
        raise ParseError(f"name one physical tile with its copy (R5a, Jb), not {token!r}")
    return tile


TILE = Piece(TOKENS.__getitem__, _tile_id)
"""A physical tile by its token with its copy letter (``R5a``)."""


@dataclass(frozen=True, slots=True)
class Draw(Coded):
    """DRAW: take the first wall tile."""

    form = Form("draw")


@dataclass(frozen=True, slots=True)
class TakeDiscard(Coded):
    """TAKE_DISCARD: take the previous player's most recent discard."""

    form = Form("take", json_type="take_discard")


@dataclass(frozen=True, slots=True)
class ShowIndicator(Coded):
    """SHOW_INDICATOR: show the indicator's twin (gösterme)."""

    form = Form("show", json_type="show_indicator")


@dataclass(frozen=True, slots=True)
class EndHand(Coded):
    """END_HAND: with the wall empty, decline the discard; the hand ends without score."""

    form = Form("end", json_type="end_hand")


@dataclass(frozen=True, slots=True)
class Discard(Coded):
    """DISCARD(t): put tile id ``tile`` on top of one's discard pile."""

    tile: int
    form = Form("discard", tile=TILE)


@dataclass(frozen=True, slots=True)
class DiscardWin(Coded):
    """DISCARD_WIN(t): discard tile id ``tile`` to the centre and expose the other 14."""

    tile: int
    form = Form("win", json_type="discard_win", tile=TILE)


OkeyAction = Draw | TakeDiscard | ShowIndicator | EndHand | Discard | DiscardWin

CODEC = Codec(
    "okey", (Draw, TakeDiscard, ShowIndicator, EndHand, Discard, DiscardWin), types_as_text=True
)
"""Okey's actions; a JSON type is read as a text verb too (``take_discard``)."""

DRAW = Draw()
TAKE = TakeDiscard()
SHOW = ShowIndicator()
END = EndHand()
DISCARDS: tuple[Discard, ...] = tuple(Discard(t) for t in range(TILE_COUNT))
"""The discard action of every tile id (shared instances: legal lists are built often)."""
WINS: tuple[DiscardWin, ...] = tuple(DiscardWin(t) for t in range(TILE_COUNT))
"""The winning-discard action of every tile id."""


def parse_action(text: str) -> OkeyAction:
    """Return the action of its text form (``draw``, ``take``, ``show``, ``end``,
    ``discard R5a``, ``win R5a``), or raise ``ParseError`` naming the text."""
    action: OkeyAction = CODEC.parse_action(text)
    return action


def action_from_json(data: Any) -> OkeyAction:
    """Return the action of its JSON form, or raise ``ParseError`` naming the data."""
    action: OkeyAction = CODEC.action_from_json(data)
    return action

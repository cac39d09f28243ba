"""The actions of Ladder Okey (okey-ladder.md 8), their text and JSON forms.

Tiles are physical ids, written as tokens with their copy letter (``R5a``, ``Jb``). Runs are
given low to high (the engine's stored order; a client reverses a descending rack run); the
tiles of sets, pairs, pushed pairs and group exchanges are kept sorted by id.

| action | text | JSON fields besides ``"type"`` |
| --- | --- | --- |
| DRAW | ``draw`` | (type ``draw``) |
| TAKE_DISCARD | ``take`` | (type ``take``) |
| RETURN_TAKEN | ``return`` | (type ``return``) |
| RECALL | ``recall`` | (type ``recall``) |
| DISCARD | ``discard R5a`` | ``"tile": "R5a"`` |
| MELD | ``meld run R3a R4b R5a`` | ``"kind": "run", "tiles": [...]`` |
| LAY_OFF | ``layoff R6a 3 high`` | ``"tile": "R6a", "combo": 3, "end": "high"`` |
| REPLACE_JOKER | ``replace 3 R5a K7b`` | ``"combo": 3, "joker": "R5a", "tiles": [...]`` |
| GIVE_PAIR | ``give 1 Y9a Y9b`` | ``"to": 1, "tiles": [...]`` |

``end`` is ``low`` or ``high`` on a run and ``set`` on a set.

>>> a = parse_action("meld set K7a R7b Y7a")
>>> str(a), parse_action(str(a)) == a == action_from_json(a.to_json())
('meld set R7b Y7a K7a', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meldhall.core.actions import Codec, Coded, Form, Int, Name, Piece, Pieces
from meldhall.core.engine import JSON
from meldhall.core.tiles import parse_okey, parse_okey_many
from meldhall.games.okey_ladder.combos import COMBO_IDS, END_NAMES, KIND_NAMES
from meldhall.games.okey_ladder.pieces import TOKEN


def _many(tokens: Sequence[str]) -> tuple[int, ...]:
    return tuple(t.id for t in parse_okey_many(list(tokens)))


TILE = Piece(TOKEN.__getitem__, lambda token: parse_okey(token).id)
"""A physical tile by its token (``R5a``; without a copy letter, copy a)."""
TILES = Pieces(TILE, _many)
"""Tiles by their tokens, copies assigned over the list (``R5 R5`` is ``R5a R5b``)."""
COMBO = Int("a combination id", 0, COMBO_IDS, digit_strings=True)
"""Ids stay within this range however long a hand runs (``combos.COMBO_IDS``); an unknown id
is refused by apply."""
SEAT = Int("a seat", 0, 3, digit_strings=True)


@dataclass(frozen=True, slots=True)
class Draw(Coded):
    """DRAW: the first centre tile to the hand."""

    form = Form("draw")


@dataclass(frozen=True, slots=True)
class TakeDiscard(Coded):
    """TAKE_DISCARD: the previous player's top discard, for a new combination this turn."""

    form = Form("take")


@dataclass(frozen=True, slots=True)
class ReturnTaken(Coded):
    """RETURN_TAKEN: the taken tile goes back; the player must then draw."""

    form = Form("return")


@dataclass(frozen=True, slots=True)
class Recall(Coded):
    """RECALL: the turn's provisional combinations return to the hand."""

    form = Form("recall")


@dataclass(frozen=True, slots=True)
class Discard(Coded):
    """DISCARD(tile): ends the turn (resolved as in 8.1)."""

    tile: int
    form = Form("discard", tile=TILE)


@dataclass(frozen=True, slots=True)
class Meld(Coded):
    """MELD(kind, tiles): a new combination in the player's own area."""

    kind: int
    tiles: tuple[int, ...]
    _hash: int = field(init=False, repr=False, compare=False)
    form = Form("meld", kind=Name("a meld kind", KIND_NAMES), tiles=Pieces(TILE, _many, least=2))

    def __post_init__(self) -> None:
        tiles = self.tiles
        if self.kind != 0:
            if len(tiles) == 2:
                if tiles[0] > tiles[1]:
                    tiles = (tiles[1], tiles[0])
            else:
                tiles = tuple(sorted(tiles))
            object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "_hash", hash((self.kind, tiles)))

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True, slots=True)
class LayOff(Coded):
    """LAY_OFF(tile, combination, end): one tile onto a run end or into a set (9.1)."""

    tile: int
    combo: int
    end: int
    form = Form("layoff", tile=TILE, combo=COMBO, end=Name("an end", END_NAMES))


@dataclass(frozen=True, slots=True)
class ReplaceJoker(Coded):
    """REPLACE_JOKER(combination, joker, tiles): exchange a real joker on the table (9.3)."""

    combo: int
    joker: int
    tiles: tuple[int, ...]
    form = Form("replace", combo=COMBO, joker=TILE, tiles=Pieces(TILE, _many, least=1))

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))


@dataclass(frozen=True, slots=True)
class GivePair(Coded):
    """GIVE_PAIR(recipient, pair): a series opener pushes a pair onto a pairs opener (9.4)."""

    to: int
    tiles: tuple[int, ...]
    form = Form("give", to=SEAT, tiles=Pieces(TILE, _many, least=2))

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))


Action = (
    Draw | TakeDiscard | ReturnTaken | Recall | Discard | Meld | LayOff | ReplaceJoker | GivePair
)

CODEC = Codec(
    "okey-ladder",
    (Draw, TakeDiscard, ReturnTaken, Recall, Discard, Meld, LayOff, ReplaceJoker, GivePair),
)
"""The actions of Ladder Okey."""


def parse_action(text: str) -> Action:
    """Return the action of its text form, or raise ``ParseError`` naming the input."""
    action: Action = CODEC.parse_action(text)
    return action


def action_from_json(data: JSON | Any) -> Action:
    """Return the action of its JSON form, or raise ``ParseError`` naming the input."""
    action: Action = CODEC.action_from_json(data)
    return action

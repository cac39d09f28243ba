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

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from meldhall.core.actions import BareAction, TileAction, by_text
from meldhall.core.engine import JSON
from meldhall.core.errors import ParseError
from meldhall.core.tiles import parse_okey, parse_okey_many
from meldhall.games.okey_ladder.combos import END_NAMES, KIND_NAMES
from meldhall.games.okey_ladder.pieces import TOKEN


@dataclass(frozen=True, slots=True)
class Draw(BareAction):
    """DRAW: the first centre tile to the hand."""

    text = json_type = "draw"


@dataclass(frozen=True, slots=True)
class TakeDiscard(BareAction):
    """TAKE_DISCARD: the previous player's top discard, for a new combination this turn."""

    text = json_type = "take"


@dataclass(frozen=True, slots=True)
class ReturnTaken(BareAction):
    """RETURN_TAKEN: the taken tile goes back; the player must then draw."""

    text = json_type = "return"


@dataclass(frozen=True, slots=True)
class Recall(BareAction):
    """RECALL: the turn's provisional combinations return to the hand."""

    text = json_type = "recall"


@dataclass(frozen=True, slots=True)
class Discard(TileAction):
    """DISCARD(tile): ends the turn (resolved as in 8.1)."""

    verb = json_type = "discard"
    tokens = TOKEN


@dataclass(frozen=True, slots=True)
class Meld:
    """MELD(kind, tiles): a new combination in the player's own area."""

    kind: int
    tiles: tuple[int, ...]
    _hash: int = field(init=False, repr=False, compare=False)

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

    def __str__(self) -> str:
        return f"meld {KIND_NAMES[self.kind]} " + " ".join(TOKEN[t] for t in self.tiles)

    def to_json(self) -> JSON:
        """Return the JSON form."""
        return {
            "type": "meld",
            "kind": KIND_NAMES[self.kind],
            "tiles": [TOKEN[t] for t in self.tiles],
        }


@dataclass(frozen=True, slots=True)
class LayOff:
    """LAY_OFF(tile, combination, end): one tile onto a run end or into a set (9.1)."""

    tile: int
    combo: int
    end: int

    def __str__(self) -> str:
        return f"layoff {TOKEN[self.tile]} {self.combo} {END_NAMES[self.end]}"

    def to_json(self) -> JSON:
        """Return the JSON form."""
        return {
            "type": "layoff",
            "tile": TOKEN[self.tile],
            "combo": self.combo,
            "end": END_NAMES[self.end],
        }


@dataclass(frozen=True, slots=True)
class ReplaceJoker:
    """REPLACE_JOKER(combination, joker, tiles): exchange a real joker on the table (9.3)."""

    combo: int
    joker: int
    tiles: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))

    def __str__(self) -> str:
        return f"replace {self.combo} {TOKEN[self.joker]} " + " ".join(TOKEN[t] for t in self.tiles)

    def to_json(self) -> JSON:
        """Return the JSON form."""
        return {
            "type": "replace",
            "combo": self.combo,
            "joker": TOKEN[self.joker],
            "tiles": [TOKEN[t] for t in self.tiles],
        }


@dataclass(frozen=True, slots=True)
class GivePair:
    """GIVE_PAIR(recipient, pair): a series opener pushes a pair onto a pairs opener (9.4)."""

    to: int
    tiles: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))

    def __str__(self) -> str:
        return f"give {self.to} " + " ".join(TOKEN[t] for t in self.tiles)

    def to_json(self) -> JSON:
        """Return the JSON form."""
        return {"type": "give", "to": self.to, "tiles": [TOKEN[t] for t in self.tiles]}


Action = (
    Draw | TakeDiscard | ReturnTaken | Recall | Discard | Meld | LayOff | ReplaceJoker | GivePair
)

_BARE: dict[str, Action] = by_text((Draw(), TakeDiscard(), ReturnTaken(), Recall()))
"""The bare actions by text form, which is also their JSON type."""
_JSON_FIELDS: dict[str, frozenset[str]] = {
    **dict.fromkeys(_BARE, frozenset()),
    "discard": frozenset({"tile"}),
    "meld": frozenset({"kind", "tiles"}),
    "layoff": frozenset({"tile", "combo", "end"}),
    "replace": frozenset({"combo", "joker", "tiles"}),
    "give": frozenset({"to", "tiles"}),
}
"""The fields besides ``"type"`` of each JSON type."""


def _tile(text: Any) -> int:
    if not isinstance(text, str):
        raise ParseError(f"a tile is a token such as 'R5a', not {text!r}")
    return parse_okey(text).id


def _tiles(texts: Any) -> tuple[int, ...]:
    if not isinstance(texts, list | tuple) or not all(isinstance(t, str) for t in texts):
        raise ParseError(f"tiles are a list of tokens, not {texts!r}")
    return tuple(t.id for t in parse_okey_many(list(texts)))


def _int(text: Any, what: str, high: int) -> int:
    if isinstance(text, bool):
        raise ParseError(f"{what} is a whole number, not {text!r}")
    if isinstance(text, str) and text.isdigit():
        text = int(text)
    if not isinstance(text, int) or not 0 <= text <= high:
        raise ParseError(f"{what} is a whole number 0..{high}, not {text!r}")
    return text


def _name(text: Any, names: tuple[str, ...], what: str) -> int:
    if text not in names:
        raise ParseError(f"{what} is one of {', '.join(names)}, not {text!r}")
    return names.index(text)


def _build(kind: str, fields: Mapping[str, Any]) -> Action:
    if kind in _BARE:
        return _BARE[kind]
    if kind == "discard":
        return Discard(_tile(fields.get("tile")))
    if kind == "meld":
        k = _name(fields.get("kind"), KIND_NAMES, "a meld kind")
        tiles = _tiles(fields.get("tiles"))
        return Meld(k, tiles)
    if kind == "layoff":
        return LayOff(
            _tile(fields.get("tile")),
            _int(fields.get("combo"), "a combination id", 10_000),
            _name(fields.get("end"), END_NAMES, "an end"),
        )
    if kind == "replace":
        return ReplaceJoker(
            _int(fields.get("combo"), "a combination id", 10_000),
            _tile(fields.get("joker")),
            _tiles(fields.get("tiles")),
        )
    if kind == "give":
        return GivePair(_int(fields.get("to"), "a seat", 3), _tiles(fields.get("tiles")))
    raise ParseError(f"not an okey-ladder action: {kind!r}")


def parse_action(text: str) -> Action:
    """Return the action of its text form, or raise ``ParseError`` naming the input."""
    words = text.split()
    if not words:
        raise ParseError("an empty text is not an action")
    head, rest = words[0], words[1:]
    try:
        if head in _BARE and not rest:
            return _BARE[head]
        if head == "discard" and len(rest) == 1:
            return _build(head, {"tile": rest[0]})
        if head == "meld" and len(rest) >= 3:
            return _build(head, {"kind": rest[0], "tiles": rest[1:]})
        if head == "layoff" and len(rest) == 3:
            return _build(head, {"tile": rest[0], "combo": rest[1], "end": rest[2]})
        if head == "replace" and len(rest) >= 3:
            return _build(head, {"combo": rest[0], "joker": rest[1], "tiles": rest[2:]})
        if head == "give" and len(rest) >= 3:
            return _build(head, {"to": rest[0], "tiles": rest[1:]})
    except ParseError as exc:
        raise ParseError(f"cannot read action {text!r}: {exc}") from exc
    raise ParseError(f"not an okey-ladder action: {text!r}")


def action_from_json(data: JSON) -> Action:
    """Return the action of its JSON form, or raise ``ParseError`` naming the input."""
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise ParseError(f'an action is an object with a "type", not {data!r}')
    allowed = _JSON_FIELDS.get(data["type"])
    if allowed is None or set(data) - {"type"} != allowed:
        raise ParseError(f"not an okey-ladder action: {data!r}")
    try:
        return _build(data["type"], data)
    except ParseError as exc:
        raise ParseError(f"cannot read action {data!r}: {exc}") from exc

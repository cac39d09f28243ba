"""The actions of Tile Rummy 500 (rules section 4), each with one text and one JSON form.

Tiles are named by physical tokens (``R7a``), melds on the table by their id (a number shown
in the observation, never reused within a match).

>>> a = parse_action("take 3 meld run K5a K6a K7a")
>>> str(a), action_from_json(a.to_json()) == a
('take 3 meld run K5a K6a K7a', True)
>>> str(parse_action("rearrange 4 | run R1a R2a R3a | set K5a Y5a B5a | feed R4a 2 low"))
'rearrange 4 | run R1a R2a R3a | set K5a Y5a B5a | feed R4a 2 low'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldhall.core.actions import BareAction, TileAction, by_text
from meldhall.core.engine import JSON
from meldhall.core.errors import ParseError
from meldhall.games.tile_rummy.melds import HIGH, LOW
from meldhall.games.tile_rummy.pieces import TOKENS, parse_tile, token

KINDS = ("run", "set")
ENDS = (LOW, HIGH)


@dataclass(frozen=True, slots=True)
class Draw(BareAction):
    """DRAW_STOCK: take the next stock tile."""

    text = json_type = "draw"


@dataclass(frozen=True, slots=True)
class EndRound(BareAction):
    """END_ROUND: the stock is empty and the player ends the round (T-D15)."""

    text = json_type = "end"


@dataclass(frozen=True, slots=True)
class Timeout(BareAction):
    """The table's turn clock ran out (option ``turn_timer``, T-D18); sent by the table for
    the seat to act, never chosen by a player, so never listed among the legal actions."""

    text = json_type = "timeout"


@dataclass(frozen=True, slots=True)
class Discard(TileAction):
    """DISCARD: put one rack tile on the discard pile; ends the turn."""

    verb = json_type = "discard"
    tokens = TOKENS


@dataclass(frozen=True, slots=True)
class Meld:
    """MELD: a new meld of ``kind`` ("run" ascending, or "set") in the player's meld area."""

    kind: str
    tiles: tuple[int, ...]

    def __str__(self) -> str:
        return f"meld {self.body()}"

    def body(self) -> str:
        """Return the text of the meld without the verb: ``run R1a R2a R3a``."""
        return " ".join([self.kind, *(token(t) for t in self.tiles)])

    def to_json(self) -> JSON:
        """Return the JSON form."""
        return {"type": "meld", "kind": self.kind, "tiles": [token(t) for t in self.tiles]}


@dataclass(frozen=True, slots=True)
class Add:
    """ADD: one rack tile onto a meld (own: extend; another player's: feed); ``end`` is
    "low" or "high" for a run and None for a set."""

    tile: int
    meld: int
    end: str | None = None

    def __str__(self) -> str:
        return f"add {self.body()}"

    def body(self) -> str:
        """Return the text without the verb: ``R4a 3 low``."""
        tail = f" {self.end}" if self.end else ""
        return f"{token(self.tile)} {self.meld}{tail}"

    def to_json(self) -> JSON:
        """Return the JSON form."""
        return {"type": "add", "tile": token(self.tile), "meld": self.meld, "end": self.end}


@dataclass(frozen=True, slots=True)
class Rearrange:
    """REARRANGE (section 7): dissolve own melds, and with rack tiles form new own melds and
    feed single tiles to other players' melds, as one atomic action."""

    dissolve: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    feeds: tuple[Add, ...] = ()

    def __str__(self) -> str:
        parts = ["rearrange " + " ".join(str(m) for m in self.dissolve)]
        parts += [m.body() for m in self.melds]
        parts += [f"feed {f.body()}" for f in self.feeds]
        return " | ".join(parts)

    def placed(self) -> list[int]:
        """Return every tile the result places (new melds, then feeds)."""
        out = [t for m in self.melds for t in m.tiles]
        return out + [f.tile for f in self.feeds]

    def to_json(self) -> JSON:
        """Return the JSON form."""
        return {
            "type": "rearrange",
            "dissolve": list(self.dissolve),
            "melds": [_meld_json(m) for m in self.melds],
            "feeds": [_add_json(f) for f in self.feeds],
        }


Use = Meld | Add | Rearrange


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """TAKE_DISCARD (section 8): take pile tile ``index`` (1 = bottom) and all above it, and
    place that tile at once by ``use``."""

    index: int
    use: Use

    def __str__(self) -> str:
        return f"take {self.index} {self.use}"

    def to_json(self) -> JSON:
        """Return the JSON form."""
        return {"type": "take", "index": self.index, "use": self.use.to_json()}


Action = Draw | EndRound | Timeout | Discard | Meld | Add | Rearrange | TakeDiscard

DRAW = Draw()
END_ROUND = EndRound()
TIMEOUT = Timeout()
_BARE: dict[str, Action] = by_text((DRAW, END_ROUND, TIMEOUT))
"""The bare actions by text form, which is also their JSON type."""


def _meld_json(m: Meld) -> JSON:
    return {"kind": m.kind, "tiles": [token(t) for t in m.tiles]}


def _add_json(a: Add) -> JSON:
    return {"tile": token(a.tile), "meld": a.meld, "end": a.end}


# ----------------------------------------------------------------------------- text form


def _meld_words(words: list[str], text: str) -> Meld:
    if not words or words[0] not in KINDS:
        raise ParseError(f"a meld starts with run or set: {text!r}")
    return Meld(words[0], tuple(parse_tile(w) for w in words[1:]))


def _add_words(words: list[str], text: str) -> Add:
    if len(words) not in (2, 3) or not words[1].isdigit():
        raise ParseError(f"an add is TILE MELD_ID [low|high]: {text!r}")
    end = words[2] if len(words) == 3 else None
    if end is not None and end not in ENDS:
        raise ParseError(f"the end of a run is low or high, not {end!r}: {text!r}")
    return Add(parse_tile(words[0]), int(words[1]), end)


def _rearrange_text(rest: str, text: str) -> Rearrange:
    parts = [p.split() for p in rest.split("|")]
    head = parts[0]
    if not head or not all(w.isdigit() for w in head):
        raise ParseError(f"rearrange names the ids of the melds it dissolves: {text!r}")
    melds: list[Meld] = []
    feeds: list[Add] = []
    for words in parts[1:]:
        if words and words[0] == "feed":
            feeds.append(_add_words(words[1:], text))
        else:
            melds.append(_meld_words(words, text))
    return Rearrange(tuple(int(w) for w in head), tuple(melds), tuple(feeds))


def _use_text(words: list[str], rest: str, text: str) -> Use:
    verb = words[0] if words else ""
    if verb == "meld":
        return _meld_words(words[1:], text)
    if verb == "add":
        return _add_words(words[1:], text)
    if verb == "rearrange":
        return _rearrange_text(rest.split(None, 1)[1] if len(words) > 1 else "", text)
    raise ParseError(f"a use is a meld, add or rearrange: {text!r}")


def parse_action(text: str) -> Action:
    """Return the action of its text form, or raise ``ParseError`` naming the text."""
    words = text.split()
    if not words:
        raise ParseError("empty action text")
    verb = words[0]
    if verb in _BARE and len(words) == 1:
        return _BARE[verb]
    if verb == "discard" and len(words) == 2:
        return Discard(parse_tile(words[1]))
    if verb == "meld":
        return _meld_words(words[1:], text)
    if verb == "add":
        return _add_words(words[1:], text)
    if verb == "rearrange":
        return _rearrange_text(text.strip()[len("rearrange") :], text)
    if verb == "take" and len(words) >= 3 and words[1].isdigit():
        rest = text.strip()[len("take") :].strip()[len(words[1]) :].strip()
        return TakeDiscard(int(words[1]), _use_text(words[2:], rest, text))
    raise ParseError(f"not a tile-rummy action: {text!r}")


# ----------------------------------------------------------------------------- JSON form


def _field(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ParseError(f"action field {key!r} must be {kind.__name__}: {data!r}")
    return value


def _tiles_json(data: dict[str, Any], key: str) -> tuple[int, ...]:
    value = _field(data, key, list)
    if not all(isinstance(v, str) for v in value):
        raise ParseError(f"action field {key!r} must list tile tokens: {data!r}")
    return tuple(parse_tile(v) for v in value)


def _meld_from(data: Any) -> Meld:
    if not isinstance(data, dict):
        raise ParseError(f"a meld is an object: {data!r}")
    kind = data.get("kind")
    if kind not in KINDS:
        raise ParseError(f"a meld's kind is run or set: {data!r}")
    return Meld(kind, _tiles_json(data, "tiles"))


def _add_from(data: Any) -> Add:
    if not isinstance(data, dict):
        raise ParseError(f"an add is an object: {data!r}")
    end = data.get("end")
    if end is not None and end not in ENDS:
        raise ParseError(f"the end of a run is low or high: {data!r}")
    return Add(parse_tile(_field(data, "tile", str)), _field(data, "meld", int), end)


def _use_from(data: Any) -> Use:
    action = action_from_json(data)
    if not isinstance(action, Meld | Add | Rearrange):
        raise ParseError(f"a take's use is a meld, add or rearrange: {data!r}")
    return action


def action_from_json(data: JSON) -> Action:
    """Return the action of its JSON form, or raise ``ParseError`` naming the data."""
    if not isinstance(data, dict):
        raise ParseError(f"an action is a JSON object: {data!r}")
    kind = data.get("type")
    if isinstance(kind, str) and kind in _BARE:
        return _BARE[kind]
    if kind == "discard":
        return Discard(parse_tile(_field(data, "tile", str)))
    if kind == "meld":
        return _meld_from(data)
    if kind == "add":
        return _add_from(data)
    if kind == "rearrange":
        dissolve = _field(data, "dissolve", list)
        if not all(isinstance(d, int) and not isinstance(d, bool) for d in dissolve):
            raise ParseError(f"rearrange dissolves meld ids: {data!r}")
        return Rearrange(
            tuple(dissolve),
            tuple(_meld_from(m) for m in _field(data, "melds", list)),
            tuple(_add_from(f) for f in _field(data, "feeds", list)),
        )
    if kind == "take":
        return TakeDiscard(_field(data, "index", int), _use_from(data.get("use")))
    raise ParseError(f"unknown action type {kind!r}")

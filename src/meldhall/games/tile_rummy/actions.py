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

from meldhall.core.actions import (
    Codec,
    Coded,
    Form,
    Int,
    Ints,
    Name,
    Nested,
    Optional,
    Piece,
    Pieces,
    Record,
    Records,
)
from meldhall.core.engine import JSON
from meldhall.core.errors import ParseError
from meldhall.games.tile_rummy.melds import HIGH, LOW
from meldhall.games.tile_rummy.pieces import TOKENS, parse_tile

KINDS = ("run", "set")
ENDS = (LOW, HIGH)

TILE = Piece(TOKENS.__getitem__, parse_tile)
"""A physical tile by its token with its copy (``R7a``)."""
MELD_ID = Int("a meld id", None)
"""A meld on the table by its id (digits in the text form)."""


@dataclass(frozen=True, slots=True)
class Draw(Coded):
    """DRAW_STOCK: take the next stock tile."""

    form = Form("draw")


@dataclass(frozen=True, slots=True)
class EndRound(Coded):
    """END_ROUND: the stock is empty and the player ends the round (T-D15)."""

    form = Form("end")


@dataclass(frozen=True, slots=True)
class Timeout(Coded):
    """The table's turn clock ran out (option ``turn_timer``, T-D18); sent by the table for
    the seat to act, never chosen by a player, so never listed among the legal actions."""

    form = Form("timeout")


@dataclass(frozen=True, slots=True)
class Discard(Coded):
    """DISCARD: put one rack tile on the discard pile; ends the turn."""

    tile: int
    form = Form("discard", tile=TILE)


@dataclass(frozen=True, slots=True)
class Meld(Coded):
    """MELD: a new meld of ``kind`` ("run" ascending, or "set") in the player's meld area."""

    kind: str
    tiles: tuple[int, ...]
    form = Form("meld", kind=Name("a meld's kind", KINDS, index=False), tiles=Pieces(TILE))

    def body(self) -> str:
        """Return the text of the meld without the verb: ``run R1a R2a R3a``."""
        return " ".join(self.form.words(self))


@dataclass(frozen=True, slots=True)
class Add(Coded):
    """ADD: one rack tile onto a meld (own: extend; another player's: feed); ``end`` is
    "low" or "high" for a run and None for a set."""

    tile: int
    meld: int
    end: str | None = None
    form = Form(
        "add", tile=TILE, meld=MELD_ID, end=Optional(Name("the end of a run", ENDS, index=False))
    )

    def body(self) -> str:
        """Return the text without the verb: ``R4a 3 low``."""
        return " ".join(self.form.words(self))


class _RearrangeText:
    """``rearrange 1 2 | run R1a R2a R3a | feed R4a 2 low``: the ids of the dissolved melds,
    then the new melds and the feeds, each after a ``|``."""

    def write(self, action: Any) -> list[str]:
        out = [str(m) for m in action.dissolve] or [""]
        for meld in action.melds:
            out += ["|", *Meld.form.words(meld)]
        for feed in action.feeds:
            out += ["|", "feed", *Add.form.words(feed)]
        return out

    def read(self, words: list[str]) -> dict[str, Any]:
        parts = [p.split() for p in " ".join(words).split("|")]
        head = parts[0]
        if not head or not all(w.isascii() and w.isdigit() for w in head):
            raise ParseError("rearrange names the ids of the melds it dissolves")
        melds: list[Meld] = []
        feeds: list[Add] = []
        for part in parts[1:]:
            if part and part[0] == "feed":
                feeds.append(Add(**Add.form.read_words(part[1:])))
            else:
                melds.append(Meld(**Meld.form.read_words(part)))
        return {
            "dissolve": tuple(int(w) for w in head),
            "melds": tuple(melds),
            "feeds": tuple(feeds),
        }


@dataclass(frozen=True, slots=True)
class Rearrange(Coded):
    """REARRANGE (section 7): dissolve own melds, and with rack tiles form new own melds and
    feed single tiles to other players' melds, as one atomic action."""

    dissolve: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    feeds: tuple[Add, ...] = ()
    form = Form(
        "rearrange",
        text=_RearrangeText(),
        dissolve=Ints(MELD_ID),
        melds=Records(Record(Meld)),
        feeds=Records(Record(Add)),
    )

    def placed(self) -> list[int]:
        """Return every tile the result places (new melds, then feeds)."""
        out = [t for m in self.melds for t in m.tiles]
        return out + [f.tile for f in self.feeds]


Use = Meld | Add | Rearrange


@dataclass(frozen=True, slots=True)
class TakeDiscard(Coded):
    """TAKE_DISCARD (section 8): take pile tile ``index`` (1 = bottom) and all above it, and
    place that tile at once by ``use``."""

    index: int
    use: Use
    form = Form(
        "take",
        index=Int("a pile index", None),
        use=Nested("a take's use", (Meld, Add, Rearrange), lambda: CODEC),
    )


Action = Draw | EndRound | Timeout | Discard | Meld | Add | Rearrange | TakeDiscard
CODEC: Codec = Codec(
    "tile-rummy", (Draw, EndRound, Timeout, Discard, Meld, Add, Rearrange, TakeDiscard)
)
"""The actions of Tile Rummy 500."""

DRAW = Draw()
END_ROUND = EndRound()
TIMEOUT = Timeout()


def parse_action(text: str) -> Action:
    """Return the action of its text form, or raise ``ParseError`` naming the text."""
    action: Action = CODEC.parse_action(text)
    return action


def action_from_json(data: JSON) -> Action:
    """Return the action of its JSON form, or raise ``ParseError`` naming the data."""
    action: Action = CODEC.action_from_json(data)
    return action

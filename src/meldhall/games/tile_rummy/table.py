"""Where tiles are (racks, stock, pile, table) and the melds on the table."""

from __future__ import annotations

from meldhall.core.engine import JSON
from meldhall.games.tile_rummy.melds import LOW, Shape, accepting, joker_identities
from meldhall.games.tile_rummy.pieces import tokens

STOCK = 4
"""Location code of a stock tile (seats 0..3 are racks)."""
PILE = 5
TABLE = 6


class TableMeld:
    """A meld on the table: id, owner, shape and tiles (runs ascending), with the places it
    takes a tile (``accepts``, see ``melds.accepting``) and its public JSON cached."""

    __slots__ = ("_json", "_value", "accepts", "checked", "id", "owner", "shape", "tiles")

    def __init__(
        self, meld_id: int, owner: int, shape: Shape, tiles: list[int], wrap: bool
    ) -> None:
        self.id = meld_id
        self.owner = owner
        self.shape = shape
        self.tiles = tiles
        self.accepts = accepting(shape, tiles, wrap)
        self._json: dict[str, JSON] | None = None
        self._value = -1
        self.checked: tuple[Shape, tuple[int, ...]] | None = None
        """The shape and tiles last found valid by ``check_invariants``."""

    def grow(self, tile: int, end: str | None, wrap: bool) -> None:
        """Add a tile at ``end`` (checked by the caller)."""
        self.shape, self.tiles = grown(self.shape, self.tiles, tile, end)
        self.accepts = accepting(self.shape, self.tiles, wrap)
        self._json = None
        self._value = -1

    def value(self, values: tuple[int, ...]) -> int:
        """Return the meld's points (5.4)."""
        if self._value < 0:
            self._value = sum(values[t] for t in self.tiles)
        return self._value

    def to_json(self, values: tuple[int, ...]) -> dict[str, JSON]:
        """Return the public JSON form of the meld (observation, events)."""
        if self._json is None:
            out: dict[str, JSON] = {
                "id": self.id,
                "owner": self.owner,
                "kind": self.shape.kind,
                "tiles": tokens(self.tiles),
                "jokers": joker_identities(self.shape, self.tiles),
                "value": self.value(values),
            }
            out["start" if self.shape.kind == "run" else "number"] = self.shape.key
            self._json = out
        out = dict(self._json)
        out["tiles"] = list(self._json["tiles"])
        out["jokers"] = list(self._json["jokers"])
        return out


def grown(shape: Shape, tiles: list[int], tile: int, end: str | None) -> tuple[Shape, list[int]]:
    """Return the shape and tiles of a meld after ``tile`` joined it at ``end`` (a new list)."""
    if end == LOW:
        return Shape("run", shape.key - 1, shape.colour), [tile, *tiles]
    return shape, [*tiles, tile]

"""The rule options of Tile Rummy 500 (rules section 14), defaults = the seed's house rules.

>>> opts = parse_options(TileRummyOptions, {"tile_values": "face", "smiley_value": 30})
>>> opts.tile_values, opts.smiley_value, opts.run_wrap
('face', 30, 'one_end')
>>> parse_options(TileRummyOptions, {"run_wrap": "both"})
Traceback (most recent call last):
...
meldhall.core.errors.OptionsError: option 'run_wrap' takes one of 'one_end', 'none', not 'both'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from meldhall.core.errors import OptionsError, ParseError
from meldhall.core.options import parse_options
from meldhall.core.tiles import parse_okey_many
from meldhall.games.tile_rummy.pieces import SMILEY_A, TILE_COUNT

__all__ = ["TileRummyOptions", "parse_options"]


def _wall(value: Any) -> tuple[str, ...]:
    """Return an explicit wall as 106 tokens with copies (first = the discard starter)."""
    if isinstance(value, str):
        items: Sequence[str] = value.split()
    elif isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        items = value
    else:
        raise ValueError("the wall is a list of 106 tile tokens")
    if not items:
        return ()
    try:
        tiles = parse_okey_many(list(items), blank="S")
    except ParseError as exc:
        raise ValueError(str(exc)) from exc
    if len(tiles) != TILE_COUNT:
        raise ValueError(f"the wall needs all {TILE_COUNT} tiles, got {len(tiles)}")
    if tiles[0].id >= SMILEY_A:
        raise ValueError("the wall's first tile starts the discard pile: not a Smiley")
    return tuple(t.token("S") for t in tiles)


@dataclass(frozen=True)
class TileRummyOptions:
    """One field per option of section 14; ``wall`` and ``first_player`` fix round 1's deal
    for tests and puzzles (``wall``: 106 tokens, the turned-up tile first, then the 105
    tiles in stack order, tile 7j on top of stack j)."""

    players: int | None = field(default=None, metadata={"range": (2, 4)})
    hand_size: Literal[14, 7] = 14
    tile_values: Literal["writer", "face"] = "writer"
    smiley_value: Literal[10, 30] = 10
    losers_subtract_rack: bool = False
    discard_target_use: Literal["any", "own"] = "any"
    discard_take_any_depth: bool = True
    initial_meld_minimum: int = field(default=0, metadata={"range": (0, 100)})
    feed_requires_own_meld: bool = False
    run_wrap: Literal["one_end", "none"] = "one_end"
    stock_exhausted: Literal["end_round", "reshuffle"] = "end_round"
    tie_rule: Literal["went_out", "void", "all"] = "went_out"
    match_mode: Literal["round_wins", "points"] = "round_wins"
    turn_timer: int = field(default=0, metadata={"range": (0, 3600)})
    wall: tuple[str, ...] = field(default=(), metadata={"convert": _wall})
    first_player: int | None = field(default=None, metadata={"range": (0, 3)})

    def validate(self) -> None:
        """Raise ``OptionsError`` for options that contradict each other."""
        if (
            self.players is not None
            and self.first_player is not None
            and self.first_player >= self.players
        ):
            raise OptionsError(
                f"option 'first_player' must be a seat below players={self.players}, "
                f"not {self.first_player}"
            )

    def check_seats(self, seats: int) -> None:
        """Raise ``OptionsError`` unless these options fit a match of ``seats`` players."""
        if not 2 <= seats <= 4:
            raise OptionsError(f"tile-rummy is played by 2 to 4 players, not {seats}")
        if self.players is not None and self.players != seats:
            raise OptionsError(f"option 'players' is {self.players} but the match has {seats}")
        if self.first_player is not None and self.first_player >= seats:
            raise OptionsError(f"option 'first_player' {self.first_player} is not a seat")

    @property
    def wrap(self) -> bool:
        """Return True when a run may use 13-1 at one end (the seed's rule)."""
        return self.run_wrap == "one_end"

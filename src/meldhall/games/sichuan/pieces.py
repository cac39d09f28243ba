"""Constant tables shared by the Sichuan engine and its views: tile tokens, kinds, suits."""

from __future__ import annotations

from meldhall.core.tiles import MAHJONG_TILES, kind_name

TILE_COUNT = 108
SEATS = 4

TOKEN: tuple[str, ...] = tuple(str(t) for t in MAHJONG_TILES)
"""The token of every tile id: ``TOKEN[50] == '5p#2'``."""

KIND_OF: tuple[int, ...] = tuple(t // 4 for t in range(TILE_COUNT))
"""The kind (0..26) of every tile id."""

SUIT_OF: tuple[int, ...] = tuple(t // 36 for t in range(TILE_COUNT))
"""The suit (0 m, 1 p, 2 s) of every tile id."""

KIND_NAME: tuple[str, ...] = tuple(kind_name(k) for k in range(27))
"""The face of every kind: ``KIND_NAME[13] == '5p'``."""

SUIT_LETTER = "mps"

NEXT: tuple[tuple[int, ...], ...] = tuple(
    tuple((seat + step) % SEATS for step in range(1, SEATS)) for seat in range(SEATS)
)
"""Seat order from a seat (sichuan.md 2): the three other seats, nearest first."""

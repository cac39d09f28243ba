"""Tile ids, faces, run positions, tokens and values of Tile Rummy 500 (rules sections 2, 5.2).

Tiles are the ids of ``meldhall.core.tiles.OKEY_TILES``: a number tile ``t < 104`` has the
face ``t >> 1`` (0..51, colour ``face // 13`` in the order R, Y, B, K and number
``face % 13 + 1``); the Smileys are 104 (``Sa``, the spec's S1) and 105 (``Sb``, S2).

>>> token(parse_tile("K13b")), face_name(face_of(1, 12)), pos_number(0), pos_number(14)
('K13b', 'Y12', 13, 1)
"""

from __future__ import annotations

from functools import cache

from meldhall.core.errors import ParseError
from meldhall.core.okey_family import BLANKS, FACES, TILE_COUNT, face_name
from meldhall.core.tiles import OKEY_COLOURS, OKEY_TILES

__all__ = [
    "COLOURS",
    "FACES",
    "SMILEY_A",
    "SMILEY_B",
    "TILE_COUNT",
    "TOKENS",
    "face_name",
    "face_of",
    "is_smiley",
    "parse_tile",
    "pos_number",
    "token",
    "tokens",
    "value_table",
]

SMILEY_A, SMILEY_B = BLANKS
COLOURS = OKEY_COLOURS
"""Colour letters by colour index: R, Y, B, K (the order of the tile ids)."""

TOKENS: tuple[str, ...] = tuple(t.token("S") for t in OKEY_TILES)
"""The token of every tile id, copy suffix included (``R7a``, ``Sb``)."""

_IDS: dict[str, int] = {tok: i for i, tok in enumerate(TOKENS)}


def is_smiley(tile: int) -> bool:
    """Return True for the two Smileys."""
    return tile >= SMILEY_A


def token(tile: int) -> str:
    """Return the token of a tile id (``R7a``)."""
    return TOKENS[tile]


def tokens(tiles: list[int] | tuple[int, ...]) -> list[str]:
    """Return the tokens of a list of tile ids."""
    return [TOKENS[t] for t in tiles]


def parse_tile(text: str) -> int:
    """Return the id of a token that names one physical tile (copy suffix required)."""
    tile = _IDS.get(text)
    if tile is None:
        raise ParseError(f"not a tile with its copy (like R7a, K13b, Sa): {text!r}")
    return tile


def face_of(colour: int, number: int) -> int:
    """Return the face index of a colour index and a number 1..13."""
    return colour * 13 + number - 1


def pos_number(pos: int) -> int:
    """Return the number a run position 0..14 carries (0 is 13, 14 is 1; 5.2)."""
    if pos == 0:
        return 13
    if pos == 14:
        return 1
    return pos


@cache
def value_table(tile_values: str, smiley_value: int) -> tuple[int, ...]:
    """Return the point value of every tile id under a value scheme (section 2).

    >>> v = value_table("writer", 10)
    >>> v[parse_tile("R9a")], v[parse_tile("R12a")], v[SMILEY_A]
    (9, 10, 10)
    """
    out = []
    for t in range(TILE_COUNT):
        if is_smiley(t):
            out.append(smiley_value)
        else:
            number = (t >> 1) % 13 + 1
            out.append(min(number, 10) if tile_values == "writer" else number)
    return tuple(out)

"""The 106-tile set shared by the okey family (okey, okey-ladder, tile-rummy) on plain ints:
faces, tokens and the okey identity rule, written once.

A tile is its id in ``OKEY_TILES`` (0..105): a numbered tile's *face* is ``id // 2``, which is
``colour × 13 + number − 1`` with the colours R, Y, B, K (0..3), so faces run 0..51; tiles
104 and 105 are the two blank tiles (false jokers in okey, Smileys in tile-rummy).

>>> okey_identity(FACE_OF_NAME["R13"]) == FACE_OF_NAME["R1"], face_name(okey_identity(4))
(True, 'R6')
>>> TOKENS[0], TOKENS[105], TILE_IDS["K13b"]
('R1a', 'Jb', 103)
"""

from __future__ import annotations

from meldhall.core.tiles import OKEY_COLOURS, OKEY_TILES

FACES = 52
"""Number of faces (4 colours × 13 numbers)."""

TILE_COUNT = 106
BLANKS = (104, 105)
"""The ids of the two blank tiles."""

TOKENS: tuple[str, ...] = tuple(str(t) for t in OKEY_TILES)
"""The token of every tile id, copy letter included (``R5a``, ``Jb``)."""

TILE_IDS: dict[str, int] = {token: i for i, token in enumerate(TOKENS)}
"""The tile id of every token with its copy letter."""

FACE_NAMES: tuple[str, ...] = tuple(f"{c}{n}" for c in OKEY_COLOURS for n in range(1, 14))
"""The name of every face without copy letter: ``FACE_NAMES[4] == 'R5'``."""

FACE_OF_NAME: dict[str, int] = {name: face for face, name in enumerate(FACE_NAMES)}


def face_name(face: int) -> str:
    """Return the face's token without copy letter: ``face_name(4) == 'R5'``."""
    return FACE_NAMES[face]


def okey_identity(indicator_face: int) -> int:
    """Return the face of the okey (the real jokers) for the indicator's face: the same
    colour, the next number, 1 after 13 (okey.md 2.1, okey-ladder.md S2)."""
    colour, number = divmod(indicator_face, 13)
    return colour * 13 + (number + 1) % 13

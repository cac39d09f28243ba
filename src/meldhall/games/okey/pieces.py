"""Faces, identities and tokens of okey tiles, on plain ints for the hot paths.

A face is ``colour × 13 + number − 1`` (colours R, Y, B, K as in okey.md 2), so a numbered
tile's face is ``tile_id // 2``; the false jokers are tiles 104 and 105. An identity (what a
joker stands for) is a ``(colour letter or None, number)`` pair; ``None`` is an open colour,
written ``?5``.

>>> okey_face(OKEY_TILE_IDS["K13a"]), face_name(okey_face(OKEY_TILE_IDS["K13a"]))
(39, 'K1')
>>> identity_name(("K", 7)), identity_name((None, 5))
('K7', '?5')
"""

from __future__ import annotations

from meldhall.core.okey_family import FACES, TILE_COUNT, TOKENS, face_name, okey_identity
from meldhall.core.okey_family import TILE_IDS as OKEY_TILE_IDS

__all__ = [
    "FACES",
    "OKEY_TILE_IDS",
    "TILE_COUNT",
    "TOKENS",
    "Identity",
    "effective_faces",
    "face_name",
    "identity_name",
    "is_real_joker",
    "okey_face",
]

Identity = tuple[str | None, int]
"""What a joker stands for: (colour letter or None when open, number)."""


def okey_face(indicator: int) -> int:
    """Return the okey identity's face for an indicator tile id (``okey_identity`` of its
    face)."""
    return okey_identity(indicator // 2)


def identity_name(identity: Identity) -> str:
    """Return an identity as the vectors write it: ``K7``, or ``?5`` for an open colour."""
    colour, number = identity
    return f"{colour or '?'}{number}"


def effective_faces(tiles: list[int] | tuple[int, ...], okey: int) -> tuple[list[int], int]:
    """Return (count per face, number of real jokers): false jokers count as the okey face,
    real jokers (the tiles whose face is ``okey``) are wild."""
    counts = [0] * FACES
    wild = 0
    for t in tiles:
        if t >= 104:
            counts[okey] += 1
        elif t >> 1 == okey:
            wild += 1
        else:
            counts[t >> 1] += 1
    return counts, wild


def is_real_joker(tile: int, okey: int) -> bool:
    """Return True when ``tile`` is one of the two real jokers of okey face ``okey``."""
    return tile < 104 and tile >> 1 == okey

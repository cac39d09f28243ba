"""Tiles as ints for the hot loops: faces, tokens and the jokers fixed by the indicator.

A tile is its canonical id 0..105 (okey.md 2). A *face* is colour × 13 + number − 1 with the
core colour order R=0, Y=1, B=2, K=3, so faces run 0..51 and match the solver's count index.
Under an indicator every tile has an *effective face*: its own face, the okey face for a
false joker (okey-ladder.md 3, S2), or ``WILD`` for the two real jokers.

>>> j = Jokers.of(parse_okey("R4").id)
>>> FACE_NAME[j.okey], TOKEN[j.real[0]], j.eff[parse_okey("J").id] == j.okey
('R5', 'R5a', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from meldhall.core.okey_family import FACE_NAMES, TILE_COUNT, TOKENS, okey_identity
from meldhall.core.tiles import OKEY_COLOURS, OKEY_TILES, parse_okey

WILD = -1
"""The effective face of a real joker."""

FACE_OF: tuple[int, ...] = tuple(
    -1 if t.colour is None else OKEY_COLOURS.index(t.colour) * 13 + (t.number or 0) - 1
    for t in OKEY_TILES
)
"""Face index of every tile id (-1 for the two false jokers)."""

TOKEN = TOKENS
"""Token with copy letter of every tile id: ``R5a``, ``Jb``."""

FACE_NAME = FACE_NAMES
"""Name of every face: ``FACE_NAME[4] == 'R5'``."""

__all__ = ["FACE_NAME", "FACE_OF", "TILE_COUNT", "TOKEN", "WILD", "Jokers", "parse_okey"]


def colour_of(face: int) -> int:
    """Return the colour index 0..3 of a face."""
    return face // 13


def number_of(face: int) -> int:
    """Return the number 1..13 of a face."""
    return face % 13 + 1


@cache
def _effective(okey: int) -> tuple[tuple[int, ...], tuple[int, int]]:
    eff = [okey if f < 0 else (WILD if f == okey else f) for f in FACE_OF]
    real = tuple(i for i, f in enumerate(FACE_OF) if f == okey)
    assert len(real) == 2
    return tuple(eff), (real[0], real[1])


@dataclass(frozen=True, slots=True)
class Jokers:
    """The jokers of one hand: indicator id, okey face, effective faces, real joker ids."""

    indicator: int
    okey: int
    eff: tuple[int, ...]
    real: tuple[int, int]

    @classmethod
    def of(cls, indicator: int) -> Jokers:
        """Return the jokers fixed by the indicator tile ``indicator`` (a numbered tile)."""
        okey = okey_identity(FACE_OF[indicator])
        eff, real = _effective(okey)
        return cls(indicator, okey, eff, real)

    @property
    def colour(self) -> str:
        """Return the joker colour letter (the indicator's colour), which sets the base."""
        return OKEY_COLOURS[self.okey // 13]

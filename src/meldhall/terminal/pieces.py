"""The piece families of the games, as the terminal and the RL adapter read them.

A family is the physical piece set a game plays with: every token (``R5a``, ``7H#2``,
``5p#3``, ``B8``), the faces a token stands for (``R5``, ``7H``, ``5p``), and the colour a
terminal draws each in. Only these facts come from ``meldhall.core.tiles``; everything else
the adapters know about a game comes from its public API, reached through ``find_game``.

>>> family_of("sichuan").name, len(family_of("sichuan").tokens), family_of("okey").tokens[-1]
('mahjong', 108, 'Jb')
>>> family_of("tile-rummy").colour_of("Sa"), family_of("remi").colour_of("7H#2")
('magenta', 'red')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from meldhall.core import tiles
from meldhall.games.registry import find_game

__all__ = ["Family", "family_of", "find_game"]


@dataclass(frozen=True)
class Family:
    """One piece family: its tokens (in canonical id order), its faces, and the colour of a
    token for a terminal (``colour_of``)."""

    name: str
    tokens: tuple[str, ...]
    faces: tuple[str, ...]
    colour_of: Callable[[str], str]
    index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {t: i for i, t in enumerate(self.tokens)})


_OKEY_COLOURS = {"R": "red", "Y": "yellow", "B": "blue", "K": "white"}
_CARD_COLOURS = {"S": "white", "C": "white", "H": "red", "D": "red"}
_MAHJONG_COLOURS = {"m": "red", "p": "blue", "s": "green"}
_OKEY_CARD_COLOURS = {"R": "red", "B": "blue", "Y": "yellow"}


def _okey_colour(token: str) -> str:
    return _OKEY_COLOURS.get(token[0], "magenta")


def _card_colour(token: str) -> str:
    face = token.split("#")[0]
    return "magenta" if face == "JK" else _CARD_COLOURS.get(face[-1], "white")


def _okey_family(name: str, blank: str) -> Family:
    faces = (*(f"{c}{n}" for c in tiles.OKEY_COLOURS for n in range(1, 14)), blank)
    tokens = tuple(t.token(blank) for t in tiles.OKEY_TILES)
    return Family(name, tokens, faces, _okey_colour)


def _card_family() -> Family:
    faces = (
        *(r + s for s in tiles.SUITS for r in tiles.RANKS),
        *(r + "?" for r in tiles.RANKS),
        "JK",
    )
    return Family("cards", tuple(str(c) for c in tiles.CARDS), faces, _card_colour)


def _mahjong_family() -> Family:
    return Family(
        "mahjong",
        tuple(str(t) for t in tiles.MAHJONG_TILES),
        tuple(tiles.kind_name(k) for k in range(27)),
        lambda token: _MAHJONG_COLOURS.get(token[1], "white"),
    )


def _okey_card_family() -> Family:
    tokens = tuple(str(c) for c in tiles.OKEY_CARDS)
    return Family("okey-cards", tokens, tokens, lambda t: _OKEY_CARD_COLOURS.get(t[0], "white"))


_FAMILIES: dict[str, Callable[[], Family]] = {
    "okey-tiles": lambda: _okey_family("okey-tiles", "J"),
    "rummy-tiles": lambda: _okey_family("rummy-tiles", "S"),
    "cards": _card_family,
    "mahjong": _mahjong_family,
    "okey-cards": _okey_card_family,
}

PREVIEW_FAMILY: dict[str, str] = {"card": "cards", "mahjong": "mahjong", "okeycard": "okey-cards"}
"""The terminal family of each piece family a game declares (``GAME.preview.family``)."""
OKEY_BY_BLANK: dict[str, str] = {"J": "okey-tiles", "S": "rummy-tiles"}
"""The okey-family tiles by the letter of their numberless tiles (``GAME.preview.blank``)."""


@cache
def family(name: str) -> Family:
    """Return the piece family of this name, or raise ``KeyError``."""
    return _FAMILIES[name]()


def family_of(game_id: str) -> Family:
    """Return the piece family a game plays with (from its declared ``preview``), or raise
    ``UnknownGame`` for an unknown id and ``KeyError`` for a family the terminal lacks."""
    preview = find_game(game_id).preview
    if preview.family == "okey":
        return family(OKEY_BY_BLANK[preview.blank])
    return family(PREVIEW_FAMILY[preview.family])

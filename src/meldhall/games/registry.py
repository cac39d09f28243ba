"""The registry of games: one line per game package, imported on first use. Every other
layer learns about a game from its declaration ``GAME`` (``meldhall.core.engine.Game``).

>>> "sichuan" in game_ids()
True
>>> find_game("okey").bots.strongest
'strong'
"""

from __future__ import annotations

import importlib
from functools import cache

from meldhall.core.engine import Game
from meldhall.core.errors import MeldhallError

GAME_MODULES: dict[str, str] = {
    "okey": "meldhall.games.okey",
    "okey-ladder": "meldhall.games.okey_ladder",
    "tile-rummy": "meldhall.games.tile_rummy",
    "remi": "meldhall.games.remi",
    "sichuan": "meldhall.games.sichuan",
    "okey-cards": "meldhall.games.okey_cards",
}
"""Game id -> the package whose ``game`` module declares ``GAME``, in menu order."""


class UnknownGame(MeldhallError):
    """A game id that is not registered."""


def game_ids() -> tuple[str, ...]:
    """Return the ids of every registered game, in menu order."""
    return tuple(GAME_MODULES)


@cache
def find_game(game_id: str) -> Game:
    """Return the declaration of the registered game with this id, or raise ``UnknownGame``."""
    path = GAME_MODULES.get(game_id)
    if path is None:
        raise UnknownGame(f"unknown game {game_id!r}; known: {', '.join(GAME_MODULES)}")
    game: Game = importlib.import_module(path).GAME
    return game

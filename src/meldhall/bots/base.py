"""Bots every game can use, and how a game's bots are found by name.

A game's declaration names its bots (``GAME.bots``): the module, which exposes
``BOTS: dict[str, Callable[[], Bot]]``, and the names from weakest to strongest.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from functools import cache

from meldhall.core.engine import JSON, Action, Bot
from meldhall.core.errors import MeldhallError
from meldhall.games.registry import find_game


class UniformRandomBot:
    """Picks uniformly among the legal actions (tests, fuzzing, the RLCard comparison)."""

    needs_observation = False

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return a uniformly random legal action."""
        return legal[rng.randrange(len(legal))]


BOTS: dict[str, Callable[[], Bot]] = {"random": UniformRandomBot}
"""The bots of a game that has no bot module of its own yet: declare
``Bots("meldhall.bots.base", ("random",), on_timeout="random")``."""


@cache
def bots_of(game_id: str) -> Mapping[str, Callable[[], Bot]]:
    """Return the bot factories of a game by name, in its declared order (weakest first), or
    raise ``MeldhallError`` when its bot module does not offer every declared bot."""
    declared = find_game(game_id).bots
    factories: Mapping[str, Callable[[], Bot]] = importlib.import_module(declared.module).BOTS
    missing = [name for name in declared.names if name not in factories]
    if missing:
        raise MeldhallError(f"{declared.module} lacks the declared bots {', '.join(missing)}")
    return {name: factories[name] for name in declared.names}


def make_bot(game_id: str, name: str) -> Bot:
    """Return a new bot of a game by name, or raise ``MeldhallError`` listing the names."""
    factories = bots_of(game_id)
    factory = factories.get(name)
    if factory is None:
        raise MeldhallError(f"{game_id} has no bot {name!r}; it has: {', '.join(factories)}")
    return factory()


def strongest_bot_name(game_id: str) -> str:
    """Return the name of the strongest bot a game declares (solo mode plays it)."""
    return find_game(game_id).bots.strongest

"""Bots every game can use, and the registry that finds a game's bots by name.

Each game's bots live in ``meldhall.bots.<module>`` (named in ``BOT_MODULES``), which exposes
``BOTS: dict[str, Callable[[], Bot]]`` with at least ``random`` and ``greedy``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from functools import cache

from meldhall.core.engine import JSON, Action, Bot
from meldhall.core.errors import MeldhallError

BOT_MODULES: dict[str, str] = {
    "okey": "meldhall.bots.okey",
    "okey-ladder": "meldhall.bots.okey_ladder",
    "tile-rummy": "meldhall.bots.tile_rummy",
    "remi": "meldhall.bots.remi",
    "sichuan": "meldhall.bots.sichuan",
    "okey-cards": "meldhall.bots.okey_cards",
}

STRENGTH_ORDER = ("expert", "strong", "greedy", "random")
"""Bot names from strongest to weakest; solo mode seats the strongest a game has."""


class UniformRandomBot:
    """Picks uniformly among the legal actions (tests, fuzzing, the RLCard comparison)."""

    needs_observation = False

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return a uniformly random legal action."""
        return legal[rng.randrange(len(legal))]


@cache
def bots_of(game_id: str) -> Mapping[str, Callable[[], Bot]]:
    """Return the bot factories of a game by name, or raise ``MeldhallError``."""
    path = BOT_MODULES.get(game_id)
    if path is None:
        raise MeldhallError(f"no bots for game {game_id!r}")
    bots: Mapping[str, Callable[[], Bot]] = importlib.import_module(path).BOTS
    return bots


def make_bot(game_id: str, name: str) -> Bot:
    """Return a new bot of a game by name, or raise ``MeldhallError`` listing the names."""
    factories = bots_of(game_id)
    factory = factories.get(name)
    if factory is None:
        raise MeldhallError(f"{game_id} has no bot {name!r}; it has: {', '.join(factories)}")
    return factory()


def strongest_bot_name(game_id: str) -> str:
    """Return the name of the strongest bot a game offers (solo mode plays it)."""
    names = bots_of(game_id)
    return next((n for n in STRENGTH_ORDER if n in names), next(iter(names)))

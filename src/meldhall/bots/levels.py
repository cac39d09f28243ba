"""Levels for people: easy, normal and hard, as names for each game's bots.

- ``hard``: the strongest bot the game has (``strong``, or okey-cards' ``expert``).
- ``normal``: ``greedy``.
- ``easy``: ``greedy`` that now and then (one decision in the game's declared
  ``bots.easy_slips``, when it has a choice) plays the game's ``random`` bot's move instead:
  that bot still takes every win and shows what must be shown, so the slips look like a
  person's lapses (a useful tile thrown, a claim missed), not nonsense.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from meldhall.bots.base import bots_of, make_bot, strongest_bot_name
from meldhall.core.engine import JSON, Action, Bot
from meldhall.core.errors import MeldhallError
from meldhall.games.registry import find_game

LEVELS = ("easy", "normal", "hard")
"""The levels a person may choose, weakest first; solo tables default to ``hard``."""

DEFAULT_LEVEL = "hard"


class EasyBot:
    """The game's greedy bot with occasional lapses (see the module docstring)."""

    needs_observation = True

    def __init__(self, game_id: str) -> None:
        self.greedy = make_bot(game_id, "greedy")
        self.lapse = make_bot(game_id, "random")
        self.slips = find_game(game_id).bots.easy_slips

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the greedy choice, or on a slip the random bot's choice."""
        if len(legal) > 1 and rng.randrange(self.slips) == 0:
            return self.lapse.choose(observation, legal, rng)
        return self.greedy.choose(observation, legal, rng)


def level_bot_name(game_id: str, level: str) -> str:
    """Return the name of the bot that plays ``level`` in a game (``easy`` has no bot of its
    own name: it is ``"easy"``; a game without a ``greedy`` bot plays its strongest at every
    level), or raise ``MeldhallError`` for an unknown level."""
    if level == "hard":
        return strongest_bot_name(game_id)
    if level in ("normal", "easy") and "greedy" not in bots_of(game_id):
        return strongest_bot_name(game_id)
    if level == "normal":
        return "greedy"
    if level == "easy":
        return "easy"
    raise MeldhallError(f"no level {level!r}; the levels are: {', '.join(LEVELS)}")


def level_bot(game_id: str, level: str) -> Bot:
    """Return a new bot that plays a game at ``level``, or raise ``MeldhallError``."""
    name = level_bot_name(game_id, level)
    if name == "easy":
        return EasyBot(game_id)
    return make_bot(game_id, name)


def check_level(level: object) -> str:
    """Return ``level`` when it is one of ``LEVELS``, else raise ``MeldhallError`` naming it
    and the levels."""
    if not isinstance(level, str) or level not in LEVELS:
        raise MeldhallError(f"no level {level!r}; the levels are: {', '.join(LEVELS)}")
    return level


def seat_player(game_id: str, level: str) -> dict[str, str]:
    """Return the stored player entry of a computer seat at ``level``: its bot name (what
    ``seat_bot`` builds) and the level, or raise ``MeldhallError`` for an unknown level.

    >>> seat_player("remi", "normal")
    {'kind': 'bot', 'bot': 'greedy', 'level': 'normal'}
    """
    return {"kind": "bot", "bot": level_bot_name(game_id, check_level(level)), "level": level}


def seat_bot(game_id: str, name: str) -> Bot:
    """Return a new bot by stored bot name: a bot the game declares, or ``easy`` (which is
    a level, not a declared bot); raise ``MeldhallError`` for any other name."""
    return EasyBot(game_id) if name == "easy" else make_bot(game_id, name)


def level_of(game_id: str, player: Mapping[str, JSON]) -> str | None:
    """Return the level of a stored computer seat: the one stored with it, else the level
    whose bot it is (matches stored before levels), else None.

    >>> level_of("okey", {"kind": "bot", "bot": "greedy"})
    'normal'
    """
    stored = player.get("level")
    if isinstance(stored, str) and stored in LEVELS:
        return stored
    bot = player.get("bot")
    for level in reversed(LEVELS):
        if bot == level_bot_name(game_id, level):
            return level
    return None

"""Table options of online play (clocks, takeover delay, countdown) and the action played for
a person whose clock ran out.

The default action knows no rules: a pass-like action when the engine lists one (the safest
answer in a claim window), else the game's own greedy (or random) bot picks among the legal
actions the engine lists.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from meldhall.bots.base import bots_of, make_bot
from meldhall.core.engine import Action, State

DEFAULTS: dict[str, float] = {
    "turn_seconds": 30.0,
    "claim_seconds": 8.0,
    "takeover_seconds": 30.0,
    "countdown_seconds": 3.0,
    "hand_pause_seconds": 6.0,
    "hold_seconds": 15.0,
}
"""Table options and their defaults, in seconds: a turn's clock, a claim window's clock (several
seats may answer at once), how long a disconnected person's seat waits before a computer plays
it, the countdown before a match starts, the pause between hands, how long a waiting table
keeps the place of a person whose connection closed."""

LIMITS = (0.01, 3600.0)
PASS_LIKE = frozenset({"pass"})
"""Action types (``to_json()["type"]``) a timed-out seat plays when the engine lists one."""


def table_settings(raw: Mapping[str, Any] | None) -> dict[str, float]:
    """Return complete table options from a client's partial ones; raise ``ValueError`` naming
    an unknown option or a value out of range."""
    out = dict(DEFAULTS)
    for key, value in (raw or {}).items():
        if key not in DEFAULTS:
            raise ValueError(f"unknown table option {key!r}; known: {', '.join(DEFAULTS)}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"table option {key!r} must be a number of seconds")
        if not LIMITS[0] <= value <= LIMITS[1]:
            raise ValueError(f"table option {key!r} must be between {LIMITS[0]} and {LIMITS[1]}")
        out[key] = float(value)
    return out


def default_action(game_id: str, state: State, seat: int, rng: random.Random) -> Action:
    """Return the action a seat whose clock ran out plays: a listed pass-like action, else the
    choice of the game's greedy bot (random when it has none) among the legal actions."""
    legal = state.legal_actions(seat)
    for action in legal:
        data = action.to_json()
        if isinstance(data, dict) and data.get("type") in PASS_LIKE:
            return action
    name = "greedy" if "greedy" in bots_of(game_id) else "random"
    bot = make_bot(game_id, name)
    observation = state.observation(seat) if bot.needs_observation else {}
    return bot.choose(observation, legal, rng)


def seats_for_people(people: int, seats: int) -> list[int]:
    """Return the seats people take at a table: two people sit opposite each other, otherwise
    they fill the seats in order and computers take the rest (seed 004).

    >>> seats_for_people(2, 4), seats_for_people(3, 4), seats_for_people(4, 4)
    ([0, 2], [0, 1, 2], [0, 1, 2, 3])
    """
    if not 1 <= people <= seats:
        raise ValueError(f"{people} people cannot sit at {seats} seats")
    if people == 2 and seats == 4:
        return [0, 2]
    return list(range(people))

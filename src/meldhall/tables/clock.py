"""Table options of online play (clocks, takeover delay, countdown) and the actions played for
a person whose clock ran out.

The table judges nothing: the game's declaration says which listed action is the safe
default (``GAME.timeout_action``: a pass in a claim window, a draw from the wall, then the
discard of the tile just drawn, or what the game's spec says a timed-out turn does); where it
names none, the bot the declaration names for timeouts (``GAME.bots.on_timeout``) picks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from meldhall.bots.base import make_bot
from meldhall.bots.levels import DEFAULT_LEVEL, LEVELS
from meldhall.core.engine import Action, State
from meldhall.games.registry import find_game

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

SWITCHES: dict[str, bool] = {"hints": True, "chat": True}
"""Table options that are on or off, and their defaults: whether a person may ask the
strong computer for a hint, whether the table has a chat (docs/people.md)."""

CHOICES: dict[str, tuple[tuple[str, ...], str]] = {"bots": (LEVELS, DEFAULT_LEVEL)}
"""Table options that take one of a few words: their words and default. ``bots``: the
level (easy, normal, hard) of the computers that fill the empty seats."""

LIMITS = (0.01, 3600.0)


def table_settings(
    raw: Mapping[str, Any] | None, floors: Mapping[str, float] | None = None
) -> dict[str, Any]:
    """Return complete table options from a client's partial ones; raise ``ValueError`` naming
    an unknown option or a value out of range (``floors``: a higher least value for some
    options, so that idle seats cannot make the server play itself in a loop)."""
    out: dict[str, Any] = {**DEFAULTS, **SWITCHES}
    out.update({key: default for key, (_words, default) in CHOICES.items()})
    for key, value in (raw or {}).items():
        if key in CHOICES:
            words = CHOICES[key][0]
            if value not in words:
                raise ValueError(f"table option {key!r} takes one of {', '.join(words)}")
            out[key] = value
            continue
        if key in SWITCHES:
            if not isinstance(value, bool):
                raise ValueError(f"table option {key!r} must be true or false")
            out[key] = value
            continue
        if key not in DEFAULTS:
            known = ", ".join([*DEFAULTS, *SWITCHES, *CHOICES])
            raise ValueError(f"unknown table option {key!r}; known: {known}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"table option {key!r} must be a number of seconds")
        least = max(LIMITS[0], (floors or {}).get(key, LIMITS[0]))
        if not least <= value <= LIMITS[1]:
            raise ValueError(f"table option {key!r} must be between {least:g} and {LIMITS[1]:g}")
        out[key] = float(value)
    return out


def default_action(
    game_id: str, state: State, seat: int, rng: random.Random, drawn: str | None = None
) -> Action:
    """Return the action a seat whose clock ran out plays (see the module docstring);
    ``drawn`` is the token of the tile it has just drawn, if any
    (``GAME.timeout.drawn_piece`` finds it among the events of the seat's last move)."""
    game = find_game(game_id)
    decided = game.timeout_action(state, seat, drawn)
    if decided is not None:
        return decided
    bot = make_bot(game.id, game.bots.on_timeout)
    observation = state.observation(seat) if bot.needs_observation else {}
    return bot.choose(observation, state.legal_actions(seat), rng)

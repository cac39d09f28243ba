"""Table options of online play (clocks, takeover delay, countdown) and the actions played for
a person whose clock ran out.

The default action judges nothing: it picks among the actions the engine lists, the safest
move as the specs describe it. A game whose spec defines what a timed-out turn does decides
itself (``expiry_action``: remi always, tile-rummy with its ``turn_timer`` option).
Otherwise: pass when a pass is listed (a claim window); draw from the wall when a draw is
listed; then discard the tile just drawn; and where none of these fits, the game's greedy (or
random) bot picks.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from meldhall.bots.base import bots_of, make_bot
from meldhall.core.engine import Action, Event, State

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
"""Action types (``to_json()["type"]``) a timed-out seat plays first when the engine lists one."""
DRAW_LIKE = frozenset({"draw", "draw_stock"})
"""Action and event kinds of drawing from the wall (or stock), never from the discards."""


def table_settings(
    raw: Mapping[str, Any] | None, floors: Mapping[str, float] | None = None
) -> dict[str, float]:
    """Return complete table options from a client's partial ones; raise ``ValueError`` naming
    an unknown option or a value out of range (``floors``: a higher least value for some
    options, so that idle seats cannot make the server play itself in a loop)."""
    out = dict(DEFAULTS)
    for key, value in (raw or {}).items():
        if key not in DEFAULTS:
            raise ValueError(f"unknown table option {key!r}; known: {', '.join(DEFAULTS)}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"table option {key!r} must be a number of seconds")
        least = max(LIMITS[0], (floors or {}).get(key, LIMITS[0]))
        if not least <= value <= LIMITS[1]:
            raise ValueError(f"table option {key!r} must be between {least:g} and {LIMITS[1]:g}")
        out[key] = float(value)
    return out


def drawn_piece(events: Iterable[Event], seat: int) -> str | None:
    """Return the token of the tile (or card) ``seat`` drew among ``events`` (their private
    part), or None when it drew none."""
    for event in events:
        if event.kind in DRAW_LIKE and event.seat == seat and event.private:
            piece = event.private.get("tile", event.private.get("card"))
            if isinstance(piece, str):
                return piece
    return None


def default_action(
    game_id: str, state: State, seat: int, rng: random.Random, drawn: str | None = None
) -> Action:
    """Return the action a seat whose clock ran out plays (see the module docstring);
    ``drawn`` is the token of the tile it has just drawn, if any."""
    expiry = getattr(state, "expiry_action", None)
    decided: Action | None = expiry(seat) if callable(expiry) else None
    if decided is not None:
        return decided
    legal = state.legal_actions(seat)
    kinds = [_json_of(a) for a in legal]
    for wanted in (PASS_LIKE, DRAW_LIKE):
        for action, data in zip(legal, kinds, strict=True):
            if data.get("type") in wanted:
                return action
    if drawn is not None:
        for action, data in zip(legal, kinds, strict=True):
            if data.get("type") == "discard" and drawn in (data.get("tile"), data.get("card")):
                return action
    name = "greedy" if "greedy" in bots_of(game_id) else "random"
    bot = make_bot(game_id, name)
    observation = state.observation(seat) if bot.needs_observation else {}
    return bot.choose(observation, legal, rng)


def _json_of(action: Action) -> dict[str, Any]:
    data = action.to_json()
    return data if isinstance(data, dict) else {}


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

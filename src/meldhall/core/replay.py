"""Rebuilding a match from its log: persistence, crash recovery and the fairness proof."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from meldhall.core.engine import JSON, Action, Game, Seat, State
from meldhall.core.errors import IllegalAction, ParseError

LogEntry = tuple[Seat, Action]


def replay(game: Game, options: Any, seats: int, seed: bytes, actions: Iterable[LogEntry]) -> State:
    """Return the state reached by applying ``actions`` to a new match dealt from ``seed``.

    Raises ``IllegalAction`` (with the index of the offending entry in its message) when an
    entry does not apply.
    """
    state = game.new_state(options, seats, seed)
    for index, (seat, action) in enumerate(actions):
        try:
            state.apply(seat, action)
        except IllegalAction as exc:
            where = f"log entry {index} ({seat}, {action})"
            raise IllegalAction(exc.code, f"{where}: {exc.reason}") from exc
    return state


def log_to_json(actions: Iterable[LogEntry]) -> list[JSON]:
    """Return the JSON form of a log: a list of ``[seat, action JSON]``."""
    return [[seat, action.to_json()] for seat, action in actions]


def log_from_json(game: Game, data: JSON) -> list[LogEntry]:
    """Return the log from its JSON form, or raise ``ParseError`` naming the bad entry."""
    if not isinstance(data, list):
        raise ParseError("an action log must be a JSON list")
    out: list[LogEntry] = []
    for index, entry in enumerate(data):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)):
            raise ParseError(f"log entry {index} is not [seat, action]: {entry!r}")
        out.append((entry[0], game.action_from_json(entry[1])))
    return out


def options_json(options: Any) -> Mapping[str, JSON]:
    """Return a frozen options dataclass as a mapping of its field names to values."""
    return {name: getattr(options, name) for name in options.__dataclass_fields__}

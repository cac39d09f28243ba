"""Shared shapes of the games' actions: a bare action (no argument) and a one-tile action.

A game declares only what differs: the text form and the JSON ``"type"``, and for a one-tile
action the game's token table. Subclasses are frozen slotted dataclasses too, so they stay
immutable values: equal when of the same class with equal fields, hashable, and one class per
action for ``isinstance``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Draw(BareAction):
...     '''Draw a tile.'''
...     text = "draw"
...     json_type = "draw_stock"
>>> @dataclass(frozen=True, slots=True)
... class Pass(BareAction):
...     '''Let the discard go.'''
...     text = json_type = "pass"
>>> @dataclass(frozen=True, slots=True)
... class Discard(TileAction):
...     '''Discard one tile.'''
...     verb = json_type = "discard"
...     tokens = ("R1a", "R1b")
>>> str(Draw()), Draw().to_json(), Draw(), Draw() == Draw(), Draw() == Pass()
('draw', {'type': 'draw_stock'}, Draw(), True, False)
>>> str(Discard(1)), Discard(1).to_json(), Discard(1) == Discard(1), Discard(0)
('discard R1b', {'type': 'discard', 'tile': 'R1b'}, True, Discard(tile=0))
>>> by_text([Draw(), Pass()]), by_json_type([Draw(), Pass()])
({'draw': Draw(), 'pass': Pass()}, {'draw_stock': Draw(), 'pass': Pass()})
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import UnionType
from typing import ClassVar, TypeVar

from meldhall.core.engine import JSON, Action
from meldhall.core.errors import MALFORMED_ACTION, UNKNOWN_ACTION, IllegalAction

A = TypeVar("A", bound=Action)


@dataclass(frozen=True, slots=True)
class BareAction:
    """An action without argument; a subclass sets ``text`` (its text form) and ``json_type``
    (the ``"type"`` of its JSON form)."""

    text: ClassVar[str]
    json_type: ClassVar[str]

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> JSON:
        """Return ``{"type": json_type}``."""
        return {"type": self.json_type}


@dataclass(frozen=True, slots=True)
class TileAction:
    """An action on one physical tile id ``tile``; a subclass sets ``verb`` (the text form is
    ``verb token``), ``json_type`` and ``tokens`` (the game's token of every tile id)."""

    tile: int
    verb: ClassVar[str]
    json_type: ClassVar[str]
    tokens: ClassVar[Sequence[str]]

    def __str__(self) -> str:
        return f"{self.verb} {self.tokens[self.tile]}"

    def to_json(self) -> JSON:
        """Return ``{"type": json_type, "tile": token}``."""
        return {"type": self.json_type, "tile": self.tokens[self.tile]}


def by_text(actions: Iterable[A]) -> dict[str, A]:
    """Return the actions keyed by their text form (for ``parse_action``)."""
    return {str(a): a for a in actions}


def by_json_type(actions: Iterable[A]) -> dict[str, A]:
    """Return the actions keyed by the ``"type"`` of their JSON form (for
    ``action_from_json``)."""
    return {a.to_json()["type"]: a for a in actions}


def refuse_malformed(
    action: object, kinds: type | UnionType | tuple[type, ...], parse: Callable[[str], object]
) -> None:
    """Return None when ``action`` is one of the game's action ``kinds`` whose text form
    reads back as the same action; else raise ``IllegalAction`` with ``UNKNOWN_ACTION`` (not
    an action of the game) or ``MALFORMED_ACTION`` (a field out of range, e.g. a tile id
    past the last tile), never another exception.

    >>> @dataclass(frozen=True, slots=True)
    ... class Discard(TileAction):
    ...     '''Discard one tile.'''
    ...     verb = json_type = "discard"
    ...     tokens = ("R1a", "R1b")
    >>> def parse(text):
    ...     return Discard(Discard.tokens.index(text.split()[1]))
    >>> refuse_malformed(Discard(1), Discard, parse)
    >>> for bad in (Discard(2), Discard(-1), "discard R1a"):
    ...     try:
    ...         refuse_malformed(bad, Discard, parse)
    ...     except IllegalAction as exc:
    ...         print(exc.code)
    MALFORMED_ACTION
    MALFORMED_ACTION
    UNKNOWN_ACTION
    """
    if not isinstance(action, kinds):
        raise IllegalAction(UNKNOWN_ACTION, f"not an action of this game: {action!r}")
    try:
        back = parse(str(action))
    except Exception as exc:  # any failure to write or read it back means a broken field
        raise IllegalAction(MALFORMED_ACTION, f"{action!r}: {exc}") from None
    if back != action:
        raise IllegalAction(MALFORMED_ACTION, f"{action!r} names no piece or place")

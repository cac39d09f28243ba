"""Numeric observations: a game's JSON observation laid out as one flat float32 array.

A layout is a list of fields, each reading one key of the engine's observation (the seat's
own view, so nothing hidden from it can reach the array). Seat-indexed fields are rotated so
that the viewer comes first, then the seats after it in turn order. ``size`` is fixed per
field, so the array length is fixed per game and number of seats.

>>> from meldhall.terminal.pieces import family
>>> enc = Encoder([SeatNumbers("scores", 10.0), Pieces("hand")], Shape(family("okey-cards"), 3))
>>> out = np.zeros(enc.size, dtype=np.float32)
>>> enc.encode({"scores": [5, 20, 0], "hand": ["R2", None]}, 1, out)
>>> out[:3].tolist(), np.flatnonzero(out[3:]).tolist(), enc.size
([2.0, 0.0, 0.5], [1], 27)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from meldhall.core.engine import JSON
from meldhall.terminal.board import lookup
from meldhall.terminal.pieces import Family


@dataclass(frozen=True)
class Shape:
    """What a field's size depends on: the piece family and the number of seats."""

    family: Family
    seats: int


class Field(Protocol):
    """One section of the array: ``size(shape)`` floats filled by ``encode``."""

    @property
    def key(self) -> str:
        """Return the observation key the field reads (dotted for a nested key)."""
        ...

    def size(self, shape: Shape) -> int:
        """Return the number of floats this field takes."""
        ...

    def describe(self) -> str:
        """Return one line saying what the field holds (for docs and ``layout()``)."""
        ...

    def encode(self, obs: dict[str, JSON], viewer: int, shape: Shape, out: Sink) -> None:
        """Write the field through ``out`` (positions counted from the field's start)."""
        ...


class Sink:
    """Collects what the fields write: positions set to 1.0 and positions with a number,
    both offset by ``base`` (the start of the field being written)."""

    __slots__ = ("base", "ones", "positions", "values")

    def __init__(self) -> None:
        self.base = 0
        self.ones: list[int] = []
        self.positions: list[int] = []
        self.values: list[float] = []

    def one(self, at: int) -> None:
        """Set position ``at`` of the current field to 1.0."""
        self.ones.append(self.base + at)

    def number(self, at: int, value: float) -> None:
        """Set position ``at`` of the current field to ``value``."""
        self.positions.append(self.base + at)
        self.values.append(value)

    def numbers(self, values: list[float]) -> None:
        """Set the positions 0, 1, ... of the current field to ``values``."""
        self.positions.extend(range(self.base, self.base + len(values)))
        self.values.extend(values)

    def pieces(self, value: JSON, index: dict[str, int], at: int = 0) -> None:
        """Set ``at + i`` for the index ``i`` of every piece token found under ``value``."""
        kind = type(value)
        if kind is str:
            i = index.get(value)
            if i is not None:
                self.ones.append(self.base + at + i)
        elif kind is list:
            for item in value:
                if type(item) is str:
                    i = index.get(item)
                    if i is not None:
                        self.ones.append(self.base + at + i)
                elif item is not None:
                    self.pieces(item, index, at)
        elif kind is dict:
            for item in value.values():
                self.pieces(item, index, at)


def _rotated(values: Sequence[JSON], viewer: int, seats: int) -> list[JSON]:
    if len(values) != seats:
        raise ValueError(f"a per-seat list of {len(values)} entries at {seats} seats")
    return [*values[viewer:], *values[:viewer]]


@dataclass(frozen=True)
class Pieces:
    """1.0 for every piece of the family found anywhere under ``key``."""

    key: str

    def size(self, shape: Shape) -> int:
        return len(shape.family.tokens)

    def describe(self) -> str:
        return f"{self.key}: one flag per piece"

    def encode(self, obs: dict[str, JSON], viewer: int, shape: Shape, out: Sink) -> None:
        out.pieces(lookup(obs, self.key), shape.family.index)


@dataclass(frozen=True)
class SeatPieces:
    """Per seat (viewer first), 1.0 for every piece under that seat's entry of ``key``."""

    key: str

    def size(self, shape: Shape) -> int:
        return shape.seats * len(shape.family.tokens)

    def describe(self) -> str:
        return f"{self.key}: per seat, one flag per piece"

    def encode(self, obs: dict[str, JSON], viewer: int, shape: Shape, out: Sink) -> None:
        per_seat = lookup(obs, self.key) or [None] * shape.seats
        n = len(shape.family.tokens)
        for k, entry in enumerate(_rotated(per_seat, viewer, shape.seats)):
            out.pieces(entry, shape.family.index, k * n)


@dataclass(frozen=True)
class OwnedPieces:
    """Per owner seat (viewer first), 1.0 for every piece of the melds under ``key`` whose
    ``"owner"`` is that seat."""

    key: str

    def size(self, shape: Shape) -> int:
        return shape.seats * len(shape.family.tokens)

    def describe(self) -> str:
        return f"{self.key}: melds per owner seat, one flag per piece"

    def encode(self, obs: dict[str, JSON], viewer: int, shape: Shape, out: Sink) -> None:
        n = len(shape.family.tokens)
        for meld in lookup(obs, self.key) or []:
            k = (int(meld.get("owner", viewer)) - viewer) % shape.seats
            out.pieces(meld, shape.family.index, k * n)


@dataclass(frozen=True)
class Number:
    """The number at ``key`` divided by ``scale`` (0 when absent)."""

    key: str
    scale: float

    def size(self, shape: Shape) -> int:
        return 1

    def describe(self) -> str:
        return f"{self.key}: number / {self.scale:g}"

    def encode(self, obs: dict[str, JSON], viewer: int, shape: Shape, out: Sink) -> None:
        out.number(0, float(lookup(obs, self.key) or 0) / self.scale)


@dataclass(frozen=True)
class SeatNumbers:
    """Per seat (viewer first), the number at ``key`` divided by ``scale`` (True is 1)."""

    key: str
    scale: float = 1.0

    def size(self, shape: Shape) -> int:
        return shape.seats

    def describe(self) -> str:
        return f"{self.key}: per seat, number / {self.scale:g}"

    def encode(self, obs: dict[str, JSON], viewer: int, shape: Shape, out: Sink) -> None:
        values = lookup(obs, self.key) or [0] * shape.seats
        scale = self.scale
        out.numbers([float(v or 0) / scale for v in _rotated(values, viewer, shape.seats)])


@dataclass(frozen=True)
class SeatSet:
    """Per seat (viewer first), 1.0 when the seat is in the list at ``key``."""

    key: str

    def size(self, shape: Shape) -> int:
        return shape.seats

    def describe(self) -> str:
        return f"{self.key}: per seat, 1 when listed"

    def encode(self, obs: dict[str, JSON], viewer: int, shape: Shape, out: Sink) -> None:
        for seat in lookup(obs, self.key) or []:
            out.one((int(seat) - viewer) % shape.seats)


@dataclass(frozen=True)
class Choice:
    """One flag per word in ``words``: 1.0 for the value at ``key`` (all 0 for another)."""

    key: str
    words: tuple[str, ...]

    def size(self, shape: Shape) -> int:
        return len(self.words)

    def describe(self) -> str:
        return f"{self.key}: one flag among {', '.join(self.words)}"

    def encode(self, obs: dict[str, JSON], viewer: int, shape: Shape, out: Sink) -> None:
        value = lookup(obs, self.key)
        if value in self.words:
            out.one(self.words.index(value))


@dataclass(frozen=True)
class SeatChoice:
    """Per seat (viewer first), one flag per word for that seat's value at ``key``."""

    key: str
    words: tuple[str, ...]

    def size(self, shape: Shape) -> int:
        return shape.seats * len(self.words)

    def describe(self) -> str:
        return f"{self.key}: per seat, one flag among {', '.join(self.words)}"

    def encode(self, obs: dict[str, JSON], viewer: int, shape: Shape, out: Sink) -> None:
        values = lookup(obs, self.key) or [None] * shape.seats
        for k, v in enumerate(_rotated(values, viewer, shape.seats)):
            if v in self.words:
                out.one(k * len(self.words) + self.words.index(v))


class Encoder:
    """A layout bound to a family and a seat count: ``encode(obs, viewer)`` returns the
    array, ``slices`` where each field lies in it."""

    def __init__(self, fields: Sequence[Field], shape: Shape):
        self.fields = tuple(fields)
        self.shape = shape
        self.slices: list[tuple[Field, slice]] = []
        at = 0
        for f in self.fields:
            n = f.size(shape)
            self.slices.append((f, slice(at, at + n)))
            at += n
        self.size = at

    def encode(self, obs: dict[str, JSON], viewer: int, out: np.ndarray) -> None:
        """Write the observation of ``viewer`` into ``out`` (``size`` zeros on entry)."""
        sink = Sink()
        for f, where in self.slices:
            sink.base = where.start
            f.encode(obs, viewer, self.shape, sink)
        out[sink.ones] = 1.0
        out[sink.positions] = sink.values

    def layout(self) -> list[str]:
        """Return one line per field: its offset, length and meaning."""
        return [f"[{w.start}:{w.stop}] {f.describe()}" for f, w in self.slices]

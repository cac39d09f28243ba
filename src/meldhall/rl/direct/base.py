"""What every direct encoder shares: the layout's field offsets and scales, and the family
position of every engine piece id.

A direct encoder writes the same array as ``observe.Encoder`` does from the JSON
observation, but reads the engine state of the viewing seat straight away (no JSON built,
none walked). It reads only what that seat's JSON observation would show: every game module
mirrors its game's ``observation`` function key by key, and tests/rl/test_direct.py checks
the arrays equal over seeded random play of every game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from meldhall.core.engine import Event, State
from meldhall.core.errors import EngineBug
from meldhall.rl.observe import Choice, Encoder, Number, SeatChoice, SeatNumbers

NO_TOKENS: tuple[int, ...] = ()
"""The tokens spelled by a seat that is not deciding."""


class DirectEncoder:
    """A game's layout bound to its engine: ``encode(state, viewer, out)`` fills the array.

    ``at[key]`` is where the field reading ``key`` starts, ``scale[key]`` the divisor of a
    number field, ``word[key]`` the flag position of every word of a choice field, ``ix``
    the family position of every engine piece id (-1: a piece the family has no token for,
    which the JSON-based layout skips too), ``n`` the family size, ``seats`` the seat count,
    ``rot[viewer][seat]`` the place of ``seat`` in per-seat fields seen from ``viewer``,
    ``number_at[viewer]`` the positions of the values ``fill`` returns.

    A subclass names its number fields in ``NUMBERS`` (in the order its ``fill`` returns
    their values, a per-seat field as one value per seat in seat order) and fills the rest.
    """

    NUMBERS: tuple[str, ...] = ()

    def __init__(self, encoder: Encoder, engine_tokens: Sequence[str]):
        self.seats = seats = encoder.shape.seats
        self.n = len(encoder.shape.family.tokens)
        self.size = encoder.size
        self.at: dict[str, int] = {}
        self.scale: dict[str, float] = {}
        self.word: dict[str, dict[str, int]] = {}
        per_seat: dict[str, bool] = {}
        for f, where in encoder.slices:
            self.at[f.key] = where.start
            if isinstance(f, Number | SeatNumbers):
                self.scale[f.key] = f.scale
                per_seat[f.key] = isinstance(f, SeatNumbers)
            if isinstance(f, Choice | SeatChoice):
                self.word[f.key] = {w: i for i, w in enumerate(f.words)}
        self.rot: tuple[tuple[int, ...], ...] = tuple(
            tuple((s - v) % seats for s in range(seats)) for v in range(seats)
        )
        missing = [k for k in self.NUMBERS if k not in per_seat]
        if missing:
            raise EngineBug(f"{type(self).__name__}: no number field {missing} in the layout")
        self.number_at: tuple[np.ndarray, ...] = tuple(
            np.array(
                [
                    self.at[k] + r
                    for k in self.NUMBERS
                    for r in (self.rot[v] if per_seat[k] else (0,))
                ],
                dtype=np.intp,
            )
            for v in range(seats)
        )
        index = encoder.shape.family.index
        self.ix: tuple[int, ...] = tuple(index.get(t, -1) for t in engine_tokens)
        self.whole = -1 not in self.ix
        """True when every engine id has a family position (the fast path of ``flags``)."""
        self.same = self.ix == tuple(range(len(self.ix)))
        """True when every engine id is its own family position (the fastest path)."""

    def encode(self, state: State, viewer: int, out: np.ndarray) -> None:
        """Write the layout of ``viewer`` into ``out`` (``size`` zeros on entry)."""
        ones: list[int] = []
        values = self.fill(state, viewer, ones)
        out.put(ones, 1.0)
        out[self.number_at[viewer]] = values

    def array(
        self,
        state: State,
        viewer: int,
        blank: np.ndarray,
        spelled: tuple[int, ...] = NO_TOKENS,
        fresh: bool = True,
    ) -> np.ndarray:
        """Return a fresh copy of ``blank`` (zeros, longer than ``size`` by the vocabulary)
        with the layout of ``viewer`` written in its first ``size`` floats and, after them,
        how often each token stands in ``spelled`` (the decision spelled so far). A game may
        keep the arrays up to date between reads instead (``board.Board``) and, when not
        ``fresh``, return a read-only view of the kept array (valid until the state next
        changes); this one fills afresh either way (read-only when not ``fresh``, alike)."""
        out = blank.copy()  # cheaper than np.zeros
        ones: list[int] = []
        values = self.fill(state, viewer, ones)
        out.put(ones, 1.0)
        out[self.number_at[viewer]] = values
        if spelled:
            view = out.data.cast("B").cast("f")
            base = self.size
            for token in spelled:
                view[base + token] += 1.0
        if not fresh:
            out.flags.writeable = False
        return out

    def applied(self, state: State, events: tuple[Event, ...]) -> None:
        """Note that ``state`` changed with ``events`` (a game that keeps boards narrows
        what its next reads compare); return None. This one keeps nothing."""

    def fill(self, state: State, viewer: int, ones: list[int]) -> list[float]:
        """Append the positions set to 1.0 to ``ones``; return the values of ``NUMBERS``
        (each already over its scale). Each game's subclass reads its state here."""
        raise EngineBug(f"{type(self).__name__} does not fill any array")

    def groups(self, ones: list[int], groups: list[tuple[int, Iterable[int]]]) -> None:
        """Append ``base`` + the family position of every piece id, for every ``(base,
        pieces)`` of ``groups`` (one pass: cheaper than one ``flags`` call per group)."""
        ix = self.ix
        if self.same:
            ones += [base + p for base, pieces in groups for p in pieces]
        elif self.whole:
            ones += [base + ix[p] for base, pieces in groups for p in pieces]
        else:
            ones += [base + ix[p] for base, pieces in groups for p in pieces if ix[p] >= 0]

    def scores(self, state: State) -> list[float]:
        """Return the scores at the game's reward key (``GameSpec.score``) as floats, one
        per seat (one for a one-seat game); each game's subclass reads its state here."""
        raise EngineBug(f"{type(self).__name__} reads no scores")

    def flags(self, ones: list[int], base: int, pieces: Iterable[int]) -> None:
        """Append ``base`` + the family position of every piece id in ``pieces``."""
        ix = self.ix
        if self.same:
            ones += [base + p for p in pieces]
        elif self.whole:
            ones += [base + ix[p] for p in pieces]
        else:
            ones += [base + ix[p] for p in pieces if ix[p] >= 0]

    def seat_set(self, key: str, seats: Iterable[int], viewer: int) -> list[int]:
        """Return the flag positions of a per-seat set field (viewer first)."""
        at = self.at[key]
        rot = self.rot[viewer]
        return [at + rot[s] for s in seats]

    def choice(self, ones: list[int], key: str, value: str | None) -> None:
        """Append the flag of ``value`` in a choice field (nothing for another value)."""
        i = self.word[key].get(value) if value is not None else None
        if i is not None:
            ones.append(self.at[key] + i)

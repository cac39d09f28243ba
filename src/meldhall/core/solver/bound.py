"""Dual prices of the most-tiles question's LP relaxation: an upper bound for every state.

The question "most tiles placed, table tiles all placed" is an integer programme over the melds
a hand holds: ``x_m`` copies of meld m, each face used at most its count and at least its
table copies, the jokers likewise. Any prices ``w`` (one per face and one for the jokers) with
``sum of w over a meld's tiles >= the meld's tile count`` for every held meld bound the tiles
placed from any hand below the starting one by weak LP duality::

    placed <= sum_f g_f(c_f) + g_J(j),  g(c) = w * c (w >= 0), w * max(0, c - rack copies) (w < 0)

Prices from the LP's optimal dual (HiGHS) make that bound as tight as the LP at the start and
cut, deeper down, every branch whose melds waste more than the slack between the bound and the
target (reduced-cost fixing). Each meld's column is bounded by the most copies of any face,
which leaves the optimum alone and spares the dual simplex its phase 1 (every column boxed); a
meld held at that bound is paid partly by the bound's dual, which ``_lifted`` moves onto its
scarcest face. The prices are rounded to integers over ``SCALE`` and checked
exactly against every meld, so a bound never depends on floating point: when the check fails
the question runs without prices. Prices never change an answer, only how much is searched.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from operator import mul
from typing import TYPE_CHECKING

from meldhall.core.solver.universe import FIELD, Template, Universe, slot_counts

if TYPE_CHECKING:
    import numpy as np
    from highspy._core import _Highs
    from numpy.typing import NDArray

SCALE = 1 << 20
"""Prices are integers: LP prices times SCALE, rounded up."""


@dataclass(frozen=True, slots=True)
class Prices:
    """Integer dual prices (times ``SCALE``): one per slot, and the jokers'."""

    slots: tuple[int, ...]
    joker: int

    def total(self, hand: int, free: Sequence[int], free_jokers: int, joker_shift: int) -> int:
        """Return the bound of ``hand`` times ``SCALE`` (sum of g over its faces and jokers)."""
        counts = slot_counts(hand, len(self.slots))
        out: int = sum(map(mul, self.slots, counts))
        if min(self.slots) < 0:  # below zero only the copies beyond the rack's count
            for k, w in enumerate(self.slots):
                if w < 0:
                    c = counts[k]
                    out += w * (max(0, c - free[k]) - c)
        j = hand >> joker_shift
        w = self.joker
        return out + w * (j if w > 0 else max(0, j - free_jokers))


def lp_prices(
    universe: Universe,
    groups: Sequence[tuple[Template, ...]],
    hand: int,
    free: Sequence[int],
    free_jokers: int,
) -> tuple[Prices, list[int]] | None:
    """Return checked integer dual prices for ``hand`` whose held melds are ``groups`` (one
    tuple per lowest slot) and each meld's price in that order (times SCALE, at least its
    tiles times SCALE), or None when the LP has no optimum (the table cannot be placed) or
    the rounded prices fail the check."""
    import highspy
    import numpy as np

    kinds = universe.kinds
    matrix = _matrix(universe)
    held: list[int] = []
    for group in groups:
        if group:
            held += _ids(group, matrix)
    if not held:
        return None
    cols = np.array(held, dtype=np.intp)
    length = matrix.length[cols]
    n = len(cols)
    starts = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(length, out=starts[1:])
    # the held columns' entries, gathered from the universe's: each column's run of entries
    at = np.repeat(matrix.first[cols] - starts[:-1], length) + np.arange(starts[-1])
    rows = matrix.rows[at]
    values = matrix.values[at]
    size = matrix.size[cols]
    counts = slot_counts(hand, kinds)[:kinds]
    jokers = hand >> universe.joker_shift
    lower = [c - f if c > f else 0 for c, f in zip(counts, free, strict=True)]
    lower.append(jokers - free_jokers if jokers > free_jokers else 0)
    counts.append(jokers)
    upper = np.frombuffer(counts, dtype=np.uint8).astype(np.float64)
    solver = _highs()
    solver.passModel(
        n,
        kinds + 1,
        len(rows),
        _COLWISE,
        _MAXIMIZE,
        0.0,
        size.astype(np.float64),
        np.zeros(n),
        # no meld fits more often than the most copies of a face: every column is boxed, so
        # the slack basis is dual feasible and the dual simplex skips its phase 1
        np.full(n, float(max(counts))),
        np.array(lower, dtype=np.float64),
        upper,
        starts[:-1],
        rows,
        values.astype(np.float64),
        np.zeros(n, dtype=np.int32),  # every column continuous
    )
    if solver.run() == highspy.HighsStatus.kError and _many_threads(solver):
        solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    duals = np.array(solver.getSolution().row_dual, dtype=np.float64)
    present = upper > 0
    need = size * SCALE
    short: tuple[int, NDArray[np.int64], NDArray[np.int64]] | None = None
    for sign in (1.0, -1.0):  # HiGHS's sign of a maximum's duals, checked rather than assumed
        prices = np.where(present, np.ceil(sign * duals * SCALE - 1e-3), 0).astype(np.int64)
        paid = np.add.reduceat(prices[rows] * values, starts[:-1])  # exact, in integers
        missing = int((paid < need).sum())
        if not missing:
            return _checked(prices, paid, kinds)
        if short is None or missing < short[0]:
            short = (missing, prices, paid)
    assert short is not None
    _, prices, paid = short
    prices = _lifted(prices, need - paid, rows, values, upper[rows] / values, starts)
    paid = np.add.reduceat(prices[rows] * values, starts[:-1])
    return _checked(prices, paid, kinds) if bool((paid >= need).all()) else None


def _lifted(
    prices: NDArray[np.int64],
    short: NDArray[np.int64],
    rows: NDArray[np.int32],
    values: NDArray[np.int64],
    reach: NDArray[np.float64],
    starts: NDArray[np.int32],
) -> NDArray[np.int64]:
    """Return ``prices`` raised so that every meld ``short`` (times SCALE) of its tiles is
    paid (``reach``: each entry's copies over its coefficient). A meld at its column bound
    (rare: the bound is the most copies of any face, reached only by a meld whose scarcest face
    has that many) is paid partly by the bound's dual; the rest moves onto that face, whose
    copies times the raise are at most the bound's dual times the bound: the LP's optimum
    already counts it, so the bound stays as tight."""
    import numpy as np

    lift = np.zeros_like(prices)
    for j in np.flatnonzero(short > 0).tolist():
        at = int(starts[j]) + int(reach[starts[j] : starts[j + 1]].argmin())
        face, per = int(rows[at]), int(values[at])
        lift[face] = max(int(lift[face]), -(-int(short[j]) // per))
    return prices + lift


def _checked(
    prices: NDArray[np.int64], paid: NDArray[np.int64], kinds: int
) -> tuple[Prices, list[int]]:
    """Return the checked prices and each meld's price as ``lp_prices`` answers them."""
    listed = prices.tolist()
    return Prices(tuple(listed[:kinds]), listed[kinds]), paid.tolist()


_COLWISE = 1
"""HiGHS's ``MatrixFormat.kColwise``."""
_MAXIMIZE = -1
"""HiGHS's ``ObjSense.kMaximize``."""


@dataclass(frozen=True, slots=True)
class _Matrix:
    """Every meld of a universe (by lowest slot, in order) as an LP column: its entries (row,
    coefficient; the joker row is ``kinds``) one after another, and its tiles."""

    universe: Universe
    first: NDArray[np.intp]
    """Each column's first entry."""
    length: NDArray[np.int32]
    """Each column's entries."""
    rows: NDArray[np.int32]
    values: NDArray[np.int64]
    size: NDArray[np.int64]
    """Each column's tiles."""
    column: dict[int, int]
    """A meld's column by its mask."""


_MATRICES: dict[int, _Matrix] = {}
_MATRICES_MAX = 64
_IDS: dict[int, tuple[tuple[Template, ...], tuple[int, ...]]] = {}
_IDS_MAX = 1 << 14


def _matrix(universe: Universe) -> _Matrix:
    """Return the LP columns of every meld of ``universe`` (cached on its identity: compiled
    universes are cached too)."""
    got = _MATRICES.get(id(universe))
    if got is not None and got.universe is universe:
        return got
    import numpy as np

    rows: list[int] = []
    values: list[int] = []
    length: list[int] = []
    size: list[int] = []
    column: dict[int, int] = {}
    for group in universe.by_low:
        for t in group:
            column[t.mask] = len(column)
            before = len(rows)
            rest = t.mask & universe.natural_mask
            while rest:
                k = ((rest & -rest).bit_length() - 1) // FIELD
                rows.append(k)
                values.append((rest >> (FIELD * k)) & 15)
                rest &= ~(15 << (FIELD * k))
            if t.jokers:
                rows.append(universe.kinds)
                values.append(t.jokers)
            length.append(len(rows) - before)
            size.append(t.naturals + t.jokers)
    lengths = np.array(length, dtype=np.int32)
    first = np.zeros(len(length), dtype=np.intp)
    np.cumsum(lengths[:-1], out=first[1:])
    if len(_MATRICES) >= _MATRICES_MAX:
        _MATRICES.clear()
    got = _MATRICES[id(universe)] = _Matrix(
        universe,
        first,
        lengths,
        np.array(rows, dtype=np.int32),
        np.array(values, dtype=np.int64),
        np.array(size, dtype=np.int64),
        column,
    )
    return got


def _ids(group: tuple[Template, ...], matrix: _Matrix) -> tuple[int, ...]:
    """Return the columns of ``group``'s melds in ``matrix`` (cached on the group's identity:
    the search caches the groups a slot's window holds)."""
    got = _IDS.get(id(group))
    if got is not None and got[0] is group:
        return got[1]
    column = matrix.column
    ids = tuple(column[t.mask] for t in group)
    if len(_IDS) >= _IDS_MAX:
        _IDS.clear()
    _IDS[id(group)] = (group, ids)
    return ids


_SOLVER = threading.local()
"""One HiGHS instance per thread (an instance solves one LP at a time)."""


def _highs() -> _Highs:
    """Return this thread's HiGHS instance, quiet and without presolve (tiny LPs). It is the
    bare solver class: ``highspy.Highs`` prints a banner on stdout when made and runs Python
    callbacks on every solve."""
    solver: _Highs | None = getattr(_SOLVER, "solver", None)
    if solver is None:
        from highspy import _core

        solver = _core._Highs()
        solver.setOptionValue("output_flag", False)
        solver.setOptionValue("presolve", "off")
        solver.setOptionValue("threads", 1)
        _SOLVER.solver = solver
    return solver


def _many_threads(solver: _Highs) -> bool:
    """Return True when ``solver`` ran on one thread and now runs on HiGHS's shared
    scheduler: another HiGHS in this process (rummikub-solver's, say) started it with more
    threads first, and then a one-thread run fails."""
    if not getattr(_SOLVER, "single", True):
        return False
    _SOLVER.single = False
    solver.setOptionValue("threads", 0)
    return True


__all__ = ["SCALE", "Prices", "lp_prices"]

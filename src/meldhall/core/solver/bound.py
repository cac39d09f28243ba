"""Dual prices of the most-tiles question's LP relaxation: an upper bound for every state.

The question "most tiles placed, table tiles all placed" is an integer programme over the melds
a hand holds: ``x_m`` copies of meld m, each face used at most its count and at least its
table copies, the jokers likewise. Any prices ``w`` (one per face and one for the jokers) with
``sum of w over a meld's tiles >= the meld's tile count`` for every held meld bound the tiles
placed from any hand below the starting one by weak LP duality::

    placed <= sum_f g_f(c_f) + g_J(j),  g(c) = w * c (w >= 0), w * max(0, c - rack copies) (w < 0)

Prices from the LP's optimal dual (HiGHS) make that bound as tight as the LP at the start and
cut, deeper down, every branch whose melds waste more than the slack between the bound and the
target (reduced-cost fixing). The prices are rounded to integers over ``SCALE`` and checked
exactly against every meld, so a bound never depends on floating point: when the check fails
the question runs without prices. Prices never change an answer, only how much is searched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from meldhall.core.solver.universe import FIELD, Template, Universe

if TYPE_CHECKING:
    from highspy import Highs

SCALE = 1 << 20
"""Prices are integers: LP prices times SCALE, rounded up."""


@dataclass(frozen=True, slots=True)
class Prices:
    """Integer dual prices (times ``SCALE``): one per slot, and the jokers'."""

    slots: tuple[int, ...]
    joker: int

    def total(self, hand: int, free: Sequence[int], free_jokers: int, joker_shift: int) -> int:
        """Return the bound of ``hand`` times ``SCALE`` (sum of g over its faces and jokers)."""
        out = 0
        for k, w in enumerate(self.slots):
            if w:
                c = (hand >> (FIELD * k)) & 15
                out += w * (c if w > 0 else max(0, c - free[k]))
        j = hand >> joker_shift
        w = self.joker
        return out + w * (j if w > 0 else max(0, j - free_jokers))


def lp_prices(
    universe: Universe,
    melds: Sequence[Template],
    hand: int,
    free: Sequence[int],
    free_jokers: int,
) -> tuple[Prices, list[int]] | None:
    """Return checked integer dual prices for ``hand`` with ``melds`` (every meld it holds) and
    each meld's price (times SCALE, at least its tiles times SCALE), or None when the LP has no
    optimum (the table cannot be placed) or the rounded prices fail the check."""
    import highspy
    import numpy as np

    kinds = universe.kinds
    natural_mask = universe.natural_mask
    starts = [0]
    index: list[int] = []
    value: list[int] = []
    for t in melds:
        slots, copies = _column(t.mask & natural_mask)
        index += slots
        value += copies
        if t.jokers:
            index.append(kinds)
            value.append(t.jokers)
        starts.append(len(index))
    counts = [(hand >> (FIELD * k)) & 15 for k in range(kinds)]
    jokers = hand >> universe.joker_shift
    n = len(melds)
    tiles = np.array([t.naturals + t.jokers for t in melds], dtype=np.int64)
    lp = highspy.HighsLp()
    lp.num_col_ = n
    lp.num_row_ = kinds + 1
    lp.col_cost_ = tiles.astype(float)
    lp.col_lower_ = np.zeros(n)
    lp.col_upper_ = np.full(n, highspy.kHighsInf)
    lower = [max(0, c - f) for c, f in zip(counts, free, strict=True)]
    lp.row_lower_ = np.array([*lower, max(0, jokers - free_jokers)], dtype=float)
    lp.row_upper_ = np.array([*counts, jokers], dtype=float)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
    rows = np.array(index, dtype=np.int32)
    lp.a_matrix_.index_ = rows
    lp.a_matrix_.value_ = np.array(value, dtype=float)
    lp.sense_ = highspy.ObjSense.kMaximize
    solver = _highs()
    solver.passModel(lp)
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    duals = np.asarray(solver.getSolution().row_dual, dtype=np.float64)
    present = np.array([*counts, jokers], dtype=bool)
    # the exact check: the meld × face matrix times the integer prices
    matrix = np.zeros((kinds + 1, n), dtype=np.int64)
    matrix[rows, np.repeat(np.arange(n), np.diff(starts))] = value
    need = tiles * SCALE
    for sign in (1.0, -1.0):  # HiGHS's sign of a maximum's duals, checked rather than assumed
        prices = np.where(present, np.ceil(sign * duals * SCALE - 1e-3), 0).astype(np.int64)
        paid = prices @ matrix
        if bool((paid >= need).all()):
            listed = [int(x) for x in prices]
            return Prices(tuple(listed[:kinds]), listed[kinds]), [int(x) for x in paid]
    return None


_COLUMNS: dict[int, tuple[list[int], list[int]]] = {}
_COLUMNS_MAX = 1 << 16


def _column(naturals: int) -> tuple[list[int], list[int]]:
    """Return the slots of a meld's natural tiles and the copies of each (cached)."""
    got = _COLUMNS.get(naturals)
    if got is not None:
        return got
    slots, copies = [], []
    rest = naturals
    while rest:
        k = ((rest & -rest).bit_length() - 1) // FIELD
        slots.append(k)
        copies.append((rest >> (FIELD * k)) & 15)
        rest &= ~(15 << (FIELD * k))
    if len(_COLUMNS) >= _COLUMNS_MAX:
        _COLUMNS.clear()
    got = _COLUMNS[naturals] = (slots, copies)
    return got


_SOLVER: list[Highs] = []


def _highs() -> Highs:
    """Return the process's HiGHS instance, quiet and without presolve (tiny LPs)."""
    import highspy

    if not _SOLVER:
        solver = highspy.Highs()  # type: ignore[no-untyped-call]
        solver.setOptionValue("output_flag", False)
        solver.setOptionValue("presolve", "off")
        _SOLVER.append(solver)
    return _SOLVER[0]


__all__ = ["SCALE", "Prices", "lp_prices"]

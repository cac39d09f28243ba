"""Alternating timed batches and the figures every bench prints (BENCHMARKS.md)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial


@dataclass(frozen=True)
class Batches:
    """Per-batch figures of one side: seconds per unit of work in each batch."""

    name: str
    per_unit: tuple[float, ...]

    @property
    def median(self) -> float:
        """Return the median seconds per unit over the batches."""
        return statistics.median(self.per_unit)


def timed(work: Callable[[], int]) -> float:
    """Return seconds per unit: ``work`` runs once and returns how many units it did."""
    start = time.perf_counter()
    units = work()
    return (time.perf_counter() - start) / max(units, 1)


def alternate(sides: dict[str, Callable[[int], int]], batches: int) -> dict[str, Batches]:
    """Return per-side figures from batches run A B A B ...; each side's callable receives
    the batch index and returns the units of work it did."""
    results: dict[str, list[float]] = {name: [] for name in sides}
    for i in range(batches):
        for name, run in sides.items():
            results[name].append(timed(partial(run, i)))
    return {name: Batches(name, tuple(values)) for name, values in results.items()}


def fmt_time(seconds: float) -> str:
    """Return a duration in the unit that reads best (µs, ms or s)."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"

"""The process's measurements of its tables (served as Prometheus text at ``/metrics``):
actions stored, the latency from an action's acceptance to its broadcast, the commit of each
batch, and the computers' decision time. Gauges of what is loaded now (connections, tables)
are read when ``/metrics`` is asked (server/ops.py)."""

from __future__ import annotations

import bisect
import time
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

REGISTRY = CollectorRegistry(auto_describe=True)
"""The registry of these measurements (one per process; the app adds its gauges)."""

_MS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class BatchHistogram(Collector):
    """A histogram fed many observations at once, kept in plain numbers: the event loop is
    its one writer (a ``prometheus_client.Histogram`` takes two locks and walks its buckets
    in Python for each observation, about 3 µs). Its text at ``/metrics`` is a
    ``Histogram``'s."""

    def __init__(
        self, name: str, documentation: str, buckets: tuple[float, ...], registry: CollectorRegistry
    ) -> None:
        self.name = name
        self.documentation = documentation
        self._bounds = [*buckets, float("inf")]
        self._les = [floatToGoString(b) for b in self._bounds]  # type: ignore[no-untyped-call]
        self._counts = [0] * len(self._bounds)
        self._sum = 0.0
        self._created = time.time()
        registry.register(self)

    def observe_since(self, now: float, starts: list[float]) -> None:
        """Observe ``now - start`` for each of ``starts``."""
        bounds, counts = self._bounds, self._counts
        total = self._sum
        for start in starts:
            seconds = now - start
            counts[bisect.bisect_left(bounds, seconds)] += 1
            total += seconds
        self._sum = total

    def collect(self) -> Iterator[Metric]:
        """Yield the histogram's samples: cumulative buckets, count, sum, creation time."""
        metric = Metric(self.name, self.documentation, "histogram")
        below = 0
        for le, count in zip(self._les, self._counts, strict=True):
            below += count
            metric.add_sample(f"{self.name}_bucket", {"le": le}, below)
        metric.add_sample(f"{self.name}_count", {}, below)
        metric.add_sample(f"{self.name}_sum", {}, self._sum)
        metric.add_sample(f"{self.name}_created", {}, self._created)
        yield metric

    def describe(self) -> Iterator[Metric]:
        """Yield the histogram's family without samples (the registry checks names)."""
        yield Metric(self.name, self.documentation, "histogram")


ACTIONS = Counter(
    "meldhall_actions", "Actions accepted and stored (rate(): actions a second)", registry=REGISTRY
)
ACTION_SECONDS = BatchHistogram(
    "meldhall_action_seconds",
    "From an action's acceptance to the broadcast of the state it led to",
    _MS,
    REGISTRY,
)
COMMIT_SECONDS = Histogram(
    "meldhall_commit_seconds",
    "Duration of one group commit of the staged actions",
    buckets=_MS,
    registry=REGISTRY,
)
COMMIT_FAILURES = Counter(
    "meldhall_commit_failures",
    "Group commits that failed (their tables went back)",
    registry=REGISTRY,
)
BOT_SECONDS = Histogram(
    "meldhall_bot_decision_seconds",
    "Time a computer took to choose its action",
    buckets=_MS,
    registry=REGISTRY,
)
BOT_FALLBACKS = Counter(
    "meldhall_bot_fallbacks",
    "Computer decisions that overran their budget or failed (the greedy choice played)",
    registry=REGISTRY,
)

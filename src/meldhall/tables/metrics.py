"""The process's measurements of its tables (served as Prometheus text at ``/metrics``):
actions stored, the latency from an action's acceptance to its broadcast, the commit of each
batch, and the computers' decision time. Gauges of what is loaded now (connections, tables)
are read when ``/metrics`` is asked (server/ops.py)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)
"""The registry of these measurements (one per process; the app adds its gauges)."""

_MS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

ACTIONS = Counter(
    "meldhall_actions", "Actions accepted and stored (rate(): actions a second)", registry=REGISTRY
)
ACTION_SECONDS = Histogram(
    "meldhall_action_seconds",
    "From an action's acceptance to the broadcast of the state it led to",
    buckets=_MS,
    registry=REGISTRY,
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

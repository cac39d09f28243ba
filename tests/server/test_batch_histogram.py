"""The histogram of action latencies (tables/metrics.py): fed in batches, it reads at
``/metrics`` as a ``prometheus_client.Histogram`` fed the same values one at a time."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Histogram, generate_latest

from meldhall.tables.metrics import BatchHistogram

BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


def _text(registry: CollectorRegistry) -> list[str]:
    """Return the exposition's lines but the creation time's value."""
    return [
        line.rpartition(" ")[0] if line.startswith("x_seconds_created ") else line
        for line in generate_latest(registry).decode().splitlines()
    ]


def test_batches_read_as_a_histogram_fed_one_value_at_a_time() -> None:
    stock_registry, batch_registry = CollectorRegistry(), CollectorRegistry()
    stock = Histogram("x_seconds", "doc", buckets=BUCKETS, registry=stock_registry)
    batch = BatchHistogram("x_seconds", "doc", BUCKETS, batch_registry)
    values = [0.0005, 0.0004, 0.03, 3.0, 0.1, 0.10001, 2.5, 0.0]
    for value in values:
        stock.observe(value)
    batch.observe_since(0.0, [-v for v in values[:3]])  # a start and now: now - start
    batch.observe_since(0.0, [])
    batch.observe_since(0.0, [-v for v in values[3:]])
    assert _text(batch_registry) == _text(stock_registry)
    assert 'x_seconds_bucket{le="0.0005"} 3.0' in _text(batch_registry)

"""What an operator's tools ask a server process: ``/healthz`` (the process answers),
``/readyz`` (its database and Redis answer too) and ``/metrics`` (Prometheus text: the
process's measurements of tables/metrics.py and gauges of what is loaded now)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import text
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from meldhall.tables.metrics import REGISTRY

log = logging.getLogger(__name__)

READY_TIMEOUT = 2.0
"""Seconds a readiness check waits for the database or Redis."""


class Gauges(Collector):
    """Gauges read at each scrape: open WebSocket connections, loaded tables, lobby tables."""

    def __init__(self, app_state: Any) -> None:
        self.state = app_state

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        """Yield the gauges of the app now."""
        yield GaugeMetricFamily(
            "meldhall_connections", "Open WebSocket connections", value=self.state.connections
        )
        yield GaugeMetricFamily(
            "meldhall_tables", "Tables loaded in this process", value=len(self.state.manager.tables)
        )
        lobby = GaugeMetricFamily(
            "meldhall_lobby_tables", "Online tables of this process's lobby", labels=["status"]
        )
        counts: dict[str, int] = {"waiting": 0, "playing": 0}
        for waiting in self.state.lobby.tables.values():
            counts[waiting.data.status] = counts.get(waiting.data.status, 0) + 1
        for status, count in sorted(counts.items()):
            lobby.add_metric([status], count)
        yield lobby
        node = getattr(self.state, "node", None)
        if node is not None:  # one process of a site (server/cluster/)
            yield GaugeMetricFamily(
                "meldhall_leases", "Table leases this process holds", value=len(node.leases.held)
            )
            yield CounterMetricFamily(
                "meldhall_relayed_out", "Envelopes sent to other processes", value=node.relay.sent
            )
            yield CounterMetricFamily(
                "meldhall_relayed_in", "Envelopes received", value=node.relay.received
            )


def app_registry(app_state: Any) -> CollectorRegistry:
    """Return the registry of one app's gauges."""
    registry = CollectorRegistry(auto_describe=True)
    registry.register(Gauges(app_state))
    return registry


async def healthz(request: Request) -> JSONResponse:
    """Return 200 while the process serves requests."""
    return JSONResponse({"ok": True})


async def readyz(request: Request) -> JSONResponse:
    """Return 200 when the database (and Redis, when set) answer and a site's process has
    joined its site, else 503 naming what did not."""
    state = request.app.state
    checks = ["database"]
    problems: dict[str, str] = {}
    try:  # on the loop: a use of the database commits the staged actions first
        _ping_database(state.store)
    except Exception as exc:  # any failure means not ready; say which
        problems["database"] = f"{type(exc).__name__}: {exc}"
    if state.settings.redis_url:
        checks.append("redis")
        try:
            url = state.settings.redis_url
            await asyncio.wait_for(asyncio.to_thread(_ping_redis, url), READY_TIMEOUT)
        except Exception as exc:
            problems["redis"] = f"{type(exc).__name__}: {exc}"
    node = getattr(state, "node", None)
    if node is not None:  # one process of a site: it has read the lobby and sweeps
        checks.append("site")
        if not node.joined:
            problems["site"] = "the process has not joined its site yet (Redis)"
    for name, problem in problems.items():
        log.warning("readiness: %s does not answer: %s", name, problem)
    body = {"ok": not problems, "checks": {n: problems.get(n, "ok") for n in checks}}
    return JSONResponse(body, status_code=503 if problems else 200)


def _ping_database(store: Any) -> None:
    with store.engine.connect() as conn:
        conn.execute(text("SELECT 1"))


def _ping_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url, socket_timeout=READY_TIMEOUT)
    try:
        client.ping()
    finally:
        client.close()


async def metrics(request: Request) -> Response:
    """Return the process's metrics in Prometheus text format."""
    body = generate_latest(REGISTRY) + generate_latest(request.app.state.metrics)
    return Response(body, media_type=CONTENT_TYPE_LATEST)

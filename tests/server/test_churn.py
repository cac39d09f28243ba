"""Churn: 2,000 short solo sessions (connect, hello, start, one move, leave) through an
in-process ASGI client; afterwards no table stays loaded and memory is back near where it
was after the first few hundred (it grew in a straight line before issue 15)."""

from __future__ import annotations

import asyncio
import gc
import json
import os
from pathlib import Path
from typing import Any

from meldhall.server.app import create_app
from meldhall.server.limits import Limits
from meldhall.tables.table import Table
from tests.server.online_client import run

SESSIONS = 2_000
WARM_UP = 300


def rss_mb() -> float:
    """Return this process's resident memory in MB."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


class AsgiSocket:
    """A WebSocket client speaking ASGI straight to the app, in the test's own event loop
    (no threads, no sockets: thousands of sessions in seconds)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> AsgiSocket:
        scope = {
            "type": "websocket",
            "path": "/ws",
            "raw_path": b"/ws",
            "query_string": b"",
            "headers": [(b"host", b"testserver")],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
            "scheme": "ws",
            "subprotocols": [],
        }
        await self.inbox.put({"type": "websocket.connect"})
        self.task = asyncio.get_running_loop().create_task(
            self.app(scope, self.inbox.get, self.outbox.put)
        )
        assert (await self.outbox.get())["type"] == "websocket.accept"
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.inbox.put({"type": "websocket.disconnect", "code": 1000})
        assert self.task is not None
        await self.task

    async def send(self, message: dict[str, Any]) -> None:
        await self.inbox.put({"type": "websocket.receive", "text": json.dumps(message)})

    async def until(self, kind: str) -> dict[str, Any]:
        """Return the next message of a type."""
        while True:
            sent = await self.outbox.get()
            message: dict[str, Any] = json.loads(sent["text"])
            if message["type"] == kind:
                return message


async def short_session(app: Any) -> None:
    """Play one short solo session of okey-cards: hello, start, one move, leave."""
    async with AsgiSocket(app) as ws:
        await ws.send({"type": "hello"})
        await ws.until("welcome")
        await ws.send({"type": "start", "game": "okey-cards"})
        state = await ws.until("state")
        action = state["legal"][0]["json"]
        await ws.send({"type": "act", "state_id": state["state_id"], "action": action})
        await ws.until("state")


def loaded_tables() -> int:
    """Return how many table objects are alive."""
    gc.collect()
    return sum(isinstance(o, Table) for o in gc.get_objects())


def test_short_solo_sessions_leave_nothing_loaded(tmp_path: Path) -> None:
    limits = Limits(solo_grace_seconds=0.0, sessions_per_minute=10**6)
    app = create_app(tmp_path, bot_delay=0.0, limits=limits)
    manager = app.state.manager

    async def main() -> tuple[float, float]:
        async with app.router.lifespan_context(app):
            for _ in range(WARM_UP):
                await short_session(app)
            baseline = rss_mb()
            for _ in range(SESSIONS - WARM_UP):
                await short_session(app)
            for _ in range(100):
                if not manager.tables:
                    break
                await asyncio.sleep(0.02)
            assert manager.tables == {}
            return baseline, rss_mb()

    baseline, after = run(main())
    assert loaded_tables() == 0
    grown = after - baseline
    assert grown < 25, f"memory grew {grown:.1f} MB over {SESSIONS - WARM_UP} sessions"

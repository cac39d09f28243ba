"""Real WebSocket clients and a real server for the online tests: uvicorn in its own process on
127.0.0.1 (a free port, a fresh data directory), clients from the ``websockets`` package."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random
import signal
import socket
import subprocess
from pathlib import Path
from typing import Any

import websockets

from meldhall.bots.base import make_bot
from meldhall.games.registry import find_game
from meldhall.server.protocol import check_server
from meldhall.tables.table import ONCE_KEYS
from tests.uvicorn_server import start_uvicorn

FAST = {
    "turn_seconds": 600,
    "claim_seconds": 600,
    "takeover_seconds": 600,
    "countdown_seconds": 0.05,
    "hand_pause_seconds": 0.05,
}
"""Table options for tests: no clock runs out and no computer takes a seat over unless a test
wants it (tables left behind by a test stay still)."""


LOOPBACK_LIMITS = {
    "MELDHALL_SESSIONS_PER_MINUTE": "100000",
    "MELDHALL_CONNECTIONS_PER_ADDRESS": "100000",
    "MELDHALL_TABLES_PER_ADDRESS": "100000",
    "MELDHALL_MIN_TURN_SECONDS": "0.2",
    "MELDHALL_MIN_CLAIM_SECONDS": "0.2",
}
"""Every test client comes from 127.0.0.1: the per-address caps would count them all as one
person (tests of the caps and clock minimums set their own)."""


def free_port() -> int:
    """Return a free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """meldhall under uvicorn on 127.0.0.1; it can be killed (SIGKILL) and started again."""

    def __init__(
        self, data_dir: Path, bot_delay: float = 0.0, keep_finished: float | None = None
    ) -> None:
        self.data_dir = data_dir
        self.bot_delay = bot_delay
        self.env = dict(LOOPBACK_LIMITS)
        if keep_finished is not None:
            self.env["MELDHALL_KEEP_FINISHED"] = str(keep_finished)
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}/ws"
        self.http = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = start_uvicorn(self.port, self.data_dir, str(self.bot_delay), self.env)

    def kill(self) -> None:
        """Kill the server at once (SIGKILL): no shutdown code runs."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.proc = None


class Client:
    """One person's (or spectator's) connection; every server message is schema-checked."""

    def __init__(self, url: str, name: str = "") -> None:
        self.url = url
        self.name = name
        self.ws: Any = None
        self.token: str | None = None
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.once_keys: dict[Any, dict[str, Any]] = {}
        """By match: the observation keys sent in the first state only (``ONCE_KEYS``)."""
        self.match: dict[str, Any] | None = None
        self.scores: dict[str, Any] | None = None
        self.players: list[dict[str, Any]] = []
        self.notices: list[dict[str, Any]] = []
        self.over: dict[str, Any] | None = None

    async def connect(self) -> dict[str, Any]:
        self.ws = await websockets.connect(self.url, max_size=2**22)
        await self.send({"type": "hello", "token": self.token})
        welcome = await self.until("welcome")
        self.token = welcome["token"]
        return welcome

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    def _keep_once_keys(self, message: dict[str, Any]) -> None:
        """Put into a state's observation the keys only a connection's first state of a match
        carries (``ONCE_KEYS``), kept from that state, as a page would."""
        observation = message["observation"]
        kept = self.once_keys.setdefault(message.get("match"), {})
        for key in ONCE_KEYS:
            if key in observation:
                kept[key] = observation[key]
            elif key in kept:
                observation[key] = kept[key]

    async def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await self.ws.recv())
        check_server(message)
        self.received.append(message)
        kind = message["type"]
        if kind == "state":
            self._keep_once_keys(message)
            self.state = message
        elif kind == "match":
            self.match = message
            self.players = message["players"]
        elif kind == "players":
            self.players = message["players"]
        elif kind == "scores":
            self.scores = message
        elif kind == "notice":
            self.notices.append(message)
        elif kind == "match_over":
            self.over = message
        return message

    async def until(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Return the next message of a type with the given field values."""
        while True:
            message = await self.recv()
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message

    async def create(self, game: str, **extra: Any) -> str:
        settings = {**FAST, **extra.pop("settings", {})}
        await self.send(
            {"type": "create", "game": game, "name": self.name, "settings": settings, **extra}
        )
        table = await self.until("table")
        return str(table["table"]["id"])

    async def join(self, table: str) -> dict[str, Any]:
        await self.send({"type": "join", "table": table, "name": self.name})
        return await self.until("table")

    async def act(self, state: dict[str, Any], action: Any) -> None:
        await self.send({"type": "act", "state_id": state["state_id"], "action": action})

    async def play(self, rounds: int = 1, seed: int = 0) -> None:
        """Play the game's random bot's choices whenever this seat may act, until ``rounds``
        hands are over (or the match)."""
        assert self.match is not None
        game = find_game(self.match["game"])
        bot = make_bot(game.id, "random")
        rng = random.Random(seed)
        message = self.state or {"type": "none"}
        while True:
            if self.over is not None:
                return
            if self.scores is not None and len(self.scores["rounds"]) >= rounds:
                return
            if message["type"] != "state" or not message["legal"]:
                message = await self.recv()
                continue
            legal = tuple(game.action_from_json(a["json"]) for a in message["legal"])
            action = bot.choose(message["observation"], legal, rng)
            await self.act(message, action.to_json())
            message = await self.recv()


async def bounded(coro: Any, seconds: float) -> Any:
    """Return the result of a coroutine, or fail after ``seconds``."""
    async with asyncio.timeout(seconds):
        return await coro


def run(coro: Any) -> Any:
    """Return the result of running a coroutine on a fresh event loop in its own thread.

    The browser tests' sync Playwright keeps an event loop running in the main thread for
    the whole session, where ``asyncio.run`` refuses to start another one.
    """
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()

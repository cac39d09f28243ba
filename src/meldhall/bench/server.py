"""``meldhall bench server``: simulated people over loopback WebSockets against a real server.

uvicorn serves meldhall in its own process on 127.0.0.1 (a fresh data directory, SQLite, every
action written before it is broadcast); the load generator runs on the same machine. For each
step of a growing client count, clients meet in the lobby four to a table (okey: no computers),
then play whole hands at full speed: whenever a client's seat may act it sends a uniformly
random legal action at once. Latency is measured from sending an action to receiving the state
update it causes. Each step prints connected clients, actions a second, p50/p99 latency and
errors (rejections, lost connections), and the CPU the server and the load generator spent
per action. The steps go past the goal's client count to find the knee, and stop once p99 is
over 4x the goal. The goal (issue 10): 1,000 clients on 250 tables, p99 under 100 ms, 0 errors.

``--database-url URL`` runs the same steps a second time on that database (PostgreSQL) after
SQLite, and prints the server CPU per action of each against SQLite's.

``--redis-url URL --processes N`` (with a PostgreSQL ``--database-url``) measures a site: the
steps run against one process on that database, then against N processes sharing it and Redis
(server/cluster/), the tables spread evenly over the processes and the people of each on
several of them (their messages relayed), and the knees are printed side by side. Each run
gets a fresh PostgreSQL schema of its own (dropped after).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
import uvloop
import websockets

STEPS = (40, 100, 200, 400, 600, 800, 1000, 1400, 2000)
GOAL_MS = 100.0
GOAL_CLIENTS = 1000
GAME = "okey"
SETTINGS = {
    "turn_seconds": 600,
    "claim_seconds": 600,
    "takeover_seconds": 600,
    "countdown_seconds": 0.05,
    "hand_pause_seconds": 0.01,
}


class _Legal(msgspec.Struct):
    json: msgspec.Raw


class _Update(msgspec.Struct):
    """The parts of a server message a simulated client reads (the rest is skipped)."""

    type: str
    code: str = ""
    state_id: int = -1
    legal: list[_Legal] = []
    rounds: list[msgspec.Raw] = []


_read = msgspec.json.Decoder(_Update).decode


@dataclass
class Totals:
    """What the clients of one step measured."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    """How many errors of each kind (a rejection's code, ``closed``)."""
    hands: int = 0
    server_cpu: float = 0.0
    """CPU seconds the server process spent while the clients played."""
    client_cpu: float = 0.0
    """CPU seconds the load generator spent meanwhile."""


def process_cpu(pid: int) -> float:
    """Return the CPU seconds (user and system) a process has used so far (Linux /proc;
    0 where it cannot be read)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    data_dir: str, database_url: str = "", redis_url: str = ""
) -> tuple[subprocess.Popen[bytes], int]:
    """Return a running uvicorn process serving meldhall on 127.0.0.1 (on ``database_url``,
    default SQLite under ``data_dir``; one process of the site of ``redis_url`` when given),
    and its port."""
    port = _free_port()
    env = dict(
        os.environ,
        MELDHALL_DATA=data_dir,
        MELDHALL_DATABASE_URL=database_url,
        MELDHALL_REDIS_URL=redis_url,
        MELDHALL_BOT_DELAY="0",
        MELDHALL_RATE="1000",
        MELDHALL_BURST="2000",
        MELDHALL_CONNECTIONS_PER_ADDRESS="100000",  # every simulated client is on loopback
        MELDHALL_SESSIONS_PER_MINUTE="100000",
        MELDHALL_TABLES_PER_ADDRESS="100000",  # a loaded machine starts tables late
    )
    cmd = [sys.executable, "-m", "uvicorn", "--factory", "meldhall.server.app:app_from_env"]
    cmd += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    cmd += ["--ws-max-queue", "256", "--backlog", "4096", "--ws-per-message-deflate", "false"]
    proc = subprocess.Popen(cmd, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


class SimClient:
    """One simulated person: joins a table, then acts as soon as its seat may."""

    def __init__(self, url: str, totals: Totals, rng: random.Random) -> None:
        self.url = url
        self.totals = totals
        self.rng = rng
        self.ws: Any = None
        self.sent_at: float | None = None
        self.sent_id = -1

    async def connect(self) -> None:
        self.ws = await websockets.connect(
            self.url, max_size=2**22, open_timeout=60, compression=None
        )
        await self.ws.send(json.dumps({"type": "hello"}))
        await self._until("welcome")

    async def _until(self, kind: str) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await self.ws.recv())
            if message["type"] == kind:
                return message
            if message["type"] == "rejected":
                raise RuntimeError(message["reason"])

    async def create(self) -> str:
        await self.ws.send(
            json.dumps({"type": "create", "game": GAME, "name": "bench", "settings": SETTINGS})
        )
        return str((await self._until("table"))["table"]["id"])

    async def join(self, table: str) -> None:
        await self.ws.send(json.dumps({"type": "join", "table": table, "name": "bench"}))
        await self._until("table")

    async def play(self, stop_at: float) -> None:
        """Act whenever this seat may, until ``stop_at`` (monotonic seconds)."""
        try:
            while time.monotonic() < stop_at:
                try:
                    async with asyncio.timeout(max(0.01, stop_at - time.monotonic())):
                        text = await self.ws.recv()
                except TimeoutError:
                    return
                message = _read(text)
                kind = message.type
                if kind == "rejected":
                    self.totals.errors += 1
                    reasons = self.totals.reasons
                    reasons[message.code] = reasons.get(message.code, 0) + 1
                elif kind == "scores" and message.rounds:
                    self.totals.hands += 1
                elif kind == "state":
                    if self.sent_at is not None and message.state_id > self.sent_id:
                        self.totals.latencies.append(time.perf_counter() - self.sent_at)
                        self.sent_at = None
                    if message.legal and self.sent_at is None:
                        action = message.legal[self.rng.randrange(len(message.legal))].json
                        self.sent_id = message.state_id
                        self.sent_at = time.perf_counter()
                        await self.ws.send(
                            b'{"type":"act","state_id":%d,"action":%s}' % (self.sent_id, action),
                            text=True,
                        )
        except websockets.ConnectionClosed:
            self.totals.errors += 1
            self.totals.reasons["closed"] = self.totals.reasons.get("closed", 0) + 1


async def run_step(
    urls: list[str], clients: int, seconds: float, seed: int, server_pids: list[int]
) -> tuple[int, Totals]:
    """Return the connected client count and the measurements of one step (the server CPU
    is that of every process). Clients ``4t`` to ``4t + 3`` sit at table ``t``; client ``i``
    connects to ``urls[(i // 4 + i % 4) % len(urls)]``: the tables' hosts, so their owners,
    spread evenly over the processes, and each table has people on other processes too."""
    totals = Totals()
    rng = random.Random(seed)
    sims = [
        SimClient(urls[(i // 4 + i % 4) % len(urls)], totals, random.Random(rng.random()))
        for i in range(clients)
    ]
    for i in range(0, clients, 50):
        await asyncio.gather(*(s.connect() for s in sims[i : i + 50]))
    for t in range(0, clients - clients % 4, 4):
        table = await sims[t].create()
        for s in sims[t + 1 : t + 4]:
            await s.join(table)
    stop_at = time.monotonic() + seconds
    server_cpu = sum(process_cpu(pid) for pid in server_pids)
    client_cpu = time.process_time()
    await asyncio.gather(*(s.play(stop_at) for s in sims))
    totals.server_cpu = sum(process_cpu(pid) for pid in server_pids) - server_cpu
    totals.client_cpu = time.process_time() - client_cpu
    connected = sum(1 for s in sims if s.ws.state.name == "OPEN")
    await asyncio.gather(*(s.ws.close() for s in sims), return_exceptions=True)
    return connected, totals


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000


def main(args: argparse.Namespace) -> int:
    """Run the steps and print one line each, then whether the goal was met and the most
    clients served within it; return 0 when the goal was met (``--cases N``: steps up to N).
    With ``--database-url``, the steps run on SQLite then on that database."""
    seconds = args.seconds or 10.0
    top = args.cases or max(STEPS)
    steps = [n for n in STEPS if n <= top] or [top]
    processes = getattr(args, "processes", 1)
    redis_url = getattr(args, "redis_url", "")
    if processes > 1 or redis_url:
        return site_main(args, steps, seconds, processes, redis_url)
    print(f"server bench: {GAME}, 4 people a table, {seconds:g} s a step, goal p99 < {GOAL_MS} ms")
    databases = ["sqlite"] + ([args.database_url] if getattr(args, "database_url", "") else [])
    code = 0
    costs: dict[str, dict[int, float]] = {}
    for database in databases:
        print(f"database: {_shown(database)}")
        ok, costs[database] = run_steps(steps, seconds, "" if database == "sqlite" else database)
        code = code or (0 if ok else 1)
    for database in databases[1:]:
        ratios = [
            f"{n}: {cost / costs['sqlite'][n]:.2f}x"
            for n, cost in costs[database].items()
            if costs["sqlite"].get(n)
        ]
        print(f"server CPU per action, {_shown(database)} against SQLite: " + ", ".join(ratios))
    return code


def site_main(
    args: argparse.Namespace, steps: list[int], seconds: float, processes: int, redis_url: str
) -> int:
    """Run the steps on one process, then on ``processes`` processes of a site on Redis, and
    print the knee of each; return 0 when the site met the goal (2 when the flags do not
    make a site: Redis and a PostgreSQL database are needed)."""
    database_url = getattr(args, "database_url", "")
    if not redis_url or processes < 1 or not database_url.startswith("postgresql"):
        print(
            "bench server: a site needs --redis-url, --processes N and a PostgreSQL "
            "--database-url (the processes share both)",
            file=sys.stderr,
        )
        return 2
    print(
        f"server bench: {GAME}, 4 people a table, {seconds:g} s a step, goal p99 < {GOAL_MS} ms;"
        f" 1 process, then {processes} processes on Redis (each table's people on several)"
    )
    knees: dict[str, int] = {}
    met = False
    for count, redis in ((1, ""), (processes, redis_url)):
        label = f"{count} process{'es' if count > 1 else ''}" + (" on Redis" if redis else "")
        print(f"{label}, database: {_shown(database_url)}")
        with fresh_schema(database_url) as url:
            ok, _costs, knees[label] = run_site_steps(steps, seconds, url, redis, count)
        met = ok if redis else met
    print(
        "knee (most clients with p99 under the goal and no errors): "
        + ", ".join(f"{label}: {knee}" for label, knee in knees.items())
    )
    return 0 if met else 1


@contextlib.contextmanager
def fresh_schema(database_url: str) -> Iterator[str]:
    """Yield the URL of a new empty schema of a PostgreSQL database (dropped after)."""
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(database_url)
    conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
    name = "bench_" + os.urandom(6).hex()
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield url.update_query_dict({"options": f"-csearch_path={name}"}).render_as_string(
            hide_password=False
        )
    finally:
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


def _shown(url: str) -> str:
    """Return a database URL without its password."""
    if url == "sqlite":
        return "SQLite (a temporary data folder)"
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def run_steps(steps: list[int], seconds: float, database_url: str) -> tuple[bool, dict[int, float]]:
    """Run the steps against a new server process on ``database_url`` (empty: SQLite in a
    temporary folder), printing one line each; return whether the goal was met (or every step
    was within it) and the server CPU seconds per action of each step."""
    ok, costs, _knee = run_site_steps(steps, seconds, database_url, "", 1)
    return ok, costs


def run_site_steps(
    steps: list[int], seconds: float, database_url: str, redis_url: str, processes: int
) -> tuple[bool, dict[int, float], int]:
    """Run the steps against ``processes`` new server processes on ``database_url`` (and
    the site of ``redis_url`` when given), printing one line each; return whether the goal
    was met (or every step was within it), the server CPU seconds per action of each step
    and the most clients served within the goal."""
    print(
        "clients tables connected actions/s   p50 ms   p99 ms  hands errors"
        "  server µs/action  client µs/action"
    )
    met: bool | None = None
    within = 0
    costs: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as data_dir:
        started = [start_server(data_dir, database_url, redis_url) for _ in range(processes)]
        urls = [f"ws://127.0.0.1:{port}/ws" for _proc, port in started]
        pids = [proc.pid for proc, _port in started]
        try:
            for n in steps:
                with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                    connected, totals = runner.run(run_step(urls, n, seconds, n, pids))
                rate = len(totals.latencies) / seconds
                p50, p99 = _pct(totals.latencies, 0.5), _pct(totals.latencies, 0.99)
                actions = max(1, len(totals.latencies))
                costs[n] = totals.server_cpu / actions
                print(
                    f"{n:7d} {n // 4:6d} {connected:9d} {rate:9.0f} {p50:8.1f} {p99:8.1f}"
                    f" {totals.hands // 4:6d} {totals.errors:6d}"
                    f" {totals.server_cpu / actions * 1e6:17.0f}"
                    f" {totals.client_cpu / actions * 1e6:17.0f}",
                    flush=True,
                )
                if totals.reasons:
                    print(
                        "        errors: "
                        + ", ".join(f"{k} {v}" for k, v in totals.reasons.items())
                    )
                good = p99 < GOAL_MS and totals.errors == 0 and connected == n
                if good:
                    within = n
                if n == GOAL_CLIENTS:
                    met = good
                if p99 > 4 * GOAL_MS:
                    print(f"past the knee at {n} clients")
                    break
        finally:
            for proc, _port in started:
                proc.terminate()
            for proc, _port in started:
                proc.wait(timeout=10)
    if met is not None:
        verdict = "met" if met else "NOT met"
        print(f"goal ({GOAL_CLIENTS} clients, p99 < {GOAL_MS:g} ms, 0 errors): {verdict}")
    print(f"most clients with p99 under {GOAL_MS:g} ms and no errors: {within}")
    return bool(met or (met is None and within == steps[-1])), costs, within

"""``meldhall bench server``: simulated people over loopback WebSockets against a real server.

uvicorn serves meldhall in its own process on 127.0.0.1 (a fresh data directory, SQLite, every
action written before it is broadcast); the load generator runs on the same machine. For each
step of a growing client count, clients meet in the lobby four to a table (okey: no computers),
then play whole hands at full speed: whenever a client's seat may act it sends a uniformly
random legal action at once. Latency is measured from sending an action to receiving the state
update it causes. Each step prints connected clients, actions a second, p50/p99 latency and
errors (rejections, lost connections), and the CPU spent per action by each server process,
by Redis and PostgreSQL (when they run on this machine) and by the load generator. The load
generator is kept cheap (picows clients: frames parsed in C, one callback a message) since it
shares the cores with the servers. The steps go past the goal's client count to find the knee,
and stop once p99 is over 4x the goal. The goal (issue 10): 1,000 clients on 250 tables, p99
under 100 ms, 0 errors.

``--database-url URL`` runs the same steps a second time on that database (PostgreSQL) after
SQLite, and prints the server CPU per action of each against SQLite's.

``--redis-url URL --processes N`` (with a PostgreSQL ``--database-url``) measures a site: the
steps run against one process on that database, then against N processes sharing it and Redis
(server/cluster/), the tables spread evenly over the processes: first with the people of each
table on several processes (their messages relayed through Redis), then with them on the
table's owner (the connection routed to the owner); the knees are printed side by side, and
the server CPU per action of each against one process's. Each run gets a fresh PostgreSQL
schema of its own (dropped after).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
import picows
import uvloop

from meldhall.server.wire import PROTOCOL_PATH

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

_STATE = b'{"type":"state",'
_NOTHING_TO_DO = b',"legal":[],"events":'
"""A state message that lists no action for its seat (the server writes ``legal`` then
``events`` last): a client waiting for no answer of its own skips it without parsing it, which
is 3 of the 4 messages of an action (a message where the bytes do not match is parsed)."""


@dataclass
class Totals:
    """What the clients of one step measured."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    """How many errors of each kind (a rejection's code, ``closed``)."""
    hands: int = 0
    cpu: dict[str, float] = field(default_factory=dict)
    """CPU seconds spent while the clients played, by what spent them (``Meters.read``)."""
    client_cpu: float = 0.0
    """CPU seconds the load generator spent meanwhile."""

    @property
    def server_cpu(self) -> float:
        """Return the CPU seconds every server process spent while the clients played."""
        return sum(v for k, v in self.cpu.items() if k.startswith("server"))


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
    cmd += ["--ws", PROTOCOL_PATH]
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


class _Listener(picows.WSListener):
    """Hands each text frame of a connection to its simulated client."""

    def __init__(self, client: SimClient) -> None:
        super().__init__()
        self.client = client

    def on_ws_frame(self, transport: picows.WSTransport, frame: picows.WSFrame) -> None:
        if frame.msg_type == picows.WSMsgType.TEXT:
            self.client.on_message(frame.get_payload_as_bytes())
        elif frame.msg_type == picows.WSMsgType.CLOSE:
            transport.disconnect()

    def on_ws_disconnected(self, transport: picows.WSTransport) -> None:
        self.client.on_closed()


class SimClient:
    """One simulated person: joins a table, then acts as soon as its seat may.

    The connection is a picows client (frames parsed in C, one callback per message, no task
    or future per message): the load generator shares the machine's cores with the servers,
    so the less it spends per message the more the servers get."""

    def __init__(self, url: str, totals: Totals, rng: random.Random) -> None:
        self.url = url
        self.totals = totals
        self.rng = rng
        self.transport: Any = None
        self.playing = False
        self.closed = False
        self.sent_at: float | None = None
        self.sent_id = -1
        self.latest: _Update | None = None
        """The last state seen before play began (acted on when it begins)."""
        self._want: tuple[str, asyncio.Future[dict[str, Any]]] | None = None

    async def connect(self) -> None:
        """Open the WebSocket and say hello."""
        self.transport, _listener = await picows.ws_connect(
            lambda: _Listener(self),
            self.url,
            websocket_handshake_timeout=60,
            max_frame_size=2**22,
        )
        await self._ask({"type": "hello"}, "welcome")

    async def _ask(self, message: dict[str, Any], kind: str) -> dict[str, Any]:
        """Send ``message`` and return the next message of type ``kind`` (raise on a
        rejection or a closed connection)."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._want = (kind, future)
        self.transport.send(picows.WSMsgType.TEXT, msgspec.json.encode(message))
        try:
            return await asyncio.wait_for(future, 60)
        finally:
            self._want = None

    async def create(self) -> str:
        """Open a table and return its id."""
        message = {"type": "create", "game": GAME, "name": "bench", "settings": SETTINGS}
        return str((await self._ask(message, "table"))["table"]["id"])

    async def join(self, table: str) -> None:
        """Sit at a table."""
        await self._ask({"type": "join", "table": table, "name": "bench"}, "table")

    def on_message(self, text: bytes) -> None:
        """Take one message from the server: a setup step's answer, or a state to act on."""
        if self._want is not None:
            kind, future = self._want
            message = msgspec.json.decode(text)
            if message.get("type") == kind and not future.done():
                future.set_result(message)
            elif message.get("type") == "rejected" and not future.done():
                future.set_exception(RuntimeError(message.get("reason")))
            elif message.get("type") == "state":
                self.latest = _read(text)
            return
        if (
            self.playing
            and self.sent_at is None
            and text.startswith(_STATE)
            and text.rfind(_NOTHING_TO_DO) >= 0
        ):
            return  # another seat's move: nothing to measure, nothing to answer
        update = _read(text)
        if not self.playing:
            if update.type == "state":
                self.latest = update
            return
        self._play(update)

    def _play(self, message: _Update) -> None:
        kind = message.type
        totals = self.totals
        if kind == "rejected":
            totals.errors += 1
            totals.reasons[message.code] = totals.reasons.get(message.code, 0) + 1
        elif kind == "scores" and message.rounds:
            totals.hands += 1
        elif kind == "state":
            if self.sent_at is not None and message.state_id > self.sent_id:
                totals.latencies.append(time.perf_counter() - self.sent_at)
                self.sent_at = None
            if message.legal and self.sent_at is None:
                action = message.legal[self.rng.randrange(len(message.legal))].json
                self.sent_id = message.state_id
                self.sent_at = time.perf_counter()
                self.transport.send(
                    picows.WSMsgType.TEXT,
                    b'{"type":"act","state_id":%d,"action":%s}' % (self.sent_id, action),
                )

    def start(self) -> None:
        """Begin playing (acting on the state seen last, if it asks this seat to act)."""
        self.playing = True
        latest, self.latest = self.latest, None
        if latest is not None:
            self._play(latest)

    def stop(self) -> None:
        """Stop playing (messages from now on are ignored)."""
        self.playing = False

    def on_closed(self) -> None:
        """The connection closed: an error while playing."""
        if self.playing and not self.closed:
            self.totals.errors += 1
            self.totals.reasons["closed"] = self.totals.reasons.get("closed", 0) + 1
        self.closed = True
        if self._want is not None and not self._want[1].done():
            self._want[1].set_exception(RuntimeError("the connection closed"))

    def close(self) -> None:
        """Close the connection."""
        self.playing = False
        self.closed = True
        if self.transport is not None:
            self.transport.disconnect()


PLACEMENTS = ("spread", "owner")
"""Where a site's simulated people connect: ``spread`` puts the people of each table on
several processes (their messages relayed through Redis), ``owner`` puts them on the process
that owns their table (the connection routed to the owner, as a proxy routing by table does)."""


def client_url(urls: list[str], client: int, placement: str = "spread") -> str:
    """Return the server URL simulated client ``client`` connects to. Clients ``4t`` to
    ``4t + 3`` sit at table ``t``, opened by client ``4t`` on ``urls[t % len(urls)]`` (so the
    tables' owners spread evenly over the processes); ``spread`` sends client ``i`` to
    ``urls[(t + i % 4) % len(urls)]``, ``owner`` to the owner's."""
    table, place = divmod(client, 4)
    shift = place if placement == "spread" else 0
    return urls[(table + shift) % len(urls)]


async def run_step(
    urls: list[str],
    clients: int,
    seconds: float,
    seed: int,
    meters: Meters,
    placement: str = "spread",
) -> tuple[int, Totals]:
    """Return the connected client count and the measurements of one step (the CPU of every
    server process, and of Redis and PostgreSQL where ``meters`` reads them); each client
    connects where ``client_url`` says."""
    totals = Totals()
    rng = random.Random(seed)
    sims = [
        SimClient(client_url(urls, i, placement), totals, random.Random(rng.random()))
        for i in range(clients)
    ]
    try:
        for i in range(0, clients, 50):
            await asyncio.gather(*(s.connect() for s in sims[i : i + 50]))
        for t in range(0, clients - clients % 4, 4):
            table = await sims[t].create()
            for s in sims[t + 1 : t + 4]:
                await s.join(table)
        before = meters.read()
        client_cpu = time.process_time()
        for s in sims:
            s.start()
        await asyncio.sleep(seconds)
        for s in sims:
            s.stop()
        totals.client_cpu = time.process_time() - client_cpu
        totals.cpu = meters.since(before)
        connected = sum(1 for s in sims if not s.closed)
    finally:
        for s in sims:
            s.close()
        await asyncio.sleep(0.2)  # the servers see the connections close
    return connected, totals


class Meters:
    """Reads the CPU seconds used so far by the server processes, and by the Redis server
    and the PostgreSQL cluster when they run on this machine (Redis ``INFO cpu``; the
    PostgreSQL postmaster named by its data folder's ``postmaster.pid``, and its children)."""

    def __init__(self, pids: list[int], redis_url: str = "", database_url: str = "") -> None:
        self.pids = pids
        self.redis: Any = None
        if redis_url:
            import redis

            self.redis = redis.Redis.from_url(redis_url)
        self.postmaster = postmaster_pid(database_url) if database_url else None

    def read(self) -> dict[str, float]:
        """Return the CPU seconds so far, by what used them: ``server1`` ... for the server
        processes, ``redis``, ``postgres``."""
        used = {f"server{i + 1}": process_cpu(pid) for i, pid in enumerate(self.pids)}
        if self.redis is not None:
            info = self.redis.info("cpu")
            used["redis"] = float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
        if self.postmaster is not None:
            used["postgres"] = sum(process_cpu(pid) for pid in family(self.postmaster))
        return used

    def since(self, before: dict[str, float]) -> dict[str, float]:
        """Return the CPU seconds used since ``before`` (a ``read``), by the same keys."""
        return {key: value - before.get(key, 0.0) for key, value in self.read().items()}


def postmaster_pid(database_url: str) -> int | None:
    """Return the pid of the PostgreSQL postmaster of ``database_url`` when it runs on this
    machine and its data folder can be read (None otherwise)."""
    if not database_url.startswith("postgresql"):
        return None
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(database_url).set(drivername="postgresql", query={})
    try:
        with psycopg.connect(url.render_as_string(hide_password=False)) as conn:
            row = conn.execute("SHOW data_directory").fetchone()
        with open(os.path.join(str(row[0] if row else ""), "postmaster.pid")) as f:
            return int(f.readline())
    except (OSError, ValueError, psycopg.Error):
        return None


def family(pid: int) -> list[int]:
    """Return ``pid`` and the pids of its children (Linux /proc)."""
    pids = [pid]
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            pids.append(int(entry))
    return pids


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
        f" 1 process, then {processes} processes on Redis with each table's people spread over"
        " them (relayed), then on its owner (routed)"
    )
    knees: dict[str, int] = {}
    costs: dict[str, dict[int, float]] = {}
    met = False
    runs = [(1, "", "owner"), (processes, redis_url, "spread"), (processes, redis_url, "owner")]
    for count, redis, placement in runs:
        label = f"{count} process{'es' if count > 1 else ''}"
        if redis:
            label += ", people " + ("relayed" if placement == "spread" else "on the owner")
        print(f"{label}, database: {_shown(database_url)}")
        with fresh_schema(database_url) as url:
            ok, costs[label], knees[label] = run_site_steps(
                steps, seconds, url, redis, count, placement
            )
        met = met or (ok if redis else False)
    print(
        "knee (most clients with p99 under the goal and no errors): "
        + "; ".join(f"{label}: {knee}" for label, knee in knees.items())
    )
    first = next(iter(costs))
    for label in list(costs)[1:]:
        ratios = [
            f"{n}: {cost / costs[first][n]:.2f}x"
            for n, cost in costs[label].items()
            if costs[first].get(n)
        ]
        print(f"server CPU per action, {label} against 1 process: " + ", ".join(ratios))
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
    steps: list[int],
    seconds: float,
    database_url: str,
    redis_url: str,
    processes: int,
    placement: str = "spread",
) -> tuple[bool, dict[int, float], int]:
    """Run the steps against ``processes`` new server processes on ``database_url`` (and
    the site of ``redis_url`` when given; people placed as ``client_url`` says), printing one
    line each; return whether the goal was met (or every step was within it), the server CPU
    seconds per action of each step and the most clients served within the goal."""
    print(
        "clients tables connected actions/s   p50 ms   p99 ms  hands errors"
        "  server µs/action (per process)  redis  postgres  client µs/action"
    )
    met: bool | None = None
    within = 0
    costs: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as data_dir:
        started = [start_server(data_dir, database_url, redis_url) for _ in range(processes)]
        urls = [f"ws://127.0.0.1:{port}/ws" for _proc, port in started]
        meters = Meters([proc.pid for proc, _port in started], redis_url, database_url)
        try:
            for n in steps:
                with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                    connected, totals = runner.run(run_step(urls, n, seconds, n, meters, placement))
                rate = len(totals.latencies) / seconds
                p50, p99 = _pct(totals.latencies, 0.5), _pct(totals.latencies, 0.99)
                actions = max(1, len(totals.latencies))
                costs[n] = totals.server_cpu / actions
                print(
                    f"{n:7d} {n // 4:6d} {connected:9d} {rate:9.0f} {p50:8.1f} {p99:8.1f}"
                    f" {totals.hands // 4:6d} {totals.errors:6d} {_costs(totals, actions)}"
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


def _costs(totals: Totals, actions: int) -> str:
    """Return the server, Redis and PostgreSQL µs per action of a step as printed ("-":
    not measured)."""
    servers = [v for k, v in sorted(totals.cpu.items()) if k.startswith("server")]
    each = "+".join(f"{v / actions * 1e6:.0f}" for v in servers) if len(servers) > 1 else ""
    shown = f"{totals.server_cpu / actions * 1e6:.0f}" + (f" ({each})" if each else "")
    redis, postgres = totals.cpu.get("redis"), totals.cpu.get("postgres")
    return (
        f"{shown:>30s}"
        f" {'-' if redis is None else f'{redis / actions * 1e6:.0f}':>6s}"
        f" {'-' if postgres is None else f'{postgres / actions * 1e6:.0f}':>9s}"
    )

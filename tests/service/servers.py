"""A throwaway PostgreSQL cluster and Redis server for the tests, on loopback ports in a
temporary folder: started once per test session on first use, stopped at its end (and at
interpreter exit, whatever happened). Debian's packages (``make test`` installs them)."""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import psycopg

Server = TypeVar("Server", "Postgres", "Redis")

PG_BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
PG_USER = "postgres"


def free_port() -> int:
    """Return a TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _as_postgres(*cmd: str) -> None:
    if os.geteuid() == 0:
        cmd = ("runuser", "-u", PG_USER, "--", *cmd)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


@dataclass
class Postgres:
    """A running throwaway PostgreSQL cluster."""

    folder: Path
    port: int

    def admin_url(self, database: str = "postgres") -> str:
        """Return the psycopg conninfo of a database as the superuser."""
        return f"postgresql://{PG_USER}@127.0.0.1:{self.port}/{database}"

    DATABASE = "meldhall_tests"

    def url(self, schema: str) -> str:
        """Return the SQLAlchemy URL of a schema of the tests' database (its search path)."""
        return (
            f"postgresql+psycopg://{PG_USER}@127.0.0.1:{self.port}/{self.DATABASE}"
            f"?options=-csearch_path%3D{schema}"
        )

    def new_database(self) -> str:
        """Return the URL of a new empty schema of its own: to meldhall, an empty database
        (a schema is made in a millisecond, a database in seconds on a busy machine)."""
        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.admin_url(self.DATABASE), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return self.url(name)

    def stop(self) -> None:
        """Stop the cluster and remove its folder."""
        with contextlib.suppress(Exception):
            _as_postgres(
                f"{PG_BIN[-1]}/pg_ctl",
                "-D",
                str(self.folder / "db"),
                "-m",
                "immediate",
                "-w",
                "stop",
            )
        shutil.rmtree(self.folder, ignore_errors=True)


def start_postgres() -> Postgres:
    """Return a new PostgreSQL cluster on a free loopback port, trusting local users."""
    if not PG_BIN:
        raise RuntimeError("PostgreSQL is not installed (make test installs postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="meldhall-pg-"))
    os.chmod(folder, 0o755)
    if os.geteuid() == 0:
        shutil.chown(folder, PG_USER, PG_USER)
    port = free_port()
    pg = Postgres(folder, port)
    try:
        _as_postgres(f"{PG_BIN[-1]}/initdb", "-D", str(folder / "db"), "-U", PG_USER, "-A", "trust")
        options = (
            f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=400"
        )
        _as_postgres(
            f"{PG_BIN[-1]}/pg_ctl",
            "-D",
            str(folder / "db"),
            "-o",
            options,
            "-l",
            str(folder / "log"),
            "-w",
            "start",
        )
        with psycopg.connect(pg.admin_url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {Postgres.DATABASE}")
    except BaseException:
        pg.stop()
        raise
    return pg


@dataclass
class Redis:
    """A running throwaway Redis server."""

    folder: Path
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        """Return its URL."""
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def start_redis() -> Redis:
    """Return a new Redis server on a free loopback port, nothing saved to disk."""
    folder = Path(tempfile.mkdtemp(prefix="meldhall-redis-"))
    port = free_port()
    process = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return Redis(folder, port, process)
        time.sleep(0.02)
    process.kill()
    raise RuntimeError("redis-server did not start")


_running: dict[str, Postgres | Redis] = {}


def _once(name: str, start: Callable[[], Server]) -> Server:
    """Return the session's server of a kind, started on first use."""
    server = _running.get(name)
    if server is None:
        _exit_on_sigterm()
        server = _running[name] = start()
    return server  # type: ignore[return-value]  # the one ``start`` made


def postgres() -> Postgres:
    """Return the session's PostgreSQL cluster, started on first use."""
    return _once("postgres", start_postgres)


def redis_server() -> Redis:
    """Return the session's Redis server, started on first use."""
    return _once("redis", start_redis)


def stop_all() -> None:
    """Stop whatever was started (called at the session's end and at exit)."""
    while _running:
        _name, server = _running.popitem()
        server.stop()


def _exit_on_sigterm() -> None:
    """Let a SIGTERM (a CI timeout, a ``kill``) end the tests as an exit does, so that the
    servers are stopped too (by default it ends the process without running ``atexit``)."""
    in_main = threading.current_thread() is threading.main_thread()
    if in_main and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))


atexit.register(stop_all)


SITE_BENCH = ("--processes", "2", "--cases", "1000", "--seconds", "8")
"""The site bench's flags besides the URLs: two processes, steps up to 1,000 clients."""


def main(argv: list[str] | None = None) -> int:
    """Start a throwaway PostgreSQL and Redis and print their URLs and the site bench command;
    then keep them until interrupted (``python -m tests.service.servers``), or, with ``bench``
    first (``python -m tests.service.servers bench [FLAGS]``), run that bench on them with
    FLAGS after its own and return its exit code. Both are removed at exit."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] != "bench":
        print("usage: python -m tests.service.servers [bench [FLAGS]]", file=sys.stderr)
        return 2
    pg, redis = postgres(), redis_server()
    database = f"postgresql+psycopg://{PG_USER}@127.0.0.1:{pg.port}/{Postgres.DATABASE}"
    bench = ["server", "--database-url", database, "--redis-url", redis.url, *SITE_BENCH]
    print(f"PostgreSQL: {database}\nRedis: {redis.url}", flush=True)
    print("meldhall bench " + " ".join(bench), flush=True)
    try:
        if args:
            command = [sys.executable, "-m", "meldhall.cli", "bench", *bench, *args[1:]]
            return subprocess.run(command, check=False).returncode
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 130
    finally:
        stop_all()


if __name__ == "__main__":
    sys.exit(main())

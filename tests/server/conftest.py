"""Fixtures of the server tests: the toy game registered, an app on a temporary data dir, and
the database under test (``database_url``: each test that asks for it runs on SQLite and on
PostgreSQL; the throwaway PostgreSQL cluster starts on first use, see tests/service/servers.py)."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from meldhall.bots import base as bots_base
from meldhall.games import registry
from meldhall.server import games as server_games
from meldhall.server.app import create_app
from meldhall.server.protocol import check_server
from meldhall.store.repository import DB_NAME, Store
from tests.service import servers

DATABASES = ["sqlite", "postgresql"]


@pytest.fixture(scope="session", autouse=True)
def _services_stopped() -> Iterator[None]:
    """Stop the PostgreSQL cluster and Redis server at the session's end, if they started."""
    yield
    servers.stop_all()


def new_database(kind: str, data_dir: Path) -> str:
    """Return the URL of a new empty database of a kind (``sqlite``: under ``data_dir``)."""
    if kind == "sqlite":
        return f"sqlite:///{(data_dir / DB_NAME).resolve()}"
    return servers.postgres().new_database()


@pytest.fixture(params=DATABASES)
def database_url(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> str:
    """Return a new empty database on SQLite, then on PostgreSQL: the app (and any server
    process started by the test) uses it through MELDHALL_DATABASE_URL."""
    url = new_database(request.param, tmp_path)
    monkeypatch.setenv("MELDHALL_DATABASE_URL", url)
    return url


def store_of(data_dir: Path) -> Store:
    """Return a store on the test's database: MELDHALL_DATABASE_URL when a test set it, else
    the SQLite file of ``data_dir``."""
    url = os.environ.get("MELDHALL_DATABASE_URL")
    return Store(url) if url else Store.in_dir(data_dir)


@pytest.fixture
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the toy game of tests/server/toy.py for one test."""
    monkeypatch.setitem(registry.GAME_MODULES, "toy", "tests.server.toy")
    registry.find_game.cache_clear()
    bots_base.bots_of.cache_clear()
    server_games._READY.pop("toy", None)
    yield
    registry.find_game.cache_clear()
    bots_base.bots_of.cache_clear()
    server_games._READY.pop("toy", None)


def make_client(data_dir: Path, bot_delay: float = 0.0) -> TestClient:
    """Return a test client of a fresh app on ``data_dir``."""
    return TestClient(create_app(data_dir, bot_delay=bot_delay))


@contextlib.contextmanager
def browser(client: TestClient) -> Iterator[TestClient]:
    """Yield a second browser (cookies of its own) on the app of a running test client,
    without starting the app's lifespan again."""
    other = TestClient(client.app)
    try:
        yield other
    finally:
        other.close()


class Peer:
    """A protocol client over a test WebSocket that checks every server message's schema."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []

    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.receive_text())
        check_server(message)
        self.received.append(message)
        return message

    def until(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Return the next message of a type whose fields have the given values."""
        while True:
            message = self.recv()
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message

    def hello(self, token: str | None = None) -> dict[str, Any]:
        self.send({"type": "hello", "token": token})
        return self.until("welcome")

    def my_turn(self) -> dict[str, Any]:
        """Return the next state message in which this seat has legal actions, or match over."""
        while True:
            message = self.recv()
            if message["type"] == "match_over":
                return message
            if message["type"] == "state" and message["legal"]:
                return message


@pytest.fixture
def client(tmp_path: Path, toy_registered: None, database_url: str) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c

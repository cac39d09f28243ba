"""Browser tests: uvicorn on 127.0.0.1 (a free port, a fresh data directory) and Debian's
Chromium driven by Playwright (never a downloaded browser; ENVIRONMENT.md)."""

from __future__ import annotations

import functools
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meldhall.core.fairness import match_seed
from meldhall.games.registry import find_game
from meldhall.store.repository import Store
from tests.uvicorn_server import start_uvicorn

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / "artifacts" / "screens"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BOT_DELAY = "0.02"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """A uvicorn process serving meldhall on 127.0.0.1; it can be stopped and started again
    on the same port and data directory (the restart test)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = start_uvicorn(self.port, self.data_dir, BOT_DELAY)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
            self.proc = None

    def store(self) -> Store:
        return Store.in_dir(self.data_dir)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("meldhall-data"))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (make browser)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # the tests' string predicates are eval'd in the page, which the CSP forbids
        b.new_context = functools.partial(b.new_context, bypass_csp=True)
        yield b
        b.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: Any) -> Iterator[Any]:
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    yield pg
    assert not errors, errors


def shot(page: Any, name: str) -> None:
    """Write a screenshot of the page to artifacts/screens (ignored by git)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"))


def start_match(page: Any, url: str, game: str) -> str:
    """Open a game's table, start a solo match; return the match id."""
    page.goto(f"{url}/play/{game}")
    page.click("#start-match")
    page.wait_for_function("document.body.dataset.stateId !== undefined")
    match_id: str = page.evaluate("document.body.dataset.match")
    return match_id


class StateTap:
    """The page's table socket routed through the test: ``states`` holds every state message
    the server sent (as text), ``send`` hands the page a message as if the server sent it."""

    def __init__(self, page: Any) -> None:
        self.sockets: list[Any] = []
        self.states: list[str] = []
        page.route_web_socket("**/ws", self._route)

    def _route(self, ws: Any) -> None:
        to_server = ws.connect_to_server()

        def from_server(message: Any) -> None:
            if isinstance(message, str) and message.startswith('{"type":"state"'):
                self.states.append(message)
            ws.send(message)

        to_server.on_message(from_server)
        self.sockets.append(ws)

    def send(self, message: str) -> None:
        """Send ``message`` to the page on its newest socket."""
        self.sockets[-1].send(message)


def state_id(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.stateId"))


def engine_first_hand(store: Store, match_id: str) -> dict[str, Any]:
    """Return the public hand_over event of a match's first hand, replayed by the engine."""
    data = store.load_match(match_id)
    assert data is not None
    game = find_game(data.game)
    seed = match_seed(bytes.fromhex(data.secret), data.contributions)
    state = game.new_state(game.options(data.options), data.seats, seed)
    for seat, action in data.log:
        for event in state.apply(seat, game.action_from_json(action)):
            if event.kind == "hand_over":
                return event.for_viewer(None)
    raise AssertionError("the stored log holds no finished hand")

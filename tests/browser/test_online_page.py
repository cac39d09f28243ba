"""Online play through the page: two guests in two browsers meet in the lobby, sit opposite
each other at an okey table with two computers and play it by clicks and a drag; each sees
its own rack and never the other's tiles; names stay text; a spectator sees no rack; a reload
or a cut connection gives the seat back. A private table is reached by its invite link only."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from meldhall.store.lobby import LobbyStore
from tests.browser.conftest import ROOT, Server, shot
from tests.browser.players import okey
from tests.browser.test_i18n import UNTRANSLATED
from tests.browser.test_layout import MEASURE
from tests.server.online_client import Client, bounded, run
from tests.test_catalogs import messages

pytestmark = pytest.mark.browser

EVIL = "<img src=x onerror=alert(1)>"
OTHER = "Bea & <b>Co</b>"
CATALOGS = ROOT / "src" / "meldhall" / "web" / "i18n"

SNAPSHOT = """() => ({
  sid: document.body.dataset.stateId,
  rack: [...document.querySelectorAll('.rack .piece[data-token]')].map((e) => e.dataset.token),
  table: [...document.querySelectorAll('#board .piece[data-token]')]
    .filter((e) => !e.closest('.rack, .info-box')).map((e) => e.dataset.token),
})"""
"""One page's state id, rack and the face-up tiles of its board (the okey sample in the info
box is a face, not a tile), read at once."""

Guest = Callable[..., Any]


@pytest.fixture
def guests(browser: Any, server: Server) -> Iterator[Guest]:
    """Return a factory of guests: a fresh browser (own cookies and storage) on the lobby
    with a display name chosen; no page error and no script dialog may happen. With
    ``droppable`` the page's WebSockets pass through Playwright (``page.sockets``), so that a
    test can cut one as a network failure would."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(name: str, droppable: bool = False) -> Any:
        context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("dialog", lambda d: _refuse(d, errors))
        if droppable:
            page.sockets = []
            page.route_web_socket("**/ws", lambda ws: _pass(ws, page.sockets))
        page.goto(f"{server.url}/online")
        if name:
            page.fill("#guest-name", name)
            page.click("#guest-save")
            page.wait_for_function(
                "n => localStorage.getItem('meldhall.online.name') === n", arg=name
            )
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


def _refuse(dialog: Any, errors: list[str]) -> None:
    """Record a script dialog (alert, confirm): a name run as HTML would open one."""
    errors.append(f"script dialog: {dialog.message}")
    dialog.dismiss()


def _pass(socket: Any, sockets: list[Any]) -> None:
    """Let a page's WebSocket through to the server, keeping a handle to cut it."""
    socket.connect_to_server()
    sockets.append(socket)


def _panel_name(page: Any, seat: int) -> str:
    return str(page.inner_text(f"#board .seat-panel[data-seat='{seat}'] .name"))


def _turns(pages: list[Any], turns: int, seconds: float) -> dict[int, int]:
    """Play both people's turns through their pages (the first discard of each by a drag)
    until each made ``turns`` discards or a hand ends; check after every move that neither
    page shows a tile of the other's rack. Return the discards made per page."""
    moves = {i: 0 for i in range(len(pages))}
    deadline = time.monotonic() + seconds
    while min(moves.values()) < 2 * turns:
        assert time.monotonic() < deadline, f"too slow: {moves}"
        if any(p.locator("#hand-over, #match-over").count() for p in pages):
            break
        moved = False
        for i, page in enumerate(pages):
            if not page.evaluate("document.body.classList.contains('my-turn')"):
                continue
            before = page.evaluate("document.body.dataset.stateId")
            if moves[i] == 1 and not page.locator("#wall.clickable").count():
                _drag_to_discard(page)
            else:
                okey(page)
            try:
                page.wait_for_function(
                    "b => document.body.dataset.stateId !== b"
                    " || !!document.querySelector('#hand-over, #match-over')",
                    arg=before,
                    timeout=5_000,
                )
                moves[i] += 1
                moved = True
            except Exception:
                continue
        if moved:
            _check_private(pages)
        else:
            time.sleep(0.05)
    return {i: m // 2 for i, m in moves.items()}


def _drag_to_discard(page: Any) -> None:
    """Drag the first tile of the rack onto one's own discard spot."""
    piece = page.locator(".rack .piece").first.bounding_box()
    zone = page.locator("#discard-zone").bounding_box()
    a = (piece["x"] + piece["width"] / 2, piece["y"] + piece["height"] / 2)
    b = (zone["x"] + zone["width"] / 2, zone["y"] + zone["height"] / 2)
    page.mouse.move(*a)
    page.mouse.down()
    for step in range(1, 9):
        page.mouse.move(a[0] + (b[0] - a[0]) * step / 8, a[1] + (b[1] - a[1]) * step / 8)
    page.mouse.up()


def _check_private(pages: list[Any]) -> None:
    """Each page shows its own rack; no page shows a tile of another page's rack (compared
    when both pages show the same state)."""
    for _ in range(20):
        snaps = [p.evaluate(SNAPSHOT) for p in pages]
        if len({s["sid"] for s in snaps}) == 1:
            break
        time.sleep(0.05)
    else:
        return
    for i, mine in enumerate(snaps):
        assert mine["rack"], "a seated person sees their rack"
        for j, other in enumerate(snaps):
            if i != j:
                assert not set(mine["rack"]) & set(other["rack"] + other["table"])


def test_two_guests_play_okey_online_and_a_spectator_watches(guests: Guest) -> None:
    host = guests(EVIL)
    other = guests(OTHER, droppable=True)
    host.select_option("#create-game", "okey")
    host.click("#create-table")
    host.wait_for_selector("#waiting")
    table_id = str(host.get_attribute("#waiting", "data-table"))
    assert table_id in str(host.input_value("#invite-link"))
    assert host.inner_text("#people .person-name") == EVIL
    # the other guest finds the table in the lobby list (refreshed by itself) and joins it
    row = f"#lobby-tables tr[data-table='{table_id}']"
    other.wait_for_selector(row, timeout=10_000)
    assert other.inner_text(f"{row} .person-name") == EVIL
    shot(other, "online-lobby")
    other.click(f"{row} [data-join]")
    other.wait_for_selector("#waiting")
    host.wait_for_function("document.querySelectorAll('#people .person-name').length === 2")
    assert host.locator("#people .person-name").all_inner_texts() == [EVIL, OTHER]
    assert other.locator("#begin-table").count() == 0
    shot(host, "online-waiting")
    host.click("#begin-table")
    other.wait_for_selector("#countdown:has-text('starts')")
    for page in (host, other):
        page.wait_for_selector(".rack .piece", timeout=15_000)
    assert host.evaluate("document.body.dataset.seat") == "0"
    assert other.evaluate("document.body.dataset.seat") == "2"
    computer = json.loads((CATALOGS / "en.json").read_text())["seat.computer"]
    for page, me, them, mine in ((host, 0, 2, EVIL), (other, 2, 0, OTHER)):
        assert page.url.endswith(f"/online?table={table_id}")
        assert _panel_name(page, me).startswith(f"{mine} (you)")
        assert _panel_name(page, them).startswith(OTHER if mine == EVIL else EVIL)
        for bot in (1, 3):
            badge = page.locator(f"#board .seat-panel[data-seat='{bot}'] .badge:not(.level)")
            assert badge.inner_text() == computer
            level = page.locator(f"#board .seat-panel[data-seat='{bot}'] .badge.level-hard")
            assert level.count() == 1
        assert page.locator("#board img, #board b, #toolbar img").count() == 0
        assert page.locator("#board .seat-panel .dot.on").count() == 4
    shot(host, "online-table-host")
    # the online toolbar (clock, share, leave) still fits a phone held sideways
    host.set_viewport_size({"width": 844, "height": 390})
    host.wait_for_timeout(200)
    for selector in ("#toolbar button", ".seat-panel", ".rack .piece"):
        boxes = host.evaluate(MEASURE, selector)
        assert boxes and all(b["l"] >= -1 and b["r"] <= 845 and b["b"] <= 391 for b in boxes)
    felt = host.evaluate(MEASURE, "#felt")[0]
    assert felt["b"] >= 389, "the table reaches the bottom of the window"
    shot(host, "online-table-phone")
    host.set_viewport_size({"width": 1366, "height": 768})
    played = _turns([host, other], turns=3, seconds=25)
    # a reload gives the seat back with the same rack
    before = other.evaluate(SNAPSHOT)
    other.reload()
    other.wait_for_selector(".rack .piece")
    other.wait_for_function("b => document.body.dataset.stateId >= b", arg=before["sid"])
    if other.evaluate(SNAPSHOT)["sid"] == before["sid"]:
        assert sorted(other.evaluate(SNAPSHOT)["rack"]) == sorted(before["rack"])
    assert other.evaluate("document.body.dataset.seat") == "2"
    # a cut connection: the host sees the seat disconnected; net.js reconnects, the page
    # joins its table again and gets its seat back
    other.sockets[-1].close()
    host.wait_for_function("!document.querySelector(\"#board .seat-panel[data-seat='2'] .dot.on\")")
    other.wait_for_function("document.body.classList.contains('offline')")
    other.wait_for_function("!document.body.classList.contains('offline')", timeout=10_000)
    host.wait_for_selector("#board .seat-panel[data-seat='2'] .dot.on")
    other.wait_for_selector(".rack .piece")
    assert other.evaluate("document.body.dataset.seat") == "2"
    more = _turns([host, other], turns=3, seconds=25)
    total = {i: played[i] + more[i] for i in played}
    assert min(total.values()) >= 6 or host.locator("#hand-over, #match-over").count()
    # the shared score table opens
    host.click("#scores-button")
    host.wait_for_selector("#scores table.scores")
    assert EVIL in host.inner_text("#scores table.scores thead")
    host.click("#scores [data-close]")
    # a spectator (no name needed) finds the table in play in the lobby and watches it:
    # every name, no rack, no action
    watcher = guests("")
    watcher.wait_for_selector(f"{row} [data-watch]", timeout=10_000)
    watcher.click(f"{row} [data-watch]")
    watcher.wait_for_url(f"**/online?watch={table_id}")
    watcher.wait_for_selector("#board .seat-panel[data-seat='2']")
    assert watcher.evaluate("document.body.classList.contains('spectator')")
    assert watcher.locator(".rack .piece").count() == 0
    assert not watcher.evaluate("document.body.classList.contains('my-turn')")
    assert _panel_name(watcher, 0).startswith(EVIL)
    assert _panel_name(watcher, 2).startswith(OTHER)
    assert watcher.locator("#board img, #board b").count() == 0
    for _ in range(20):
        snaps = [p.evaluate(SNAPSHOT) for p in (host, other, watcher)]
        if len({s["sid"] for s in snaps}) == 1:
            seen = set(snaps[2]["table"])
            assert not seen & set(snaps[0]["rack"] + snaps[1]["rack"])
            break
        time.sleep(0.05)
    shot(watcher, "online-spectator")


def test_a_private_table_is_reached_by_its_invite_link(guests: Guest) -> None:
    host = guests("Ada")
    friend = guests("Lin")
    host.select_option("#create-game", "remi")
    host.uncheck("#create-public")
    host.click("#create-table")
    host.wait_for_selector("#waiting")
    link = host.input_value("#invite-link")
    table_id = str(host.get_attribute("#waiting", "data-table"))
    assert host.is_disabled("#begin-table")
    friend.wait_for_selector("#lobby-tables #no-tables, #lobby-tables table")
    friend.evaluate("() => new Promise((done) => setTimeout(done, 3500))")  # a lobby refresh
    assert friend.locator(f"#lobby-tables tr[data-table='{table_id}']").count() == 0
    friend.goto(link)
    friend.wait_for_selector("#waiting")
    host.wait_for_function("document.querySelectorAll('#people .person-name').length === 2")
    assert host.is_enabled("#begin-table")
    friend.click("#leave-table")
    friend.wait_for_selector("#create-form")
    assert friend.url.endswith("/online")
    host.wait_for_function("document.querySelectorAll('#people .person-name').length === 1")
    host.click("#leave-table")
    host.wait_for_selector("#create-form")


@pytest.mark.parametrize("lang", ["tr", "zh"])
def test_the_online_pages_speak_the_language(guests: Guest, lang: str) -> None:
    """The lobby, a waiting table, the table in play and its score table show no string
    outside the language's catalog (names are filled into catalog templates)."""
    page = guests("Ada")
    page.evaluate("l => localStorage.setItem('meldhall.settings', JSON.stringify({lang: l}))", lang)
    page.reload()
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    problems = {"lobby": page.evaluate(UNTRANSLATED, lang)}
    page.select_option("#create-game", "okey")
    page.click("#create-table")
    page.wait_for_selector("#waiting")
    friend = guests("Lin")
    friend.goto(page.input_value("#invite-link"))
    page.wait_for_function("document.querySelectorAll('#people .person-name').length === 2")
    problems["waiting"] = page.evaluate(UNTRANSLATED, lang)
    page.click("#begin-table")
    page.wait_for_selector(".rack .piece", timeout=15_000)
    page.wait_for_selector("#turn-clock span")
    problems["table"] = page.evaluate(UNTRANSLATED, lang)
    page.click("#scores-button")
    problems["scores"] = page.evaluate(UNTRANSLATED, lang)
    shot(page, f"online-table-{lang}")
    assert not {k: v for k, v in problems.items() if v}


def test_every_catalog_has_the_online_keys() -> None:
    english = json.loads((CATALOGS / "en.json").read_text())
    for lang in ("tr", "ru", "ro", "zh"):
        catalog = json.loads((CATALOGS / f"{lang}.json").read_text())
        assert set(messages(catalog)) == set(messages(english)), lang
        same = [k for k in english if k.startswith("online.") and catalog[k] == english[k]]
        assert set(same) <= {"online.person", "online.seconds", "online.their_time"}, same


def test_the_records_page_lists_the_guests_online_matches(guests: Guest, server: Server) -> None:
    page = guests(OTHER)
    cookie = next(c for c in page.context.cookies() if c["name"] == "meldhall_session")
    assert cookie["httpOnly"]
    rows = [(0, EVIL, EVIL, -4, 2), (2, cookie["value"], OTHER, 9, 1)]
    LobbyStore(server.store()).add_results("online-records-test", "okey", rows)
    page.goto(f"{server.url}/records")
    page.wait_for_selector("#online-results")
    row = page.inner_text("#online-results tbody tr")
    assert OTHER in row and EVIL in row
    assert page.locator("#online-results strong").inner_text() == f"{OTHER} 9"
    assert page.locator("#online-results img, #online-results b").count() == 0
    shot(page, "online-records")


def test_play_again_after_an_online_match(guests: Guest, server: Server) -> None:
    host, other = guests("Ann"), guests("Bob")
    host.select_option("#create-game", "sichuan")  # one hand is the whole match
    host.click("#create-table")
    host.wait_for_selector("#waiting")
    table_id = str(host.get_attribute("#waiting", "data-table"))
    other.goto(f"{server.url}/online?table={table_id}")
    host.wait_for_function("document.querySelectorAll('#people .person-name').length === 2")
    host.click("#begin-table")
    for page in (host, other):
        page.wait_for_selector(".rack .piece", timeout=15_000)

    # the two people finish the match quickly from a second connection of their own sessions
    tokens = [
        next(c["value"] for c in page.context.cookies() if c["name"] == "meldhall_session")
        for page in (host, other)
    ]

    async def finish() -> None:
        players = []
        for i, token in enumerate(tokens):
            client = Client(f"ws://127.0.0.1:{server.port}/ws")
            client.token = token
            await client.connect()
            await client.join(table_id)
            await client.until("state")
            players.append(client.play(rounds=99, seed=i))
        await asyncio.gather(*players)

    run(bounded(finish(), 90))
    # each page draws every state the fast clients caused (about 250): on a loaded machine
    # it finishes that backlog well after the match ends
    for page in (host, other):
        page.wait_for_selector("#match-over #rematch", timeout=60_000)
    host.click("#match-over #rematch")
    host.wait_for_selector("#waiting", timeout=10_000)
    new_table = str(host.get_attribute("#waiting", "data-table"))
    assert new_table != table_id
    other.wait_for_function(
        "k => document.querySelector('#match-over #rematch')?.textContent === k",
        arg=json.loads((CATALOGS / "en.json").read_text())["online.rematch_join"],
    )
    other.click("#match-over #rematch")
    other.wait_for_selector("#waiting")
    host.wait_for_function("document.querySelectorAll('#people .person-name').length === 2")
    assert host.locator("#people .person-name").all_inner_texts() == ["Ann", "Bob"]
    assert host.locator("#begin-table").count() == 1 and other.locator("#begin-table").count() == 0

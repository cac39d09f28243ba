"""UI.md: every table fits one screen, without scrolling, on a laptop (1366x768), on a phone
held sideways (844x390) and on a phone held upright (390x844), in every phase of a hand: at
the start, mid-hand and at the hand's end with its dialog. No element of the table lies
outside the window, no two seat areas overlap, the status line shows whole, the dialog's
primary button is in view and clickable, and a tile stays at least 28 px wide on the laptop
and the sideways phone (the upright phone keeps a two-row rack with smaller pieces).

One page per game plays a whole hand and is measured at the three sizes in each phase; in
each phase axe-core finds no critical or serious problem and every piece and control has an
accessible name (the who-can-use-it checks of tests/browser/test_a11y.py, on the same hand)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from meldhall.server.games import available_games
from tests.browser.a11y import axe_violations, unnamed
from tests.browser.conftest import Server, StateTap, engine_first_hand, shot, start_match
from tests.browser.players import PLAYERS, play_until_hand_over

pytestmark = pytest.mark.browser
GAMES = ["okey", "okey-ladder", "tile-rummy", "remi", "sichuan", "okey-cards"]
SIZES = [(1366, 768), (844, 390), (390, 844)]
UPRIGHT = (390, 844)
OWN = ".rack .piece, #hand .card-slot"
"""The player's own tiles (okey-cards: the slots of its hand)."""
SEAT_AREAS = [".area-top", ".area-left", ".area-right", ".area-bottom"]
MEASURE = """sel => [...document.querySelectorAll(sel)]
  .filter((e) => e.getClientRects().length)
  .map((e) => { const r = e.getBoundingClientRect();
    return { l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width }; })"""
"""The boxes of the shown elements matching a selector (the online page's layout test)."""

PROBLEMS = (Path(__file__).parent / "layout_problems.js").read_text()
"""Every layout problem of the page in words (elements outside the window, seat areas that
overlap, a cut status line, a hidden primary button)."""

AT_REST = """document.getAnimations().every((a) => a.playState !== 'running'
  || !!a.effect?.target?.closest?.('.countdown'))"""
"""No piece is sliding and no panel pulsing (a claim's countdown runs on): a moving piece's
box is not where it lies."""

WIDTHS = """sel => [...document.querySelectorAll(sel)]
  .filter((e) => e.getClientRects().length).map((e) => e.getBoundingClientRect().width)"""


def check_sizes(page: Any, game: str, phase: str) -> None:
    """Measure the table at every size (then go back to the first), and ask axe-core and the
    accessibility tree at the first; fail with every problem found; save a screenshot of
    each size at the hand's end."""
    found: dict[str, list[str]] = {}
    access = axe_violations(page) + [f"no name: {x}" for x in unnamed(page)]
    if access:
        found["access"] = access
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(250)
        page.wait_for_function(AT_REST)
        problems = page.evaluate(PROBLEMS, [width, height, SEAT_AREAS])
        widths = page.evaluate(WIDTHS, OWN)
        least = 20 if (width, height) == UPRIGHT else 28
        if widths and min(widths) < least:
            problems.append(f"tiles {min(widths):.0f} px wide")
        if problems:
            found[f"{width}x{height}"] = problems[:6]
            shot(page, f"fail-{game}-{phase}-{width}x{height}")
        if phase == "end":
            shot(page, f"end-{game}-{width}x{height}")
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    page.wait_for_timeout(150)
    assert not found, f"{game} {phase}: {found}"


def okey_rows_sum(page: Any, match_id: str, server: Server) -> None:
    """The okey end of hand: the winner's tiles in the engine's melds; each seat's reasons sum
    to the hand's total, which is the engine's change of that seat's score (the indicator
    penalties included), and the score sheet's row says the same."""
    rows = page.eval_on_selector_all(
        "#hand-over table.by-reason tr[data-seat]",
        "rows => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent))",
    )
    engine = engine_first_hand(server.store(), match_id)
    shown = page.eval_on_selector_all(
        "#hand-over .meld-row .meld",
        "ms => ms.map((m) => [...m.querySelectorAll('.piece')].map((p) => p.dataset.token))",
    )
    assert shown == engine["groups"]
    number = lambda text: int(text.replace("\u2212", "-").replace(",", "") or 0)  # noqa: E731
    for seat, cells in enumerate(rows):
        *reasons, hand, _total = [number(c) for c in cells]
        assert sum(reasons) == hand == engine["hand_deltas"][seat], (seat, cells, engine)
    page.click("#next-hand")
    page.wait_for_selector("#hand-over", state="detached")
    page.click("#scores-button")
    sheet = page.inner_text("#scores table")
    for delta in engine["hand_deltas"]:
        assert str(delta) in sheet
    page.click("#scores [data-close]")


def sichuan_wins_list_fans(page: Any, match_id: str, server: Server) -> None:
    """Each win of the deal names its fans (or the basic hand), its fan total and points."""
    engine = engine_first_hand(server.store(), match_id)
    catalog = json.loads(page.evaluate("fetch('/static/i18n/en.json').then(r => r.text())"))
    lines = page.locator("#mj-wins li").all_inner_texts()
    assert len(lines) == len(engine["winners"])
    for line, win in zip(lines, engine["winners"], strict=True):
        names = [catalog[f"fan.{k}"] for k in win["fans"]] or [catalog["fan.none"]]
        assert all(n in line for n in names), (line, win)
        assert f"{win['fan']} fan" in line
        assert re.search(rf"\b{win['points']} pts?\b", line), line
        if win["bonus"]:
            assert f"+{win['bonus']}" in line


@pytest.mark.parametrize("game", GAMES)
def test_every_phase_fits_every_size(page: Any, server: Server, game: str) -> None:
    if game not in available_games():
        pytest.skip(f"{game} is not available")
    match_id = start_match(page, server.url, game)
    page.wait_for_selector(OWN)
    check_sizes(page, game, "start")
    mid = lambda: check_sizes(page, game, "mid")  # noqa: E731
    play_until_hand_over(page, PLAYERS[game], shot_at=3, on_shot=mid)
    page.locator("#hand-over .hand-over, #match-over .hand-over").first.wait_for()
    check_sizes(page, game, "end")
    if game == "okey":
        okey_rows_sum(page, match_id, server)
    if game == "sichuan":
        sichuan_wins_list_fans(page, match_id, server)


def test_a_sichuan_seat_that_has_won_fits_every_size(page: Any, server: Server) -> None:
    """A sichuan seat that has won sits out the rest of the hand (blood battle): its hand is
    shown in the won meld, and no longer on the rack beside it as well (both overflowed
    the row). A real state is sent again with the seat marked as having won."""
    tap = StateTap(page)
    start_match(page, server.url, "sichuan")
    page.wait_for_selector(".rack .piece")
    message = json.loads(tap.states[-1])
    obs = message["observation"]
    seat = obs["seat"]
    hand = sorted(obs["hand"])
    obs["active"][seat] = False
    obs["winners"] = [
        {"seat": seat, "tile": hand[-1], "by": "discard", "from": (seat + 1) % 4, "hand": hand[:-1]}
    ]
    message["legal"] = []
    tap.send(json.dumps(message))
    page.wait_for_selector(".area-bottom .meld.won")
    assert page.locator(".area-bottom .rack").count() == 0
    found: dict[str, list[str]] = {}
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(250)
        page.wait_for_function(AT_REST)
        problems = page.evaluate(PROBLEMS, [width, height, SEAT_AREAS])
        if problems:
            found[f"{width}x{height}"] = problems[:6]
    assert not found, found

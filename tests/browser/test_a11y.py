"""Who can use the pages: axe-core finds no critical or serious problem on any page nor on any
game's table at the start, mid-hand and at the end of a hand; every piece and control has an
accessible name; a whole hand of okey and one of Sichuan are played with the keyboard only;
the okey rack is photographed under colour-vision deficiencies with the colour letters on."""

from __future__ import annotations

from typing import Any

import pytest

from meldhall.server.games import available_games
from tests.browser.a11y import (
    axe_violations,
    okey_by_keyboard,
    sichuan_by_keyboard,
    state,
    unnamed,
    wait_change,
)
from tests.browser.conftest import SCREENS, Server, shot, start_match
from tests.browser.players import PLAYERS, TURN, play_until_hand_over

pytestmark = pytest.mark.browser

KEYBOARD = {"okey": okey_by_keyboard, "sichuan": sichuan_by_keyboard}
MID_HAND = 4
"""The person's turn at which a table is checked mid-hand."""

FOCUS_ON_OPEN = """new MutationObserver((changes) => {
  for (const c of changes) for (const n of c.addedNodes) {
    if (['hand-over', 'match-over'].includes(n.id)) window.__focused = document.activeElement.id;
  }
}).observe(document.body, { childList: true });"""
"""Record where the focus is as the end-of-hand dialog opens (a key the player presses after
it opened may move the focus on within the dialog, as it should)."""
FOCUS_INSIDE = "!!document.activeElement.closest('#hand-over, #match-over')"
"""The focus is still inside that dialog (Tab is kept there)."""


def check(page: Any, where: str, problems: dict[str, list[str]]) -> None:
    """Record the axe violations and the unnamed pieces and controls of the page."""
    found = axe_violations(page) + [f"no name: {x}" for x in unnamed(page)]
    if found:
        problems[where] = found


def test_every_page_passes_axe(page: Any, server: Server) -> None:
    problems: dict[str, list[str]] = {}
    for path in ("/", "/records", "/settings", "/online"):
        page.goto(server.url + path)
        page.wait_for_selector("main > *")
        page.wait_for_load_state("networkidle")
        check(page, path, problems)
    for game in available_games():
        page.goto(f"{server.url}/rules/{game}")
        page.wait_for_selector("#panel-table")
        check(page, f"rules {game}", problems)
        page.click("#tab-full")
        check(page, f"rules {game} full", problems)
    assert not problems


@pytest.mark.parametrize("game", [g for g in PLAYERS if g not in KEYBOARD])
def test_a_table_passes_axe_from_start_to_end_of_hand(page: Any, server: Server, game: str) -> None:
    if game not in available_games():
        pytest.skip(f"{game} is not available")
    problems: dict[str, list[str]] = {}
    page.goto(f"{server.url}/play/{game}")
    page.wait_for_selector("#start-match")
    check(page, "start dialog", problems)
    page.click("#start-match")
    page.wait_for_function("document.body.dataset.stateId !== undefined")
    check(page, "start", problems)
    moves = {"n": 0}

    def move(p: Any) -> None:
        moves["n"] += 1
        if moves["n"] == MID_HAND:
            check(p, "mid-hand", problems)
        PLAYERS[game](p)

    play_until_hand_over(page, move)
    check(page, "end of hand", problems)
    assert not problems


@pytest.mark.parametrize("game", list(KEYBOARD))
def test_a_whole_hand_by_keyboard_only(page: Any, server: Server, game: str) -> None:
    """No mouse: the start dialog takes focus (Enter starts), Tab reaches the wall, the
    discards and the buttons, the rack is walked with the arrow keys, D discards."""
    if game not in available_games():
        pytest.skip(f"{game} is not available")
    problems: dict[str, list[str]] = {}
    page.goto(f"{server.url}/play/{game}")
    page.wait_for_selector("#start-match")
    page.evaluate(FOCUS_ON_OPEN)
    assert page.evaluate("document.activeElement.id") == "start-match"
    check(page, "start dialog", problems)
    page.keyboard.press("Enter")
    page.wait_for_function("document.body.dataset.stateId !== undefined")
    check(page, "start", problems)
    for turn in range(400):
        page.wait_for_function(TURN, timeout=90_000)
        if page.locator("#hand-over, #match-over").count():
            break
        if turn == MID_HAND:
            check(page, "mid-hand", problems)
        before = state(page)
        KEYBOARD[game](page)
        wait_change(page, before)
    else:
        raise AssertionError("the hand did not end")
    page.wait_for_selector("#hand-over .hand-over, #match-over .hand-over")
    focused = page.evaluate("document.activeElement.outerHTML.slice(0, 160)")
    assert page.evaluate("window.__focused") in ("next-hand", "play-again"), focused
    assert page.evaluate(FOCUS_INSIDE), focused
    check(page, "end of hand", problems)
    assert not problems


def test_dialogs_are_modal_named_and_give_focus_back(page: Any, server: Server) -> None:
    start_match(page, server.url, "okey")
    page.focus("#scores-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#scores[role=dialog][aria-modal=true]")
    title = page.evaluate(
        "document.getElementById(document.getElementById('scores')"
        ".getAttribute('aria-labelledby')).textContent"
    )
    assert title.strip()
    assert page.evaluate("document.getElementById('scores').contains(document.activeElement)")
    for _ in range(6):
        page.keyboard.press("Tab")
        assert page.evaluate("document.getElementById('scores').contains(document.activeElement)")
    page.keyboard.press("Escape")
    page.wait_for_selector("#scores", state="detached")
    assert page.evaluate("document.activeElement.id") == "scores-button"


def test_the_okey_rack_under_colour_vision_deficiencies(page: Any, server: Server) -> None:
    """Screenshots of the rack with the colour letters on, as protanopes and deuteranopes
    see it (Chromium's emulation)."""
    page.goto(f"{server.url}/settings")
    page.check("#set-letters")
    start_match(page, server.url, "okey")
    page.wait_for_selector(".rack .piece .cb")
    assert page.evaluate("getComputedStyle(document.querySelector('.rack .piece .cb')).display")
    assert page.eval_on_selector(".rack .piece .cb", "e => getComputedStyle(e).display") != "none"
    cdp = page.context.new_cdp_session(page)
    SCREENS.mkdir(parents=True, exist_ok=True)
    for vision in ("protanopia", "deuteranopia", "none"):
        cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": vision})
        if vision != "none":
            page.locator(".rack").screenshot(path=str(SCREENS / f"okey-rack-{vision}.png"))
    cdp.detach()
    shot(page, "okey-table-colour-letters")

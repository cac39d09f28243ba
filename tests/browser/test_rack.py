"""The rack: dragging a tile reorders it (mouse, and touch through Chromium's touch input),
the arrangement survives a reload, the sort buttons lay the tiles out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.conftest import Server, StateTap, start_match

pytestmark = pytest.mark.browser


def _slots(page: Any) -> list[str | None]:
    return [
        str(t) if t else None
        for t in page.locator(".rack .slot").evaluate_all(
            "slots => slots.map(s => s.firstChild ? s.firstChild.dataset.token : null)"
        )
    ]


def _drag_plan(page: Any) -> tuple[str, int, dict[str, float], dict[str, float]]:
    """Return a tile, an empty slot index, and the centres of both."""
    slots = _slots(page)
    source = next(i for i, t in enumerate(slots) if t)
    target = max(i for i, t in enumerate(slots) if t is None)
    a = page.locator(".rack .slot").nth(source).bounding_box()
    b = page.locator(".rack .slot").nth(target).bounding_box()
    centre = lambda box: {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}  # noqa: E731
    return str(slots[source]), target, centre(a), centre(b)


def _mouse_drag(
    page: Any, a: dict[str, float], b: dict[str, float], midway: Callable[[], None] | None = None
) -> None:
    """Drag with the mouse from ``a`` to ``b`` in eight steps, calling ``midway`` halfway."""
    page.mouse.move(a["x"], a["y"])
    page.mouse.down()
    for step in range(1, 9):
        page.mouse.move(
            a["x"] + (b["x"] - a["x"]) * step / 8, a["y"] + (b["y"] - a["y"]) * step / 8
        )
        if step == 4 and midway is not None:
            midway()
    page.mouse.up()


def test_mouse_drag_reorders_the_rack_and_survives_a_reload(page: Any, server: Server) -> None:
    start_match(page, server.url, "okey")
    page.wait_for_selector(".rack .piece")
    token, target, a, b = _drag_plan(page)
    _mouse_drag(page, a, b)
    assert _slots(page)[target] == token
    page.reload()
    page.wait_for_selector(".rack .piece")
    assert _slots(page)[target] == token


def test_touch_drag_reorders_the_rack(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, has_touch=True)
    page = context.new_page()
    try:
        start_match(page, server.url, "okey-ladder")
        page.wait_for_selector(".rack .piece")
        token, target, a, b = _drag_plan(page)
        cdp = context.new_cdp_session(page)

        def touch(kind: str, x: float, y: float) -> None:
            points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        touch("touchStart", a["x"], a["y"])
        for step in range(1, 9):
            touch(
                "touchMove",
                a["x"] + (b["x"] - a["x"]) * step / 8,
                a["y"] + (b["y"] - a["y"]) * step / 8,
            )
        touch("touchEnd", b["x"], b["y"])
        page.wait_for_function(
            f"document.querySelectorAll('.rack .slot')[{target}].firstChild?.dataset.token"
            f" === '{token}'"
        )
    finally:
        context.close()


def test_sort_buttons_lay_out_runs_and_groups(page: Any, server: Server) -> None:
    start_match(page, server.url, "okey")
    page.wait_for_selector(".rack .piece")
    tokens = sorted(t for t in _slots(page) if t)
    joker = str(page.locator(".info-box .piece").get_attribute("data-token"))[:-1]
    page.click("[data-sort=groups]")
    numbers = [int(t[1:-1]) for t in _slots(page) if t and t[0] != "J" and t[:-1] != joker]
    assert numbers == sorted(numbers)
    page.click("[data-sort=runs]")
    assert sorted(t for t in _slots(page) if t) == tokens


def test_double_click_turns_a_joker_face_down(page: Any, server: Server) -> None:
    """Seed 004: a double click turns a real joker face down on one's own rack, and back.
    New matches are dealt (through the page) until the rack holds a joker."""
    start_match(page, server.url, "okey")
    jokers: list[str] = []
    for _ in range(25):
        page.wait_for_selector(".rack .piece")
        face = str(page.locator(".info-box .piece").get_attribute("data-token"))[:-1]
        jokers = [t for t in _slots(page) if t and t[:-1] == face]
        if jokers:
            break
        shown = page.evaluate("document.body.dataset.stateMatch")
        page.click("#toolbar button:has-text('New match')")
        page.click(".dialog .primary")
        page.click("#start-match")
        page.wait_for_function("m => document.body.dataset.stateMatch !== m", arg=shown)
    if not jokers:
        pytest.skip("no joker was dealt in 25 matches")
    piece = f".rack .piece[data-token='{jokers[0]}']"
    page.dblclick(piece)
    assert "down" in (page.get_attribute(piece, "class") or "")
    page.dblclick(piece)
    assert "down" not in (page.get_attribute(piece, "class") or "")


@pytest.mark.parametrize("game", ["okey", "sichuan"])
def test_a_state_arriving_mid_drag_keeps_the_drag(page: Any, server: Server, game: str) -> None:
    """A computer's move arrives while the player drags a tile: the page draws the new state
    and the drag goes on (the rack never leaves the page)."""
    tap = StateTap(page)
    start_match(page, server.url, game)
    page.wait_for_selector(".rack .piece")
    token, target, a, b = _drag_plan(page)

    def midway() -> None:
        tap.send(tap.states[-1])  # the same state again: the page draws it anew
        page.wait_for_timeout(100)

    _mouse_drag(page, a, b, midway)
    assert _slots(page)[target] == token

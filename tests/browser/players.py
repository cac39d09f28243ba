"""How a person plays each game through the page: clicks on the wall, the rack and the
buttons, exactly what a player would do (no shortcut around the page). Each function makes
one move when it is the person's turn."""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import combinations
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from meldhall.games.registry import GAME_MODULES, find_game, game_ids

Move = Callable[[Any], None]


def _visible(page: Any, selector: str) -> bool:
    return bool(page.locator(selector).count())


def _click(page: Any, selector: str) -> bool:
    """Click the first element matching ``selector``; False when it went away first (the
    table moved on), and the caller looks again."""
    try:
        page.locator(selector).first.click(timeout=4_000)
    except PlaywrightTimeout:
        return False
    return True


def _unselect(page: Any, pieces: str) -> None:
    """Click every selected piece once more, as a person clears a selection left over (a
    click that timed out under load must not leave a tile selected for the next move)."""
    selected = page.locator(f"{pieces}.selected")
    for _ in range(selected.count()):
        try:
            selected.first.click(timeout=4_000)
        except PlaywrightTimeout:
            return


def select_then(page: Any, button: str, pieces: str = ".rack .piece") -> bool:
    """Click rack pieces one by one (the newest first) until ``button`` is offered; click it.
    Each piece is found again by its token, so a redrawn rack never turns a click into
    another tile's."""
    _unselect(page, pieces)
    fresh = _tokens(page, f"{pieces}.fresh")
    order = fresh + [t for t in _tokens(page, pieces) if t not in fresh]
    for token in order:
        piece = page.locator(f"{pieces}[data-token='{token}']")
        try:
            piece.click(timeout=4_000)
            if _visible(page, button):
                return _click(page, button)
            if _visible(page, f"{pieces}.selected"):
                piece.click(timeout=4_000)
        except PlaywrightTimeout:
            return False
    return False


def _discard(page: Any) -> None:
    if select_then(page, "#act-discard") and _visible(page, "#confirm-discard"):
        _click(page, "#confirm-discard")


def okey(page: Any) -> None:
    if _visible(page, "#act-end"):
        _click(page, "#act-end")
    elif _visible(page, "#wall.clickable"):
        _click(page, "#wall")
    else:
        _discard(page)


def _discard_safely(page: Any) -> None:
    """Discard a tile the table does not warn about; confirm a costly one only when every
    tile is costly (as a careful player would)."""
    _unselect(page, ".rack .piece")
    for token in _tokens(page, ".rack .piece"):
        piece = page.locator(f".rack .piece[data-token='{token}']")
        try:
            piece.click(timeout=4_000)
            if not _visible(page, "#act-discard"):
                piece.click(timeout=4_000)
                continue
            page.click("#act-discard", timeout=4_000)
            if not _visible(page, "#confirm-discard"):
                return
            page.click("#confirm [data-close]", timeout=4_000)
            _unselect(page, ".rack .piece")
        except PlaywrightTimeout:
            return
    _discard(page)


def okey_ladder(page: Any) -> None:
    if _visible(page, "#wall.clickable"):
        _click(page, "#wall")
    else:
        _discard_safely(page)


def tile_rummy(page: Any) -> None:
    if _visible(page, "#act-end"):
        _click(page, "#act-end")
    elif _visible(page, "#wall.clickable"):
        _click(page, "#wall")
    else:
        _discard(page)


def remi(page: Any) -> None:
    if _visible(page, "#wall.clickable"):
        _click(page, "#wall")
    else:
        _discard(page)


def sichuan(page: Any) -> None:
    for selector in ("[data-claim=win]", "[data-claim=pass]", "[data-suit]", "#act-win"):
        if _visible(page, selector):
            _click(page, selector)
            return
    _discard(page)


def _tokens(page: Any, selector: str) -> list[str]:
    return [str(t) for t in page.locator(selector).evaluate_all("e => e.map(x => x.dataset.token)")]


def _combo(cards: list[str]) -> bool:
    numbers = sorted(int(c[1:]) for c in cards)
    return len(set(numbers)) == 1 or numbers == list(range(numbers[0], numbers[0] + 3))


def okey_cards(page: Any) -> None:
    if _visible(page, "#wall.clickable"):
        page.click("#wall")
        return
    field = _tokens(page, "#field .piece")
    hand = _tokens(page, "#hand .piece")
    for trio in combinations(field + hand, 3):
        if set(field) <= set(trio) and _combo(list(trio)):
            card = next(c for c in trio if c not in field)
            page.click(f"#hand .piece[data-token='{card}']")
            page.click("#act-field")
            return
    if field:
        page.click(f"#field .piece[data-token='{field[0]}']")
        return
    page.click(f"#hand .piece[data-token='{hand[0]}']")
    page.click("#act-discard")
    page.click("#confirm-discard")


PLAYERS: dict[str, Move] = {
    game: globals()[GAME_MODULES[game].rsplit(".", 1)[1]] for game in game_ids()
}
"""The person's move of every registered game: the function named after its package (a
game without one fails here, at import)."""

RESULT_FIELD = {game: find_game(game).hand_result for game in game_ids()}
"""The field of each game's hand_over event that the end-of-hand screen states per seat."""

TURN = (
    "document.body.classList.contains('my-turn')"
    " || !!document.querySelector('#hand-over, #match-over')"
)


STUCK = """() => ({ state: document.body.dataset.stateId,
  status: document.getElementById('status')?.textContent,
  rack: [...document.querySelectorAll('.rack .piece, #hand .piece')].map((p) => p.dataset.token),
  buttons: [...document.querySelectorAll('#board button')].map((b) => b.id || b.textContent) })"""
"""What the page shows when the person's moves stop taking: the failure's evidence."""


def play_until_hand_over(page: Any, move: Move, *, shot_at: int = 6, on_shot: Any = None) -> None:
    """Make the person's moves until the end-of-hand (or match-over) screen shows; fail with
    what the page shows when three moves in a row change nothing (a move the page does not
    offer, or a table that stopped taking moves)."""
    missed = 0
    for turn in range(600):
        page.wait_for_function(TURN, timeout=90_000)
        if _visible(page, "#hand-over, #match-over"):
            return
        if turn == shot_at and on_shot is not None:
            on_shot()
        before = int(page.evaluate("document.body.dataset.stateId"))
        move(page)
        try:
            page.wait_for_function(
                f"Number(document.body.dataset.stateId) !== {before}"
                " || !!document.querySelector('#hand-over, #match-over')",
                timeout=10_000,
            )
            missed = 0
        except PlaywrightTimeout:
            missed += 1
            if missed >= 3:
                raise AssertionError(f"the moves stopped taking: {page.evaluate(STUCK)}") from None
    raise AssertionError("the hand did not end")


def start_with_options(page: Any, options: dict[str, Any], level: str | None = None) -> None:
    """Make the page's next solo ``start`` message carry these game options (an explicit deal
    for a test) and, when given, the computers' ``level`` (a test that scripts what the
    computers do asks for ``normal``: the greedy bots); call before the page is opened. The
    page sends no options of its own."""
    extra = {"options": options, **({"level": level} if level else {})}
    page.add_init_script(
        "(() => { const extra = " + json.dumps(extra) + ";"
        " const send = WebSocket.prototype.send;"
        " WebSocket.prototype.send = function (data) {"
        "  const m = typeof data === 'string' && data.startsWith('{') ? JSON.parse(data) : null;"
        "  if (m && m.type === 'start') data = JSON.stringify({ ...m, ...extra });"
        "  return send.call(this, data); }; })();"
    )


def drag(page: Any, source: str, target: str, *, right: bool = False) -> None:
    """Drag the element ``source`` with the mouse onto the element ``target`` (its centre, or
    its right quarter), in small steps as a hand would."""
    a = page.locator(source).bounding_box()
    b = page.locator(target).bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1 = b["x"] + b["width"] * (0.75 if right else 0.5)
    y1 = b["y"] + b["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(x0 + (x1 - x0) * step / 10, y0 + (y1 - y0) * step / 10)
    page.mouse.up()

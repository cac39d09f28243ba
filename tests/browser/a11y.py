"""Accessibility helpers of the browser tests: axe-core (installed from npm by `make browser`)
injected into a page, the accessible names of the table from Chromium's own accessibility
tree, and moves made with the keyboard only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import ROOT

AXE = ROOT / "build" / "node" / "node_modules" / "axe-core" / "axe.min.js"
GRAVE = ("critical", "serious")

RUN_AXE = """
async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.filter((v) => ['critical', 'serious'].includes(v.impact))
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' '))}`);
}
"""


def axe_violations(page: Any) -> list[str]:
    """Return the critical and serious axe-core violations on the page as it is now."""
    if not AXE.is_file():
        raise AssertionError(f"axe-core is not installed at {AXE}: run `make browser`")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found: list[str] = page.evaluate(RUN_AXE)
    return found


NAMED_ROLES = {"button", "option", "img", "link", "listbox", "textbox", "combobox", "checkbox"}
NAMED_ROLES |= {"slider", "dialog", "tab", "radio", "menuitem", "spinbutton"}


def unnamed(page: Any) -> list[str]:
    """Return the controls and pieces of the page that have no accessible name, from the
    browser's accessibility tree (role: the DOM ids or tokens are not visible there, so the
    description is the role and the text around it)."""
    cdp = page.context.new_cdp_session(page)
    try:
        tree = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    bad = []
    for node in tree:
        if node.get("ignored"):
            continue
        role = (node.get("role") or {}).get("value", "")
        name = str((node.get("name") or {}).get("value", "")).strip()
        if role in NAMED_ROLES and not name:
            bad.append(f"{role} #{node.get('backendDOMNodeId')}")
    pieces = page.evaluate(
        "[...document.querySelectorAll('.piece')].filter((p) => !p.closest('[aria-hidden=true]')"
        " && !p.classList.contains('ghost') && !(p.getAttribute('aria-label') || '').trim())"
        ".map((p) => p.dataset.token || 'back')"
    )
    return bad + [f"piece {p}" for p in pieces]


def tab_to(page: Any, selector: str, limit: int = 120) -> bool:
    """Press Tab until the focused element matches `selector`; False if it never does."""
    check = f"!!document.activeElement && document.activeElement.matches({selector!r})"
    for _ in range(limit):
        if page.evaluate(check):
            return True
        page.keyboard.press("Tab")
    return bool(page.evaluate(check))


def state(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.stateId)"))


def wait_change(page: Any, before: int, timeout: int = 10_000) -> bool:
    """Wait until the table moved on from state `before` (or a hand ended)."""
    try:
        page.wait_for_function(
            f"Number(document.body.dataset.stateId) !== {before}"
            " || !!document.querySelector('#hand-over, #match-over')",
            timeout=timeout,
        )
    except PlaywrightTimeout:
        return False
    return True


def press_on(page: Any, selector: str, key: str = "Enter") -> bool:
    """Tab to a control and press a key on it; return whether the control was reached."""
    if not tab_to(page, selector):
        return False
    page.keyboard.press(key)
    return True


def discard_by_keyboard(page: Any) -> bool:
    """On the rack: walk the tiles with the arrow keys, select one with Enter, and press D
    once the table offers to discard it (deselect and go on otherwise)."""
    if not tab_to(page, ".rack [role=option]"):
        return False
    count = page.locator(".rack [role=option]").count()
    clear_selection(page, count)
    for _ in range(count):
        page.keyboard.press("Enter")
        if page.locator("#act-discard").count():
            page.keyboard.press("d")
            return True
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
    return False


def clear_selection(page: Any, count: int) -> None:
    """Walk the rack from its first tile and deselect every selected tile (Enter)."""
    for _ in range(count):
        page.keyboard.press("ArrowLeft")
    for _ in range(count):
        if page.evaluate("document.activeElement.getAttribute('aria-selected') === 'true'"):
            page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
    for _ in range(count):
        page.keyboard.press("ArrowLeft")


def select_by_keyboard(page: Any, tokens: list[str]) -> None:
    """Select these rack tiles with the arrow keys and Enter (focus starts on the rack)."""
    tab_to(page, ".rack [role=option]")
    order: list[str] = page.locator(".rack [role=option]").evaluate_all(
        "e => e.map(x => x.dataset.token)"
    )
    clear_selection(page, len(order))
    for i, token in enumerate(order):
        if token in tokens:
            page.keyboard.press("Enter")
        if i < len(order) - 1:
            page.keyboard.press("ArrowRight")


KeyMove = Callable[[Any], None]


def okey_by_keyboard(page: Any) -> None:
    """One okey move by keyboard: end the hand, draw from the centre, or discard."""
    if page.locator("#act-end").count():
        press_on(page, "#act-end")
    elif page.locator("#wall[role=button]").count():
        press_on(page, "#wall")
    else:
        discard_by_keyboard(page)


def sichuan_by_keyboard(page: Any) -> None:
    """One Sichuan move by keyboard: win, pass a claim, pass three tiles, choose the missing
    suit, or discard."""
    for selector in ("[data-claim=win]", "#act-win", "[data-claim=pass]", "[data-suit]"):
        if page.locator(selector).count():
            press_on(page, selector)
            return
    if exchange_phase(page):
        tokens = page.locator(".rack [role=option]").evaluate_all(
            "e => e.map(x => x.dataset.token)"
        )
        by_suit: dict[str, list[str]] = {}
        for tok in tokens:
            by_suit.setdefault(tok[1], []).append(tok)
        three = next(v[:3] for v in by_suit.values() if len(v) >= 3)
        select_by_keyboard(page, three)
        press_on(page, "#act-exchange")
        return
    discard_by_keyboard(page)


def exchange_phase(page: Any) -> bool:
    """Return whether the Sichuan table asks for three tiles to pass."""
    key = "document.querySelector('#status [data-i18n]')?.dataset.i18n"
    return bool(page.evaluate(f"{key} === 'mj.status_exchange'"))

"""UI.md: every table fits one screen, without scrolling, on a laptop (1366x768) and on a phone
held sideways (844x390): the page does not scroll, and the rack's tiles, the seats and the
toolbar's buttons lie inside the window; a tile stays at least 28 px wide on the phone."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Server, shot, start_match

pytestmark = pytest.mark.browser
GAMES = ["okey", "okey-ladder", "tile-rummy", "remi", "sichuan", "okey-cards"]
SIZES = [(1366, 768), (844, 390)]
OWN = ".rack .piece, #hand .card-slot"
"""The player's own tiles (okey-cards: the slots of its hand)."""
MEASURE = """sel => [...document.querySelectorAll(sel)]
  .filter((e) => e.getClientRects().length)
  .map((e) => { const r = e.getBoundingClientRect();
    return { l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width }; })"""


@pytest.mark.parametrize("game", GAMES)
def test_the_table_fits_one_screen(page: Any, server: Server, game: str) -> None:
    start_match(page, server.url, game)
    page.wait_for_selector(OWN)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)
        scroll = page.evaluate(
            "() => [document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight]"
        )
        assert scroll == [width, height], f"{game} scrolls at {width}x{height}"
        for selector in (OWN, "#toolbar button", ".seat-panel"):
            boxes = page.evaluate(MEASURE, selector)
            assert boxes or selector == ".seat-panel", f"{game}: nothing matches {selector}"
            outside = [
                b
                for b in boxes
                if b["l"] < -1 or b["t"] < -1 or b["r"] > width + 1 or b["b"] > height + 1
            ]
            assert not outside, f"{game} at {width}x{height}: {selector} outside {outside[:2]}"
        tiles = page.evaluate(MEASURE, OWN)
        assert min(b["w"] for b in tiles) >= 28, f"{game}: rack tiles too narrow at {width}px"
        shot(page, f"layout-{game}-{width}x{height}")

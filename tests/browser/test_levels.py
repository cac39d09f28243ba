"""A solo match at each level: the start dialog offers the levels the server lists (hard
chosen first), the computers sit at the chosen level, every opponent's seat panel shows it,
and the person plays moves against them through the page."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Server
from tests.browser.players import PLAYERS, TURN

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_solo_match_at_each_level(page: Any, server: Server, level: str) -> None:
    page.goto(f"{server.url}/play/remi")
    page.wait_for_selector("#level")
    assert page.locator("#level").input_value() == "hard"
    offered = page.locator("#level option").evaluate_all("o => o.map(x => x.value)")
    assert offered == ["easy", "normal", "hard"]
    page.select_option("#level", level)
    page.click("#start-match")
    page.wait_for_function("document.body.dataset.stateId !== undefined")
    match_id = page.evaluate("document.body.dataset.match")
    page.wait_for_selector(f".seat-panel .badge.level-{level}")
    assert page.locator(f".seat-panel .badge.level-{level}").count() == 3
    data = server.store().load_match(match_id)
    assert data is not None
    assert [p.get("level") for p in data.players if p["kind"] == "bot"] == [level] * 3
    for _ in range(3):
        page.wait_for_function(TURN, timeout=90_000)
        if page.locator("#hand-over, #match-over").count():
            break
        before = page.evaluate("document.body.dataset.stateId")
        PLAYERS["remi"](page)
        page.wait_for_function(f"document.body.dataset.stateId !== '{before}'")
    page.reload()
    page.wait_for_selector(f".seat-panel .badge.level-{level}")

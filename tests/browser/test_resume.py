"""A reload mid-hand and a server restart mid-hand bring back the same position."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, start_match
from tests.browser.players import PLAYERS, TURN

pytestmark = pytest.mark.browser


def _position(page: Any) -> dict[str, Any]:
    page.wait_for_function(TURN)
    return {
        "state": page.evaluate("document.body.dataset.stateId"),
        "rack": sorted(
            page.locator(".rack .piece").evaluate_all("e => e.map(x => x.dataset.token)")
        ),
        "slots": page.locator(".rack .slot").evaluate_all(
            "s => s.map(x => x.firstChild ? x.firstChild.dataset.token : null)"
        ),
        "table": page.locator(".area-center .piece[data-token]").evaluate_all(
            "e => e.map(x => x.dataset.token)"
        ),
    }


def _play_some(page: Any, game: str, moves: int) -> None:
    for _ in range(moves):
        page.wait_for_function(TURN)
        before = page.evaluate("document.body.dataset.stateId")
        PLAYERS[game](page)
        page.wait_for_function(f"document.body.dataset.stateId !== '{before}'")


def test_a_reload_mid_hand_resumes_the_same_position(page: Any, server: Server) -> None:
    start_match(page, server.url, "okey-ladder")
    _play_some(page, "okey-ladder", 4)
    before = _position(page)
    page.reload()
    page.wait_for_selector(".rack .piece")
    assert _position(page) == before


def test_a_server_restart_mid_hand_resumes_the_same_position(page: Any, tmp_path: Path) -> None:
    own = Server(tmp_path)
    own.start()
    try:
        start_match(page, own.url, "okey")
        _play_some(page, "okey", 3)
        before = _position(page)
        own.stop()
        page.wait_for_function("document.body.classList.contains('offline')")
        own.start()
        page.wait_for_function("!document.body.classList.contains('offline')", timeout=20_000)
        assert _position(page) == before
        page.reload()
        page.wait_for_selector(".rack .piece")
        assert _position(page) == before
    finally:
        own.stop()

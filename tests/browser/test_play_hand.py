"""A whole solo hand of every game, played through the page only, and the end-of-hand screen
checked against the engine's own result (replayed from the stored log)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from meldhall.server.games import available_games
from tests.browser.conftest import Server, engine_first_hand, shot, start_match
from tests.browser.players import PLAYERS, RESULT_FIELD, play_until_hand_over
from tests.browser.test_i18n import UNTRANSLATED, set_language

pytestmark = pytest.mark.browser

LANGUAGE = {
    "okey": "en",
    "okey-ladder": "tr",
    "tile-rummy": "ro",
    "remi": "ru",
    "sichuan": "zh",
    "okey-cards": "en",
}
"""The end-of-hand screen of each game is also checked for untranslated strings in one
language."""


@pytest.mark.parametrize("game", list(PLAYERS))
def test_a_whole_hand_through_the_page(page: Any, server: Server, game: str) -> None:
    if game not in available_games():
        pytest.skip(f"{game} is not available")
    set_language(page, server.url, LANGUAGE[game])
    match_id = start_match(page, server.url, game)
    play_until_hand_over(page, PLAYERS[game], on_shot=lambda: shot(page, f"{game}-table"))
    screen = page.locator("#hand-over .hand-over, #match-over .hand-over").first
    screen.wait_for()
    shot(page, f"{game}-hand-over")
    shown = json.loads(screen.get_attribute("data-result") or "null")
    engine = engine_first_hand(server.store(), match_id)
    expected = engine[RESULT_FIELD[game]]
    expected = expected if isinstance(expected, list) else [expected]
    assert shown == expected
    text = re.sub(r"(?<=\d)[\s.,\u00a0\u202f](?=\d{3})", "", screen.inner_text())
    for value in expected:
        assert str(abs(value)) in text
    assert page.evaluate(UNTRANSLATED, LANGUAGE[game]) == []
    if page.locator("#next-hand").count():
        page.click("#next-hand")
        page.wait_for_selector("#hand-over", state="detached")


def test_a_finished_match_is_recorded_published_and_verified(page: Any, server: Server) -> None:
    """The solo game of one hand ends the match: the result enters the records, the player
    publishes it under a name that stays text, and the verification page replays the log."""
    if "okey-cards" not in available_games():
        pytest.skip("okey-cards is not available")
    set_language(page, server.url, "en")
    match_id = start_match(page, server.url, "okey-cards")
    play_until_hand_over(page, PLAYERS["okey-cards"])
    page.wait_for_selector("#match-over #revealed-secret")
    name = "<b>Ada</b> & co"
    page.fill("#publish-name", name)
    page.click(".publish button[type=submit]")
    page.wait_for_selector(".publish [data-i18n='records.published']")
    page.goto(f"{server.url}/records")
    page.wait_for_selector("table.list")
    assert page.locator(f"td:text-is('{name}')").count() == 1
    assert page.locator("table.list b").count() == 0
    shot(page, "records")
    page.goto(f"{server.url}/verify/{match_id}")
    page.wait_for_selector("#replay-verdict")
    assert "ok" in (page.get_attribute("#commit-verdict", "class") or "")
    assert "ok" in (page.get_attribute("#replay-verdict", "class") or "")
    shot(page, "verify")

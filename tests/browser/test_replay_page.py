"""The replay page: a solo match finished through the page, then replayed step by step to its
end (at every step the pieces on the board are the engine's observation of that step), then
reviewed by the strong computer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meldhall.core.matchfile import from_json, steps
from meldhall.server.games import available_games
from tests.browser.conftest import Server, shot, start_match
from tests.browser.players import PLAYERS, play_until_hand_over
from tests.browser.test_i18n import set_language

pytestmark = pytest.mark.browser

BOARD_TOKENS = "[...document.querySelectorAll('#board [data-token]')].map((e) => e.dataset.token)"


def test_a_finished_match_replays_step_by_step(page: Any, server: Server) -> None:
    set_language(page, server.url, "en")
    match_id = start_match(page, server.url, "okey-cards")
    play_until_hand_over(page, PLAYERS["okey-cards"])
    page.wait_for_selector("#match-over #replay-link")
    file_json = page.evaluate(
        "async (id) => (await fetch(`/api/matches/${id}/file`)).json()", match_id
    )
    file, game = from_json(file_json, available_games())
    seen = [step.state.observation(0) for step in steps(file, game)]

    page.goto(f"{server.url}/replay/{match_id}")
    page.wait_for_function("document.body.dataset.replayStep === '0'")
    assert page.locator("#replay-download").count() == 1
    for index, observation in enumerate(seen, start=1):
        page.click("#replay-forward")
        page.wait_for_function(f"document.body.dataset.replayStep === '{index}'")
        on_board = page.evaluate(BOARD_TOKENS)
        text = json.dumps(observation)
        assert all(f'"{tok}"' in text for tok in on_board), (index, on_board)
        assert set(observation["hand"]) <= set(on_board), (index, observation["hand"])
        if index == 10:
            page.click("#replay-back")
            page.wait_for_function("document.body.dataset.replayStep === '9'")
            page.click("#replay-forward")
            page.wait_for_function("document.body.dataset.replayStep === '10'")
    page.wait_for_selector("#hand-over .hand-over")
    shot(page, "replay-end")
    assert page.evaluate("document.body.dataset.replayStep") == str(len(seen))
    page.click("#next-hand")  # the end-of-hand dialog steps on; at the end it stays put
    page.keyboard.press("Escape")
    page.locator("#review-start").click()
    summary = page.locator("#review-summary")
    summary.wait_for(timeout=120_000)
    assert "%" in summary.inner_text()
    shot(page, "replay-review")


def test_a_downloaded_match_file_replays_and_verifies(
    page: Any, server: Server, tmp_path: Path
) -> None:
    """The file of a finished match opens again in the replay page and verifies on the verify
    page; the same file with one action changed fails, naming that action."""
    set_language(page, server.url, "en")
    match_id = start_match(page, server.url, "okey-cards")
    play_until_hand_over(page, PLAYERS["okey-cards"])
    page.wait_for_selector("#match-over #replay-link")
    file_json = page.evaluate(
        "async (id) => (await fetch(`/api/matches/${id}/file`)).json()", match_id
    )
    path = tmp_path / "match.json"
    path.write_text(json.dumps(file_json))
    page.goto(f"{server.url}/replay")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_function("document.body.dataset.replayStep === '0'")
    file, game = from_json(file_json, available_games())
    first = next(steps(file, game)).state.observation(0)
    page.click("#replay-forward")
    page.wait_for_function("document.body.dataset.replayStep === '1'")
    assert set(first["hand"]) <= set(page.evaluate(BOARD_TOKENS))

    page.goto(f"{server.url}/verify")
    page.set_input_files("#verify-file", str(path))
    page.wait_for_selector("#file-verdict.ok")
    changed = dict(file_json, checks=[*file_json["checks"][:4], "0" * 12, *file_json["checks"][5:]])
    other = tmp_path / "changed.json"
    other.write_text(json.dumps(changed))
    page.set_input_files("#verify-file", str(other))
    page.wait_for_selector("#file-verdict.bad")
    assert "action 4 " in page.inner_text("#file-verdict")

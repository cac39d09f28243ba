"""The table says why, with the engine's numbers (issue 17): an okey-ladder opening below the
need goes back to the rack with "Laid 3, need 17" (and the live total shows while it lies
there), a remi selection shows its worth as an opening while it is chosen ("Worth 9 of 30")
and an opening worth too little is refused with "Opening worth 9 of 30", and a
tile-rummy take is refused, then made, with its numbers. Each deal is explicit; the numbers
expected are the engine's own, asked of the engine here."""

from __future__ import annotations

from typing import Any

import pytest

from meldhall.core.errors import IllegalAction
from meldhall.core.tiles import split_tokens
from meldhall.games.okey_ladder.pieces import TOKEN as LADDER_TILES
from meldhall.games.registry import find_game
from meldhall.games.remi.pieces import TOKEN as CARDS
from meldhall.games.tile_rummy.pieces import token as rummy_token
from tests.browser.conftest import Server, shot, start_match
from tests.browser.players import start_with_options

pytestmark = pytest.mark.browser

SEED = b"\x01" * 32
"""Any seed: the explicit deals fix everything these checks look at."""


def _click_all(page: Any, tokens: list[str], where: str = ".rack") -> None:
    for tok in tokens:
        page.click(f"{where} .piece[data-token='{tok}']")


def _open_history(page: Any) -> None:
    """Open the move history panel (its lines are drawn while it is open)."""
    if page.locator("#history[hidden]").count():
        page.click("#history-button")
    page.wait_for_selector("#history:not([hidden])")


def _refusal(page: Any) -> str:
    """Return the words of the latest refusal in the move history."""
    _open_history(page)
    line = page.locator("#history-list .move.refused").last
    line.wait_for(state="attached")
    return str(line.text_content())


# ---------------------------------------------------------------- okey-ladder

RUN = ["R2a", "R3a", "R4a"]
SPARE = "B9a"


def _ladder_options() -> dict[str, Any]:
    """Seat 0 holds R2 R3 R4 and twelve scattered tiles; the indicator K13 makes K1 the
    joker, and no seat holds one."""
    others = [*split_tokens("Y7a K5a Y11a B2a R9a K9b Y4a B13a R12a K7a Y1a"), SPARE]
    used = set(RUN + others)
    pool = [t for t in LADDER_TILES if t not in used and not t.startswith(("K1a", "K1b", "K13a"))]
    pool = [t for t in pool if t[0] != "J"]
    hands = [RUN + others, pool[0:14], pool[14:28], pool[28:42]]
    return {
        "deal": "explicit",
        "indicator": "K13a",
        "hands": [" ".join(h) for h in hands],
        "first_player": 0,
    }


def _ladder_laid(options: dict[str, Any]) -> dict[str, int]:
    game = find_game("okey-ladder")
    state = game.new_state(game.options(options), 4, SEED)
    state.apply(0, game.action_from_json({"type": "meld", "kind": "run", "tiles": RUN}))
    laid: dict[str, int] = state.observation(0)["laid"]  # type: ignore[assignment]
    return laid


def test_a_ladder_opening_below_the_need_returns_with_its_numbers(
    page: Any, server: Server
) -> None:
    options = _ladder_options()
    laid = _ladder_laid(options)
    assert laid["value"] < laid["need"]
    start_with_options(page, options)
    start_match(page, server.url, "okey-ladder")
    page.wait_for_selector(".rack .piece")
    _click_all(page, RUN)
    page.click("#act-meld")
    total = page.locator("#laid-total")
    total.wait_for()
    assert total.inner_text() == f"Laid {laid['value']} of {laid['need']}"
    page.click(f".rack .piece[data-token='{SPARE}']")
    page.click("#act-discard")
    if page.locator("#confirm-discard").count():
        page.click("#confirm-discard")
    _open_history(page)
    line = page.locator("#history-list .move.mine", has_text="returned to your rack")
    line.wait_for(state="attached")
    expected = f"Laid {laid['value']}, need {laid['need']}: returned to your rack"
    assert line.text_content() == expected
    assert page.inner_text("#move-log") != ""
    for tok in RUN:
        assert page.locator(f".rack .piece[data-token='{tok}']").count() == 1
    shot(page, "reasons-ladder-returned")


# ---------------------------------------------------------------- remi

LOW_OPENING = ["2S#1", "3S#1", "4S#1"]


def _remi_options() -> dict[str, Any]:
    """Seat 0 plays first (the dealer is seat 3) and holds 2 3 4 of spades: a run worth 9,
    below the opening minimum of 30. The deck's first nine cards are dealt round the
    table: positions 0, 4 and 8 go to seat 0."""
    rest = [c for c in reversed(CARDS) if c not in LOW_OPENING and not c.startswith("JK")]
    want = {0: LOW_OPENING[0], 4: LOW_OPENING[1], 8: LOW_OPENING[2]}
    deck = [want[i] if i in want else rest.pop(0) for i in range(9)]
    return {"deck": deck, "first_dealer": 3}


def _remi_refusal(options: dict[str, Any]) -> dict[str, int]:
    game = find_game("remi")
    state = game.new_state(game.options(options), 4, SEED)
    state.apply(0, game.action_from_json({"type": "draw_stock"}))
    opening = {"type": "open", "melds": [{"cards": LOW_OPENING}]}
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, game.action_from_json(opening))
    assert refused.value.code == "OPENING_TOO_LOW"
    return refused.value.details


def test_a_remi_opening_worth_too_little_is_refused_with_its_numbers(
    page: Any, server: Server
) -> None:
    options = _remi_options()
    details = _remi_refusal(options)
    start_with_options(page, options)
    start_match(page, server.url, "remi")
    page.wait_for_selector("#wall.clickable")
    page.click("#wall")
    page.wait_for_selector(".rack .piece.fresh")
    _click_all(page, LOW_OPENING)
    live = f"Worth {details['value']} of {details['need']}"
    page.wait_for_selector(f"#open-worth.short:text-is('{live}')")
    page.click("#act-open")
    expected = f"Opening worth {details['value']} of {details['need']}."
    assert _refusal(page) == expected
    page.wait_for_selector(f"#toast.show:text-is('{expected}')")
    open_button = page.locator("#act-open, .action-bar .prompt").first.bounding_box()
    toast = page.locator("#toast").bounding_box()
    assert open_button and toast
    below = toast["y"] >= open_button["y"] + open_button["height"]
    above = toast["y"] + toast["height"] <= open_button["y"]
    assert above or below, "the refusal covers the Open button"
    shot(page, "reasons-remi-refused")


# ---------------------------------------------------------------- tile-rummy

PILE = "Y4a"
RACK = split_tokens("Y2a Y3a Y5a Y6a Y7a Y8a Y9a R13a K11a B3a R6a K2a B11a R1a")


def _rummy_options() -> dict[str, Any]:
    """Seat 0 moves first with Y2 Y3 and Y5-Y9 on its rack; the pile starts with Y4; an
    opening must be worth 30."""
    every = [rummy_token(i) for i in range(106)]
    rest = [t for t in every if t not in RACK and t != PILE and t[0] not in "JS"]
    racks = [RACK, rest[0:14], rest[14:28], rest[28:42]]
    named = {PILE, *(t for r in racks for t in r)}
    dealt = [t for k in range(8) for t in racks[k % 4][7 * (k // 4) : 7 * (k // 4) + 7]]
    wall = [PILE, *dealt, *(t for t in every if t not in named)]
    return {"wall": wall, "first_player": 0, "initial_meld_minimum": 30}


def _rummy_refusal(options: dict[str, Any]) -> dict[str, int]:
    game = find_game("tile-rummy")
    state = game.new_state(game.options(options), 4, SEED)
    take = {"type": "meld", "kind": "run", "tiles": ["Y2a", "Y3a", PILE]}
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, game.action_from_json({"type": "take", "index": 1, "use": take}))
    assert refused.value.code == "OPENING_TOO_LOW"
    return refused.value.details


def test_a_tile_rummy_take_shows_its_numbers(page: Any, server: Server) -> None:
    options = _rummy_options()
    details = _rummy_refusal(options)
    start_with_options(page, options)
    start_match(page, server.url, "tile-rummy")
    pile_tile = f".pile-spread .piece.hint[data-token='{PILE}']"
    page.wait_for_selector(pile_tile)
    page.click(pile_tile)
    _click_all(page, ["Y2a", "Y3a"], ".rack-wrap .rack")
    page.click("#act-take")
    assert _refusal(page) == f"Opening worth {details['value']} of {details['need']}."
    page.click(pile_tile)
    _click_all(page, ["Y5a", "Y6a", "Y7a", "Y8a"], ".rack-wrap .rack")
    page.click("#act-take")
    meld = page.locator(".meld-center .meld[data-owner='0']")
    meld.wait_for()
    value = meld.locator(".value").inner_text()
    _open_history(page)
    line = page.locator("#history-list .move.mine", has_text="laid down")
    line.wait_for(state="attached")
    assert line.locator(":scope > span").text_content() == f"You laid down {value}"
    assert line.locator(".piece").count() == 5
    assert int(value) >= details["need"]
    assert page.locator("#history-list .move.mine", has_text="took the discard").count() == 1

"""Tile Rummy's rearrange dialog (tile-rummy.md 7): the person dissolves his own run and lays
new melds from it, feeding tiles to other players' melds by drag and by select-and-click;
without feeds; and by one of the engine's suggestions. The server must accept each one.

The deal is explicit (the ``wall`` and ``first_player`` options): seat 0 lays R3-R6 in his
first turn; the greedy bots (level normal) then lay B9-B11 (seat 1), Y10-Y13-Y1 (seat 2,
with the pile's Y13) and R10 B10 K10 (seat 3); in his second turn seat 0 holds K6 Y6 (a set
with R6), B12 (feeds seat 1's run at its high end) and Y9 (feeds seat 2's run at its low
end)."""

from __future__ import annotations

from typing import Any

import pytest

from meldhall.games.tile_rummy.pieces import token
from tests.browser.conftest import Server, shot, start_match, state_id
from tests.browser.players import drag, start_with_options

pytestmark = pytest.mark.browser

PILE = "Y13a"
RACKS = (
    "R3a R4a R5a R6a K6a Y6a B12a K1a Y2a B4a R9a K11a Y9a B1a",
    "B9a B10a B11a R1a K3a Y4a R11a K8a Y12a R13a K2a Y7a B6a R8a",
    "K4a K9a Y1a Y5a Y10a B2a B5a R10a K12a Y3a R12a K7b Y11a B3a",
    "R1b K5a Y8a B7b R5b K10a Y13b B10b R2b K13a Y3b R9b K3b B1b",
)
STOCK = "K12b Y9b R11b Y1b B13a"
"""The first draws: seat 0, 1, 2, 3, then seat 0's second turn (K12b)."""

RACK = ".rack-wrap .rack"
BOARD = "#rearrange .rack"


def _wall() -> list[str]:
    """Return the 106 tiles: the pile's first tile, seven tiles a seat by turns, the stock."""
    racks = [r.split() for r in RACKS]
    named = [PILE, *(t for r in racks for t in r), *STOCK.split()]
    rest = [t for t in (token(i) for i in range(106)) if t not in named]
    dealt = [t for k in range(8) for t in racks[k % 4][7 * (k // 4) : 7 * (k // 4) + 7]]
    return [PILE, *dealt, *STOCK.split(), *rest]


def _after(page: Any, before: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")


def _act(page: Any, selector: str) -> None:
    """Click a control that sends an action; wait for the table's next state."""
    before = state_id(page)
    page.click(selector)
    _after(page, before)


def _melds(page: Any, owner: int) -> list[list[str]]:
    return [
        [str(t) for t in m]
        for m in page.locator(f".meld-center .meld[data-owner='{owner}']").evaluate_all(
            "ms => ms.map(m => [...m.querySelectorAll('.piece')].map(p => p.dataset.token))"
        )
    ]


def _second_turn(page: Any, server: Server, rack_tiles: list[str]) -> str:
    """Play seat 0's first turn, wait for the bots, draw, mark the own run for rearranging,
    select ``rack_tiles`` and open the rearrange dialog; return the match id."""
    start_with_options(page, {"wall": _wall(), "first_player": 0}, level="normal")
    match_id = start_match(page, server.url, "tile-rummy")
    page.wait_for_selector("#wall.clickable")
    _act(page, "#wall")
    for tile in ("R3a", "R4a", "R5a", "R6a"):
        page.click(f"{RACK} .piece[data-token='{tile}']")
    _act(page, "#act-meld")
    page.click(f"{RACK} .piece[data-token='K1a']")
    _act(page, "#act-discard")
    page.wait_for_selector("#wall.clickable", timeout=30_000)
    assert _melds(page, 1) == [["B9a", "B10a", "B11a"]]
    _act(page, "#wall")
    page.wait_for_selector(f"{RACK} .piece[data-token='K12b']")
    page.click(".meld-center .meld[data-owner='0']")
    for tile in rack_tiles:
        page.click(f"{RACK} .piece[data-token='{tile}']")
    page.click("#act-rearrange")
    page.wait_for_selector("#rearrange")
    return match_id


def _lay_set_apart(page: Any) -> None:
    """Move R6 K6 Y6 to the board's second row: the first keeps R3 R4 R5 (one meld each)."""
    for i, tile in enumerate(("R6a", "K6a", "Y6a")):
        drag(page, f"{BOARD} .piece[data-token='{tile}']", f"{BOARD} .slot >> nth={14 + i}")


def _stored_rearrange(server: Server, match_id: str) -> dict[str, Any]:
    data = server.store().load_match(match_id)
    assert data is not None
    seat, action = data.log[-1]
    assert seat == 0 and action["type"] == "rearrange"
    return dict(action)


OWN_AFTER = [["K6a", "R6a", "Y6a"], ["R3a", "R4a", "R5a"]]


def _as_sets(melds: Any) -> list[list[str]]:
    return sorted(sorted(m) for m in melds)


def _own_melds_rearranged(page: Any) -> None:
    assert _as_sets(_melds(page, 0)) == OWN_AFTER


def test_rearrange_with_feeds_by_drag_and_by_click(page: Any, server: Server) -> None:
    match_id = _second_turn(page, server, ["K6a", "Y6a", "B12a", "Y9a"])
    blue = "#rearrange .feed-target .meld[data-owner='1']"
    yellow = "#rearrange .feed-target .meld[data-owner='2']"
    drag(page, f"{BOARD} .piece[data-token='B12a']", blue, right=True)
    page.click(f"{BOARD} .piece[data-token='Y9a']")
    page.click(yellow)
    assert page.locator(f"{blue} .piece.fed").get_attribute("data-token") == "B12a"
    assert page.locator(f"{yellow} .piece").first.get_attribute("data-token") == "Y9a"
    _lay_set_apart(page)
    shot(page, "tile-rummy-rearrange-feeds")
    blue_id = int(page.locator(blue).get_attribute("data-meld") or 0)
    yellow_id = int(page.locator(yellow).get_attribute("data-meld") or 0)
    _act(page, "#rearrange-go")
    assert not page.locator("#rearrange").count()
    _own_melds_rearranged(page)
    assert _melds(page, 1) == [["B9a", "B10a", "B11a", "B12a"]]
    assert _melds(page, 2) == [["Y9a", "Y10a", "Y11a", "Y12a", "Y13a", "Y1a"]]
    action = _stored_rearrange(server, match_id)
    assert action["feeds"] == [
        {"tile": "B12a", "meld": blue_id, "end": "high"},
        {"tile": "Y9a", "meld": yellow_id, "end": "low"},
    ]
    for tile in ("K6a", "Y6a", "B12a", "Y9a"):
        assert not page.locator(f"{RACK} .piece[data-token='{tile}']").count()


def test_a_fed_tile_clicked_goes_back_and_no_feed_is_sent(page: Any, server: Server) -> None:
    match_id = _second_turn(page, server, ["K6a", "Y6a", "B12a"])
    blue = "#rearrange .feed-target .meld[data-owner='1']"
    page.click(f"{BOARD} .piece[data-token='B12a']")
    page.click(blue)
    assert not page.locator(f"{BOARD} .piece[data-token='B12a']").count()
    page.click(f"{blue} .piece.fed")
    assert page.locator(f"{BOARD} .piece[data-token='B12a']").count() == 1
    assert not page.locator(f"{blue} .piece.fed").count()
    # B12a alone on the board would be a meld of one tile: the person takes it out of the pool.
    page.click("#rearrange [data-close]")
    page.click(f"{RACK} .piece[data-token='B12a']")
    page.click("#act-rearrange")
    _lay_set_apart(page)
    _act(page, "#rearrange-go")
    _own_melds_rearranged(page)
    assert _melds(page, 1) == [["B9a", "B10a", "B11a"]]
    action = _stored_rearrange(server, match_id)
    assert action["feeds"] == []
    assert _as_sets(m["tiles"] for m in action["melds"]) == OWN_AFTER


def test_a_suggested_rearrangement_is_played_in_one_click(page: Any, server: Server) -> None:
    match_id = _second_turn(page, server, [])
    assert page.locator("#rearrange .suggest").count() == 1
    _act(page, "#rearrange .suggest")
    _own_melds_rearranged(page)
    action = _stored_rearrange(server, match_id)
    assert action["feeds"] == [] and action["dissolve"] == [1]

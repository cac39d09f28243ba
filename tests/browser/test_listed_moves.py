"""The page offers every move the server lists, in the phase it lists it: a tile-rummy
player whose stock is empty ends the round from the draw phase (T-D15)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.conftest import Server, start_match
from tests.browser.players import start_with_options

pytestmark = pytest.mark.browser


def test_tile_rummy_offers_the_end_of_the_round_when_the_stock_is_empty(
    page: Any, server: Server
) -> None:
    sockets: list[Any] = []
    states: list[dict[str, Any]] = []
    sent: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        to_server = ws.connect_to_server()

        def from_server(message: Any) -> None:
            if isinstance(message, str) and message.startswith('{"type":"state"'):
                states.append(json.loads(message))
                sockets.append(ws)  # the socket the table's states come through
            ws.send(message)

        def from_page(message: Any) -> None:
            if isinstance(message, str) and message.startswith("{"):
                sent.append(json.loads(message))
            to_server.send(message)

        to_server.on_message(from_server)
        ws.on_message(from_page)

    page.route_web_socket("**/ws", route)
    start_with_options(page, {"first_player": 0})
    start_match(page, server.url, "tile-rummy")
    page.wait_for_selector("#wall.clickable")
    state = states[-1]
    assert state["observation"]["phase"] == "draw"
    empty = {
        **state,
        "state_id": state["state_id"],
        "legal": [{"json": {"type": "end"}, "text": "end"}],
    }
    empty["observation"] = {**state["observation"], "stock_count": 0}
    sockets[-1].send(json.dumps(empty))
    page.wait_for_selector("#act-end")
    assert not page.locator("#wall.clickable").count()
    page.click("#act-end")
    page.wait_for_timeout(200)
    acts = [m for m in sent if m.get("type") == "act"]
    assert acts and acts[-1]["action"] == {"type": "end"}

"""Every WebSocket message to a seat, over full hands of every game, names no tile that seat
may not see: each tile token in a message must be public by then (seen by a spectator or in a
public event) or have been in the seat's own hand."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from meldhall.core.fairness import match_seed
from meldhall.games.registry import find_game
from meldhall.server.games import available_games
from meldhall.store.repository import Store
from tests.server.conftest import Peer, make_client

TOKEN = {
    "okey": r"(?:[RKYB](?:1[0-3]|[1-9])|J)[ab]",
    "okey-ladder": r"(?:[RKYB](?:1[0-3]|[1-9])|J)[ab]",
    "tile-rummy": r"(?:[RKYB](?:1[0-3]|[1-9])|S)[ab]",
    "remi": r"(?:(?:A|[2-9]|10|J|Q|K)[SHDC]|JK)#[12]",
    "sichuan": r"[1-9][mps]#[0-3]",
    "okey-cards": r"[RBY][1-8]",
}


def tokens(value: Any, pattern: re.Pattern[str]) -> set[str]:
    """Return every tile token inside a JSON value (strings are searched, not only matched)."""
    found: set[str] = set()
    if isinstance(value, str):
        found.update(pattern.findall(value))
    elif isinstance(value, dict):
        for v in value.values():
            found |= tokens(v, pattern)
    elif isinstance(value, list):
        for v in value:
            found |= tokens(v, pattern)
    return found


MIN_CHECKED = 20
"""State messages the test reads at least: a hand that ends sooner (a deal where someone
goes out within a few turns) is followed by the next one."""


def _play(client: Any, game: str, rng: random.Random) -> tuple[str, list[dict[str, Any]]]:
    """Play one person's random legal moves until a hand is over after more than
    ``MIN_CHECKED`` state messages (or the match is); return the match id and every message
    the person's seat received."""
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "start", "game": game})
        match_id = peer.until("match")["match"]
        while True:
            message = peer.recv()
            if message["type"] == "match_over":
                return match_id, peer.received
            if message["type"] == "state" and message["paused"]:
                if _states(peer.received) > MIN_CHECKED:
                    return match_id, peer.received
                peer.send({"type": "continue"})
                continue
            if message["type"] == "state" and message["legal"]:
                moves = [a["json"] for a in message["legal"] if a["json"].get("type") != "quit"]
                choice = rng.choice(moves or [a["json"] for a in message["legal"]])
                peer.send({"type": "act", "state_id": message["state_id"], "action": choice})


def _known_by_state(store: Store, match_id: str, pattern: re.Pattern[str]) -> list[set[str]]:
    """Return, for every state id, the tokens seat 0 may know by then."""
    data = store.load_match(match_id)
    assert data is not None
    game = find_game(data.game)
    seed = match_seed(bytes.fromhex(data.secret), data.contributions)
    state = game.new_state(game.options(data.options), data.seats, seed)
    known = tokens(state.observation(None), pattern) | tokens(
        state.observation(0).get("hand"), pattern
    )
    out = [set(known)]
    for seat, action in data.log:
        for event in state.apply(seat, game.action_from_json(action)):
            known |= tokens(event.for_viewer(0), pattern)
        known |= tokens(state.observation(None), pattern)
        known |= tokens(state.observation(0).get("hand"), pattern)
        out.append(set(known))
    return out


def _states(messages: list[dict[str, Any]]) -> int:
    """Return how many of ``messages`` carry a position (``state`` and ``match``)."""
    return sum(message["type"] in ("state", "match") for message in messages)


@pytest.mark.parametrize("game", list(TOKEN))
def test_no_message_names_a_hidden_tile(tmp_path: Path, game: str) -> None:
    if game not in available_games():
        pytest.skip(f"{game} is not available")
    pattern = re.compile(rf"(?<![\w#]){TOKEN[game]}(?![\w#])")
    with make_client(tmp_path) as client:
        match_id, messages = _play(client, game, random.Random(game))
    known = _known_by_state(Store.in_dir(tmp_path), match_id, pattern)
    checked = 0
    for message in messages:
        if message["type"] not in ("state", "match"):
            continue
        at = message.get("state_id", 0)
        leaked = tokens(message, pattern) - known[at]
        assert not leaked, f"{game}: state {at} message names hidden tiles {sorted(leaked)}"
        checked += 1
    assert checked > MIN_CHECKED

"""Tile-rummy's strong bot: the feed it makes while another player is about to go out."""

from __future__ import annotations

import json
import random

from meldhall.bots.tile_rummy import GreedyBot
from meldhall.bots.tile_rummy_strong import StrongBot, threats
from meldhall.games.tile_rummy.actions import Add, Discard
from meldhall.games.tile_rummy.pieces import parse_tile
from meldhall.games.tile_rummy.position import build_position
from meldhall.games.tile_rummy.state import TileRummyState

RACK = "K12a R2a Y5a B9a"
"""Seat 0's rack: K12 fits seat 2's run, nothing else melds."""


def observation(state: TileRummyState, seat: int) -> dict[str, object]:
    """Return the observation as a client would receive it (plain JSON)."""
    data: dict[str, object] = json.loads(json.dumps(state.observation(seat)))
    return data


def choose(bot: GreedyBot, state: TileRummyState) -> object:
    """Return the bot's move for seat 0."""
    return bot.choose(observation(state, 0), state.legal_actions(0), random.Random(0))


def feed_position(threat_rack: str) -> TileRummyState:
    """Return seat 0 to play with ``RACK``; seat 1 holds ``threat_rack``, seats 1 and 2
    own a run each (seat 2's takes K12, seat 1's takes B13)."""
    return build_position(
        racks=[RACK, threat_rack, "R6a R7a Y9a Y10a B1a B3a", "K1a K3a Y1a Y3a R10a R12a"],
        melds=[(1, "run", "B10a B11a B12a"), (2, "run", "K9a K10a K11a")],
    )


def test_threats_are_the_other_players_with_two_tiles_or_fewer() -> None:
    obs = observation(feed_position("R13a Y13a"), 0)
    assert threats(obs) == {1}
    assert threats(observation(feed_position("R13a Y13a Y12a"), 0)) == set()


def test_strong_dumps_a_high_tile_on_a_safe_meld_when_a_player_is_about_to_go_out() -> None:
    state = feed_position("R13a Y13a")
    action = choose(StrongBot(), state)
    assert isinstance(action, Add) and action.tile == parse_tile("K12a") and action.meld == 2
    assert isinstance(choose(GreedyBot(), state), Discard)


def test_strong_does_not_feed_while_nobody_is_about_to_go_out() -> None:
    assert isinstance(choose(StrongBot(), feed_position("R13a Y13a Y12a")), Discard)


def test_strong_does_not_feed_the_meld_of_the_player_about_to_go_out() -> None:
    state = build_position(
        racks=[RACK.replace("K12a", "B13a"), "R13a Y13a", "R6a R7a Y9a", "K1a K3a Y1a"],
        melds=[(1, "run", "B10a B11a B12a")],
    )
    assert isinstance(choose(StrongBot(), state), Discard)

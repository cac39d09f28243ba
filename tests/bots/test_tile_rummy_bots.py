"""The tile-rummy bots: legal moves only, from the observation alone; random still lays
down, feeds and rearranges; greedy goes out when it can and beats random."""

from __future__ import annotations

import json
import random
from functools import partial

import pytest

from meldhall.bots.base import make_bot
from meldhall.bots.tile_rummy import BOTS, GreedyBot, RandomBot
from meldhall.core.rng import seed_from_text
from meldhall.games.tile_rummy import GAME
from meldhall.games.tile_rummy.actions import Add, Discard, Meld, Rearrange
from meldhall.games.tile_rummy.pieces import parse_tile
from meldhall.games.tile_rummy.position import build_position
from meldhall.games.tile_rummy.state import TileRummyState
from meldhall.simulate import play_match, run_many


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_play_whole_matches_with_legal_moves(name: str, seats: int) -> None:
    bots = [make_bot("tile-rummy", name) for _ in range(seats)]
    run = play_match(GAME, bots, seed_from_text(f"bots-{name}-{seats}"), check=True)
    assert run.outcome is not None and run.hands >= 3


def test_random_bot_lays_down_feeds_and_rearranges() -> None:
    counts = {"meld": 0, "add": 0, "rearrange": 0, "take_discard": 0}
    runs, _ = run_many(GAME, [RandomBot] * 4, 5, "random-bot", stop_after_hands=1)
    for run in runs:
        for kind in counts:
            counts[kind] += run.events.get(kind, 0)
    assert all(counts.values()), counts


def test_random_bot_places_before_discarding() -> None:
    state = build_position(racks=["R1a R2a R3a K9a", "B1a"])
    action = RandomBot().choose({}, state.legal_actions(0), random.Random(1))
    assert isinstance(action, Meld | Add | Rearrange)


def observation(state: TileRummyState, seat: int) -> dict[str, object]:
    """Return the observation as a client would receive it (plain JSON)."""
    data: dict[str, object] = json.loads(json.dumps(state.observation(seat)))
    return data


def test_greedy_goes_out_when_it_can() -> None:
    state = build_position(racks=["R7a R8a R9a", "B1a"], melds=[(1, "set", "K5a Y5a B5a")])
    action = GreedyBot().choose(observation(state, 0), state.legal_actions(0), random.Random(0))
    assert action == Meld("run", (parse_tile("R7a"), parse_tile("R8a"), parse_tile("R9a")))


def test_greedy_keeps_its_smiley_and_does_not_feed_for_nothing() -> None:
    state = build_position(racks=["Sa R3a K12a B1a", "B2a"], melds=[(1, "run", "R4a R5a R6a")])
    action = GreedyBot().choose(observation(state, 0), state.legal_actions(0), random.Random(0))
    assert isinstance(action, Discard) and action.tile != parse_tile("Sa")


def test_greedy_takes_a_valuable_discard() -> None:
    state = build_position(racks=["K11a K12a Y2a", "B2a"], pile="Y7a K13a", phase="draw")
    action = GreedyBot().choose(observation(state, 0), state.legal_actions(0), random.Random(0))
    assert str(action) == "take 2 meld run K11a K12a K13a"


def test_greedy_beats_random() -> None:
    factories = [partial(make_bot, "tile-rummy", n) for n in ("greedy", "random") * 2]
    runs, _ = run_many(GAME, factories, 30, "greedy-vs-random")
    greedy = sum(1 for r in runs if r.outcome and r.outcome.winners & {0, 2})
    assert greedy >= 20, greedy

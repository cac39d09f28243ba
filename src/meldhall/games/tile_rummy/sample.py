"""Sampled worlds for search: a full Tile Rummy State built from one seat's observation alone.

``sample(observation, rng)`` deals the tiles the seat cannot see (other racks, the stock) at
random into a State whose observation for that seat is the one given. Later rounds come from
a seed drawn from ``rng``. The sample depends on the observation and ``rng`` only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from meldhall.core.engine import JSON
from meldhall.core.errors import MeldhallError
from meldhall.core.options import parse_options
from meldhall.games.sampling import seated_viewer
from meldhall.games.tile_rummy.melds import judge
from meldhall.games.tile_rummy.options import TileRummyOptions
from meldhall.games.tile_rummy.pieces import TILE_COUNT, parse_tile, value_table
from meldhall.games.tile_rummy.solving import rules_of
from meldhall.games.tile_rummy.state import TileRummyState
from meldhall.games.tile_rummy.table import PILE, STOCK, TABLE, TableMeld


def _ids(tokens: list[str]) -> list[int]:
    return [parse_tile(t) for t in tokens]


def sample(observation: Mapping[str, JSON], rng: random.Random) -> TileRummyState:
    """Return a State consistent with a seat's observation, hidden tiles dealt from ``rng``;
    raise ``MeldhallError`` for a spectator's observation or a match that is over."""
    obs: Any = observation
    viewer = seated_viewer(observation, "tile-rummy")
    pub = obs["public"]
    options = parse_options(TileRummyOptions, pub["options"])
    n = len(obs["rack_counts"])
    state: TileRummyState = object.__new__(TileRummyState)
    state.options = options
    state.n = n
    state.seed = rng.randbytes(32)
    state.values = value_table(options.tile_values, options.smiley_value)
    state.wrap = options.wrap
    state.rules = rules_of(options)
    state.round = obs["round"]
    state.first = obs["first_player"]
    state.turn = obs["turn"]
    state.phase = obs["phase"]
    state.opened = list(obs["opened"])
    state.skip = list(obs["skip_next"])
    state.rebuilt = pub["rebuilt"]
    state.round_wins = list(obs["round_wins"])
    state.totals = list(obs["totals"])
    state.void_rounds = obs["void_rounds"]
    state.history = list(pub["rounds"])
    state.winner = None
    state.next_meld = pub["next_meld"]
    state._legal = None
    state._accept = None
    state._owned = set()

    loc = [STOCK] * TILE_COUNT
    state.pile = _ids(obs["pile"])
    for t in state.pile:
        loc[t] = PILE
    state.melds = {}
    for view in obs["melds"]:
        tiles = _ids(view["tiles"])
        shape = judge(view["kind"], tiles, state.wrap)
        if shape is None:
            raise MeldhallError(f"tile-rummy sample: meld {view['id']} is not a {view['kind']}")
        state.melds[view["id"]] = TableMeld(view["id"], view["owner"], shape, tiles, state.wrap)
        for t in tiles:
            loc[t] = TABLE
    own = _ids(obs["hand"])
    for t in own:
        loc[t] = viewer
    unseen = [t for t in range(TILE_COUNT) if loc[t] == STOCK and t not in own]
    rng.shuffle(unseen)
    state.racks = []
    for s, size in enumerate(obs["rack_counts"]):
        if s == viewer:
            rack = sorted(own)
        else:
            rack, unseen = sorted(unseen[:size]), unseen[size:]
            for t in rack:
                loc[t] = s
        state.racks.append(rack)
    if len(unseen) != obs["stock_count"]:
        raise MeldhallError(
            f"tile-rummy sample: {len(unseen)} tiles left for a stock of {obs['stock_count']}"
        )
    state.stock = unseen
    state.loc = loc
    return state

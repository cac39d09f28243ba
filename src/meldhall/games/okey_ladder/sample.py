"""Sampled worlds for search: a full Ladder Okey State built from one seat's observation alone.

``sample(observation, rng)`` deals the tiles the seat cannot see (other racks except a tile
publicly taken from a discard, the centre, the covered part of the piles it may not look
through) at random into a State whose observation for that seat is the one given. Later hands
come from a seed drawn from ``rng``. The sample depends on the observation and ``rng`` only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from meldhall.core.engine import JSON
from meldhall.core.errors import MeldhallError
from meldhall.games.okey_ladder.combos import END_NAMES, KIND_NAMES, Combo, shape
from meldhall.games.okey_ladder.deal import SEATS
from meldhall.games.okey_ladder.options import parse_ladder_options
from meldhall.games.okey_ladder.pieces import TILE_COUNT, TOKEN, Jokers
from meldhall.games.okey_ladder.scoring import OPENED_NAMES
from meldhall.games.okey_ladder.state import LadderState
from meldhall.games.sampling import TokenIds, seated_viewer

_ID = TokenIds(TOKEN)


def sample(observation: Mapping[str, JSON], rng: random.Random) -> LadderState:
    """Return a State consistent with a seat's observation, hidden tiles dealt from ``rng``;
    raise ``MeldhallError`` for a spectator's observation or a match that is over."""
    obs: Any = observation
    viewer = seated_viewer(observation, "okey-ladder")
    pub = obs["public"]
    options = parse_ladder_options(pub["rules"])
    state = LadderState(options, rng.randbytes(32), deal=False)
    state.hand_no = obs["hand_no"]
    state.first = obs["first"]
    state.jokers = jokers = Jokers.of(_ID[obs["indicator"]])
    state.base = obs["base"]
    scores = obs["scores"]
    state.totals = list(scores["totals"])
    state.penalties = list(scores["round"])
    state.history = [list(r) for r in scores["history"]]
    state.last_result = obs["last_result"]
    state.opened = [OPENED_NAMES.index(o) for o in obs["opened"]]
    state.opened_turn = list(obs["opened_turns"])
    state.opening_value = list(obs["opening_values"])
    state.need = obs["need"]
    state.turn = obs["turn"]
    state.to_move = obs["to_move"]
    state.phase = obs["phase"]
    state.taken = -1 if obs["taken"] is None else _ID[obs["taken"]]
    state.prov_kind = OPENED_NAMES.index(pub["prov_kind"])
    state.pairs_given = pub["pairs_given"]
    state.next_cid = pub["next_cid"]
    state.ends_used = {(c, END_NAMES.index(e)) for c, e in obs["ends_used"]}
    state.jokers_placed = set(_ID.many(obs["jokers_placed"]))

    state.combos = {}
    for view in obs["table"]:
        tiles = _ID.many(view["tiles"])
        kind = KIND_NAMES.index(view["kind"])
        start = shape(kind, tiles, jokers.eff, jokers.okey)
        if start < 0:
            raise MeldhallError(f"okey-ladder sample: combination {view['id']} is not valid")
        combo = Combo(view["id"], view["owner"], kind, tiles, start, view["provisional"])
        state.combos[combo.cid] = combo
    state.provisional = [c.cid for c in state.combos.values() if c.provisional]
    own = _ID.many(obs["hand"])
    shown = [_ID.many(p["tiles"]) for p in obs["discards"]]
    unseen = unseen_tiles(obs)
    rng.shuffle(unseen)
    state.piles = []
    for s, pile in enumerate(obs["discards"]):
        covered = pile["count"] - len(shown[s])
        state.piles.append(unseen[:covered] + shown[s])
        unseen = unseen[covered:]
    state.racks = []
    for s in range(SEATS):
        if s == viewer:
            state.racks.append(sorted(own))
            continue
        size = obs["hand_counts"][s]
        rack = []
        if state.taken >= 0 and s == state.to_move:
            rack.append(state.taken)
        free = size - len(rack)
        rack += unseen[:free]
        unseen = unseen[free:]
        state.racks.append(sorted(rack))
    if len(unseen) != obs["centre"]:
        raise MeldhallError(
            f"okey-ladder sample: {len(unseen)} tiles left for a centre of {obs['centre']}"
        )
    state.wall = unseen
    return state


def unseen_tiles(observation: Mapping[str, JSON]) -> list[int]:
    """Return, in id order, the ids of the tiles a seat cannot see: not the indicator, not
    on the table, not in its hand, not in the part of a discard pile it may look through,
    and not the discard taken this turn."""
    obs: Any = observation
    seen = {_ID[obs["indicator"]], *_ID.many(obs["hand"])}
    for view in obs["table"]:
        seen.update(_ID.many(view["tiles"]))
    for pile in obs["discards"]:
        seen.update(_ID.many(pile["tiles"]))
    if obs["taken"] is not None:
        seen.add(_ID[obs["taken"]])
    return [t for t in range(TILE_COUNT) if t not in seen]

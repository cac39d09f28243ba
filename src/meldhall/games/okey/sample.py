"""Sampled worlds for search: a full Okey State built from one seat's observation alone.

``sample(observation, rng)`` deals the tiles the seat cannot see (other racks, the wall, the
covered part of discard piles it may not look through, tiles set aside) at random into a State
whose observation for that seat is the one given. Later hands come from a seed drawn from
``rng``; the score lines are one line per seat giving its score. The sample depends on the
observation and ``rng`` only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from meldhall.core.engine import JSON
from meldhall.core.errors import MeldhallError
from meldhall.core.options import parse_options
from meldhall.games.okey.hand import HandRules
from meldhall.games.okey.options import OkeyOptions
from meldhall.games.okey.pieces import OKEY_TILE_IDS, TILE_COUNT, okey_face
from meldhall.games.okey.state import OkeyState
from meldhall.games.sampling import seated_viewer


def sample(observation: Mapping[str, JSON], rng: random.Random) -> OkeyState:
    """Return a State consistent with a seat's observation, hidden tiles dealt from ``rng``;
    raise ``MeldhallError`` for a spectator's observation or a match that is over."""
    obs: Any = observation
    viewer = seated_viewer(observation, "okey")
    pub = obs["public"]
    rules = dict(obs["rules"], deal="canonical")
    options = parse_options(OkeyOptions, rules)
    n = len(obs["tile_counts"])
    state: OkeyState = object.__new__(OkeyState)
    state.options = options.with_players(n)
    state._penalty = state.options.false_claim_penalty
    state.n = n
    state.seed = rng.randbytes(32)
    state.initial = 0 if options.scoring == "countup" else options.start_points
    state.scores = list(obs["scores"])
    state.active = list(obs["active"])
    state.out_after = list(pub["out_after"])
    state.score_lines = [
        (0, s, score - state.initial, "sample") for s, score in enumerate(state.scores)
    ]
    state.hand_no = obs["hand_number"]
    state.dealer = obs["dealer"]
    state.last_result = obs["last_hand"]
    state.sheet = list(obs["score_sheet"])
    state.outcome_value = None
    state._version = 0
    state._wins_cache = (-1, ())
    state._view_cache = None
    state.first_player = obs["first_player"]
    state.indicator = OKEY_TILE_IDS[obs["indicator"]]
    state.okey = okey_face(state.indicator)
    state.rules = HandRules(
        okey=state.okey,
        wrap=options.wrap_runs == "okey",
        max_run=options.max_run,
        seven_pairs=options.seven_pairs,
    )
    state.dice = None if obs["dice"] is None else list(obs["dice"])
    state.turn = obs["turn"]
    state.phase = obs["phase"]
    state.moved = list(pub["moved"])
    state.in_hand = list(pub["in_hand"])
    state.shown_by = obs["shown_by"]
    state.dry_takes = pub["dry_takes"]
    state.must_win = obs["must_win"]
    state.centre = []

    seen = {state.indicator}
    own = sorted(OKEY_TILE_IDS[t] for t in obs["hand"])
    seen.update(own)
    piles: list[list[int] | None] = []
    for pile in obs["discards"]:
        if pile["tiles"] is not None:
            tiles = [OKEY_TILE_IDS[t] for t in pile["tiles"]]
            piles.append(tiles)
            seen.update(tiles)
        else:
            piles.append(None)
            if pile["top"] is not None:
                seen.add(OKEY_TILE_IDS[pile["top"]])
    unseen = [t for t in range(TILE_COUNT) if t not in seen]
    rng.shuffle(unseen)
    state.piles = []
    for shown, pile in zip(piles, obs["discards"], strict=True):
        if shown is not None:
            state.piles.append(shown)
            continue
        covered = pile["count"] - (1 if pile["top"] is not None else 0)
        tiles, unseen = unseen[:covered], unseen[covered:]
        if pile["top"] is not None:
            tiles.append(OKEY_TILE_IDS[pile["top"]])
        state.piles.append(tiles)
    state.hands = []
    for s, size in enumerate(obs["tile_counts"]):
        if s == viewer:
            state.hands.append(own)
        else:
            state.hands.append(sorted(unseen[:size]))
            unseen = unseen[size:]
    wall_count = obs["wall_count"]
    state.wall, unseen = unseen[:wall_count], unseen[wall_count:]
    state.wall_pos = 0
    state.set_aside = unseen
    if len(unseen) != obs["set_aside_count"]:
        raise MeldhallError(f"okey sample: {len(unseen)} tiles left to set aside")
    return state

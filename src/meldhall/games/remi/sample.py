"""Sampled worlds for search: a full Remi State built from one seat's observation alone.

``sample(observation, rng)`` deals the cards the seat cannot see (other hands except the cards
everybody saw go there, the stock) at random into a State whose observation for that seat is
the one given. Later hands come from a seed drawn from ``rng``; the penalty history is the
totals in one row and empty rows for the other finished hands. The sample depends on the
observation and ``rng`` only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from meldhall.core.engine import JSON
from meldhall.core.errors import MeldhallError
from meldhall.core.options import parse_options
from meldhall.games.remi.legal import MoveRules
from meldhall.games.remi.melds import Reading, RunRules, run_start, set_rank
from meldhall.games.remi.options import RemiOptions
from meldhall.games.remi.pieces import TOKEN
from meldhall.games.remi.state import RemiState
from meldhall.games.remi.table import TableMeld
from meldhall.games.remi.view import PHASES
from meldhall.games.sampling import TokenIds, seated_viewer

_ID = TokenIds(TOKEN)


def sample(observation: Mapping[str, JSON], rng: random.Random) -> RemiState:
    """Return a State consistent with a seat's observation, hidden cards dealt from ``rng``;
    raise ``MeldhallError`` for a spectator's observation or a match that is over."""
    obs: Any = observation
    viewer = seated_viewer(observation, "remi")
    options = parse_options(RemiOptions, obs["options"])
    n = len(obs["hand_counts"])
    state: RemiState = object.__new__(RemiState)
    state.options = options
    state.runs = runs = RunRules.of(options)
    state.moves = MoveRules(
        runs,
        options.opening_minimum,
        options.exchange_requires_open,
        options.set_two_joker_exchange,
    )
    state.n = n
    state.seed = rng.randbytes(32)
    state.totals = list(obs["totals"])
    state.hand_no = obs["hand_number"]
    state.history = [list(state.totals)] + [[0] * n for _ in range(state.hand_no - 2)]
    if state.hand_no == 1:
        state.history = []
    state.active = list(obs["active"])
    state.dealer = obs["dealer"]
    state.last_result = obs["last_result"]
    state._outcome = None
    state._legal = None
    state._table = state._table_view = None
    state.options_view = obs["options"]
    state.opened = list(obs["opened"])
    state.phase = PHASES.index(obs["phase"])
    state.current = obs["current"]
    state.first = obs["first_player"]
    state.turn = obs["turn"]
    state.taken = -1 if obs["taken"] is None else _ID[obs["taken"]]
    state.pending = -1 if obs["must_use"] is None else _ID[obs["must_use"]]
    state.open_at_start = obs["public"]["open_at_start"]
    state.kalooki_ok = obs["public"]["kalooki_ok"]
    state.rebuilds = obs["stock_rebuilds"]

    state.discard = _ID.many(obs["discard"])
    state.melds = [_meld(m, runs) for m in obs["melds"]]
    state.known = [set(_ID.many(k)) for k in obs["known"]]
    own = _ID.many(obs["hand"])
    seen = set(own) | set(state.discard)
    seen.update(c for m in state.melds for c in m.cards)
    seen.update(c for k in state.known for c in k)
    unseen = [c for c in range(options.total_cards) if c not in seen]
    rng.shuffle(unseen)
    state.hands = []
    for s, size in enumerate(obs["hand_counts"]):
        if s == viewer:
            state.hands.append(own)
            continue
        known = sorted(state.known[s])
        free = size - len(known)
        state.hands.append(known + unseen[:free])
        unseen = unseen[free:]
    if len(unseen) != obs["stock"]:
        raise MeldhallError(f"remi sample: {len(unseen)} cards left for a stock of {obs['stock']}")
    state.stock = unseen
    return state


def _meld(view: Mapping[str, Any], runs: RunRules) -> TableMeld:
    """Return the table meld of its public view."""
    cards = _ID.many(view["cards"])
    if view["kind"] == "run":
        start = run_start(cards, runs)
        if start is None:
            raise MeldhallError(f"remi sample: {view['cards']} is not a run")
        reading = Reading("run", 0, start[0], start[1], view["value"])
    else:
        rank = set_rank(cards)
        if rank is None:
            raise MeldhallError(f"remi sample: {view['cards']} is not a set")
        reading = Reading("set", rank, -1, 0, view["value"])
    meld = TableMeld(view["kind"], cards, reading, view["owner"], view["turn"])
    meld.cards = cards
    return meld

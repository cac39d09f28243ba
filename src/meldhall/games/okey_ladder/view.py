"""What a seat may see of a Ladder Okey match: the observation (the package docstring lists
its keys). Parts that change rarely (the hand's facts, the table, openings and scores) are
cached on the state and shared between observations, so observations are read-only."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from meldhall.core.engine import JSON
from meldhall.core.observation import common_keys
from meldhall.core.options import options_to_json
from meldhall.games.okey_ladder.combos import END_NAMES
from meldhall.games.okey_ladder.deal import SEATS
from meldhall.games.okey_ladder.pieces import FACE_NAME, TOKEN
from meldhall.games.okey_ladder.scoring import OPENED_NAMES, PAIRS

if TYPE_CHECKING:
    from meldhall.games.okey_ladder.options import LadderOptions
    from meldhall.games.okey_ladder.state import LadderState

_DEAL_OPTIONS = ("deal", "indicator", "hands", "wall")
"""The options that fix the first hand's deal (left out of observations: they show tiles)."""


@cache
def public_rules(options: LadderOptions) -> dict[str, JSON]:
    """Return the options as JSON, those that fix the deal left out."""
    return {k: v for k, v in options_to_json(options).items() if k not in _DEAL_OPTIONS}


def observation(state: LadderState, viewer: int | None) -> dict[str, JSON]:
    """Return what ``viewer`` may see (see the package docstring for the keys)."""
    token = TOKEN
    piles = []
    for s, pile in enumerate(state.piles):
        if viewer is not None and (s == viewer or s == (viewer - 1) % SEATS):
            shown = [token[t] for t in pile]
        else:
            shown = [token[pile[-1]]] if pile else []
        piles.append({"count": len(pile), "tiles": shown})
    return {
        **_public(state),
        **common_keys(
            seat=viewer,
            to_act=[] if state.over else [state.to_move],
            phase=state.phase,
            hand_number=state.hand_no,
            match_scores=match_scores(state),
            hidden_counts=[len(r) for r in state.racks],
            over=state.over,
        ),
        "to_move": state.to_move,
        "hand": None if viewer is None else [token[t] for t in state.racks[viewer]],
        "hand_counts": [len(r) for r in state.racks],
        "centre": len(state.wall),
        "discards": piles,
        "turn": state.turn,
        "taken": token[state.taken] if state.taken >= 0 else None,
        "laid": state.laid_json(),
        "ends_used": [[c, END_NAMES[e]] for c, e in sorted(state.ends_used)]
        if state.ends_used
        else [],
        "jokers_placed": [token[t] for t in sorted(state.jokers_placed)]
        if state.jokers_placed
        else [],
        "public": {
            "rules": public_rules(state.options),
            "next_cid": state.next_cid,
            "prov_kind": OPENED_NAMES[state.prov_kind],
            "pairs_given": state.pairs_given,
        },
    }


def match_scores(state: LadderState) -> list[int]:
    """Return each seat's match total (penalty points, lower is better) with the penalties
    already charged in the hand being played."""
    if state.over:
        return list(state.totals)
    return [total + charged for total, charged in zip(state.totals, state.penalties, strict=True)]


def _public(state: LadderState) -> dict[str, JSON]:
    """Return the observation keys that change only with the table, the openings or the
    scores (cached until one of them changes)."""
    key = (state.table_version, state.score_version, state.hand_no)
    cached = state._public_cache
    if cached is not None and cached[0] == key:
        return cached[1]
    table, _, fitting = state.table_view()
    public = dict(_hand_facts(state))
    public.update(
        table=table,
        fitting=fitting,
        opened=[OPENED_NAMES[s] for s in state.opened],
        opening_values=list(state.opening_value),
        opened_turns=list(state.opened_turn),
        need=state.need,
        pairs_need=state.requirement(PAIRS),
        scores={
            "totals": list(state.totals),
            "round": list(state.penalties),
            "history": [list(r) for r in state.history],
        },
        last_result=state.last_result,
    )
    state._public_cache = (key, public)
    return public


def _hand_facts(state: LadderState) -> dict[str, JSON]:
    """Return the observation keys fixed for the whole hand (cached per hand)."""
    facts = state._facts
    if facts is None or facts["hand_no"] != state.hand_no:
        facts = {
            "game": "okey-ladder",
            "indicator": TOKEN[state.jokers.indicator],
            "okey": FACE_NAME[state.jokers.okey],
            "joker_colour": state.jokers.colour,
            "base": state.base,
            "hand_no": state.hand_no,
            "rounds": state.options.rounds,
            "first": state.first,
            "dealer": (state.first - 1) % SEATS,
        }
        state._facts = facts
    return facts

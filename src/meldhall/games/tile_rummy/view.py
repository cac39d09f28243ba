"""What the state shows: observations, the snapshot, the invariants and hidden reshuffles."""

from __future__ import annotations

import copy
import random
from typing import TYPE_CHECKING

from meldhall.core.engine import JSON
from meldhall.core.errors import EngineBug
from meldhall.core.observation import common_keys
from meldhall.core.options import options_to_json
from meldhall.games.tile_rummy.melds import judge
from meldhall.games.tile_rummy.pieces import TILE_COUNT, token, tokens
from meldhall.games.tile_rummy.table import PILE, STOCK, TABLE

if TYPE_CHECKING:
    from meldhall.games.tile_rummy.state import TileRummyState

RULE_KEYS = (
    "tile_values",
    "smiley_value",
    "run_wrap",
    "discard_target_use",
    "discard_take_any_depth",
    "initial_meld_minimum",
    "feed_requires_own_meld",
    "losers_subtract_rack",
    "tie_rule",
    "match_mode",
    "turn_timer",
)
"""The options an observation shows (not the explicit wall, which would reveal the deal)."""


def observation(state: TileRummyState, viewer: int | None) -> dict[str, JSON]:
    """Return what ``viewer`` may know (None: a spectator); keys in the package docstring."""
    outcome = state.outcome()
    obs: dict[str, JSON] = {
        "game": "tile-rummy",
        **common_keys(
            seat=viewer,
            to_act=state.to_act(),
            phase=state.phase,
            hand_number=state.round,
            match_scores=state.match_scores(),
            hidden_counts=[len(r) for r in state.racks],
            over=state.phase == "over",
        ),
        "turn": state.turn,
        "round": state.round,
        "first_player": state.first,
        "rack_counts": [len(r) for r in state.racks],
        "stock_count": len(state.stock),
        "can_draw": state.can_draw(),
        "pile": tokens(state.pile),
        "melds": [m.to_json(state.values) for m in state.melds.values()],
        "table_points": state.table_points(),
        "scores": list(state.match_scores()),
        "round_wins": list(state.round_wins),
        "totals": list(state.totals),
        "void_rounds": state.void_rounds,
        "opened": list(state.opened),
        "skip_next": list(state.skip),
        "last_round": _result_copy(state.history[-1]) if state.history else None,
        "outcome": outcome.to_json() if outcome else None,
        "rules": {key: getattr(state.options, key) for key in RULE_KEYS},
        "public": public_history(state),
    }
    if viewer is not None:
        obs["hand"] = tokens(state.racks[viewer])
    return obs


def public_history(state: TileRummyState) -> dict[str, JSON]:
    """Return what a search needs besides (the ``public`` key): every option but the explicit
    wall, every finished round's public result, the next meld id and whether the stock was
    rebuilt this round."""
    return {
        "options": {k: v for k, v in options_to_json(state.options).items() if k != "wall"},
        "rounds": [_result_copy(result) for result in state.history],
        "next_meld": state.next_meld,
        "rebuilt": state.rebuilt,
    }


def _result_copy(result: dict[str, JSON]) -> dict[str, JSON]:
    """Return a copy of a round result (its lists copied, the racks' lists too)."""
    out = {key: list(value) if isinstance(value, list) else value for key, value in result.items()}
    out["racks"] = [list(rack) for rack in result["racks"]]
    return out


def snapshot(state: TileRummyState) -> JSON:
    """Return the whole state, hidden tiles included, as canonical JSON."""
    return {
        "round": state.round,
        "first": state.first,
        "turn": state.turn,
        "phase": state.phase,
        "racks": [tokens(r) for r in state.racks],
        "stock": tokens(state.stock[::-1]),
        "pile": tokens(state.pile),
        "melds": [m.to_json(state.values) for m in state.melds.values()],
        "next_meld": state.next_meld,
        "opened": list(state.opened),
        "skip": list(state.skip),
        "rebuilt": state.rebuilt,
        "round_wins": list(state.round_wins),
        "totals": list(state.totals),
        "void_rounds": state.void_rounds,
        "history": [_result_copy(result) for result in state.history],
        "winner": state.winner,
    }


def _bug(message: str) -> EngineBug:
    return EngineBug(f"tile-rummy: {message}")


def check_invariants(state: TileRummyState) -> None:
    """Raise ``EngineBug`` unless every tile is in exactly one place (and its location code
    agrees), every meld is valid and the scores agree with the rounds played."""
    loc = state.loc
    placed: list[int] = []
    groups: list[tuple[int, list[int]]] = [*enumerate(state.racks)]
    groups += [(STOCK, state.stock), (PILE, state.pile)]
    groups += [(TABLE, m.tiles) for m in state.melds.values()]
    for where, tiles in groups:
        if tiles and {loc[t] for t in tiles} != {where}:
            raise _bug(f"a tile of place {where} has another location code: {tokens(tiles)}")
        placed += tiles
    for seat, rack in enumerate(state.racks):
        if rack != sorted(rack):
            raise _bug(f"rack {seat} is not sorted: {tokens(rack)}")
    for meld in state.melds.values():
        now = (meld.shape, tuple(meld.tiles))
        if meld.checked != now:
            if judge(meld.shape.kind, meld.tiles, state.wrap) != meld.shape:
                raise _bug(f"meld {meld.id} {tokens(meld.tiles)} is invalid")
            meld.checked = now
        if meld.id >= state.next_meld or not 0 <= meld.owner < state.n:
            raise _bug(f"meld {meld.id} has a bad id or owner")
    if len(placed) != TILE_COUNT or len(set(placed)) != TILE_COUNT:
        missing = sorted(set(range(TILE_COUNT)) - set(placed))
        raise _bug(f"{len(placed)} tiles placed, missing {[token(t) for t in missing]}")
    history = state.history
    totals = [sum(h["scores"][q] for h in history) for q in range(state.n)]
    if totals != state.totals:
        raise _bug(f"totals {state.totals} != the sum of the rounds {totals}")
    wins = [0] * state.n
    for h in history:
        for q in h["round_winners"]:
            wins[q] += 1
    voids = sum(1 for h in history if not h["round_winners"])
    if wins != state.round_wins or voids != state.void_rounds:
        raise _bug("round wins disagree with the rounds played")
    if len(history) != state.round - (0 if state.phase == "over" else 1):
        raise _bug("the round counter disagrees with the rounds played")
    if (state.phase == "over") != (state.winner is not None):
        raise _bug("match over without a winner (or the reverse)")


def shuffled_hidden(
    state: TileRummyState, viewer: int | None, rng: random.Random
) -> TileRummyState:
    """Return a copy in which the other racks and the stock are dealt anew from their own
    tiles (sizes kept), everything ``viewer`` knows unchanged."""
    other = copy.deepcopy(state)
    other.reset_caches()
    hidden_seats = [s for s in range(state.n) if s != viewer]
    pool = [t for s in hidden_seats for t in other.racks[s]] + other.stock
    rng.shuffle(pool)
    k = 0
    for s in hidden_seats:
        size = len(other.racks[s])
        other.racks[s] = sorted(pool[k : k + size])
        for t in other.racks[s]:
            other.loc[t] = s
        k += size
    other.stock = pool[k:]
    for t in other.stock:
        other.loc[t] = STOCK
    return other

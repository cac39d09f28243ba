"""What the Remi state shows and checks: observations, snapshots, invariants.

Observations hold exactly what remi.md lets a seat know: its own hand; counts of the other
hands and of the stock; every face-up card (discard pile, table, the cards publicly taken into
a hand); scores; and the last hand's revealed result. The stock order and the other hands stay
hidden until a hand ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from meldhall.core.errors import EngineBug
from meldhall.core.observation import common_keys
from meldhall.games.remi.melds import RunRules, run_start, set_rank
from meldhall.games.remi.pieces import TOKEN, card_token
from meldhall.games.remi.table import TableMeld

if TYPE_CHECKING:
    from meldhall.games.remi.state import RemiState

DRAW, PLAY, OVER = 0, 1, 2
PHASES = ("draw", "play", "over")
"""Phase numbers of the state and their names in observations."""


def _tokens(cards: Sequence[int]) -> list[str]:
    return [TOKEN[c] for c in cards]


def observe(state: RemiState, viewer: int | None) -> dict[str, Any]:
    """Return what ``viewer`` may know now (None: a spectator); keys in the package
    docstring."""
    return {
        "game": "remi",
        **common_keys(
            seat=viewer,
            to_act=state.to_act(),
            phase=PHASES[state.phase],
            hand_number=state.hand_no,
            match_scores=state.totals,
            hidden_counts=[len(h) for h in state.hands],
            over=state.phase == OVER,
        ),
        "current": state.current,
        "hand": None if viewer is None else _tokens(sorted(state.hands[viewer])),
        "hand_counts": [len(h) for h in state.hands],
        "known": [_tokens(sorted(k)) for k in state.known],
        "stock": len(state.stock),
        "discard": _tokens(state.discard),
        "discard_top": card_token(state.discard[-1]) if state.discard else None,
        "melds": state.table_json(),
        "opened": list(state.opened),
        "active": list(state.active),
        "totals": list(state.totals),
        "dealer": state.dealer,
        "first_player": state.first,
        "turn": state.turn,
        "taken": card_token(state.taken) if state.taken >= 0 else None,
        "must_use": card_token(state.pending) if state.pending >= 0 else None,
        "stock_rebuilds": state.rebuilds,
        "last_result": state.last_result,
        "outcome": None if (outcome := state.outcome()) is None else outcome.to_json(),
        "options": state.options_view,
        "public": {"open_at_start": state.open_at_start, "kalooki_ok": state.kalooki_ok},
    }


def snapshot_of(state: RemiState) -> dict[str, Any]:
    """Return the whole state, hidden cards included, in canonical JSON form."""
    return {
        "hand_number": state.hand_no,
        "dealer": state.dealer,
        "first": state.first,
        "phase": PHASES[state.phase],
        "current": state.current,
        "turn": state.turn,
        "hands": [_tokens(h) for h in state.hands],
        "known": [_tokens(sorted(k)) for k in state.known],
        "stock": _tokens(state.stock),
        "discard": _tokens(state.discard),
        "melds": [m.to_json(i, state.runs) for i, m in enumerate(state.melds)],
        "opened": list(state.opened),
        "active": list(state.active),
        "totals": list(state.totals),
        "history": [list(h) for h in state.history],
        "taken": state.taken,
        "pending": state.pending,
        "open_at_start": state.open_at_start,
        "kalooki_ok": state.kalooki_ok,
        "rebuilds": state.rebuilds,
        "last_result": state.last_result,
        "outcome": None if (outcome := state.outcome()) is None else outcome.to_json(),
    }


def check_state(state: RemiState) -> None:
    """Raise ``EngineBug`` when a card is not in exactly one place, a meld on the table is
    not valid as recorded, or counts and totals disagree."""
    everything = [*state.stock, *state.discard]
    for hand in state.hands:
        everything += hand
    for meld in state.melds:
        everything += meld.cards
    total = state.options.total_cards
    if len(everything) != total or len(set(everything)) != total or max(everything) >= total:
        seen = [0] * (max(total, *everything) + 1)
        for c in everything:
            seen[c] += 1
        bad = [card_token(c) for c, k in enumerate(seen) if k != (c < total)]
        raise EngineBug(f"remi: cards not in exactly one place: {bad}")
    for index, meld in enumerate(state.melds):
        _check_meld(state, index, meld)
    for s in range(state.n):
        if not state.active[s] and state.hands[s] and state.phase != OVER:
            raise EngineBug(f"remi: eliminated seat {s} holds cards")
        if not state.known[s] <= set(state.hands[s]):
            raise EngineBug(f"remi: known cards of seat {s} are not in its hand")
    sums = [sum(column) for column in zip(*state.history, strict=True)] or [0] * state.n
    if sums != state.totals:
        raise EngineBug(f"remi: totals {state.totals} differ from the hands' sum {sums}")
    if state.phase == OVER:
        return
    if not state.active[state.current]:
        raise EngineBug("remi: the player to act is out of the match")
    if state.phase == DRAW and not (state.stock and state.discard):
        raise EngineBug("remi: a player must draw with an empty stock or discard pile")
    if any(state.active[s] and not state.hands[s] for s in range(state.n)):
        raise EngineBug("remi: an active player has no cards during a hand")
    hand = state.hands[state.current]
    if (state.taken >= 0 and state.taken not in hand and state.pending == state.taken) or (
        state.pending >= 0 and state.pending not in hand
    ):
        raise EngineBug("remi: the card that must be used is not in hand")


@lru_cache(maxsize=1 << 16)
def _recorded_right(
    kind: str, cards: tuple[int, ...], suit: int, lo: int, rank: int, runs: RunRules
) -> bool:
    """Return True when the cards make the meld recorded as ``kind``, ``suit``/``lo`` (run) or
    ``rank`` (set)."""
    if kind == "run":
        start = run_start(cards, runs)
        return start is not None and start[0] == suit and (start[1] - lo) % 13 == 0
    return set_rank(cards) == rank


def _check_meld(state: RemiState, index: int, meld: TableMeld) -> None:
    ok = _recorded_right(meld.kind, tuple(meld.cards), meld.suit, meld.lo, meld.rank, state.runs)
    if not ok or not state.opened[meld.owner]:
        raise EngineBug(f"remi: meld m{index} {_tokens(meld.cards)} is not as recorded")

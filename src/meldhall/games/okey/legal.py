"""Okey's legality, written once (okey.md 4 and 5): each function returns why an action is
refused now, or None when it is legal. ``state.legal_actions`` lists exactly the actions for
which they return None, and ``state.apply`` raises the refusal they return, so the listing
and the check cannot drift apart.

A refusal is ``(reason code, message)``; the match-over and turn checks come first in both
(``turn_refusal``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meldhall.core import errors
from meldhall.core.errors import Refusal
from meldhall.games.okey.pieces import TILE_COUNT, TOKENS

if TYPE_CHECKING:
    from meldhall.games.okey.state import OkeyState

AWAIT_TAKE = "await_take"
AWAIT_DISCARD = "await_discard"


def turn_refusal(state: OkeyState, seat: int) -> Refusal:
    """Return the refusal of any action by ``seat`` when the match is over or it is not
    ``seat``'s turn, else None."""
    if state.outcome_value is not None:
        return errors.MATCH_OVER, f"seat {seat}: the match is over"
    if seat != state.turn:
        return "NOT_YOUR_TURN", f"seat {seat} cannot act; seat {state.turn} is"
    return None


def _phase(state: OkeyState, seat: int, phase: str, what: str) -> Refusal:
    if state.phase != phase:
        return "WRONG_PHASE", f"seat {seat} cannot {what} in phase {state.phase}"
    return None


def draw_refusal(state: OkeyState, seat: int) -> Refusal:
    """Return why ``seat`` may not draw from the wall now, or None."""
    if (phase := _phase(state, seat, AWAIT_TAKE, "draw")) is not None:
        return phase
    if state.wall_count() <= 0:
        return "WALL_EMPTY", f"seat {seat} cannot draw: the wall is empty"
    return None


def take_refusal(state: OkeyState, seat: int) -> Refusal:
    """Return why ``seat`` may not take the previous player's discard now, or None (with
    the wall empty it may be taken only to win at once, unless ``wall_end = continue``)."""
    if (phase := _phase(state, seat, AWAIT_TAKE, "take a discard")) is not None:
        return phase
    source = state.previous_active(seat)
    if not state.piles[source]:
        return "NO_DISCARD_TO_TAKE", f"seat {source} has no discard to take"
    if state.wall_count() <= 0 and not state._take_is_free() and not state._take_wins():
        return (
            "TAKE_ONLY_TO_WIN",
            f"seat {seat}: with the wall empty the discard may be taken only to win at once",
        )
    return None


def show_refusal(state: OkeyState, seat: int) -> Refusal:
    """Return why ``seat`` may not show the indicator's twin now, or None (okey.md 4.3)."""
    if not state._twin_holder_may_show(seat):
        return (
            "SHOW_NOT_ALLOWED",
            f"seat {seat} may not show the indicator now (holder of its twin, own first "
            "turn before taking, once per hand)",
        )
    return None


def end_refusal(state: OkeyState, seat: int) -> Refusal:
    """Return why ``seat`` may not end the hand now (only with the wall empty), or None."""
    if (phase := _phase(state, seat, AWAIT_TAKE, "end the hand")) is not None:
        return phase
    if state.wall_count() > 0:
        return "WRONG_PHASE", f"seat {seat}: END_HAND needs an empty wall"
    return None


def discard_phase_refusal(state: OkeyState, seat: int) -> Refusal:
    """Return why ``seat`` may not discard (or win by a discard) in this phase, or None."""
    return _phase(state, seat, AWAIT_DISCARD, "discard")


def _tile(state: OkeyState, seat: int, tile: int) -> Refusal:
    if (phase := discard_phase_refusal(state, seat)) is not None:
        return phase
    if not 0 <= tile < TILE_COUNT or tile not in state.hands[seat]:
        return "TILE_NOT_IN_HAND", f"seat {seat} does not hold {tile}"
    return None


def must_win_refusal(state: OkeyState, seat: int) -> Refusal:
    """Return why ``seat`` may make no plain discard now (it took the last discard to win
    and must win at once), or None."""
    if state.must_win:
        return "TAKE_ONLY_TO_WIN", f"seat {seat} took the last discard and must now win"
    return None


def discard_refusal(state: OkeyState, seat: int, tile: int) -> Refusal:
    """Return why ``seat`` may not discard ``tile`` now, or None."""
    if (held := _tile(state, seat, tile)) is not None:
        return held
    return must_win_refusal(state, seat)


def claimable(state: OkeyState) -> tuple[int, ...]:
    """Return the tiles, in hand order, with which the player to act may declare a win now:
    the winning discards, or with ``false_claim = penalty`` every tile (a false claim costs
    the penalty), but only winning discards after taking the last discard to win."""
    if state._penalty is not None and not state.must_win:
        return tuple(state.hands[state.turn])
    return state._wins()


def win_refusal(state: OkeyState, seat: int, tile: int) -> Refusal:
    """Return why ``seat`` may not declare a win by discarding ``tile`` now, or None."""
    if (held := _tile(state, seat, tile)) is not None:
        return held
    if tile not in claimable(state):
        return (
            "NOT_A_WINNING_HAND",
            f"seat {seat}: the 14 tiles left after discarding {TOKENS[tile]} do not win",
        )
    return None

"""Why an action is not legal now: the reason codes of Sichuan rejections.

Codes: ``WRONG_PHASE`` (not an action of this step), ``NOT_IN_HAND``,
``MUST_DISCARD_MISSING_SUIT``, ``HOLDS_MISSING_SUIT`` (no pung, kong or win while holding
the missing suit, D5), ``WIN_AFTER_PUNG`` and ``KONG_AFTER_PUNG`` (D6), ``NOT_A_WIN``,
``NO_REPLACEMENT`` (a kong needs a wall tile, 6.5), ``NOT_A_KONG``, ``CANNOT_CLAIM``,
``PASSED_WIN_LOCK`` (variant), ``BAD_EXCHANGE`` (variant); the state itself raises
``MATCH_OVER`` and ``NOT_YOUR_TURN``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meldhall.games.sichuan.actions import (
    AddedKong,
    ConcealedKong,
    Declare,
    Discard,
    Exchange,
    Kong,
    Pass,
    Pung,
    Win,
)
from meldhall.games.sichuan.pieces import TOKEN

if TYPE_CHECKING:
    from meldhall.games.sichuan.state import SichuanState


def rejection(state: SichuanState, seat: int, action: Any) -> tuple[str, str]:
    """Return the reason code and message for an action of ``seat`` that is not legal now."""
    who = f"seat {seat}"
    phase = state.phase
    if not isinstance(
        action, (Declare, Exchange, Discard, ConcealedKong, AddedKong, Win, Pung, Kong, Pass)
    ):
        return "WRONG_PHASE", f"{who}: {action!r} is not a sichuan action"
    if phase in ("claim", "rob"):
        if not isinstance(action, (Win, Pung, Kong, Pass)):
            return "WRONG_PHASE", f"{who} answers the {phase} window: win, pung, kong or pass"
        if phase == "rob" and isinstance(action, (Pung, Kong)):
            return "WRONG_PHASE", f"{who}: only a win may be declared on an added kong"
        return _claim_rejection(state, seat, action)
    if phase == "declare":
        return "WRONG_PHASE", f"{who} must declare a missing suit first, not {action}"
    if phase == "exchange":
        if isinstance(action, Exchange):
            return "BAD_EXCHANGE", f"{who}: {action} is not three of its tiles of one suit"
        return "WRONG_PHASE", f"{who} must pass three tiles first, not {action}"
    if isinstance(action, (Declare, Exchange, Pung, Kong, Pass)):
        return "WRONG_PHASE", f"{who} is on turn: {action} is not a turn action"
    if isinstance(action, Discard):
        if action.tile not in state.hands[seat]:
            return "NOT_IN_HAND", f"{who} does not hold {TOKEN[action.tile]}"
        return "MUST_DISCARD_MISSING_SUIT", f"{who} must discard a missing-suit tile first"
    if isinstance(action, Win):
        if state.entered == "pung":
            return "WIN_AFTER_PUNG", f"{who} claimed a pung and must discard"
        if state.miss_held[seat]:
            return "HOLDS_MISSING_SUIT", f"{who} cannot win holding the missing suit"
        return "NOT_A_WIN", f"{who}: the hand is not complete"
    if state.entered == "pung" and not state.opts.kong_after_pung:
        return "KONG_AFTER_PUNG", f"{who} claimed a pung and must discard before any kong"
    if state.wall_count < 1:
        return "NO_REPLACEMENT", f"{who}: a kong needs a tile in the wall"
    if state.miss_held[seat] and state.opts.missing_suit_strictness == "strict":
        return "HOLDS_MISSING_SUIT", f"{who} cannot kong holding the missing suit"
    return "NOT_A_KONG", f"{who} cannot make {action}"


def _claim_rejection(state: SichuanState, seat: int, action: Any) -> tuple[str, str]:
    """Return why an answer in a claim or robbing window is not offered."""
    who = f"seat {seat}"
    tile = TOKEN[state.window_tile]
    if state.miss_held[seat] and (
        isinstance(action, Win) or state.opts.missing_suit_strictness == "strict"
    ):
        return "HOLDS_MISSING_SUIT", f"{who} holds the missing suit: no {action}"
    if isinstance(action, Win):
        if state.lock[seat]:
            return "PASSED_WIN_LOCK", f"{who} passed a win and may not win on a discard yet"
        return "NOT_A_WIN", f"{who}: {tile} does not complete the hand"
    if isinstance(action, Kong) and state.wall_count < 1:
        return "NO_REPLACEMENT", f"{who}: a kong needs a tile in the wall"
    return "CANNOT_CLAIM", f"{who} cannot {action} {tile}"

"""The legality of okey-cards (okey-cards.md 5), written once: each function returns why an
action is refused now, or None when it is legal. ``state.legal_actions`` lists exactly the
actions they let through and ``state.apply`` raises the refusal they return.

A refusal is ``(reason code, message)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meldhall.core.errors import Refusal
from meldhall.games.okey_cards.actions import Discard, Select, Unselect
from meldhall.games.okey_cards.pieces import HAND_SLOTS

if TYPE_CHECKING:
    from meldhall.games.okey_cards.state import OkeyCardsState


def turn_refusal(state: OkeyCardsState, seat: int, action: object) -> Refusal:
    """Return the refusal of any action once the game is over or by a seat other than 0."""
    if state.phase == "OVER":
        return "GAME_OVER", f"{action}: the game is over"
    if seat != 0:
        return "NOT_YOUR_TURN", f"okey-cards has one seat, not seat {seat}"
    return None


def draw_refusal(state: OkeyCardsState) -> Refusal:
    """Return why the player may not draw now (an empty deck, or five cards held), or None."""
    if not state.deck:
        return "DECK_EMPTY", "draw: no cards left in the deck"
    if len(state.hand_cards()) + len(state.field_cards()) >= HAND_SLOTS:
        return "HAND_FULL", "draw: hand and field already hold 5 cards"
    return None


def _in_hand(state: OkeyCardsState, action: Select | Discard) -> Refusal:
    if action.card.id not in state.hand:
        return "NOT_IN_HAND", f"{action}: {action.card} is not in the hand"
    return None


def select_refusal(state: OkeyCardsState, action: Select) -> Refusal:
    """Return why the card may not go to the field now (not in hand, a full field), or None."""
    if (held := _in_hand(state, action)) is not None:
        return held
    return field_refusal(state, action)


def field_refusal(state: OkeyCardsState, action: object) -> Refusal:
    """Return why no card may go to the field now (it is full), or None."""
    if None not in state.field:
        return "FIELD_FULL", f"{action}: the field is full"
    return None


def unselect_refusal(state: OkeyCardsState, action: Unselect) -> Refusal:
    """Return why the card may not go back to the hand (it is not on the field), or None."""
    if action.card.id not in state.field:
        return "NOT_ON_FIELD", f"{action}: {action.card} is not on the field"
    return None


def discard_refusal(state: OkeyCardsState, action: Discard) -> Refusal:
    """Return why the card may not be discarded (it is not in the hand), or None."""
    return _in_hand(state, action)

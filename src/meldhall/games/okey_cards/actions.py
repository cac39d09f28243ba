"""The player's actions (okey-cards.md 5), each with one text form and one JSON form.

>>> parse_action("select R3")
Select(card=OkeyCard(id=2, colour='R', number=3))
>>> str(action_from_json({"type": "discard", "card": "Y8"}))
'discard Y8'
>>> [str(a) for a in (Draw(), Quit())]
['draw', 'quit']
"""

from __future__ import annotations

from dataclasses import dataclass

from meldhall.core.actions import Codec, Coded, Form, Piece
from meldhall.core.engine import JSON
from meldhall.core.tiles import OkeyCard, parse_okey_card

CARD = Piece(str, parse_okey_card)
"""A card by its token (``R3``)."""


@dataclass(frozen=True, slots=True)
class Draw(Coded):
    """Draw from the deck (fill the hand to five, or one card with draw_mode single)."""

    form = Form("draw")


@dataclass(frozen=True, slots=True)
class Select(Coded):
    """Move a card from the hand to the first empty field slot."""

    card: OkeyCard
    form = Form("select", card=CARD)


@dataclass(frozen=True, slots=True)
class Unselect(Coded):
    """Move a card from the field back to the hand."""

    card: OkeyCard
    form = Form("unselect", card=CARD)


@dataclass(frozen=True, slots=True)
class Discard(Coded):
    """Remove a hand card from the game for good."""

    card: OkeyCard
    form = Form("discard", card=CARD)


@dataclass(frozen=True, slots=True)
class Quit(Coded):
    """End the game now with the current score."""

    form = Form("quit")


Action = Draw | Select | Unselect | Discard | Quit
CODEC = Codec("okey-cards", (Draw, Select, Unselect, Discard, Quit))
"""The player's actions."""


def parse_action(text: str) -> Action:
    """Return the action of its text form (``draw``, ``select R3``, ``unselect R3``,
    ``discard R3``, ``quit``), or raise ``ParseError``."""
    action: Action = CODEC.parse_action(text)
    return action


def action_from_json(data: JSON) -> Action:
    """Return the action of its JSON form (``{"type": "select", "card": "R3"}``), or raise
    ``ParseError``."""
    action: Action = CODEC.action_from_json(data)
    return action

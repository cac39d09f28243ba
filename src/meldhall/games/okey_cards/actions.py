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
from typing import Any, ClassVar

from meldhall.core.actions import BareAction, by_text
from meldhall.core.engine import JSON
from meldhall.core.errors import ParseError
from meldhall.core.tiles import OkeyCard, parse_okey_card


@dataclass(frozen=True, slots=True)
class Draw(BareAction):
    """Draw from the deck (fill the hand to five, or one card with draw_mode single)."""

    text = json_type = "draw"


@dataclass(frozen=True, slots=True)
class CardAction:
    """An action on one card of the player; a subclass sets ``verb``, which is both the first
    word of the text form (``select R3``) and the JSON type."""

    card: OkeyCard
    verb: ClassVar[str]

    def __str__(self) -> str:
        return f"{self.verb} {self.card}"

    def to_json(self) -> JSON:
        """Return ``{"type": verb, "card": token}``."""
        return {"type": self.verb, "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Select(CardAction):
    """Move a card from the hand to the first empty field slot."""

    verb = "select"


@dataclass(frozen=True, slots=True)
class Unselect(CardAction):
    """Move a card from the field back to the hand."""

    verb = "unselect"


@dataclass(frozen=True, slots=True)
class Discard(CardAction):
    """Remove a hand card from the game for good."""

    verb = "discard"


@dataclass(frozen=True, slots=True)
class Quit(BareAction):
    """End the game now with the current score."""

    text = json_type = "quit"


Action = Draw | Select | Unselect | Discard | Quit
_PLAIN: dict[str, Action] = by_text((Draw(), Quit()))
_WITH_CARD: dict[str, type[Select] | type[Unselect] | type[Discard]] = {
    "select": Select,
    "unselect": Unselect,
    "discard": Discard,
}


def _build(kind: str, card: Any, source: str) -> Action:
    if kind in _PLAIN:
        if card is not None:
            raise ParseError(f"{kind} takes no card: {source}")
        return _PLAIN[kind]
    make = _WITH_CARD.get(kind)
    if make is None:
        raise ParseError(f"not an okey-cards action: {source}")
    if not isinstance(card, str):
        raise ParseError(f"{kind} needs one card token: {source}")
    return make(parse_okey_card(card))


def parse_action(text: str) -> Action:
    """Return the action of its text form (``draw``, ``select R3``, ``unselect R3``,
    ``discard R3``, ``quit``), or raise ``ParseError``."""
    if not isinstance(text, str):
        raise ParseError(f"an action is text, not {text!r}")
    words = text.split()
    if not 1 <= len(words) <= 2:
        raise ParseError(f"not an okey-cards action: {text!r}")
    return _build(words[0], words[1] if len(words) == 2 else None, repr(text))


def action_from_json(data: JSON) -> Action:
    """Return the action of its JSON form (``{"type": "select", "card": "R3"}``), or raise
    ``ParseError``."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ParseError(f"an action is an object with a 'type': {data!r}")
    extra = set(data) - {"type", "card"}
    if extra:
        raise ParseError(f"unknown action keys {sorted(extra)}: {data!r}")
    return _build(data["type"], data.get("card"), repr(data))

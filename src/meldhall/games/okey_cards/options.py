"""The rule options of okey-cards.md section 10, as one frozen dataclass.

>>> from meldhall.core.options import parse_options
>>> parse_options(OkeyCardsOptions, {"reward_thresholds": [250, 350]}).reward_thresholds
(250, 350)
>>> parse_options(OkeyCardsOptions, {"deck": "explicit", "deck_order": "R1 B1"}).deck_order
('R1', 'B1')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from meldhall.core.errors import OptionsError, ParseError
from meldhall.core.tiles import parse_okey_cards, split_tokens


def _thresholds(value: Any) -> tuple[int, int]:
    """Return (silver, gold) from ``[300, 400]`` or ``"300, 400"``."""
    items = value.replace(",", " ").split() if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or len(items) != 2:
        raise ValueError(f"two scores (silver, gold) are needed, not {value!r}")
    try:
        silver, gold = (int(x) for x in items)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"two whole numbers are needed, not {value!r}") from exc
    if isinstance(items[0], bool) or isinstance(items[1], bool) or not 0 <= silver <= gold:
        raise ValueError(f"need 0 <= silver <= gold, not {value!r}")
    return silver, gold


def _deck_order(value: Any) -> tuple[str, ...]:
    """Return the tokens of an explicit deck (top first), each card at most once."""
    texts = split_tokens(value) if isinstance(value, str) else value
    if not isinstance(texts, list | tuple) or not all(isinstance(t, str) for t in texts):
        raise ValueError(f"a deck is a list of card tokens, not {value!r}")
    try:
        cards = parse_okey_cards(list(texts))
    except ParseError as exc:
        raise ValueError(str(exc)) from exc
    return tuple(str(c) for c in cards)


@dataclass(frozen=True)
class OkeyCardsOptions:
    """Options of okey-cards (section 10). ``deck = "explicit"`` takes its order, top first,
    from ``deck_order``; cards it leaves out follow in a seeded shuffle."""

    draw_mode: Literal["fill", "single"] = "fill"
    score_table: Literal["current", "legacy"] = "current"
    reward_thresholds: tuple[int, int] = field(
        default=(300, 400), metadata={"convert": _thresholds}
    )
    confirm_discard: bool = True
    auto_end: bool = True
    deck: Literal["shuffled", "explicit"] = "shuffled"
    deck_order: tuple[str, ...] = field(default=(), metadata={"convert": _deck_order})

    def validate(self) -> None:
        """Raise ``OptionsError`` when ``deck`` and ``deck_order`` disagree; return None."""
        if self.deck == "explicit" and not self.deck_order:
            raise OptionsError("option 'deck' = 'explicit' needs the cards in 'deck_order'")
        if self.deck != "explicit" and self.deck_order:
            raise OptionsError("option 'deck_order' is only used with 'deck' = 'explicit'")

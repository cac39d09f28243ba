"""Remi's rule options (remi.md 14): one frozen dataclass, defaults = the seed's game.

Names are the spec's. Where the spec gives an option a parameter, it is its own field:
``match_end`` with ``match_limit`` (the 150 of elimination and first-to-limit) and
``match_hands`` (the N of ``fixed_hands N``). Two more options fix the deal for tests and
replays: ``deck`` (the first hand's deck order as tokens, first card dealt first; a prefix is
completed by the seeded shuffle of the remaining cards) and ``first_dealer``.

>>> parse_remi_options({"opening_minimum": 40}).opening_minimum
40
>>> parse_remi_options({"kalooki_penalty": "triple"})
Traceback (most recent call last):
...
meldhall.core.errors.OptionsError: option 'kalooki_penalty' takes 25, 0, 'double', not 'triple'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from meldhall.core.errors import OptionsError, ParseError
from meldhall.core.options import parse_options
from meldhall.core.tiles import split_tokens
from meldhall.games.remi.pieces import parse_card_list


def _deck_tokens(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(split_tokens(value))
    if isinstance(value, Sequence) and all(isinstance(t, str) for t in value):
        return tuple(value)
    raise ValueError(f"a deck is a list of card tokens, not {value!r}")


@dataclass(frozen=True)
class RemiOptions:
    """Every rule switch of remi.md 14 (see the module docstring for the extra fields)."""

    players: int = field(default=4, metadata={"range": (2, 6)})
    hand_size: Literal[13, 15] = 13
    jokers: Literal[2, 4] = 2
    opening_minimum: Literal[30, 40, 51] = 30
    ace_low_allowed: bool = True
    ace_value_low_run: Literal[11, 1] = 11
    run_wrap: bool = False
    joker_hand_penalty: Literal[25, 15, 20] = 25
    kalooki_penalty: Literal[25, 0] | Literal["double"] = 25
    discard_draw_must_use: bool = False
    no_rediscard_taken_card: bool = True
    exchange_requires_open: bool = True
    released_joker_must_be_used: bool = False
    set_two_joker_exchange: bool = True
    joker_discard_allowed: bool = True
    unopened_penalty: Literal["none", "double", "fixed_100"] = "none"
    match_end: Literal["elimination", "first_to_limit", "fixed_hands"] = "elimination"
    match_limit: int = field(default=150, metadata={"range": (1, 100_000)})
    match_hands: int = field(default=10, metadata={"range": (1, 1_000)})
    max_stock_rebuilds: Literal["unlimited"] | int = field(
        default="unlimited", metadata={"range": (0, 1_000)}
    )
    turn_timer: Literal["off"] | int = field(default="off", metadata={"range": (5, 3_600)})
    deck: tuple[str, ...] = field(default=(), metadata={"convert": _deck_tokens})
    first_dealer: Literal["random"] | int = field(default="random", metadata={"range": (0, 5)})

    def validate(self) -> None:
        """Return None when the options fit together, else raise ``OptionsError``."""
        if self.run_wrap and not self.ace_low_allowed:
            raise OptionsError(
                "option 'run_wrap' needs 'ace_low_allowed': K-A-2 puts the ace next to the 2"
            )
        if isinstance(self.first_dealer, int) and self.first_dealer >= self.players:
            raise OptionsError(
                f"option 'first_dealer' {self.first_dealer} is not a seat of {self.players} players"
            )
        if self.deck:
            try:
                cards = parse_card_list(self.deck, self.jokers)
            except ParseError as exc:
                raise OptionsError(f"option 'deck': {exc}") from exc
            if len(cards) > 104 + self.jokers:
                raise OptionsError(f"option 'deck' holds {len(cards)} cards, more than exist")

    @property
    def total_cards(self) -> int:
        """Return how many cards the deck holds: 104 naturals and the jokers."""
        return 104 + self.jokers


_MIXED: dict[str, tuple[tuple[object, ...], tuple[int, int] | None]] = {
    "kalooki_penalty": ((25, 0, "double"), None),
    "max_stock_rebuilds": (("unlimited",), (0, 1_000)),
    "turn_timer": (("off",), (5, 3_600)),
    "first_dealer": (("random",), (0, 5)),
}
"""Options taking a word or a number: their words and number range, for one clear message."""


def _check_mixed(raw: Mapping[str, Any]) -> None:
    for name, (words, span) in _MIXED.items():
        if name not in raw:
            continue
        value = raw[name]
        if any(type(value) is type(w) and value == w for w in words):
            continue
        is_int = isinstance(value, int) and not isinstance(value, bool)
        if span is not None and is_int and span[0] <= value <= span[1]:
            continue
        listed = ", ".join(repr(w) for w in words)
        more = f" or a whole number {span[0]} to {span[1]}" if span else ""
        raise OptionsError(f"option {name!r} takes {listed}{more}, not {value!r}")


def parse_remi_options(raw: Mapping[str, Any] | None) -> RemiOptions:
    """Return validated options from spec names to values, or raise ``OptionsError``."""
    if isinstance(raw, Mapping):
        _check_mixed(raw)
    return parse_options(RemiOptions, raw)

"""Sichuan "blood battle" mahjong (rules/sichuan.md, seed 002): 108 tiles, the missing suit,
pung and kongs (no chow), multiple winners, play on until three have won or the wall is
exhausted, and the exhaustion settlement.

Modules: ``hand`` (win check and waits on count arrays), ``shanten``, ``fan`` (the fan
table), ``settlement`` (payments), ``options``, ``actions``, ``state`` (the match),
``reasons`` (rejection codes), ``view`` (observation keys are documented there), ``deal``
(explicit walls for tests), ``vectors``.

>>> from meldhall.core.rng import seed_from_text
>>> state = GAME.new_state(GAME.options({"dealer": "seat0"}), 4, seed_from_text("demo"))
>>> sorted(state.to_act()), [str(a) for a in state.legal_actions(0)]
([0, 1, 2, 3], ['declare m', 'declare p', 'declare s'])
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from meldhall.core.engine import JSON
from meldhall.core.errors import OptionsError
from meldhall.core.options import parse_options
from meldhall.games.sichuan.actions import SichuanAction, action_from_json, parse_action
from meldhall.games.sichuan.options import SichuanOptions
from meldhall.games.sichuan.sample import sample
from meldhall.games.sichuan.state import SichuanState
from meldhall.games.sichuan.vectors import answer_vector


class SichuanGame:
    """The static facts and entry points of Sichuan mahjong."""

    id = "sichuan"
    title = "Sichuan mahjong (blood battle)"
    min_seats = 4
    max_seats = 4
    default_seats = 4

    def options(self, raw: Mapping[str, JSON] | None = None) -> SichuanOptions:
        """Return the validated options (defaults: the spec's game), or raise OptionsError."""
        return parse_options(SichuanOptions, raw)

    def new_state(self, options: Any, seats: int, seed: bytes) -> SichuanState:
        """Return a new match dealt from ``seed``."""
        if seats != 4:
            raise OptionsError(f"sichuan is played by 4 seats, not {seats}")
        if not isinstance(options, SichuanOptions):
            raise OptionsError(f"not sichuan options: {options!r}")
        return SichuanState(options, seed)

    def parse_action(self, text: str) -> SichuanAction:
        """Return the action of its text form, or raise ParseError."""
        return parse_action(text)

    def action_from_json(self, data: JSON) -> SichuanAction:
        """Return the action of its JSON form, or raise ParseError."""
        return action_from_json(data)

    def answer_vector(self, kind: str, data: Mapping[str, JSON], options: Any) -> dict[str, JSON]:
        """Return the expect fields of a sichuan rule vector."""
        return answer_vector(kind, data, options)

    def sample(self, observation: Mapping[str, JSON], rng: random.Random) -> SichuanState:
        """Return a world consistent with a seat's observation, for search (``sample``)."""
        return sample(observation, rng)


GAME = SichuanGame()

"""The Sichuan declaration ``GAME``: static facts and the entry points the platform calls."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from meldhall.core.engine import JSON, Bots, Declared, Presets, Preview, TimeoutPolicy, VectorKinds
from meldhall.core.errors import OptionsError
from meldhall.core.options import parse_options
from meldhall.games.sichuan.actions import SichuanAction, action_from_json, parse_action
from meldhall.games.sichuan.options import SichuanOptions
from meldhall.games.sichuan.sample import sample
from meldhall.games.sichuan.state import SichuanState
from meldhall.games.sichuan.vectors import answer_vector


class SichuanGame(Declared):
    """The static facts and entry points of Sichuan mahjong."""

    id = "sichuan"
    title = "Sichuan mahjong (blood battle)"
    min_seats = 4
    max_seats = 4
    default_seats = 4
    rules_version = 1
    options_type = SichuanOptions
    presets: ClassVar[Presets] = {"spec": {}}
    bots = Bots(
        "meldhall.bots.sichuan",
        ("random", "greedy", "search", "strong"),
        on_timeout="greedy",
        ceiling="meldhall.bots.ceiling.SichuanCeiling",
    )
    preview = Preview("mahjong", ("1m", "5p", "1s", "9s", "8m"))
    vector_kinds: ClassVar[VectorKinds] = {"hand": frozenset({"waits"}), "score": frozenset()}
    higher_is_better = True
    hand_result = "scores"
    timeout = TimeoutPolicy(passes=frozenset({"pass"}), draws=frozenset({"draw"}))

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

"""The okey ``Game``: static facts and the entry points the platform calls."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from meldhall.core.engine import JSON, Bots, Declared, Presets, Preview, TimeoutPolicy, VectorKinds
from meldhall.games.okey.actions import OkeyAction, action_from_json, parse_action
from meldhall.games.okey.options import OkeyOptions, parse
from meldhall.games.okey.sample import sample
from meldhall.games.okey.state import OkeyState
from meldhall.games.okey.vectors import answer_vector


class OkeyGame(Declared):
    """Classic Okey (okey.md): 106 tiles, indicator and jokers, 14 tiles or seven pairs."""

    id = "okey"
    title = "Okey"
    min_seats = 2
    max_seats = 4
    default_seats = 4
    rules_version = 2  # 2: a win scores its more valuable reading by the win_points (6.4)
    options_type = OkeyOptions
    presets: ClassVar[Presets] = {"classic": {}}
    bots = Bots(
        "meldhall.bots.okey",
        ("random", "greedy", "strong"),
        on_timeout="greedy",
        ceiling="meldhall.bots.ceiling.okey_ceiling",
    )
    preview = Preview("okey", ("R1a", "R2a", "R3a", "K7a", "Ja"))
    vector_kinds: ClassVar[VectorKinds] = {
        "hand": frozenset({"jokers"}),
        "score": frozenset({"winners"}),
    }
    higher_is_better = True
    hand_result = "scores"
    timeout = TimeoutPolicy(draws=frozenset({"draw"}))

    def options(self, raw: Mapping[str, JSON] | None = None) -> OkeyOptions:
        """Return validated options (defaults: the classic preset), or raise ``OptionsError``."""
        return parse(raw)

    def new_state(self, options: Any, seats: int, seed: bytes) -> OkeyState:
        """Return a new match for ``seats`` players dealt from ``seed`` (``seats`` overrides
        the option ``players``)."""
        opts = options if isinstance(options, OkeyOptions) else parse(options)
        return OkeyState(opts, seats, seed)

    def parse_action(self, text: str) -> OkeyAction:
        """Return the action of its text form, or raise ``ParseError``."""
        return parse_action(text)

    def action_from_json(self, data: JSON) -> OkeyAction:
        """Return the action of its JSON form, or raise ``ParseError``."""
        return action_from_json(data)

    def answer_vector(self, kind: str, data: Mapping[str, JSON], options: Any) -> dict[str, JSON]:
        """Return the expect fields of a ``hand`` or ``score`` vector."""
        return answer_vector(kind, data, options)

    def sample(self, observation: Mapping[str, JSON], rng: random.Random) -> OkeyState:
        """Return a world consistent with a seat's observation, for search (``sample``)."""
        return sample(observation, rng)


GAME = OkeyGame()

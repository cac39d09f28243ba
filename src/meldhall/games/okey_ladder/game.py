"""The ``Game`` object of Ladder Okey: static facts and the entry points of the contract."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from meldhall.core.engine import JSON, Bots, Declared, Presets, Preview, TimeoutPolicy, VectorKinds
from meldhall.core.errors import OptionsError
from meldhall.games.okey_ladder.actions import Action, action_from_json, parse_action
from meldhall.games.okey_ladder.deal import SEATS
from meldhall.games.okey_ladder.options import LadderOptions, parse_ladder_options
from meldhall.games.okey_ladder.sample import sample
from meldhall.games.okey_ladder.state import LadderState
from meldhall.games.okey_ladder.vectors import answer


class LadderGame(Declared):
    """Ladder Okey (``okey-ladder``): four seats, a match of ``rounds`` hands."""

    id = "okey-ladder"
    title = "Ladder Okey"
    min_meld = 2  # a pair; sets and runs hold three tiles at least
    min_seats = SEATS
    max_seats = SEATS
    default_seats = SEATS
    rules_version = 1
    options_type = LadderOptions
    presets: ClassVar[Presets] = {"seed": {}}
    bots = Bots(
        "meldhall.bots.okey_ladder",
        ("random", "greedy", "strong"),
        on_timeout="greedy",
        ceiling="meldhall.bots.ceiling.okey_ladder_ceiling",
    )
    preview = Preview("okey", ("B11a", "B12a", "B13a", "Y9a", "Y9b"))
    vector_kinds: ClassVar[VectorKinds] = {
        "meld": frozenset(),
        "best": frozenset(),
        "score": frozenset({"winners"}),
    }
    higher_is_better = False
    hand_result = "totals"
    timeout = TimeoutPolicy(draws=frozenset({"draw"}))

    def options(self, raw: Mapping[str, JSON] | None = None) -> LadderOptions:
        """Return validated options (defaults: the seed's preset), or raise ``OptionsError``."""
        return parse_ladder_options(raw)

    def new_state(self, options: LadderOptions, seats: int, seed: bytes) -> LadderState:
        """Return a new match dealt from ``seed`` (always four seats)."""
        if seats != SEATS:
            raise OptionsError(f"okey-ladder is played by 4 seats, not {seats}")
        return LadderState(options, seed)

    def parse_action(self, text: str) -> Action:
        """Return the action of its text form, or raise ``ParseError``."""
        return parse_action(text)

    def action_from_json(self, data: JSON) -> Action:
        """Return the action of its JSON form, or raise ``ParseError``."""
        return action_from_json(data)

    def sample(self, observation: Mapping[str, JSON], rng: random.Random) -> LadderState:
        """Return a world consistent with a seat's observation, for search (``sample``)."""
        return sample(observation, rng)

    def answer_vector(self, kind: str, data: Mapping[str, JSON], options: Any) -> dict[str, JSON]:
        """Return the expect fields of a ``meld``, ``best`` or ``score`` vector."""
        return answer(kind, data, options)


GAME = LadderGame()
"""The registered game object."""

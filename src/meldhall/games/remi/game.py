"""The ``remi`` game object: static facts and entry points of the engine contract."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from meldhall.core.engine import (
    JSON,
    Action,
    Bots,
    Declared,
    Presets,
    Preview,
    TimeoutPolicy,
    VectorKinds,
)
from meldhall.games.remi.actions import RemiAction, action_from_json, parse_action
from meldhall.games.remi.options import RemiOptions, parse_remi_options
from meldhall.games.remi.sample import sample
from meldhall.games.remi.state import RemiState
from meldhall.games.remi.vectors import answer_vector


class RemiGame(Declared):
    """Romanian Remi (Kalooki) with two packs and two jokers (rules/remi.md)."""

    id = "remi"
    title = "Remi"
    min_meld = 3  # a set or a run of three cards at least
    min_seats = 2
    max_seats = 4
    default_seats = 4
    rules_version = 1
    options_type = RemiOptions
    presets: ClassVar[Presets] = {"seed": {}}
    bots = Bots(
        "meldhall.bots.remi",
        ("random", "greedy", "strong"),
        on_timeout="greedy",
        ceiling="meldhall.bots.ceiling.remi_ceiling",
    )
    preview = Preview("card", ("10H#1", "JH#1", "QH#1", "KH#1", "JK#1"))
    vector_kinds: ClassVar[VectorKinds] = {
        "meld": frozenset(),
        "best": frozenset(),
        "score": frozenset({"eliminated"}),
    }
    higher_is_better = False
    hand_result = "totals"
    timeout = TimeoutPolicy(draws=frozenset({"draw_stock"}), piece="card")
    appraisable = frozenset({"open"})
    """A player sees what the selected melds are worth against the opening's need."""

    def options(self, raw: Mapping[str, Any] | None = None) -> RemiOptions:
        """Return validated options (missing names: the seed's game), or raise
        ``OptionsError``."""
        return parse_remi_options(raw)

    def new_state(self, options: RemiOptions, seats: int, seed: bytes) -> RemiState:
        """Return a new match dealt from ``seed``."""
        return RemiState(options, seats, seed)

    def parse_action(self, text: str) -> RemiAction:
        """Return the action of its text form, or raise ``ParseError``."""
        return parse_action(text)

    def action_from_json(self, data: Any) -> RemiAction:
        """Return the action of its JSON form, or raise ``ParseError``."""
        return action_from_json(data)

    def sample(self, observation: Mapping[str, JSON], rng: random.Random) -> RemiState:
        """Return a world consistent with a seat's observation, for search (``sample``)."""
        return sample(observation, rng)

    def answer_vector(
        self, kind: str, data: Mapping[str, Any], options: RemiOptions
    ) -> dict[str, Any]:
        """Return every expect field Remi computes for a vector question."""
        return answer_vector(kind, data, options)

    def timeout_action(self, state: Any, seat: int, drawn: str | None) -> Action | None:
        """Return the spec's expiry action under the ``turn_timer`` option (remi.md 14: draw
        from the stock, else discard the most costly card), else the safe listed action of
        ``timeout``."""
        decided: Action | None = state.expiry_action(seat)
        return decided if decided is not None else super().timeout_action(state, seat, drawn)

    def turn_seconds(self, state: Any) -> float | None:
        """Return the seconds per turn of the option ``turn_timer`` (None when off)."""
        timer = state.options.turn_timer
        return None if timer == "off" else float(timer)


GAME = RemiGame()

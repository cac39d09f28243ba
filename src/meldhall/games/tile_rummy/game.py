"""The ``Game`` entry point of Tile Rummy 500."""

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
from meldhall.core.errors import ParseError
from meldhall.games.tile_rummy import actions
from meldhall.games.tile_rummy.options import TileRummyOptions, parse_options
from meldhall.games.tile_rummy.sample import sample
from meldhall.games.tile_rummy.state import TileRummyState
from meldhall.games.tile_rummy.vectors import answer_best, answer_meld, answer_score


class TileRummyGame(Declared):
    """Tile Rummy 500 (rules/tile-rummy.md): 2 to 4 players, 106 tiles with two Smileys."""

    id = "tile-rummy"
    title = "Tile Rummy 500"
    min_meld = 3  # a group or a run of three tiles at least
    min_seats = 2
    max_seats = 4
    default_seats = 4
    rules_version = 1
    options_type = TileRummyOptions
    presets: ClassVar[Presets] = {"house": {}}
    bots = Bots(
        "meldhall.bots.tile_rummy",
        ("random", "greedy", "strong"),
        on_timeout="greedy",
        easy_slips=2,  # its random moves still lay all they can: 1 in 4 played as greedy
        ceiling="meldhall.bots.ceiling.tile_rummy_ceiling",
    )
    preview = Preview("okey", ("K12a", "K13a", "K1a", "Sa", "R5a"), blank="S")
    vector_kinds: ClassVar[VectorKinds] = {
        "meld": frozenset(),
        "best": frozenset(),
        "score": frozenset(),
    }
    higher_is_better = True
    hand_result = "scores"
    timeout = TimeoutPolicy(draws=frozenset({"draw"}))
    lists_every_legal_action = False  # rearrangements: the solver's, one per own meld (7)

    def options(self, raw: Mapping[str, JSON] | None = None) -> TileRummyOptions:
        """Return validated options (defaults: the seed's house rules), or raise
        ``OptionsError`` naming the bad option."""
        return parse_options(TileRummyOptions, raw)

    def new_state(self, options: Any, seats: int, seed: bytes) -> TileRummyState:
        """Return a new match dealt from ``seed``."""
        return TileRummyState(options, seats, seed)

    def parse_action(self, text: str) -> actions.Action:
        """Return the action of its text form, or raise ``ParseError``."""
        return actions.parse_action(text)

    def action_from_json(self, data: JSON) -> actions.Action:
        """Return the action of its JSON form, or raise ``ParseError``."""
        return actions.action_from_json(data)

    def sample(self, observation: Mapping[str, JSON], rng: random.Random) -> TileRummyState:
        """Return a world consistent with a seat's observation, for search (``sample``)."""
        return sample(observation, rng)

    def answer_vector(self, kind: str, data: Mapping[str, JSON], options: Any) -> dict[str, JSON]:
        """Return the expect fields of a meld, best or score vector (VECTORS.md 4)."""
        if kind == "meld":
            return answer_meld(data, options)
        if kind == "best":
            return answer_best(data, options)
        if kind == "score":
            return answer_score(data, options)
        raise ParseError(f"tile-rummy has no {kind!r} vectors")

    def timeout_action(self, state: Any, seat: int, drawn: str | None) -> Action | None:
        """Return the spec's ``timeout`` under the ``turn_timer`` option (T-D18), else the
        safe listed action of ``timeout``."""
        decided: Action | None = state.expiry_action(seat)
        return decided if decided is not None else super().timeout_action(state, seat, drawn)

    def turn_seconds(self, state: Any) -> float | None:
        """Return the seconds per turn of the option ``turn_timer`` (None when off: 0)."""
        timer: int = state.options.turn_timer
        return float(timer) if timer else None


GAME = TileRummyGame()

"""The ``Game`` entry points of okey-cards: options, new games, actions, vector answers."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from meldhall.core.engine import (
    JSON,
    Bots,
    Declared,
    Outcome,
    Presets,
    Preview,
    TimeoutPolicy,
    VectorKinds,
)
from meldhall.core.errors import OptionsError
from meldhall.core.options import parse_options
from meldhall.core.rng import derive, shuffled
from meldhall.core.tiles import parse_okey_cards
from meldhall.games.okey_cards.actions import Action, action_from_json, parse_action
from meldhall.games.okey_cards.options import OkeyCardsOptions
from meldhall.games.okey_cards.pieces import CARD_COUNT
from meldhall.games.okey_cards.sample import sample
from meldhall.games.okey_cards.state import OkeyCardsState
from meldhall.games.okey_cards.summary import reward_line
from meldhall.games.okey_cards.vectors import answer_vector


def deal_deck(options: OkeyCardsOptions, seed: bytes) -> list[int]:
    """Return the deck, top first: the explicit order (the cards it leaves out follow in a
    seeded shuffle) or all 24 cards shuffled from ``derive(seed, "hand", 1)``."""
    given = [c.id for c in parse_okey_cards(list(options.deck_order))]
    rest = [c for c in range(CARD_COUNT) if c not in given]
    return given + shuffled(derive(seed, "hand", 1), "deck", rest)


class OkeyCardsGame(Declared):
    """Okey cards: the one-player game of okey-cards.md."""

    id = "okey-cards"
    title = "Okey Cards"
    min_seats = 1
    max_seats = 1
    default_seats = 1
    rules_version = 1
    options_type = OkeyCardsOptions
    presets: ClassVar[Presets] = {"current": {}, "legacy": {"score_table": "legacy"}}
    bots = Bots(
        "meldhall.bots.okey_cards",
        ("random", "greedy", "expert"),
        on_timeout="greedy",
        ceiling="meldhall.bots.ceiling.okey_cards_perfect",
    )
    preview = Preview("okeycard", ("R3", "B3", "Y3", "B6", "B7"))
    vector_kinds: ClassVar[VectorKinds] = {
        "meld": frozenset(),
        "best": frozenset(),
        "score": frozenset(),
    }
    higher_is_better = True
    hand_result = "score"
    timeout = TimeoutPolicy(draws=frozenset({"draw"}), piece="card")

    def options(self, raw: Mapping[str, JSON] | None = None) -> OkeyCardsOptions:
        """Return the validated options, or raise ``OptionsError`` naming the bad one."""
        return parse_options(OkeyCardsOptions, raw)

    def new_state(self, options: Any, seats: int, seed: bytes) -> OkeyCardsState:
        """Return a new game (state READY) dealt from ``seed``."""
        if seats != 1:
            raise OptionsError(f"okey-cards is played by one seat, not {seats}")
        if not isinstance(options, OkeyCardsOptions):
            raise OptionsError(f"okey-cards needs OkeyCardsOptions, not {options!r}")
        return OkeyCardsState(options, deal_deck(options, seed))

    def parse_action(self, text: str) -> Action:
        """Return the action of its text form, or raise ``ParseError``."""
        return parse_action(text)

    def action_from_json(self, data: JSON) -> Action:
        """Return the action of its JSON form, or raise ``ParseError``."""
        return action_from_json(data)

    def sample(self, observation: Mapping[str, JSON], rng: random.Random) -> OkeyCardsState:
        """Return a world consistent with a seat's observation, for search (``sample``)."""
        return sample(observation, rng)

    def answer_vector(self, kind: str, data: Mapping[str, JSON], options: Any) -> dict[str, JSON]:
        """Return the expect fields of VECTORS.md 4 for a ``meld``, ``best`` or ``score``
        question."""
        return answer_vector(kind, data, options)

    def summarize(self, outcomes: Sequence[Outcome], options: OkeyCardsOptions) -> list[str]:
        """Return the lines ``meldhall simulate`` prints after its table: the share of games
        reaching each reward tier under the options' thresholds."""
        return [reward_line([o.scores[0] for o in outcomes], options.reward_thresholds)]


GAME = OkeyCardsGame()

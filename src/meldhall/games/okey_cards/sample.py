"""Sampled worlds for search: a full Okey-cards State built from the observation alone.

``sample(observation, rng)`` shuffles the cards the player cannot see (the deck) into a State
whose observation is the one given. The sample depends on the observation and ``rng`` only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from meldhall.core.engine import JSON
from meldhall.core.errors import MeldhallError
from meldhall.core.tiles import OKEY_CARDS
from meldhall.games.okey_cards.options import OkeyCardsOptions
from meldhall.games.okey_cards.pieces import CARD_COUNT
from meldhall.games.okey_cards.state import OkeyCardsState
from meldhall.games.sampling import TokenIds, seated_viewer

_ID = TokenIds([str(card) for card in OKEY_CARDS])


def _slots(tokens: list[str | None]) -> list[int | None]:
    return [None if t is None else _ID[t] for t in tokens]


def sample(observation: Mapping[str, JSON], rng: random.Random) -> OkeyCardsState:
    """Return a State consistent with the player's observation, the deck shuffled by
    ``rng``; raise ``MeldhallError`` for a spectator's observation or a game that is over."""
    obs: Any = observation
    seated_viewer(observation, "okey-cards")
    options = OkeyCardsOptions(
        draw_mode=obs["draw_mode"],
        score_table=obs["score_table"],
        reward_thresholds=tuple(obs["reward_thresholds"]),
        confirm_discard=obs["confirm_discard"],
        auto_end=obs["auto_end"],
    )
    hand = _slots(obs["hand_slots"])
    field = _slots(obs["field"])
    discards = _ID.many(obs["discards"])
    played = [
        ((_ID[a], _ID[b], _ID[c]), line["points"])
        for line in obs["played"]
        for a, b, c in [line["cards"]]
    ]
    seen = {c for c in hand + field if c is not None} | set(discards)
    seen.update(c for cards, _ in played for c in cards)
    deck = [c for c in range(CARD_COUNT) if c not in seen]
    rng.shuffle(deck)
    if len(deck) != obs["deck_count"]:
        raise MeldhallError(
            f"okey-cards sample: {len(deck)} unseen cards, deck of {obs['deck_count']}"
        )
    state = OkeyCardsState(options, deck)
    state.hand, state.field, state.discards, state.played = hand, field, discards, played
    state.score = obs["score"]
    state.phase = obs["phase"].upper()  # the observation names the phase in lower case
    state.last_result = obs["last_result"]
    return state

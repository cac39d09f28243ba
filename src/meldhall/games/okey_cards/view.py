"""What the player (or a spectator) may know of an Okey cards game: the observation whose keys
the package docstring lists, the snapshot, and the JSON of a scored combination."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meldhall.core.engine import JSON, Seat
from meldhall.core.observation import common_keys
from meldhall.games.okey_cards.pieces import slots_json, token
from meldhall.games.okey_cards.scoring import classify, reward

if TYPE_CHECKING:
    from meldhall.games.okey_cards.state import OkeyCardsState


def line_json(cards: tuple[int, int, int], value: int) -> dict[str, JSON]:
    """Return the JSON of a scored combination: its cards, type, colour and points."""
    combo = classify(cards)
    assert combo is not None
    return {
        "cards": [token(c) for c in cards],
        "type": combo.kind,
        "same_colour": combo.same_colour,
        "points": value,
    }


def observation(state: OkeyCardsState, viewer: Seat | None) -> dict[str, JSON]:
    """Return what ``viewer`` may know (the package docstring lists the keys)."""
    opts = state.options
    obs: dict[str, JSON] = {
        "game": "okey-cards",
        **common_keys(
            seat=viewer,
            to_act=state.to_act(),
            phase=state.phase.lower(),
            hand_number=1,
            match_scores=[state.score],
            hidden_counts=[len(state.hand_cards())],
            over=state.phase == "OVER",
        ),
        "first": 0,
        "hand_count": len(state.hand_cards()),
        "field": slots_json(state.field),
        "deck_count": len(state.deck),
        "discards": [token(c) for c in state.discards],
        "played": [line_json(cards, value) for cards, value in state.played],
        "score": state.score,
        "scores": [state.score],
        "reward": reward(state.score, opts.reward_thresholds),
        "reward_thresholds": list(opts.reward_thresholds),
        "score_table": opts.score_table,
        "draw_mode": opts.draw_mode,
        "confirm_discard": opts.confirm_discard,
        "auto_end": opts.auto_end,
        "last_result": state.last_result,
    }
    if viewer == 0:
        obs["hand"] = [token(c) for c in state.hand_cards()]
        obs["hand_slots"] = slots_json(state.hand)
    return obs


def snapshot(state: OkeyCardsState) -> JSON:
    """Return the whole state, hidden cards included, as canonical JSON."""
    return {
        "deck": [token(c) for c in state.deck],
        "hand": slots_json(state.hand),
        "field": slots_json(state.field),
        "discards": [token(c) for c in state.discards],
        "played": [[[token(c) for c in cards], value] for cards, value in state.played],
        "score": state.score,
        "phase": state.phase,
        "termination": state.termination,
    }

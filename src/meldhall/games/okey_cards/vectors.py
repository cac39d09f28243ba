"""Answers to okey-cards' rule vectors (VECTORS.md 4: ``meld``, ``best``, ``score``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meldhall.core.engine import JSON
from meldhall.core.errors import ParseError
from meldhall.games.okey_cards.pieces import card_ids, mask_of
from meldhall.games.okey_cards.scoring import best_total, classify, points, reward

_INPUT_KEYS = {"meld": {"tiles", "type"}, "best": {"tiles"}, "score": {"score"}}


def _tiles(data: Mapping[str, JSON]) -> str | list[JSON]:
    tiles = data.get("tiles")
    if not isinstance(tiles, str | list):
        raise ParseError(f"'tiles' must be a list of card tokens, not {tiles!r}")
    return tiles


def answer_vector(kind: str, data: Mapping[str, JSON], options: Any) -> dict[str, JSON]:
    """Return the expect fields of VECTORS.md 4 for a ``meld``, ``best`` or ``score``
    question, or raise ``ParseError`` naming what is wrong with it."""
    allowed = _INPUT_KEYS.get(kind)
    if allowed is None:
        raise ParseError(f"okey-cards has no vector kind {kind!r}")
    extra = set(data) - allowed
    if extra:
        raise ParseError(f"unknown input keys for {kind}: {sorted(extra)}")
    if kind == "score":
        score = data.get("score")
        if isinstance(score, bool) or not isinstance(score, int):
            raise ParseError(f"'score' must be a whole number, not {score!r}")
        return {"reward": reward(score, options.reward_thresholds)}
    cards = card_ids(_tiles(data))
    if kind == "best":
        return {"value": best_total(mask_of(cards), options.score_table)}
    wanted = data.get("type")
    if wanted not in (None, "set", "run"):
        raise ParseError(f"okey-cards combinations are 'set' or 'run', not {wanted!r}")
    combo = classify(cards)  # None for another number of cards than 3, too
    if combo is None or wanted not in (None, combo.kind):
        return {"valid": False}
    out: dict[str, JSON] = {
        "valid": True,
        "type": combo.kind,
        "value": points(combo, options.score_table),
        "jokers": [],  # okey-cards has no jokers (VECTORS.md 4.1)
    }
    if combo.kind == "run":
        out["same_colour"] = combo.same_colour
    return out

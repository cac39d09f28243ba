"""Answers to Remi's rule vectors (VECTORS.md 4: kinds ``meld``, ``best``, ``score``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meldhall.core.errors import ParseError
from meldhall.games.remi.best import best_value
from meldhall.games.remi.melds import RunRules, joker_identities, read_meld
from meldhall.games.remi.options import RemiOptions
from meldhall.games.remi.pieces import parse_card_list, parse_identity
from meldhall.games.remi.scoring import match_end, settle


def _field(data: Mapping[str, Any], name: str, kind: type, default: Any = ...) -> Any:
    if name not in data:
        if default is ...:
            raise ParseError(f"remi vector: input {name!r} is required")
        return default
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ParseError(f"remi vector: input {name!r} must be {kind.__name__}, not {value!r}")
    return value


def answer_meld(data: Mapping[str, Any], options: RemiOptions) -> dict[str, Any]:
    """Return ``valid`` and, for a valid meld, ``type``, ``value``, ``jokers`` and
    ``closed`` (VECTORS.md 4.1)."""
    cards = parse_card_list(_field(data, "tiles", str), options.jokers)
    kind = _field(data, "type", str, None)
    if kind not in (None, "run", "set"):
        raise ParseError(f"remi vector: type is 'run' or 'set', not {kind!r}")
    declare = _field(data, "declare", list, None)
    if declare is not None:
        jokers = sum(1 for c in cards if c >= 104)
        if len(declare) != jokers or not all(isinstance(d, str) for d in declare):
            raise ParseError("remi vector: declare needs one identity per joker")
        for identity in declare:
            parse_identity(identity)
    rules = RunRules.of(options)
    reading = read_meld(cards, declare, rules, kind)
    if isinstance(reading, str):
        return {"valid": False, "reason": reading}
    return {
        "valid": True,
        "type": reading.kind,
        "value": reading.value,
        "jokers": joker_identities(cards, reading, rules),
        "closed": reading.kind == "set" and len(cards) == 4 and any(c >= 104 for c in cards),
    }


def answer_best(data: Mapping[str, Any], options: RemiOptions) -> dict[str, Any]:
    """Return ``value`` (the most disjoint valid melds among the cards are worth) and
    ``opens`` (that value reaches the opening minimum) (VECTORS.md 4.3)."""
    cards = parse_card_list(_field(data, "tiles", str), options.jokers)
    value = best_value(cards, RunRules.of(options))
    return {"value": value, "opens": value >= options.opening_minimum}


def answer_score(data: Mapping[str, Any], options: RemiOptions) -> dict[str, Any]:
    """Return ``penalties``, ``totals``, ``eliminated`` and ``match_over`` of one hand's end
    (VECTORS.md 4.4; ``match_over`` is not computed for ``fixed_hands``, which needs the number
    of hands played)."""
    texts = _field(data, "hands", list)
    if not all(isinstance(t, str) for t in texts):
        raise ParseError("remi vector: hands are card lists")
    seats = len(texts)
    tokens = [t for text in texts for t in (text.split(" ") if text else [])]
    ids = parse_card_list(tokens, options.jokers)
    hands: list[list[int]] = []
    pos = 0
    for text in texts:
        count = len(text.split(" ")) if text else 0
        hands.append(ids[pos : pos + count])
        pos += count
    closer = data.get("closer")
    if closer is not None and (
        isinstance(closer, bool) or not isinstance(closer, int) or not 0 <= closer < seats
    ):
        raise ParseError(f"remi vector: closer is a seat or null, not {closer!r}")
    kalooki = _field(data, "kalooki", bool, False)
    totals = _field(data, "totals", list, [0] * seats)
    opened = _field(data, "opened", list, [True] * seats)
    if len(totals) != seats or len(opened) != seats:
        raise ParseError("remi vector: totals and opened need one entry per seat")
    active = [True] * seats
    result = settle(hands, closer, kalooki, opened, active, options)
    after = [t + p for t, p in zip(totals, result.penalties, strict=True)]
    end = match_end(after, active, 1, options)
    out: dict[str, Any] = {
        "penalties": result.penalties,
        "totals": after,
        "eliminated": list(end.eliminated),
    }
    if options.match_end != "fixed_hands":
        out["match_over"] = end.over
    return out


def answer_vector(kind: str, data: Mapping[str, Any], options: RemiOptions) -> dict[str, Any]:
    """Return every expect field Remi computes for a vector question of ``kind``."""
    if kind == "meld":
        return answer_meld(data, options)
    if kind == "best":
        return answer_best(data, options)
    if kind == "score":
        return answer_score(data, options)
    raise ParseError(f"remi has no vector kind {kind!r}")

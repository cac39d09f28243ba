"""Answers to okey's JSON rule vectors (VECTORS.md 4.2 ``hand`` and 4.4 ``score``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meldhall.core.engine import JSON
from meldhall.core.errors import ParseError
from meldhall.core.tiles import assign_copies, okey_tile, okey_tokens
from meldhall.games.okey.hand import HandRules, judge
from meldhall.games.okey.options import OkeyOptions
from meldhall.games.okey.pieces import (
    effective_faces,
    face_name,
    identity_name,
    is_real_joker,
    okey_face,
)
from meldhall.games.okey.scoring import hand_points, standing, win_deltas

HAND_FIELDS = frozenset({"indicator", "tiles", "final_discard", "winner"})
SCORE_FIELDS = frozenset({"scores", "winner", "form", "joker_discard", "indicator"})


def _require(data: Mapping[str, Any], name: str, kind: type) -> Any:
    if name not in data:
        raise ParseError(f"okey vector: missing input field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ParseError(f"okey vector: input field {name!r} has a wrong type: {value!r}")
    return value


def _seat(data: Mapping[str, Any], name: str, seats: int, default: int | None) -> int | None:
    value = data.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise ParseError(f"okey vector: {name!r} must be a seat 0..{seats - 1}, not {value!r}")
    return value


def _check_fields(data: Mapping[str, Any], allowed: frozenset[str]) -> None:
    extra = set(data) - allowed
    if extra:
        raise ParseError(f"okey vector: unknown input fields {sorted(extra)}")


def _rules(options: OkeyOptions, okey: int) -> HandRules:
    return HandRules(
        okey=okey,
        wrap=options.wrap_runs == "okey",
        max_run=options.max_run,
        seven_pairs=options.seven_pairs,
    )


def answer_hand(data: Mapping[str, Any], options: OkeyOptions) -> dict[str, JSON]:
    """Return ``win``, ``form``, ``jokers`` (when unique), ``points`` and ``deltas`` (with a
    final discard) for 14 tiles left after the final discard."""
    _check_fields(data, HAND_FIELDS)
    indicator_text = _require(data, "indicator", str)
    tiles_text = _require(data, "tiles", str)
    discard_text = data.get("final_discard")
    if discard_text is not None and not isinstance(discard_text, str):
        raise ParseError(f"okey vector: 'final_discard' must be a token, not {discard_text!r}")
    winner = _seat(data, "winner", options.players, 0)
    texts = [indicator_text, *tiles_text.split(" "), *([discard_text] if discard_text else [])]
    tokens = okey_tokens(texts)
    if len(okey_tokens(indicator_text)) != 1 or tokens[0].face[0] is None:
        raise ParseError(
            f"okey vector: the indicator must be one numbered tile: {indicator_text!r}"
        )
    copies = assign_copies(tokens, 2, texts)
    tiles = []
    for tok, copy in zip(tokens, copies, strict=True):
        colour, number = tok.face
        assert colour is None or isinstance(colour, str)
        assert number is None or isinstance(number, int)
        tiles.append(okey_tile(colour, number, copy).id)
    okey = okey_face(tiles[0])
    for text, tok, tile in zip(texts, tokens, tiles, strict=True):
        if tok.star and not is_real_joker(tile, okey):
            raise ParseError(f"okey vector: {text!r} is marked as a real joker but is not one")
    hand = tiles[1:15]
    if len(hand) != 14 or len(tiles_text.split(" ")) != 14:
        raise ParseError(f"okey vector: 'tiles' must hold 14 tiles, not {len(hand)}")
    counts, wild = effective_faces(hand, okey)
    joker_discard = bool(discard_text) and is_real_joker(tiles[-1], okey)

    def points_of(form: str) -> int:
        return hand_points(form, joker_discard, indicator_text[0], options)

    verdict = judge(counts, wild, _rules(options, okey), points_of)
    if verdict is None:
        return {"win": False}
    out: dict[str, JSON] = {"win": True, "form": verdict.form}
    if verdict.wild_identities is not None:
        false_jokers = [face_name(okey)] * sum(1 for t in hand if t >= 104)
        out["jokers"] = false_jokers + [identity_name(i) for i in verdict.wild_identities]
    if discard_text:
        points = points_of(verdict.form)
        out["points"] = points
        assert winner is not None
        out["deltas"] = win_deltas(winner, points, [True] * options.players, options)
    return out


def answer_score(data: Mapping[str, Any], options: OkeyOptions) -> dict[str, JSON]:
    """Return ``scores``, ``match_over``, ``ranks`` and ``winners`` after one hand."""
    _check_fields(data, SCORE_FIELDS)
    scores = _require(data, "scores", list)
    if len(scores) != options.players or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in scores
    ):
        raise ParseError(f"okey vector: 'scores' needs {options.players} whole numbers")
    winner = _seat(data, "winner", options.players, None)
    after = list(scores)
    if winner is not None:
        form = _require(data, "form", str)
        if form not in ("sets_runs", "seven_pairs"):
            raise ParseError(f"okey vector: 'form' is sets_runs or seven_pairs, not {form!r}")
        joker = _require(data, "joker_discard", bool)
        if options.colour_double and "indicator" not in data:
            raise ParseError("okey vector: option colour_double needs the input 'indicator'")
        indicator = data.get("indicator", "B1")
        if not isinstance(indicator, str) or indicator[:1] not in ("R", "Y", "B", "K"):
            raise ParseError(f"okey vector: 'indicator' must be a tile token, not {indicator!r}")
        points = hand_points(form, joker, indicator[0], options)
        deltas = win_deltas(winner, points, [True] * options.players, options)
        after = [s + d for s, d in zip(scores, deltas, strict=True)]
    stand = standing(after, options)
    return {
        "scores": after,
        "match_over": stand.over,
        "ranks": list(stand.ranks),
        "winners": list(stand.winners),
    }


def answer_vector(kind: str, data: Mapping[str, Any], options: OkeyOptions) -> dict[str, JSON]:
    """Return every expect field okey computes for a vector question of ``kind``."""
    if kind == "hand":
        return answer_hand(data, options)
    if kind == "score":
        return answer_score(data, options)
    raise ParseError(f"okey has no vectors of kind {kind!r}")

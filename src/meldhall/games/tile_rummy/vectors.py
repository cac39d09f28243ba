"""Answers to the rule vectors of ``tile-rummy.json`` (VECTORS.md 4: meld, best, score)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meldhall.core.engine import JSON
from meldhall.core.errors import ParseError
from meldhall.core.identities import identity_matches
from meldhall.core.tiles import parse_okey_many, split_tokens
from meldhall.games.tile_rummy.melds import joker_identities, judge, judge_any
from meldhall.games.tile_rummy.options import TileRummyOptions
from meldhall.games.tile_rummy.pieces import value_table
from meldhall.games.tile_rummy.scoring import match_winner, round_scores, round_winners
from meldhall.games.tile_rummy.solving import best_count, best_value


def _tile_lists(texts: list[str]) -> list[list[int]]:
    """Return the ids of several tile lists parsed together (copies assigned across all)."""
    words = [split_tokens(t) for t in texts]
    flat = [t.id for t in parse_okey_many([w for ws in words for w in ws], blank="S")]
    out = []
    k = 0
    for ws in words:
        out.append(flat[k : k + len(ws)])
        k += len(ws)
    return out


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ParseError(f"input field {key!r} must be a tile list string, not {value!r}")
    return value


def answer_meld(data: Mapping[str, Any], options: TileRummyOptions) -> dict[str, JSON]:
    """Return ``valid`` and, for a valid meld, ``type``, ``value`` and ``jokers`` (4.1)."""
    (tiles,) = _tile_lists([_text(data, "tiles")])
    kind = data.get("type")
    if kind is not None and kind not in ("run", "set"):
        raise ParseError(f"tile-rummy melds are of type run or set, not {kind!r}")
    shape = judge(kind, tiles, options.wrap) if kind else judge_any(tiles, options.wrap)
    jokers = joker_identities(shape, tiles)
    declare = data.get("declare")
    if shape is not None and declare is not None and not _declared(declare, jokers):
        shape = None
    if shape is None:
        return {"valid": False}
    values = value_table(options.tile_values, options.smiley_value)
    return {
        "valid": True,
        "type": shape.kind,
        "value": sum(values[t] for t in tiles),
        "jokers": jokers,
    }


def _declared(declare: Any, jokers: list[str]) -> bool:
    """Return True when the declared identities agree with the meld (``?`` matches a colour)."""
    if not isinstance(declare, list) or len(declare) != len(jokers):
        return False
    for said, real in zip(declare, jokers, strict=True):
        if not isinstance(said, str):
            return False
        if not identity_matches(said, real):
            return False
    return True


def answer_best(data: Mapping[str, Any], options: TileRummyOptions) -> dict[str, JSON]:
    """Return ``value`` and ``count``: the best disjoint melds among the tiles (4.3)."""
    (tiles,) = _tile_lists([_text(data, "tiles")])
    return {"value": best_value(tiles, options), "count": best_count(tiles, options)}


def _seat_count(n: int, options: TileRummyOptions) -> None:
    if not 2 <= n <= 4 or (options.players is not None and options.players != n):
        raise ParseError(f"a per-seat list of {n} entries does not fit this game's players")


def _went_out(data: Mapping[str, Any], n: int) -> int | None:
    went_out = data.get("went_out")
    if went_out is not None and (not isinstance(went_out, int) or not 0 <= went_out < n):
        raise ParseError(f"went_out must be a seat or null, not {went_out!r}")
    return went_out


def answer_score(data: Mapping[str, Any], options: TileRummyOptions) -> dict[str, JSON]:
    """Return a round's ``scores`` and ``round_winner``, or the match's ``match_over`` and
    ``match_winner`` (4.4)."""
    if "round_wins" in data:
        wins = data["round_wins"]
        if not isinstance(wins, list) or not all(isinstance(w, int) for w in wins):
            raise ParseError(f"round_wins must list a whole number per seat: {wins!r}")
        _seat_count(len(wins), options)
        voids = data.get("void_rounds", 0)
        if not isinstance(voids, int) or voids < 0:
            raise ParseError(f"void_rounds must be a whole number: {voids!r}")
        totals = data.get("totals", [0] * len(wins))
        winner = match_winner(wins, totals, options.match_mode)
        return {"match_over": winner is not None, "match_winner": winner}
    if "seats" in data:
        seats = data["seats"]
        if not isinstance(seats, list):
            raise ParseError("seats must be a list, one object per seat")
        n = len(seats)
        _seat_count(n, options)
        texts: list[str] = []
        shape: list[int] = []
        for seat in seats:
            if not isinstance(seat, dict) or not isinstance(seat.get("melds", []), list):
                raise ParseError(f"a seat is {{melds, rack}}: {seat!r}")
            melds = seat.get("melds", [])
            texts += [*melds, _text(seat, "rack")]
            shape.append(len(melds))
        lists = _tile_lists(texts)
        values = value_table(options.tile_values, options.smiley_value)
        table: list[int] = []
        rack: list[int] = []
        k = 0
        for count in shape:
            melds_of = lists[k : k + count]
            for i, tiles in enumerate(melds_of):
                if judge_any(tiles, options.wrap) is None:
                    raise ParseError(f"not a valid meld in the input: {texts[k + i]!r}")
            table.append(sum(values[t] for m in melds_of for t in m))
            rack.append(sum(values[t] for t in lists[k + count]))
            k += count + 1
        went_out = _went_out(data, n)
        if went_out is not None and rack[went_out]:
            raise ParseError(f"seat {went_out} went out but still holds tiles")
        scores = round_scores(table, rack, went_out, options.losers_subtract_rack)
    elif "scores" in data:
        scores = data["scores"]
        if not isinstance(scores, list) or not all(isinstance(s, int) for s in scores):
            raise ParseError(f"scores must list a whole number per seat: {scores!r}")
        n = len(scores)
        _seat_count(n, options)
        went_out = _went_out(data, n)
    else:
        raise ParseError("a tile-rummy score vector gives seats, scores or round_wins")
    winners = round_winners(scores, went_out, options.tie_rule)
    return {
        "scores": list(scores),
        "round_winner": winners[0] if len(winners) == 1 else None,
        "round_winners": list(winners),
    }

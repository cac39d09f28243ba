"""Answers to the rule vectors of okey-ladder (VECTORS.md 4): ``meld``, ``best``, ``score``.

>>> opts = parse_ladder_options(None)
>>> answer("meld", {"indicator": "R4", "tiles": "R5* K6 K7"}, opts)
{'valid': True, 'type': 'run', 'value': 6, 'jokers': ['K5']}
>>> answer("best", {"tiles": "R13 R13 K13 K13", "as": "pairs"}, opts)
{'value': 26, 'opens': True}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meldhall.core.engine import JSON
from meldhall.core.errors import ParseError
from meldhall.core.identities import identity_matches, settled
from meldhall.core.tiles import OKEY_COLOURS, okey_tokens, parse_okey_many, split_tokens
from meldhall.games.okey_ladder.combos import (
    KIND_NAMES,
    PAIR,
    RUN,
    SET,
    pair_face,
    run_start,
    run_value,
    set_number,
    set_value,
)
from meldhall.games.okey_ladder.opening import best_opening
from meldhall.games.okey_ladder.options import BASE_COLOURS, LadderOptions, parse_ladder_options
from meldhall.games.okey_ladder.pieces import FACE_NAME, FACE_OF, WILD, Jokers, number_of
from meldhall.games.okey_ladder.scoring import OPENED_NAMES, match_ranks, settle

__all__ = ["answer", "parse_ladder_options"]


def _field(data: Mapping[str, JSON], key: str, kind: type, default: Any = None) -> Any:
    value = data.get(key, default)
    if value is None and default is None and key not in data:
        raise ParseError(f"input field {key!r} is required")
    if value is not None and not isinstance(value, kind):
        raise ParseError(f"input field {key!r} must be {kind.__name__}, not {value!r}")
    return value


def _rack(data: Mapping[str, JSON]) -> tuple[list[int], Jokers | None]:
    """Return the tiles of ``tiles`` and the jokers of ``indicator`` (copies assigned over
    both together; a star only on a real joker)."""
    tiles_text = _field(data, "tiles", str)
    indicator = data.get("indicator")
    if indicator is not None and not isinstance(indicator, str):
        raise ParseError(f"input field 'indicator' must be a token, not {indicator!r}")
    tile_texts = split_tokens(tiles_text)
    texts = ([indicator] if indicator else []) + tile_texts
    tiles = [t.id for t in parse_okey_many(texts)]
    stars = [tok.star for tok in okey_tokens(texts)]
    jokers = None
    if indicator:
        if FACE_OF[tiles[0]] < 0 or stars[0]:
            raise ParseError("the indicator is a numbered tile, not a joker")
        jokers = Jokers.of(tiles[0])
        tiles, stars = tiles[1:], stars[1:]
    for t, star, text in zip(tiles, stars, tile_texts, strict=True):
        if FACE_OF[t] < 0 and jokers is None:
            raise ParseError(f"{text!r}: a false joker needs an indicator")
        if star and (jokers is None or jokers.eff[t] != WILD):
            raise ParseError(f"{text!r} is marked as a real joker but is not one")
    return tiles, jokers


def _declared(data: Mapping[str, JSON]) -> list[str] | None:
    declare = data.get("declare")
    if declare is None:
        return None
    if not isinstance(declare, list) or not all(isinstance(d, str) for d in declare):
        raise ParseError(f"input field 'declare' must be a list of identities, not {declare!r}")
    return list(declare)


def _readings(effs: list[int], okey: int, is_joker: list[bool]) -> list[tuple[int, int, list[str]]]:
    """Return every valid reading as (kind, value, joker identities in tile order)."""
    n = len(effs)
    out: list[tuple[int, int, list[str]]] = []
    start = run_start(effs)
    if start >= 0:
        ids = [FACE_NAME[start + i] for i in range(n) if is_joker[i]]
        out.append((RUN, run_value(number_of(start), n), ids))
    start = run_start(effs[::-1])
    if start >= 0:
        ids = [FACE_NAME[start + n - 1 - i] for i in range(n) if is_joker[i]]
        out.append((RUN, run_value(number_of(start), n), ids))
    number = set_number(effs)
    if number:
        colours = {f // 13 for f in effs if f != WILD}
        missing = [c for c in range(4) if c not in colours]
        wilds = effs.count(WILD)
        ids = []
        for i in range(n):
            if not is_joker[i]:
                continue
            if effs[i] != WILD:
                ids.append(FACE_NAME[effs[i]])
            elif n == 4 and wilds == 1:
                ids.append(FACE_NAME[missing[0] * 13 + number - 1])
            else:
                ids.append(f"?{number}")
        out.append((SET, set_value(number, n), ids))
    face = pair_face(effs, okey)
    if face >= 0:
        ids = [FACE_NAME[face] for i in range(n) if is_joker[i]]
        out.append((PAIR, number_of(face), ids))
    return out


def _agrees(kind: int, ids: list[str], declared: list[str], effs: list[int]) -> bool:
    """Return True when the declared identities fit the reading's (``?``: any colour the
    meld leaves open; a set's declared colours all different)."""
    if len(declared) != len(ids):
        return False
    if not all(identity_matches(want, got) for want, got in zip(declared, ids, strict=True)):
        return False
    if kind != SET:
        return True
    colours = {f // 13 for f in effs if f != WILD}
    for got, want in zip(ids, declared, strict=True):
        if want == got or want[0] == "?":
            continue
        colour = OKEY_COLOURS.index(want[0])
        if colour in colours:
            return False
        colours.add(colour)
    return True


def _meld(data: Mapping[str, JSON]) -> dict[str, JSON]:
    tiles, jokers = _rack(data)
    eff = jokers.eff if jokers is not None else FACE_OF
    effs = [eff[t] for t in tiles]
    okey = jokers.okey if jokers is not None else -1
    is_joker = [eff[t] == WILD or FACE_OF[t] < 0 for t in tiles]
    wanted = data.get("type")
    if wanted is not None and wanted not in KIND_NAMES:
        raise ParseError(f"input field 'type' is run, set or pair, not {wanted!r}")
    declared = _declared(data)
    readings = [
        r
        for r in _readings(effs, okey, is_joker)
        if (wanted is None or KIND_NAMES[r[0]] == wanted)
        and (declared is None or _agrees(r[0], r[2], declared, effs))
    ]
    if not readings:
        return {"valid": False}
    kind, value, ids = max(readings, key=lambda r: (r[1], -r[0]))
    if declared is not None:
        ids = [settled(want, got) for want, got in zip(declared, ids, strict=True)]
    return {"valid": True, "type": KIND_NAMES[kind], "value": value, "jokers": list(ids)}


def _best(data: Mapping[str, JSON], options: LadderOptions) -> dict[str, JSON]:
    tiles, jokers = _rack(data)
    kind = data.get("as")
    if kind not in ("series", "pairs"):
        raise ParseError(f"input field 'as' is 'series' or 'pairs', not {kind!r}")
    if jokers is None:
        jokers = Jokers.of(_unused_indicator(tiles))
    default = options.first_threshold
    if kind == "pairs":
        default = options.pairs_need(default)
    need = _field(data, "need", int, default)
    opening = best_opening(tiles, jokers, kind == "pairs")
    return {"value": opening.value, "opens": opening.value >= need}


def _unused_indicator(tiles: Sequence[int]) -> int:
    """Return an indicator making none of ``tiles`` a joker (a rack given without one)."""
    faces = {FACE_OF[t] for t in tiles}
    for ind in range(0, 104, 2):
        okey = Jokers.of(ind).okey
        if okey not in faces:
            return ind
    raise ParseError("every face is in the rack: give an indicator")


def _seat_list(data: Mapping[str, JSON], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list) or len(value) != 4:
        raise ParseError(f"input field {key!r} must list the four seats")
    return value


def _score(data: Mapping[str, JSON], options: LadderOptions) -> dict[str, JSON]:
    if "totals" in data:
        totals = _seat_list(data, "totals")
        if not all(isinstance(t, int) and not isinstance(t, bool) for t in totals):
            raise ParseError("input field 'totals' must hold whole numbers")
        ranks, winners = match_ranks(totals)
        return {"ranks": list(ranks), "winners": sorted(winners)}
    colour = data.get("joker_colour")
    if not isinstance(colour, str) or colour not in BASE_COLOURS:
        raise ParseError(f"input field 'joker_colour' is R, K, Y or B, not {colour!r}")
    winner = data.get("winner")
    if winner is not None and (not isinstance(winner, int) or not 0 <= winner < 4):
        raise ParseError(f"input field 'winner' is a seat or null, not {winner!r}")
    opened, tiles_left, penalties = [], [], []
    for seat in _seat_list(data, "seats"):
        if not isinstance(seat, dict) or seat.get("opened") not in OPENED_NAMES:
            raise ParseError(f"a seat needs 'opened' (none, series, pairs): {seat!r}")
        opened.append(OPENED_NAMES.index(seat["opened"]))
        tiles_left.append(_field(seat, "tiles_left", int, 0))
        penalties.append(_field(seat, "penalties", int, 0))
    result = settle(
        options,
        options.base(colour),
        winner,
        opened,
        tiles_left,
        joker_finish=bool(_field(data, "joker_finish", bool, False)),
        from_hand=bool(_field(data, "from_hand", bool, False)),
    )
    rounds = [p + s for p, s in zip(penalties, result.amounts, strict=True)]
    return {"settlement": result.amounts, "round": rounds}


def answer(kind: str, data: Mapping[str, JSON], options: LadderOptions) -> dict[str, JSON]:
    """Return every expect field this game computes for a vector question."""
    if kind == "meld":
        return _meld(data)
    if kind == "best":
        return _best(data, options)
    if kind == "score":
        return _score(data, options)
    raise ParseError(f"okey-ladder has no vector kind {kind!r}")

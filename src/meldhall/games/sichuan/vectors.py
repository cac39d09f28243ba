"""Answers to the rule vectors of sichuan.json (VECTORS.md 4.2, 4.4), computed by the same
hand maths, fan table and settlement as the engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meldhall.core.engine import JSON
from meldhall.core.errors import ParseError
from meldhall.core.tiles import parse_mahjong, parse_mahjong_many
from meldhall.games.sichuan.fan import MELD_SIZE, Meld, ready_value, score_win
from meldhall.games.sichuan.hand import KINDS, is_sichuan_win
from meldhall.games.sichuan.options import SichuanOptions
from meldhall.games.sichuan.pieces import KIND_NAME, SEATS, SUIT_LETTER
from meldhall.games.sichuan.scoring import (
    SeatAtEnd,
    exhaustion_settlement,
    nets,
    win_transfers,
)

_WIN_BY = ("discard", "self_draw", "replacement", "robbed")
_HAND_KEYS = frozenset(
    {"miss", "concealed", "melds", "win_tile", "win_by", "last_tile", "seat", "from", "won"}
)


def _require(data: Mapping[str, Any], key: str) -> Any:
    if key not in data:
        raise ParseError(f"vector input needs {key!r}")
    return data[key]


def _miss(data: Mapping[str, Any]) -> int:
    miss = _require(data, "miss")
    if miss not in ("m", "p", "s"):
        raise ParseError(f"miss is m, p or s, not {miss!r}")
    return SUIT_LETTER.index(miss)


def _seat(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SEATS:
        raise ParseError(f"{name} is a seat 0..3, not {value!r}")
    return value


def _hand(data: Mapping[str, Any]) -> tuple[int, list[int], list[Meld], list[str]]:
    """Return miss, concealed counts, melds and every token used (for copy checks)."""
    concealed = _require(data, "concealed")
    if not isinstance(concealed, str):
        raise ParseError("concealed is a tile list")
    tokens = concealed.split(" ") if concealed else []
    melds: list[Meld] = []
    raw_melds = data.get("melds", [])
    if not isinstance(raw_melds, list):
        raise ParseError("melds is a list")
    for raw in raw_melds:
        if not isinstance(raw, dict) or set(raw) != {"type", "tiles"}:
            raise ParseError(f'a meld is {{"type", "tiles"}}, not {raw!r}')
        letter = raw["type"]
        tiles = parse_mahjong_many(raw["tiles"])
        if letter not in MELD_SIZE or len(tiles) != MELD_SIZE[letter]:
            raise ParseError(f"bad meld {raw!r}")
        if len({t.kind for t in tiles}) != 1:
            raise ParseError(f"a meld holds one kind: {raw!r}")
        melds.append((letter, tiles[0].kind))
        tokens += raw["tiles"].split(" ")
    counts = [0] * KINDS
    for tile in parse_mahjong_many(concealed):
        counts[tile.kind] += 1
    if sum(counts) + 3 * len(melds) != 13:
        raise ParseError("concealed tiles + 3 per meld must be 13")
    return _miss(data), counts, melds, tokens


def answer_hand(data: Mapping[str, Any], options: SichuanOptions) -> dict[str, JSON]:
    """Return the answers of a ``hand`` vector: a win's fans and payments, or (without
    ``win_tile``) the 13-slot hand's pig/ready status at exhaustion."""
    extra = set(data) - _HAND_KEYS
    if extra:
        raise ParseError(f"unknown input keys {sorted(extra)}")
    miss, counts, melds, tokens = _hand(data)
    if "win_tile" not in data:
        pig = any(counts[9 * miss : 9 * miss + 9])
        kinds, value = ([], 0) if pig else ready_value(counts, melds, miss, cap=options.cap)
        return {
            "pig": pig,
            "ready": bool(kinds),
            "waits": [KIND_NAME[k] for k in kinds],
            "max_value": value,
        }
    win_tile = parse_mahjong(_require(data, "win_tile"))
    parse_mahjong_many([*tokens, data["win_tile"]])
    by = data.get("win_by", "discard")
    if by not in _WIN_BY:
        raise ParseError(f"win_by is one of {_WIN_BY}, not {by!r}")
    with_tile = list(counts)
    with_tile[win_tile.kind] += 1
    if not is_sichuan_win(with_tile, len(melds), miss):
        return {"win": False}
    events = []
    if by == "replacement":
        events.append("kong_replacement")
    if by == "robbed":
        events.append("robbed_kong")
    if data.get("last_tile", False):
        events.append("last_tile")
    self_drawn = by in ("self_draw", "replacement")
    extra_fans = {"self_draw": 1} if self_drawn and options.self_draw_bonus == "fan" else None
    score = score_win(with_tile, melds, events=events, extra=extra_fans, cap=options.cap)
    if score is None:  # pragma: no cover - is_sichuan_win proved the win
        return {"win": False}
    out: dict[str, JSON] = {"win": True, **score.to_json()}
    seat = _seat(data.get("seat", 0), "seat")
    won = data.get("won", [])
    if not isinstance(won, list):
        raise ParseError("won is a list of seats")
    active = [s not in won for s in range(SEATS)]
    payer = None if self_drawn else data.get("from")
    if payer is not None or self_drawn:
        if payer is not None:
            payer = _seat(payer, "from")
        bonus = 1 if options.self_draw_bonus == "point" else 0
        transfers = win_transfers(seat, score.points, by, payer, active, bonus=bonus)
        out["net"] = nets(transfers, SEATS)
    return out


def answer_score(data: Mapping[str, Any], options: SichuanOptions) -> dict[str, JSON]:
    """Return the answers of a ``score`` vector: the exhaustion settlement step by step."""
    seats = _require(data, "seats")
    if not isinstance(seats, list) or len(seats) != SEATS:
        raise ParseError("seats lists the four seats")
    statuses: list[SeatAtEnd] = []
    for raw in seats:
        if not isinstance(raw, dict):
            raise ParseError(f"a seat is an object, not {raw!r}")
        if raw.get("won", False):
            statuses.append(SeatAtEnd(won=True))
            continue
        miss, counts, melds, _ = _hand(raw)
        if any(counts[9 * miss : 9 * miss + 9]):
            statuses.append(SeatAtEnd(won=False, pig=True))
            continue
        kinds, value = ready_value(counts, melds, miss, cap=options.cap)
        statuses.append(SeatAtEnd(won=False, ready=bool(kinds), value=value))
    kong = [_transfer(t) for t in data.get("kong_payments", [])]
    other = [_transfer(t) for t in data.get("transfers", [])]
    settlement = exhaustion_settlement(
        statuses,
        kong,
        pig_penalty=options.pig_penalty(),
        pig_payees=options.flower_pig_payees,
        refund_recipients=options.refund_recipients,
    )
    refund = nets(settlement.refund, SEATS)
    pig = nets(settlement.pig, SEATS)
    ready = nets(settlement.ready, SEATS)
    net = [a + b + c for a, b, c in zip(refund, pig, ready, strict=True)]
    before = nets(kong + other, SEATS)
    return {
        "refund": refund,
        "pig": pig,
        "ready": ready,
        "net": net,
        "totals": [a + b for a, b in zip(before, net, strict=True)],
    }


def _transfer(raw: Any) -> tuple[int, int, int]:
    if not (isinstance(raw, list) and len(raw) == 3 and all(isinstance(x, int) for x in raw)):
        raise ParseError(f"a payment is [payer, receiver, amount], not {raw!r}")
    return _seat(raw[0], "payer"), _seat(raw[1], "receiver"), raw[2]


def answer_vector(kind: str, data: Mapping[str, Any], options: SichuanOptions) -> dict[str, JSON]:
    """Return every expect field of a sichuan vector of ``kind`` (hand or score)."""
    if kind == "hand":
        return answer_hand(data, options)
    if kind == "score":
        return answer_score(data, options)
    raise ParseError(f"sichuan vectors are hand or score, not {kind!r}")

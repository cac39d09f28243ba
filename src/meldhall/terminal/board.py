"""A compact table for a terminal, drawn from one seat's JSON observation with rich.

Only the drawing of one piece differs between games, and it is chosen by the piece family
(``PIECE_DRAWERS``); the sections (own pieces, discard tops, melds, other seats, turn) read
the observation's common keys.

>>> print(board_text("sichuan", {"hand_number": 1, "phase": "play", "to_act": [0], "seat": 0,
...     "hand": ["1m#0", "2m#1"], "tiles": [2, 13], "totals": [0, -1],
...     "discards": [["9s#0"], []], "melds": [[], []]}))
sichuan  hand 1  phase play  to act: you
you:    1m 2m
  you      2 pieces     0 pts  discards 9s
  seat 1  13 pieces    -1 pts  discards –
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from rich.text import Text

from meldhall.core.engine import JSON
from meldhall.terminal.pieces import Family, family_of

_SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _okey_tile(token: str) -> str:
    return token[:-1]


def _card(token: str) -> str:
    face = token.split("#")[0]
    return "🃏" if face == "JK" else face[:-1] + _SUIT_SIGNS.get(face[-1], face[-1])


def _mahjong(token: str) -> str:
    return token.split("#")[0]


PIECE_DRAWERS: dict[str, Callable[[str], str]] = {
    "okey-tiles": _okey_tile,
    "rummy-tiles": _okey_tile,
    "cards": _card,
    "mahjong": _mahjong,
    "okey-cards": str,
}
"""How each piece family writes one piece (its colour comes from the family)."""

HAND_KEYS = ("hand", "hand_slots")
PILE_KEYS = ("discards", "pile", "discard", "field")
MELD_KEYS = ("melds", "table")
COUNT_KEYS = ("tile_counts", "hand_counts", "rack_counts", "tiles")
SCORE_KEYS = ("scores.totals", "totals", "scores")
FACT_KEYS = (
    "indicator",
    "okey",
    "missing",
    "wall_count",
    "wall",
    "centre",
    "stock_count",
    "stock",
    "deck_count",
    "score",
    "need",
)


def pieces(family: Family, tokens: Iterable[JSON]) -> Text:
    """Return the pieces in their colours, separated by spaces (``·`` for an empty slot)."""
    out = Text()
    draw = PIECE_DRAWERS[family.name]
    for i, token in enumerate(tokens):
        if i:
            out.append(" ")
        if isinstance(token, str) and token in family.index:
            out.append(draw(token), style=f"bold {family.colour_of(token)}")
        else:
            out.append("·" if token is None else str(token))
    return out


def lookup(obs: Mapping[str, JSON], key: str) -> JSON:
    """Return the value at ``key`` of an observation, a dotted key reaching into nested
    objects (``scores.totals``); None where it is missing."""
    if "." not in key:
        return obs.get(key)
    value: JSON = obs
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _first(obs: Mapping[str, JSON], keys: Sequence[str]) -> tuple[str, JSON] | None:
    for key in keys:
        value = lookup(obs, key)
        if value is not None:
            return key, value
    return None


def _tokens_in(value: JSON) -> list[JSON]:
    if isinstance(value, dict):
        inner = value.get("tiles", value.get("cards"))
        return list(inner) if isinstance(inner, list) else []
    return list(value) if isinstance(value, list) else [value]


def seat_name(seat: int, viewer: int | None) -> str:
    """Return ``you`` for the viewer's seat, else ``seat N``."""
    return "you" if seat == viewer else f"seat {seat}"


def _per_seat(value: JSON, seats: int) -> bool:
    return (
        isinstance(value, list)
        and len(value) == seats
        and all(isinstance(v, list | dict) or v is None for v in value)
    )


def board(game_id: str, obs: Mapping[str, JSON]) -> list[Text]:
    """Return the lines of the table as the observation's seat sees it: the turn, the own
    pieces, the table's facts, one line per seat (pieces held, score, its discard tops),
    the shared piles and the melds."""
    family = family_of(game_id)
    viewer = obs.get("seat")
    counts = _first(obs, COUNT_KEYS)
    seats = len(counts[1]) if counts else 1
    lines = [_header(game_id, obs, viewer)]
    hand = _first(obs, HAND_KEYS)
    if hand is not None:
        lines.append(Text("you:    ").append(pieces(family, hand[1])))
    facts = _facts(family, obs, seats)
    if facts.plain:
        lines.append(facts)
    piles = {k: v for k in PILE_KEYS if (v := obs.get(k)) is not None and not isinstance(v, str)}
    seat_piles = {k: v for k, v in piles.items() if seats > 1 and _per_seat(v, seats)}
    if seats > 1:
        lines.extend(_seat_lines(family, obs, viewer, seats, seat_piles))
    for key, value in piles.items():
        if key not in seat_piles:
            tokens = _tokens_in(value)
            line = Text(f"{key}: ").append(pieces(family, tokens[-6:]) if tokens else Text("–"))
            if len(tokens) > 6:
                line.append(f"  ({len(tokens)} in all, newest last)")
            lines.append(line)
    lines.extend(_melds(family, obs, viewer, seats))
    return lines


def _seat_facts(obs: Mapping[str, JSON], seats: int) -> dict[str, list[JSON]]:
    return {
        k: v
        for k in FACT_KEYS
        if isinstance(v := lookup(obs, k), list) and seats > 1 and len(v) == seats
    }


def _facts(family: Family, obs: Mapping[str, JSON], seats: int) -> Text:
    line = Text()
    per_seat = _seat_facts(obs, seats)
    for key in FACT_KEYS:
        value = lookup(obs, key)
        if value is None or isinstance(value, dict) or key in per_seat:
            continue
        line.append(("  " if line.plain else "") + f"{key} ")
        if isinstance(value, str) and value in family.index:
            line.append(pieces(family, [value]))
        elif isinstance(value, list):
            line.append(" ".join("–" if v is None else str(v) for v in value))
        else:
            line.append(str(value))
    return line


def _seat_lines(
    family: Family, obs: Mapping[str, JSON], viewer: JSON, seats: int, piles: dict[str, JSON]
) -> list[Text]:
    counts = _first(obs, COUNT_KEYS)
    found = _first(obs, SCORE_KEYS)
    scores = found[1] if found and isinstance(found[1], list) else [None] * seats
    out = []
    for s in range(seats):
        who = seat_name(s, viewer if isinstance(viewer, int) else None)
        line = Text(f"  {who:7}", style="bold" if s == viewer else "")
        if counts is not None:
            line.append(f" {counts[1][s]:>2} pieces")
        if scores[s] is not None:
            line.append(f"  {scores[s]:>4} pts")
        for key, values in _seat_facts(obs, seats).items():
            line.append(f"  {key} {'–' if values[s] is None else values[s]}")
        for key, value in piles.items():
            tokens = _tokens_in(value[s])
            line.append(f"  {key} ").append(pieces(family, tokens[-4:]) if tokens else Text("–"))
        out.append(line)
    return out


def _header(game_id: str, obs: Mapping[str, JSON], viewer: JSON) -> Text:
    hand_no = _first(obs, ("hand_number", "hand_no", "round", "hand"))
    to_act = obs.get("to_act") or []
    who = ", ".join(seat_name(s, viewer if isinstance(viewer, int) else None) for s in to_act)
    head = Text(game_id, style="bold")
    if hand_no is not None and isinstance(hand_no[1], int):
        head.append(f"  hand {hand_no[1]}")
    head.append(f"  phase {obs.get('phase')}  to act: ")
    head.append(who or "nobody", style="bold green" if viewer in to_act else "")
    return head


def _melds(family: Family, obs: Mapping[str, JSON], viewer: JSON, seats: int) -> list[Text]:
    found = _first(obs, MELD_KEYS)
    if found is None or not found[1]:
        return []
    value = found[1]
    melds: list[tuple[JSON, JSON]] = []
    if _per_seat(value, seats) and all(isinstance(v, list) for v in value):
        melds = [(s, m) for s, ms in enumerate(value) for m in ms]
    else:
        melds = [(m.get("owner") if isinstance(m, dict) else None, m) for m in value]
    if not melds:
        return []
    out = [Text("melds on the table:")]
    for owner, meld in melds:
        who = seat_name(owner, viewer) if isinstance(owner, int) else ""
        kind = meld.get("kind", meld.get("type", "")) if isinstance(meld, dict) else ""
        out.append(Text(f"  {who:7} {kind:5} ").append(pieces(family, _tokens_in(meld))))
    return out


def board_text(game_id: str, obs: Mapping[str, JSON]) -> str:
    """Return the table as plain text (no colours), one line per section."""
    return "\n".join(line.plain for line in board(game_id, obs))

"""End-of-hand penalties (remi.md 11, options of 14) and the end of the match (12).

>>> from meldhall.games.remi.options import RemiOptions
>>> from meldhall.games.remi.pieces import parse_card_list as cards
>>> r = settle([[], cards("KH 7S AD JK"), cards("2C 2D")], 0, False, [True] * 3, [True] * 3,
...            RemiOptions())
>>> r.penalties
[0, 53, 4]
>>> match_end([160, 123, 60], [True] * 3, 1, RemiOptions()).eliminated
(0,)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meldhall.games.remi.options import RemiOptions
from meldhall.games.remi.pieces import card_token, hand_value


@dataclass(frozen=True)
class HandResult:
    """The settlement of one hand: penalty per seat and one line per seat explaining it."""

    penalties: list[int]
    lines: list[dict[str, Any]]


def settle(
    hands: Sequence[Sequence[int]],
    closer: int | None,
    kalooki: bool,
    opened: Sequence[bool],
    active: Sequence[bool],
    options: RemiOptions,
) -> HandResult:
    """Return the penalties of a hand: the closer 0; every other active seat its card points
    (joker = ``joker_hand_penalty``), changed by ``unopened_penalty`` when it never opened,
    plus the Kalooki penalty; a dead hand (closer None) 0 for everybody (section 11)."""
    penalties = [0] * len(hands)
    lines: list[dict[str, Any]] = []
    for seat, hand in enumerate(hands):
        if not active[seat]:
            continue
        points = sum(hand_value(c, options.joker_hand_penalty) for c in hand)
        line: dict[str, Any] = {
            "seat": seat,
            "cards": [card_token(c) for c in sorted(hand)],
            "points": points,
        }
        if closer is None or seat == closer:
            line["penalty"] = 0
            lines.append(line)
            continue
        base = points
        if not opened[seat] and options.unopened_penalty != "none":
            base = 2 * points if options.unopened_penalty == "double" else 100
            line["unopened"] = base - points
        extra = 0
        if kalooki:
            extra = base if options.kalooki_penalty == "double" else int(options.kalooki_penalty)
            line["kalooki"] = extra
        penalties[seat] = line["penalty"] = base + extra
        lines.append(line)
    return HandResult(penalties, lines)


@dataclass(frozen=True)
class MatchEnd:
    """What the totals after a hand mean: the seats now over the limit (eliminated when
    ``match_end`` is elimination), whether the match is over and who won it."""

    eliminated: tuple[int, ...]
    over: bool
    winners: tuple[int, ...]


def _lowest(totals: Sequence[int], seats: Sequence[int]) -> tuple[int, ...]:
    best = min(totals[s] for s in seats)
    return tuple(s for s in seats if totals[s] == best)


def match_end(
    totals: Sequence[int], active: Sequence[bool], hands_played: int, options: RemiOptions
) -> MatchEnd:
    """Return the match state after a hand (section 12 and option ``match_end``):
    elimination removes every seat over the limit, the last one left wins; first_to_limit
    ends when someone is over it; fixed_hands after ``match_hands`` hands; the last two are
    won by the lowest total (ties shared)."""
    seats = [s for s in range(len(totals)) if active[s]]
    over_limit = tuple(s for s in seats if totals[s] > options.match_limit)
    if options.match_end == "elimination":
        left = [s for s in seats if s not in over_limit]
        if len(left) <= 1:
            return MatchEnd(over_limit, True, tuple(left) or _lowest(totals, seats))
        return MatchEnd(over_limit, False, ())
    if options.match_end == "first_to_limit":
        over = bool(over_limit)
    else:
        over, over_limit = hands_played >= options.match_hands, ()
    return MatchEnd(over_limit, over, _lowest(totals, seats) if over else ())

"""Scoring of Ladder Okey: in-hand penalty amounts (12.1), the end-of-hand settlement (12.2,
12.3) and the match ranking (13). Scores are penalties: lower is better.

>>> opts = parse_ladder_options(None)
>>> settle(opts, 800, 0, [SERIES, SERIES, PAIRS, NONE], [0, 5, 3, 14]).amounts
[-80, 50, 60, 800]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from meldhall.core.engine import ranks_by
from meldhall.games.okey_ladder.options import LadderOptions, parse_ladder_options

NONE, SERIES, PAIRS = 0, 1, 2
OPENED_NAMES = ("none", "series", "pairs")
"""Opening status by index (section 5)."""

__all__ = ["NONE", "OPENED_NAMES", "PAIRS", "SERIES", "Settlement", "parse_ladder_options"]


def multiplier(status: int) -> int:
    """Return m(x): 2 for a pairs opener, else 1 (section 3)."""
    return 2 if status == PAIRS else 1


def table_charge(opts: LadderOptions, number: int, owner: int, actor: int) -> int:
    """Return the owner's charge when another player adds or exchanges a joker on the
    owner's combination: 10 × n × m(owner) × m(actor), a credit with ``joker_event_sign``
    credit (9.2)."""
    amount = 10 * number * multiplier(owner) * multiplier(actor)
    return -amount if opts.joker_event_sign == "credit" else amount


def pair_charge(opts: LadderOptions, number: int, recipient: int, giver: int) -> int:
    """Return the recipient's charge for a pushed pair of ``number`` (9.4)."""
    if isinstance(opts.pair_gift_amount, int):
        return opts.pair_gift_amount
    return 10 * number * multiplier(recipient) * multiplier(giver)


@dataclass(frozen=True)
class Settlement:
    """The end-of-hand amounts per seat and the lines they are made of."""

    amounts: list[int]
    lines: list[dict[str, object]]


def settle(
    opts: LadderOptions,
    base: int,
    winner: int | None,
    opened: Sequence[int],
    tiles_left: Sequence[int],
    *,
    joker_finish: bool = False,
    from_hand: bool = False,
    jokers_left: Sequence[int] = (0, 0, 0, 0),
) -> Settlement:
    """Return the settlement of a hand (12.2 with a winner, 12.3 without one).

    ``opened`` holds each seat's status; ``tiles_left`` counts only for opened losers;
    ``jokers_left`` (real jokers in each hand) matters only with ``joker_left_in_hand``.
    """
    seats = len(opened)
    amounts = [0] * seats
    lines: list[dict[str, object]] = []

    def add(seat: int, amount: int, reason: str, factors: dict[str, int]) -> None:
        """Book one line; ``factors`` are the numbers whose product is ``amount`` (the
        table names them: base, tiles, per_tile, joker_finish, pairs multipliers...)."""
        amounts[seat] += amount
        lines.append({"seat": seat, "amount": amount, "reason": reason, "factors": factors})

    if winner is None:
        for i in range(seats):
            if opened[i] == NONE:
                add(i, base, "not opened", {"base": base})
            else:
                m = multiplier(opened[i])
                add(
                    i,
                    opts.tile_penalty * tiles_left[i] * m,
                    "tiles left",
                    {"tiles": tiles_left[i], "per_tile": opts.tile_penalty, "pairs": m},
                )
    else:
        j = 2 if joker_finish else 1
        wm = multiplier(opened[winner])
        e = opts.finish_from_hand_factor if from_hand else 1
        shared = j * wm if opts.multiply_unopened_and_credit else 1
        for i in range(seats):
            if i == winner:
                continue
            if opened[i] == NONE:
                add(
                    i,
                    base * shared * e,
                    "not opened",
                    {"base": base, "finish": shared, "from_hand": e},
                )
            else:
                m = multiplier(opened[i])
                add(
                    i,
                    opts.tile_penalty * tiles_left[i] * j * wm * m,
                    "tiles left",
                    {
                        "tiles": tiles_left[i],
                        "per_tile": opts.tile_penalty,
                        "joker_finish": j,
                        "winner_pairs": wm,
                        "pairs": m,
                    },
                )
        credit = opts.credit(base)
        add(
            winner,
            -credit * shared * e,
            "winner",
            {"credit": -credit, "finish": shared, "from_hand": e},
        )
    if opts.joker_left_in_hand != 0:
        each = base if opts.joker_left_in_hand == "base" else int(opts.joker_left_in_hand)
        for i in range(seats):
            if i != winner and jokers_left[i]:
                m = multiplier(opened[i])
                add(
                    i,
                    each * m * jokers_left[i],
                    "joker left in hand",
                    {"each": each, "pairs": m, "jokers": jokers_left[i]},
                )
    return Settlement(amounts, lines)


def match_ranks(totals: Sequence[int]) -> tuple[tuple[int, ...], frozenset[int]]:
    """Return the ranks (lowest total first, equal totals share) and the seats ranked 1.

    >>> match_ranks([420, 1310, -60, 420])
    ((2, 4, 1, 2), frozenset({2}))
    """
    ranks = ranks_by(list(totals), higher_is_better=False)
    return ranks, frozenset(i for i, r in enumerate(ranks) if r == 1)

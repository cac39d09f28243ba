"""Round scores, round winners and the end of the match (rules sections 11 and 12).

>>> round_scores([56, 67, 9], [19, 0, 26], went_out=1, subtract=False)
[56, 112, 9]
>>> round_winners([60, 50, 60], went_out=1, tie_rule="went_out")
()
>>> match_winner([3, 1], [0, 0], "round_wins")
0
"""

from __future__ import annotations

from collections.abc import Sequence

ROUND_WINS_TARGET = 3
POINTS_TARGET = 500


def round_parts(
    table: Sequence[int], rack: Sequence[int], went_out: int | None, subtract: bool
) -> list[dict[str, int]]:
    """Return every player's round score in its parts (11): ``table`` (his table points),
    ``collected`` (the other racks, scored by the player who went out) and ``own_rack`` (his
    own rack points lost, with option ``losers_subtract_rack``; 0 or negative)."""
    out = []
    for q, (t, r) in enumerate(zip(table, rack, strict=True)):
        collected = sum(rack) - r if q == went_out else 0
        lost = -r if subtract and q != went_out else 0
        out.append({"table": t, "collected": collected, "own_rack": lost})
    return out


def round_scores(
    table: Sequence[int], rack: Sequence[int], went_out: int | None, subtract: bool
) -> list[int]:
    """Return every player's round score from his table and rack points (11): the sum of
    his ``round_parts``.

    The player who went out also scores every other rack; with ``subtract``
    (option ``losers_subtract_rack``) every other player loses his own rack points.
    """
    return [sum(p.values()) for p in round_parts(table, rack, went_out, subtract)]


def round_winners(scores: Sequence[int], went_out: int | None, tie_rule: str) -> tuple[int, ...]:
    """Return the seats that win the round: the highest score; on a tie (T-D14) the player who
    went out if he is among them, else nobody (``tie_rule`` "went_out"); nobody ("void"); or
    every tied player ("all")."""
    best = max(scores)
    top = tuple(q for q, s in enumerate(scores) if s == best)
    if len(top) == 1 or tie_rule == "all":
        return top
    if tie_rule == "went_out" and went_out in top:
        return (went_out,)
    return ()


def match_winner(round_wins: Sequence[int], totals: Sequence[int], mode: str) -> int | None:
    """Return the seat that has won the match, or None while it goes on (12, option
    ``match_mode``): first to 3 round wins, or the highest total once a total reaches 500
    (another round while the highest totals tie)."""
    if mode == "round_wins":
        best = max(round_wins)
        if best < ROUND_WINS_TARGET:
            return None
        return round_wins.index(best) if list(round_wins).count(best) == 1 else None
    best = max(totals)
    if best < POINTS_TARGET or list(totals).count(best) > 1:
        return None
    return list(totals).index(best)

"""``meldhall bench win``: meldhall's win check (``hand.is_win`` on a 27-kind count array)
against the ``mahjong`` library's ``Agari().is_agari(tiles_34)`` on the hands of
``bench shanten`` (10,000 seeded hands from the 108 tiles and 10,000 one-suit hands).

The answers are compared first, where the rules agree (BENCHMARKS.md): on hands where a kind
appears three or more times the library's seven pairs cannot apply, so meldhall's standard
form must equal it; on the other hands both forms must. Then the two are timed in
alternating batches and the ratio reported (meldhall cold: its per-suit tables emptied
before each batch; warm: kept).
"""

from __future__ import annotations

import argparse
import sys

from meldhall.bench.shanten import HANDS, bench_hands, to_34
from meldhall.bench.timing import alternate, fmt_time
from meldhall.games.sichuan import hand


def main(args: argparse.Namespace) -> int:
    """Check agreement, time both sides and print the ratio; return 0 when the answers agree,
    1 otherwise, 2 without the peer."""
    try:
        from mahjong.agari import Agari
    except ImportError:
        print("bench win: the peer `mahjong` is missing; install it with `make bench-deps`")
        return 2
    n = args.cases or HANDS
    hands = bench_hands(args.seed, n, one_suit=False) + bench_hands(args.seed, n, one_suit=True)
    hands_34 = [to_34(h) for h in hands]
    is_agari = Agari.is_agari
    problems: list[str] = []
    wins = 0
    for counts, t34 in zip(hands, hands_34, strict=True):
        agari = is_agari(t34)
        mine = hand.is_win(counts) if max(counts) < 3 else hand.is_standard_win(counts)
        wins += mine
        if mine != agari:
            problems.append(f"{counts}: meldhall {mine}, mahjong {agari}")
    if problems:
        for line in problems[:20]:
            print(line, file=sys.stderr)
        print(f"win: {len(problems)} disagreements with the mahjong library; no timing")
        return 1
    print(f"{len(hands)} hands ({n} random + {n} one-suit), {wins} wins: all answers agree")

    def cold(_: int) -> int:
        hand.clear_caches()
        for counts in hands:
            hand.is_win(counts)
        return len(hands)

    def warm(_: int) -> int:
        for counts in hands:
            hand.is_win(counts)
        return len(hands)

    def library(_: int) -> int:
        for t34 in hands_34:
            is_agari(t34)
        return len(hands)

    figures = alternate(
        {"meldhall cold": cold, "meldhall warm": warm, "mahjong": library}, max(args.batches, 5)
    )
    for f in figures.values():
        print(f"{f.name}: median {fmt_time(f.median)} per hand over {len(f.per_unit)} batches")
    ours_cold = figures["meldhall cold"].median
    ours_warm = figures["meldhall warm"].median
    theirs = figures["mahjong"].median
    print(
        f"win: {len(hands)}/{len(hands)} answers agree; meldhall {fmt_time(ours_cold)} cold, "
        f"{fmt_time(ours_warm)} warm, Agari.is_agari {fmt_time(theirs)} median per hand; "
        f"{theirs / ours_cold:.1f}x cold, {theirs / ours_warm:.1f}x warm"
    )
    return 0

"""``meldhall bench shanten``: meldhall's shanten against the ``mahjong`` library's
``Shanten().calculate_shanten(tiles_34, use_chiitoitsu=True, use_kokushi=False)``
(BENCHMARKS.md) on seeded 14-tile hands from the 108 Sichuan tiles and on one-suit hands.

First the answers are compared, and the bench fails loudly on a difference:
- standard form (four sets and a pair): equal on every hand;
- both forms: equal on every hand where no kind appears three or more times (there the two
  seven-pairs rules agree); elsewhere meldhall's value may be lower (four of a kind are two
  pairs in Sichuan), never higher.

Then the two sides are timed in alternating batches over the same hands. meldhall is timed
twice: "cold", its per-suit tables emptied before each batch (so every batch builds the
tables it needs), and "warm", with the tables kept (the steady state of a running server).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from meldhall.bench.timing import alternate, fmt_time
from meldhall.core.rng import SeededStream, derive
from meldhall.games.sichuan import shanten as sh

HANDS = 10_000


def bench_hands(seed: str, n: int, *, one_suit: bool) -> list[list[int]]:
    """Return ``n`` seeded 14-tile count arrays (27 kinds): drawn from all 108 tiles, or
    (``one_suit``) from the 36 tiles of one seeded suit."""
    stream = SeededStream(derive(seed.encode(), "hands", "one-suit" if one_suit else "all"))
    out: list[list[int]] = []
    for _ in range(n):
        tiles = list(range(108))
        if one_suit:
            suit = stream.randbelow(3)
            tiles = tiles[36 * suit : 36 * suit + 36]
        stream.shuffle(tiles)
        counts = [0] * 27
        for t in tiles[:14]:
            counts[t // 4] += 1
        out.append(counts)
    return out


def to_34(counts: list[int]) -> list[int]:
    """Return the library's 34-kind array of a 27-kind count array (no honours)."""
    return counts + [0] * 7


def clear_tables() -> None:
    """Empty meldhall's per-suit shanten tables (a cold start)."""
    sh.clear_caches()


def _check(name: str, hands: list[list[int]], peer: Callable[..., int]) -> list[str]:
    """Return a line per disagreement (empty: all agree); print the agreement counts."""
    problems: list[str] = []
    standard_equal = both_equal = both_compared = lower = 0
    for counts in hands:
        t34 = to_34(counts)
        mine_std = sh.standard_shanten(counts)
        theirs_std = peer(t34, use_chiitoitsu=False, use_kokushi=False)
        if mine_std == theirs_std:
            standard_equal += 1
        else:
            problems.append(f"{name} standard {counts}: meldhall {mine_std}, mahjong {theirs_std}")
        mine = sh.shanten(counts)
        theirs = peer(t34, use_chiitoitsu=True, use_kokushi=False)
        if max(counts) < 3:
            both_compared += 1
            if mine == theirs:
                both_equal += 1
            else:
                problems.append(f"{name} both forms {counts}: meldhall {mine}, mahjong {theirs}")
        elif mine > theirs:
            problems.append(f"{name} both forms {counts}: meldhall {mine} > mahjong {theirs}")
        else:
            lower += mine < theirs
    print(
        f"{name}: standard form equal on {standard_equal}/{len(hands)}; both forms equal on "
        f"{both_equal}/{both_compared} hands without a kind three times or more; on the other "
        f"{len(hands) - both_compared}, meldhall lower on {lower} (Sichuan seven pairs), "
        "higher on 0" + ("" if not problems else " (SEE MISMATCHES)")
    )
    return problems


def main(args: argparse.Namespace) -> int:
    """Check agreement, time both sides, print the figures; return 0 when the answers agree
    and meldhall is at least twice as fast (cold), 1 otherwise, 2 without the peer."""
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        print("bench shanten: the peer `mahjong` is missing; install it with `make bench-deps`")
        return 2
    n = args.cases or HANDS
    sets = {
        "random": bench_hands(args.seed, n, one_suit=False),
        "one-suit": bench_hands(args.seed, n, one_suit=True),
    }
    peer = Shanten.calculate_shanten
    problems: list[str] = []
    for name, hands in sets.items():
        problems += _check(name, hands, peer)
    if problems:
        for line in problems[:20]:
            print(line, file=sys.stderr)
        print(f"shanten: {len(problems)} disagreements with the mahjong library; no timing")
        return 1
    hands = [h for group in sets.values() for h in group]
    hands_34 = [to_34(h) for h in hands]

    def cold(_: int) -> int:
        clear_tables()
        for counts in hands:
            sh.shanten(counts)
        return len(hands)

    def warm(_: int) -> int:
        for counts in hands:
            sh.shanten(counts)
        return len(hands)

    def library(_: int) -> int:
        for t34 in hands_34:
            peer(t34, use_chiitoitsu=True, use_kokushi=False)
        return len(hands)

    figures = alternate(
        {"meldhall cold": cold, "meldhall warm": warm, "mahjong": library}, max(args.batches, 5)
    )
    for f in figures.values():
        print(f"{f.name}: median {fmt_time(f.median)} per hand over {len(f.per_unit)} batches")
    ours_cold = figures["meldhall cold"].median
    ours_warm = figures["meldhall warm"].median
    theirs = figures["mahjong"].median
    ratio = theirs / ours_cold
    print(
        f"shanten: {len(hands)}/{len(hands)} hands agree ({n} random + {n} one-suit); "
        f"meldhall {fmt_time(ours_cold)} cold, {fmt_time(ours_warm)} warm, "
        f"mahjong {fmt_time(theirs)} median per hand; {ratio:.1f}x cold, "
        f"{theirs / ours_warm:.1f}x warm"
    )
    return 0 if ratio >= 2.0 else 1

"""Compare two challengers on the same duplicate deals: A and B each against three greedy.

    python scripts/paired_tournament.py GAME A B [--deals N] [--seed S] [--option NAME=JSON]

A and B are bot names of the game as ``meldhall tournament`` takes them (``strong``,
``ceiling``, a level...) or ``module:factory`` (a function returning a new bot, e.g. a
variant under test). Every deal is played in its four rotations with A in the line-up
``A,greedy,greedy,greedy`` and again with B (the order of the two alternates from deal to
deal), exactly the games ``meldhall tournament GAME --bots A,greedy,greedy,greedy --deals N
--seed S --workers 1`` plays, so each side's figure is the tournament's. It prints each
side's first-place share and mean rank with their 95 % intervals clustered by deal, and the
paired difference B - A with its interval (the per-deal differences: the deals' luck cancels,
so it is much narrower than the two intervals), also after every K deals
(``--report-every K``), so a long run stopped early still has its figures.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from meldhall import tournament
from meldhall.core.engine import Bot
from meldhall.games.registry import find_game
from meldhall.simulate_cli import parse_option_args


def factory(game_id: str, spec: str) -> Callable[[], Bot]:
    """Return a function making the bot ``spec`` names (``module:function`` or a name the
    tournament knows)."""
    if ":" in spec:
        module, name = spec.split(":", 1)
        made: Callable[[], Bot] = getattr(importlib.import_module(module), name)
        return made
    tournament.player(game_id, spec)  # fails early on an unknown name
    return lambda: tournament.player(game_id, spec)


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Return the mean and its 95 % interval (``tournament.clustered_ci``)."""
    return tournament.clustered_ci(values)


def main(argv: Sequence[str]) -> int:
    """Run the comparison the arguments describe; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", default="tournament")
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--report-every", type=int, default=25, metavar="K")
    args = parser.parse_args(argv)
    game = find_game(args.game)
    sides = {"A": factory(game.id, args.a), "B": factory(game.id, args.b)}
    plain = tournament.player

    def seat(game_id: str, name: str) -> Bot:
        return sides[name]() if name in sides else plain(game_id, name)

    tournament.player = seat
    raw = parse_option_args(args.option)
    game.options(raw)
    firsts: dict[str, list[float]] = {"A": [], "B": []}
    ranks: dict[str, list[float]] = {"A": [], "B": []}
    cpu = {"A": 0.0, "B": 0.0}
    decisions = {"A": 0, "B": 0}
    start = time.perf_counter()
    for deal in range(args.deals):
        for side in ("A", "B") if deal % 2 == 0 else ("B", "A"):
            names = [side, "greedy", "greedy", "greedy"]
            jobs = tournament.jobs_of(game, names, deal + 1, args.seed, raw)
            results = [tournament.play_job(j) for j in jobs if j.deal == deal]
            firsts[side].append(statistics.fmean(r.firsts[0] for r in results))
            ranks[side].append(statistics.fmean(r.ranks[0] for r in results))
            cpu[side] += sum(r.cpu_ms[0] for r in results)
            decisions[side] += sum(r.decisions[0] for r in results)
        if (deal + 1) % args.report_every == 0 and deal + 1 < args.deals:
            print(f"after {deal + 1} deals, {time.perf_counter() - start:.0f} s:")
            report(args, firsts, ranks, cpu, decisions)
    print(f"{args.deals} deals, {time.perf_counter() - start:.0f} s:")
    report(args, firsts, ranks, cpu, decisions)
    return 0


def report(
    args: argparse.Namespace,
    firsts: dict[str, list[float]],
    ranks: dict[str, list[float]],
    cpu: dict[str, float],
    decisions: dict[str, int],
) -> None:
    """Print both sides' figures and the paired difference over the deals played so far."""
    deals = len(firsts["B"])
    firsts = {k: v[:deals] for k, v in firsts.items()}
    ranks = {k: v[:deals] for k, v in ranks.items()}
    for side, spec in (("A", args.a), ("B", args.b)):
        f, r = interval(firsts[side]), interval(ranks[side])
        per = cpu[side] / max(1, decisions[side])
        print(
            f"{side} {spec}: first {100 * f[0]:.1f} % [{100 * f[1]:.1f}, {100 * f[2]:.1f}], "
            f"rank {r[0]:.2f} [{r[1]:.2f}, {r[2]:.2f}], cpu {per:.2f} ms a decision"
        )
    gain = interval([b - a for a, b in zip(firsts["A"], firsts["B"], strict=True)])
    rank_gain = interval([b - a for a, b in zip(ranks["A"], ranks["B"], strict=True)])
    print(
        f"B - A over {deals} deals: first {100 * gain[0]:+.1f} points "
        f"[{100 * gain[1]:+.1f}, {100 * gain[2]:+.1f}], rank {rank_gain[0]:+.3f} "
        f"[{rank_gain[1]:+.3f}, {rank_gain[2]:+.3f}]",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

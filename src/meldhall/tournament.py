"""``meldhall tournament GAME``: duplicate deals between bots (docs/bots.md).

Every seeded deal is played once per rotation of the line-up over the seats, so every bot plays
every seat of every deal. Per bot it reports the mean match score, the first-place share (ties
split) and the mean rank (ties share the average of their places), each with a 95 % confidence
interval clustered by deal, and the decision time (median, p99, max, mean CPU).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from meldhall.bots.base import make_bot
from meldhall.bots.ceiling import ceiling_bot
from meldhall.bots.levels import LEVELS, level_bot
from meldhall.core.engine import JSON, Action, Bot, Game, Outcome
from meldhall.core.errors import EngineBug, MeldhallError
from meldhall.core.rng import derive
from meldhall.games.registry import find_game
from meldhall.progress import progress_bar
from meldhall.simulate_cli import parse_option_args

CEILING = "ceiling"
"""The line-up name of a game's cheating ceiling bot (bots/ceiling.py)."""

Z95 = 1.959964
"""The two-sided 95 % quantile of the normal distribution."""


@dataclass(frozen=True)
class Job:
    """One game of a tournament: a deal played with the line-up rotated by ``rotation``."""

    game_id: str
    names: tuple[str, ...]
    deal: int
    rotation: int
    seed: bytes
    raw_options: tuple[tuple[str, JSON], ...]
    max_actions: int = 200_000

    def seat_bots(self) -> tuple[int, ...]:
        """Return, per seat, the index in the line-up of the bot that plays it."""
        n = len(self.names)
        return tuple((seat + self.rotation) % n for seat in range(n))


@dataclass(frozen=True)
class GameResult:
    """What one tournament game gave each line-up entry (indexed by line-up position)."""

    deal: int
    rotation: int
    scores: tuple[int, ...]
    ranks: tuple[float, ...]
    firsts: tuple[float, ...]
    decision_ms: tuple[tuple[float, ...], ...]
    cpu_ms: tuple[float, ...]
    decisions: tuple[int, ...]


def split_ranks(outcome: Outcome) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Return per seat the rank with ties sharing the average of their places, and the
    share of first place (1 / number of seats tied first, else 0).

    >>> o = Outcome((5, 5, 1, 0), (1, 1, 3, 4), frozenset({0, 1}), "test")
    >>> split_ranks(o)
    ((1.5, 1.5, 3.0, 4.0), (0.5, 0.5, 0.0, 0.0))
    """
    ranks = outcome.ranks
    tied = [ranks.count(r) for r in ranks]
    firsts = ranks.count(1)
    return (
        tuple(r + (t - 1) / 2 for r, t in zip(ranks, tied, strict=True)),
        tuple(1 / firsts if r == 1 else 0.0 for r in ranks),
    )


class _TimedBot:
    """A bot wrapper that records wall and CPU time of every decision."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.needs_observation = bot.needs_observation
        self.wall_ms: list[float] = []
        self.cpu_ms = 0.0

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(observation, legal, rng)
        self.cpu_ms += (time.process_time() - cpu) * 1000
        self.wall_ms.append((time.perf_counter() - wall) * 1000)
        return action


def player(game_id: str, name: str) -> Bot:
    """Return a new bot by bot name (``greedy``, ``strong``...), level (``easy``,
    ``normal``, ``hard``) or ``ceiling`` (a cheating bot that sees the true state,
    bots/ceiling.py), or raise ``MeldhallError``."""
    if name == CEILING:
        return ceiling_bot(game_id)
    return level_bot(game_id, name) if name in LEVELS else make_bot(game_id, name)


def play_job(job: Job) -> GameResult:
    """Return the result of one tournament game, or raise ``EngineBug``."""
    game = find_game(job.game_id)
    options = game.options(dict(job.raw_options))
    order = job.seat_bots()
    timed = [_TimedBot(player(game.id, job.names[order[seat]])) for seat in range(len(order))]
    state = game.new_state(options, len(order), job.seed)
    rng = random.Random(derive(job.seed, "bots", job.rotation))
    actions = 0
    while state.outcome() is None:
        movers = sorted(state.to_act())
        if not movers:
            raise EngineBug(f"{game.id}: nobody may act but the match is not over")
        seat = movers[0]
        legal = state.legal_actions(seat)
        bot = timed[seat]
        obs = state.observation(seat) if bot.needs_observation else {}
        see_state = getattr(bot.bot, "see_state", None)
        if see_state is not None:
            see_state(state)
        state.apply(seat, bot.choose(obs, legal, rng))
        actions += 1
        if actions > job.max_actions:
            raise EngineBug(f"{game.id}: deal {job.deal} did not end in {job.max_actions} actions")
    outcome = state.outcome()
    assert outcome is not None
    ranks, firsts = split_ranks(outcome)
    seat_of = {entry: seat for seat, entry in enumerate(order)}
    by_entry = [seat_of[i] for i in range(len(order))]
    return GameResult(
        deal=job.deal,
        rotation=job.rotation,
        scores=tuple(outcome.scores[s] for s in by_entry),
        ranks=tuple(ranks[s] for s in by_entry),
        firsts=tuple(firsts[s] for s in by_entry),
        decision_ms=tuple(tuple(timed[s].wall_ms) for s in by_entry),
        cpu_ms=tuple(timed[s].cpu_ms for s in by_entry),
        decisions=tuple(len(timed[s].wall_ms) for s in by_entry),
    )


def jobs_of(
    game: Game, names: Sequence[str], deals: int, seed: str, raw_options: Mapping[str, JSON]
) -> list[Job]:
    """Return every game of the tournament: each deal once per rotation of the line-up."""
    opts = tuple(sorted(raw_options.items()))
    return [
        Job(game.id, tuple(names), deal, rotation, derive(seed.encode(), "deal", deal), opts)
        for deal in range(deals)
        for rotation in range(len(names))
    ]


def run_jobs(
    jobs: Sequence[Job], workers: int, on_done: Callable[[GameResult], None] | None = None
) -> list[GameResult]:
    """Return the results of every job (in job order), played by ``workers`` processes."""
    pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 else None
    results: Iterator[GameResult] = pool.map(play_job, jobs) if pool else map(play_job, jobs)
    out: list[GameResult] = []
    try:
        for result in results:
            out.append(result)
            if on_done is not None:
                on_done(result)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return out


def clustered_ci(per_deal: Sequence[float]) -> tuple[float, float, float]:
    """Return (mean, low, high): the mean of per-deal means and its 95 % confidence interval,
    the deals being independent clusters of equal size.

    >>> clustered_ci([1.0, 1.0, 1.0])
    (1.0, 1.0, 1.0)
    """
    mean = statistics.fmean(per_deal)
    if len(per_deal) < 2:
        return mean, math.nan, math.nan
    half = Z95 * statistics.stdev(per_deal) / math.sqrt(len(per_deal))
    return mean, mean - half, mean + half


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Return the ``q`` quantile (0..1) of sorted values by the nearest-rank method.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5)
    2.0
    """
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[rank - 1]


def summarize(
    game_id: str, names: Sequence[str], results: Sequence[GameResult], seconds: float
) -> dict[str, JSON]:
    """Return the tournament's JSON object: per distinct bot name its figures, averaged over
    the seats it holds in the line-up (so with three ``greedy`` seats, 25 % first is even)."""
    deals = sorted({r.deal for r in results})
    bots: list[JSON] = []
    for name in dict.fromkeys(names):
        entries = [i for i, n in enumerate(names) if n == name]
        figures: dict[str, JSON] = {"name": name, "seats": len(entries)}
        for key, field_name in (("first_share", "firsts"), ("mean_rank", "ranks")):
            per_deal = _per_deal(results, deals, entries, field_name)
            mean, lo, hi = clustered_ci(per_deal)
            figures[key], figures[f"{key}_ci"] = mean, [lo, hi]
        mean, lo, hi = clustered_ci(_per_deal(results, deals, entries, "scores"))
        figures["mean_score"], figures["mean_score_ci"] = mean, [lo, hi]
        times = sorted(t for r in results for i in entries for t in r.decision_ms[i])
        decisions = sum(r.decisions[i] for r in results for i in entries)
        cpu = sum(r.cpu_ms[i] for r in results for i in entries)
        figures["decision_ms"] = {
            "median": statistics.median(times) if times else math.nan,
            "p99": percentile(times, 0.99),
            "max": times[-1] if times else math.nan,
            "mean_cpu": cpu / decisions if decisions else math.nan,
            "decisions": decisions,
        }
        bots.append(figures)
    return {
        "game": game_id,
        "deals": len(deals),
        "games": len(results),
        "seconds": seconds,
        "games_per_second": len(results) / seconds if seconds > 0 else math.nan,
        "bots": bots,
    }


def _per_deal(
    results: Sequence[GameResult], deals: Sequence[int], entries: Sequence[int], field_name: str
) -> list[float]:
    sums = dict.fromkeys(deals, 0.0)
    counts = dict.fromkeys(deals, 0)
    for r in results:
        values = getattr(r, field_name)
        for i in entries:
            sums[r.deal] += values[i]
            counts[r.deal] += 1
    return [sums[d] / counts[d] for d in deals]


def print_summary(summary: Mapping[str, JSON]) -> None:
    """Print the per-bot table and the throughput line."""
    table = Table(title=f"{summary['game']}: {summary['deals']} deals, {summary['games']} games")
    for col in ("bot", "seats", "first share", "mean rank", "mean score", "ms median/p99/max"):
        table.add_column(col)
    for b in summary["bots"]:
        t = b["decision_ms"]
        table.add_row(
            b["name"],
            str(b["seats"]),
            _with_ci(b["first_share"], b["first_share_ci"], percent=True),
            _with_ci(b["mean_rank"], b["mean_rank_ci"]),
            _with_ci(b["mean_score"], b["mean_score_ci"]),
            f"{t['median']:.2f} / {t['p99']:.1f} / {t['max']:.0f} (cpu {t['mean_cpu']:.2f})",
        )
    Console(width=120).print(table)
    print(
        f"{summary['game']}: {summary['games']} games in {summary['seconds']:.1f} s: "
        f"{summary['games_per_second']:.2f} games/s"
    )


def _with_ci(value: float, ci: Sequence[float], *, percent: bool = False) -> str:
    if percent:
        return f"{100 * value:.1f} % [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"
    return f"{value:.2f} [{ci[0]:.2f}, {ci[1]:.2f}]"


def main(args: argparse.Namespace) -> int:
    """Run the tournament the arguments describe; return the exit status."""
    game = find_game(args.game)
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if not game.min_seats <= len(names) <= game.max_seats:
        raise MeldhallError(
            f"--bots names one bot per seat: {game.id} seats {game.min_seats}-{game.max_seats}, "
            f"got {len(names)}"
        )
    if args.deals < 1:
        raise MeldhallError(f"--deals must be at least 1, got {args.deals}")
    for name in dict.fromkeys(names):
        player(game.id, name)
    raw = parse_option_args(args.option)
    game.options(raw)
    jobs = jobs_of(game, names, args.deals, args.seed, raw)
    start = time.perf_counter()
    with progress_bar(args.quiet) as progress:
        task = progress.add_task(game.id, total=len(jobs))
        results = run_jobs(jobs, args.workers, lambda r: progress.advance(task))
    summary = summarize(game.id, names, results, time.perf_counter() - start)
    print_summary(summary)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(summary, out, indent=1)
            out.write("\n")
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``tournament`` subcommand to the ``meldhall`` command's subparsers."""
    p = sub.add_parser("tournament", help="duplicate deals between bots, every seat rotated")
    p.add_argument("game")
    p.add_argument(
        "--bots", required=True, help="comma-separated bot names or levels, one per seat"
    )
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", default="tournament")
    p.add_argument("--json", default="", metavar="FILE", help="write the figures as JSON")
    p.add_argument("--workers", type=int, default=1, help="processes that play games")
    p.add_argument("--option", action="append", default=[], metavar="NAME=JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=lambda args: main(args))

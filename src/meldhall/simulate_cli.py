"""``meldhall simulate GAME``: seeded matches between bots, with a progress bar, a results
table per bot and the throughput."""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections.abc import Callable
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.table import Table

from meldhall.bots.base import make_bot, strongest_bot_name
from meldhall.core.engine import Bot, Game
from meldhall.core.errors import EngineBug, MeldhallError
from meldhall.core.matchfile import record
from meldhall.core.rng import derive
from meldhall.games.registry import find_game
from meldhall.progress import progress_bar
from meldhall.simulate import MatchRun, run_many


def parse_option_args(pairs: list[str]) -> dict[str, object]:
    """Return the options given as ``NAME=JSON`` (a bare word counts as a string)."""
    out: dict[str, object] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep:
            raise MeldhallError(f"--option needs NAME=VALUE, got {pair!r}")
        try:
            out[name] = json.loads(raw)
        except json.JSONDecodeError:
            out[name] = raw
    return out


def seat_bot_names(game: Game, names: str, seats: int) -> list[str]:
    """Return the bot name of every seat from a comma-separated list (repeated to fill; none
    given: the game's strongest), or raise ``MeldhallError`` for an unknown name."""
    chosen = [n for n in names.split(",") if n] or [strongest_bot_name(game.id)]
    for name in chosen:
        make_bot(game.id, name)
    return [chosen[i % len(chosen)] for i in range(seats)]


def bot_factories(game: Game, names: str, seats: int) -> list[Callable[[], Bot]]:
    """Return one bot factory per seat from a comma-separated list (repeated to fill)."""
    return [partial(make_bot, game.id, name) for name in seat_bot_names(game, names, seats)]


def main(args: argparse.Namespace) -> int:
    """Run the simulation the arguments describe; return the exit status."""
    game = find_game(args.game)
    options = game.options(parse_option_args(args.option))
    seats = args.seats or game.default_seats
    factories = bot_factories(game, args.bots, seats)
    names = [f().__class__.__name__ for f in factories]
    console = Console(stderr=True)
    errors: list[str] = []
    runs: list[MatchRun] = []
    with progress_bar(args.quiet, console) as progress:
        task = progress.add_task(f"{game.id}", total=args.games)
        try:
            runs, seconds = run_many(
                game,
                factories,
                args.games,
                args.seed,
                check=args.check,
                options=options,
                on_done=lambda i, run: progress.advance(task),
                record=bool(args.save),
            )
        except EngineBug as exc:
            errors.append(str(exc))
            seconds = math.nan
    if errors:
        print(f"invariant errors: {len(errors)}: {errors[0]}")
        return 1
    print_results(game, names, runs, seconds, args)
    if args.save:
        paths = save_match_files(game, args, runs, seat_bot_names(game, args.bots, seats))
        print(f"saved {len(paths)} match files in {args.save}")
    return 0


def save_match_files(
    game: Game, args: argparse.Namespace, runs: list[MatchRun], bots: list[str]
) -> list[Path]:
    """Write one match file per run into ``args.save``; return their paths."""
    folder = Path(args.save)
    folder.mkdir(parents=True, exist_ok=True)
    options = parse_option_args(args.option)
    paths: list[Path] = []
    for i, run in enumerate(runs):
        file = record(
            game,
            options,
            len(bots),
            run.log,
            players=[{"kind": "bot", "bot": name} for name in bots],
            seed=derive(args.seed.encode(), "match", i),
        )
        path = folder / f"{game.id}-{i:05d}.json"
        path.write_text(json.dumps(file.to_json(), ensure_ascii=False), encoding="utf-8")
        paths.append(path)
    return paths


def print_results(
    game: Game, names: list[str], runs: list[MatchRun], seconds: float, args: argparse.Namespace
) -> None:
    """Print the per-seat results table and the throughput line."""
    seats = len(names)
    table = Table(title=f"{game.id}: {len(runs)} matches, seed {args.seed!r}")
    for col in ("seat", "bot", "mean score", "std err", "wins", "mean rank"):
        table.add_column(col)
    for seat in range(seats):
        scores = [r.outcome.scores[seat] for r in runs if r.outcome]
        ranks = [r.outcome.ranks[seat] for r in runs if r.outcome]
        wins = sum(1 for r in runs if r.outcome and seat in r.outcome.winners)
        mean = statistics.fmean(scores) if scores else math.nan
        err = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else math.nan
        table.add_row(
            str(seat),
            names[seat],
            f"{mean:.2f}",
            f"{err:.2f}",
            str(wins),
            f"{statistics.fmean(ranks):.2f}" if ranks else "-",
        )
    Console().print(table)
    summarize = getattr(game, "summarize", None)
    if callable(summarize):
        outcomes = [r.outcome for r in runs if r.outcome is not None]
        for line in summarize(outcomes, game.options(parse_option_args(args.option))):
            print(line)
    hands = sum(r.hands for r in runs)
    actions = sum(r.actions for r in runs)
    print(
        f"{game.id}: {len(runs)} matches, {hands} hands, {actions} actions in {seconds:.1f} s: "
        f"{len(runs) / seconds:.1f} matches/s, {hands / seconds:.1f} hands/s, "
        f"{actions / seconds:.0f} actions/s; invariant errors: 0"
        + (" (checked every step)" if args.check else "")
    )

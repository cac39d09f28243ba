"""``meldhall bench GAME``: random full hands per second on one core, for games without a
peer in Python (okey, okey-ladder, remi, tile-rummy). The game's ``random`` bots still open,
lay off and go out when they can, so hands look like real ones.

The rate is per CPU-second of this process (the machine may be shared: waiting for a core is
not the engine's cost); the wall-clock rate is printed beside it."""

from __future__ import annotations

import argparse
import statistics
import time
from functools import partial

from meldhall.bots.base import make_bot
from meldhall.games.registry import find_game
from meldhall.simulate import run_many

GOAL = 1000.0
"""Hands per CPU-second the engines must reach for search (issue 16)."""


def main(args: argparse.Namespace) -> int:
    """Run the batches, print the figures and the quotable line; return 0 when the goal is
    reached, 1 otherwise."""
    game = find_game(args.name)
    matches = args.cases or 40
    factories = [partial(make_bot, game.id, "random")] * game.default_seats
    rates: list[float] = []
    for batch in range(max(args.batches, 1)):
        start = time.process_time()
        runs, seconds = run_many(
            game, factories, matches, f"{args.seed}-{batch}", stop_after_hands=1
        )
        cpu = time.process_time() - start
        hands = sum(r.hands for r in runs)
        rates.append(hands / cpu)
        print(
            f"batch {batch}: {hands} hands in {cpu:.2f} CPU-s ({seconds:.2f} s wall): "
            f"{hands / cpu:.0f} hands per CPU-second, {hands / seconds:.0f} hands/s wall"
        )
    median = statistics.median(rates)
    verdict = "goal met" if median >= GOAL else f"below the goal of {GOAL:.0f}"
    print(
        f"{game.id}: random full hands, median {median:.0f} hands per CPU-second on one core "
        f"({verdict})"
    )
    return 0 if median >= GOAL else 1

"""``meldhall bench sichuan``: whole random games per second on one core, meldhall's Sichuan
engine side by side with RLCard's mahjong environment (``rlcard.make("mahjong")``).

The job is the same on both sides: a whole game from the shuffle to the end, in which every
decision lists the legal actions and a random agent picks one uniformly (RLCard's
``RandomAgent``; on meldhall's side the same uniform choice over ``legal_actions``, every
claim window answered by every responder). Before timing, each side plays games under checks
(meldhall: the chosen action was listed, invariants hold after every step, the game ends
with an outcome; RLCard: every game ends and its payoffs are returned), and the bench fails
loudly if one does not. The two sides are then timed in alternating batches.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from meldhall.bench.timing import alternate
from meldhall.core.errors import EngineBug
from meldhall.core.rng import derive
from meldhall.games.sichuan import GAME

GOAL = 10.0
MELDHALL_PER_RLCARD = 10
"""meldhall plays this many games for each RLCard game in a batch (similar batch times)."""


def play_meldhall(seed: bytes, rng: random.Random, *, check: bool = False) -> int:
    """Play one whole game with uniform random choices among the listed actions; return
    the number of decisions."""
    state = GAME.new_state(GAME.options(), 4, seed)
    decisions = 0
    while state.result is None:
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        state.apply(seat, action)
        decisions += 1
        if check:
            state.check_invariants()
    return decisions


def _rlcard_env(seed: int) -> Any:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    return env


def main(args: argparse.Namespace) -> int:
    """Check both sides, time them in alternating batches, print games per second and the
    ratio; return 0 when meldhall reaches 10x, 1 otherwise, 2 without the peer."""
    try:
        import numpy as np
        import rlcard  # noqa: F401
    except ImportError:
        print("bench sichuan: the peer `rlcard` is missing; install it with `make bench-deps`")
        return 2
    per_batch = args.cases or 20
    seed = args.seed.encode()
    rng = random.Random(args.seed)
    np.random.seed(0)
    env = _rlcard_env(0)
    for i in range(5):
        decisions = play_meldhall(derive(seed, "check", i), rng, check=True)
        if decisions <= 0:
            raise EngineBug("a meldhall game ended without a decision")
        _, payoffs = env.run(is_training=False)
        if not env.is_over() or len(payoffs) != 4:
            raise EngineBug("an RLCard game did not end with four payoffs")
    print("checks passed: 5 games on each side end normally (meldhall invariants every step)")
    counter = iter(range(1 << 30))

    def meldhall(_: int) -> int:
        games = per_batch * MELDHALL_PER_RLCARD
        for _ in range(games):
            play_meldhall(derive(seed, "game", next(counter)), rng)
        return games

    def rlcard_games(_: int) -> int:
        for _ in range(per_batch):
            env.run(is_training=False)
        return per_batch

    figures = alternate({"meldhall": meldhall, "rlcard": rlcard_games}, max(args.batches, 5))
    ours = 1 / figures["meldhall"].median
    theirs = 1 / figures["rlcard"].median
    for name, f in figures.items():
        rates = ", ".join(f"{1 / x:.0f}" for x in f.per_unit)
        print(f"{name}: games/s per batch {rates}")
    ratio = ours / theirs
    verdict = "goal met" if ratio >= GOAL else f"below the goal of {GOAL:.0f}x"
    print(
        f"sichuan: whole random games with legal actions listed at every decision: meldhall "
        f"{ours:.0f} games/s, RLCard mahjong {theirs:.1f} games/s (median of "
        f"{len(figures['meldhall'].per_unit)} alternating batches, one core); {ratio:.1f}x "
        f"({verdict})"
    )
    return 0 if ratio >= GOAL else 1

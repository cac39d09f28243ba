"""``meldhall bench rl``: RL environment steps per second with random masked actions, one
core, every game; on Sichuan side by side with RLCard's ``mahjong`` environment.

An environment step is what a learner pays per decision: read the observation of the
agent to act (its array and action mask; RLCard's state dict with its encoded planes and
legal actions), pick a uniformly random legal action id, step. Before timing, each side
plays episodes under checks (every chosen id was in the mask, every episode ends: with an
outcome for meldhall, ``is_over`` with four payoffs for RLCard) and the bench fails loudly
if one does not. Sichuan and RLCard are then timed in pairs of batches, the order swapped
from pair to pair (``paired``), a Sichuan batch playing ``SICHUAN_EPISODES`` times the episodes
of an RLCard batch (so both take about as long); the figure is the lower of the ratio of the
median rates and the median of the pairs' ratios. The other games stand alone (no Python
library has them), each episode cut at ``MAX_STEPS`` steps.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from meldhall.bench.timing import Batches, alternate
from meldhall.core.errors import EngineBug

GOAL = 10.0
MAX_STEPS = 2000
SICHUAN_EPISODES = 3
"""Episodes of a Sichuan batch per episode of an RLCard batch (its steps are ~10x cheaper and
its episodes ~2.5x longer)."""
GAMES = ("sichuan", "okey", "okey-ladder", "tile-rummy", "remi", "okey-cards")


def meldhall_episodes(game_id: str, seed: int, *, check: bool = False) -> Callable[[int], int]:
    """Return a batch runner: it plays ``n`` random episodes and returns the steps taken."""

    from meldhall.rl import aec_env

    env = aec_env(
        game_id,
        max_steps=None if game_id == "sichuan" else MAX_STEPS,
        json_infos=False,
        fresh_arrays=False,
    )
    rng = random.Random(seed)
    counter = iter(range(seed, 1 << 62))

    def run(episodes: int) -> int:
        steps = 0
        for _ in range(episodes):
            env.reset(seed=next(counter))
            for _agent in env.agent_iter():
                obs, _reward, terminated, truncated, _info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                ids = obs["action_mask"].nonzero()[0]
                action = int(ids[rng.randrange(len(ids))])
                if check and not obs["action_mask"][action]:
                    raise EngineBug(f"{game_id}: chose an id outside the mask")
                env.step(action)
                steps += 1
            if check and not (env.match.over() or env.steps >= MAX_STEPS):
                raise EngineBug(f"{game_id}: an episode stopped before its end")
        return steps

    return run


def rlcard_episodes(seed: int, *, check: bool = False) -> Callable[[int], int]:
    """Return a batch runner over RLCard's mahjong environment (same job, same counting)."""
    import rlcard

    env = rlcard.make("mahjong", config={"seed": seed})
    rng = random.Random(seed)

    def run(episodes: int) -> int:
        steps = 0
        for _ in range(episodes):
            state, _player = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _player = env.step(legal[rng.randrange(len(legal))])
                steps += 1
            if check and len(env.get_payoffs()) != 4:
                raise EngineBug("an RLCard episode did not end with four payoffs")
        return steps

    return run


def _batches(run: Callable[[int], int], episodes: int) -> Callable[[int], int]:
    return lambda _i: run(episodes)


def paired(
    first: tuple[str, Callable[[int], int]], second: tuple[str, Callable[[int], int]], pairs: int
) -> tuple[dict[str, Batches], dict[str, Batches]]:
    """Return both sides' figures from ``pairs`` pairs of batches, run A B, B A, A B ... (a
    drift in the machine's speed, or a cost of going second, falls on both sides alike):
    wall seconds a unit, and CPU seconds a unit (the process's own time, which other
    processes on a loaded machine move less). Each callable receives the pair index and
    returns the units of work it did."""
    wall: dict[str, list[float]] = {first[0]: [], second[0]: []}
    cpu: dict[str, list[float]] = {first[0]: [], second[0]: []}
    for i in range(pairs):
        for name, run in (first, second) if i % 2 == 0 else (second, first):
            start, cpu_start = time.perf_counter(), time.process_time()
            units = max(run(i), 1)
            wall[name].append((time.perf_counter() - start) / units)
            cpu[name].append((time.process_time() - cpu_start) / units)
    return (
        {name: Batches(name, tuple(v)) for name, v in wall.items()},
        {name: Batches(name, tuple(v)) for name, v in cpu.items()},
    )


def _ratios(figures: dict[str, Batches]) -> tuple[float, float, list[float]]:
    """Return Sichuan's speed over RLCard's: by the ratio of the medians, by the median of
    the pairs' ratios, and per pair."""
    pairs = [
        r / s for s, r in zip(figures["sichuan"].per_unit, figures["rlcard"].per_unit, strict=True)
    ]
    return figures["rlcard"].median / figures["sichuan"].median, statistics.median(pairs), pairs


def main(args: argparse.Namespace) -> int:
    """Check both sides, time them, print steps per second per game and the Sichuan ratio;
    return 0 when the ratio reaches the goal, 1 below it, 2 without the peer."""
    try:
        import numpy  # noqa: F401
        import pettingzoo  # noqa: F401
        import rlcard  # noqa: F401
    except ImportError as exc:
        print(f"bench rl: {exc.name} is missing; install it with `make bench-deps`")
        return 2
    episodes = args.cases or 4
    batches = max(args.batches, 5)
    seed = random.Random(args.seed).randrange(1 << 30)
    runners: dict[str, Any] = {g: meldhall_episodes(g, seed, check=True) for g in GAMES}
    peer = rlcard_episodes(seed, check=True)
    for run in runners.values():
        run(2)
    peer(2)
    print("checks passed: 2 episodes of each game and of RLCard end normally, ids in the mask")
    runners = {g: meldhall_episodes(g, seed) for g in GAMES}
    figures, cpu = paired(
        ("sichuan", _batches(runners["sichuan"], SICHUAN_EPISODES * episodes)),
        ("rlcard", _batches(rlcard_episodes(seed), episodes)),
        batches,
    )
    for game_id in GAMES[1:]:
        figures |= alternate({game_id: _batches(runners[game_id], 1)}, batches)
    for name, f in figures.items():
        rates = ", ".join(f"{1 / x:.0f}" for x in f.per_unit)
        print(f"{name:12} steps/s per batch {rates}; median {1 / f.median:.0f}")
    by_cpu, by_cpu_pairs, _ = _ratios(cpu)
    print(
        f"CPU time: sichuan {1 / cpu['sichuan'].median:.0f}, rlcard {1 / cpu['rlcard'].median:.0f}"
        f" steps per CPU second (medians); {by_cpu:.1f}x, pairs' median {by_cpu_pairs:.1f}x"
    )
    by_medians, by_pairs, pairs = _ratios(figures)
    print(
        f"sichuan/rlcard per pair {', '.join(f'{x:.1f}' for x in pairs)}; median {by_pairs:.1f}x, "
        f"ratio of the medians {by_medians:.1f}x"
    )
    ours = 1 / figures["sichuan"].median
    theirs = 1 / figures["rlcard"].median
    ratio = min(by_medians, by_pairs)
    verdict = "goal met" if ratio >= GOAL else f"below the goal of {GOAL:.0f}x"
    print(
        f"rl: random masked steps with the observation read at every step: meldhall sichuan "
        f"{ours:.0f} steps/s, RLCard mahjong {theirs:.0f} steps/s (median of {batches} "
        f"pairs of batches, one core); {ratio:.1f}x, the lower of the two ratios ({verdict})"
    )
    return 0 if ratio >= GOAL else 1

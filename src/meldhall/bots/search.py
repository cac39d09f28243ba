"""Search over sampled worlds, shared by every game's ``strong`` bot.

A decision among a few candidate actions is judged by determinized rollouts: each round
samples one world consistent with the observation (the game's sampler), and in that world
plays every candidate followed by a fast policy to a horizon (the end of the hand), scoring
the seat's result. Every candidate meets the same worlds (common random numbers), rounds go on
until the time budget or the round cap is spent. The first candidate (the greedy choice)
stands unless another beats it clearly in the same worlds (``best_of``).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meldhall.core.engine import JSON, Action

World = Any
"""A sampled State of the game being searched (it has ``clone`` and ``apply``)."""


@dataclass(frozen=True)
class Budget:
    """How long one decision may think: seconds of wall time and rounds of worlds."""

    seconds: float = 0.12
    min_rounds: int = 4
    max_rounds: int = 64


def rollout_values(
    observation: Mapping[str, JSON],
    candidates: Sequence[Action],
    sample: Callable[[Mapping[str, JSON], random.Random], World],
    play_out: Callable[[World, random.Random], float],
    rng: random.Random,
    budget: Budget,
) -> list[list[float]]:
    """Return per candidate its value in every world searched (worlds in the same order for
    every candidate): the candidate is applied by the observation's seat in a copy of the
    world and ``play_out`` returns the value."""
    seat = observation["seat"]
    values: list[list[float]] = [[] for _ in candidates]
    deadline = time.perf_counter() + budget.seconds
    rounds = 0
    while rounds < budget.max_rounds and (
        rounds < budget.min_rounds or time.perf_counter() < deadline
    ):
        world = sample(observation, rng)
        seed = rng.getrandbits(64)
        for i, action in enumerate(candidates):
            branch = world.clone()
            branch.apply(seat, _same_action(branch, seat, action))
            values[i].append(play_out(branch, random.Random(seed)))
        rounds += 1
    return values


def _same_action(world: World, seat: int, action: Action) -> Action:
    """Return the action of the world's legal list equal to ``action`` (engines may compare
    listed actions by identity first)."""
    listed: tuple[Action, ...] = world.legal_actions(seat)
    return next((a for a in listed if a == action), action)


def best_of(candidates: Sequence[Action], values: Sequence[Sequence[float]], z: float) -> Action:
    """Return the first candidate (the fast policy's own choice) unless another beats it in
    the same worlds by more than ``z`` standard errors of the paired difference; then the
    candidate with the largest such margin."""
    best, margin = candidates[0], 0.0
    base = values[0]
    for action, vals in zip(candidates[1:], values[1:], strict=True):
        diffs = [v - b for v, b in zip(vals, base, strict=True)]
        if len(diffs) < 2:
            continue
        mean = statistics.fmean(diffs)
        err = statistics.stdev(diffs) / math.sqrt(len(diffs))
        score = mean - z * err
        if score > margin:
            best, margin = action, score
    return best

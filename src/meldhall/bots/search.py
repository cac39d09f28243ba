"""Search over sampled worlds, shared by every game's ``strong`` bot.

A decision among a few candidate actions is judged by determinized rollouts: each round
samples one world consistent with the observation (the game's sampler), and in that world
plays every candidate followed by a fast policy to a horizon (the end of the hand), scoring
the seat's result. Every candidate meets the same worlds (common random numbers), rounds go on
until the time budget or the round cap is spent, and the candidate with the best mean wins.
"""

from __future__ import annotations

import random
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
) -> list[float]:
    """Return each candidate's mean value over the worlds searched: in every world, the
    candidate is applied by the observation's seat and ``play_out`` returns the value."""
    seat = observation["seat"]
    totals = [0.0] * len(candidates)
    rounds = 0
    deadline = time.perf_counter() + budget.seconds
    while rounds < budget.max_rounds and (
        rounds < budget.min_rounds or time.perf_counter() < deadline
    ):
        world = sample(observation, rng)
        seed = rng.getrandbits(64)
        for i, action in enumerate(candidates):
            branch = world.clone()
            branch.apply(seat, _same_action(branch, seat, action))
            totals[i] += play_out(branch, random.Random(seed))
        rounds += 1
    return [t / rounds for t in totals]


def _same_action(world: World, seat: int, action: Action) -> Action:
    """Return the action of the world's legal list equal to ``action`` (engines may compare
    listed actions by identity first)."""
    listed: tuple[Action, ...] = world.legal_actions(seat)
    return next((a for a in listed if a == action), action)


def best_of(candidates: Sequence[Action], values: Sequence[float]) -> Action:
    """Return the candidate with the highest value (the first among equals)."""
    best = max(range(len(candidates)), key=values.__getitem__)
    return candidates[best]

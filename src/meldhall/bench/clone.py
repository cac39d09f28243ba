"""``meldhall bench clone``: the cost of copying a State for search, per game.

Positions come from seeded matches between random bots (every few actions one is kept). Each
game's ``State.clone()`` is first checked on every position (the clone's snapshot equals the
original's; playing a legal action on the clone leaves the original unchanged), then timed in
alternating batches against ``copy.deepcopy`` of the same positions, by CPU time of this
process (the machine is shared: waiting for a core is not the copy's cost).
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import time
from collections.abc import Callable

from meldhall.bots.base import make_bot
from meldhall.core.engine import State
from meldhall.core.errors import EngineBug
from meldhall.core.rng import derive
from meldhall.games.registry import find_game, game_ids

GOAL_US = 20.0


def positions(game_id: str, count: int, seed: str, *, every: int = 7, bot: str = "") -> list[State]:
    """Return ``count`` positions of seeded matches of a game (one every ``every`` actions,
    the match's start included), each an independent deep copy. The moves are uniformly
    random, or the choices of the game's bot named ``bot`` in every seat."""
    game = find_game(game_id)
    player = make_bot(game_id, bot) if bot else None
    out: list[State] = []
    match = 0
    while len(out) < count:
        match_seed = derive(seed.encode(), game_id, match)
        state = game.new_state(game.options(), game.default_seats, match_seed)
        rng = random.Random(match_seed)
        step = 0
        while state.outcome() is None and len(out) < count:
            if step % every == 0:
                out.append(copy.deepcopy(state))
            seat = min(state.to_act())
            legal = state.legal_actions(seat)
            if player is None:
                action = legal[rng.randrange(len(legal))]
            else:
                action = player.choose(state.observation(seat), legal, rng)
            state.apply(seat, action)
            step += 1
        match += 1
    return out


def check_clone(state: State, rng: random.Random, actions: int = 1) -> None:
    """Raise ``EngineBug`` unless ``state.clone()`` equals ``state`` and is independent of
    it: up to ``actions`` random actions played on the copy leave the original unchanged."""
    before = state.snapshot()
    other = state.clone()  # type: ignore[attr-defined]
    if other.snapshot() != before:
        raise EngineBug(f"{type(state).__name__}.clone(): the copy differs from the original")
    for _ in range(actions):
        if other.outcome() is not None:
            break
        seat = min(other.to_act())
        legal = other.legal_actions(seat)
        other.apply(seat, legal[rng.randrange(len(legal))])
    if state.snapshot() != before:
        raise EngineBug(f"{type(state).__name__}.clone(): playing the copy changed the original")


def cpu_per_copy(
    states: list[State], sides: dict[str, tuple[Callable[[State], object], int]], batches: int
) -> dict[str, float]:
    """Return per side the median over batches (run A B A B ...) of CPU seconds per copy;
    a side is (copy function, passes over the states per batch)."""
    per_copy: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(batches):
        for name, (copy_one, passes) in sides.items():
            start = time.process_time()
            for _ in range(passes):
                for s in states:
                    copy_one(s)
            per_copy[name].append((time.process_time() - start) / (passes * len(states)))
    return {name: statistics.median(values) for name, values in per_copy.items()}


def main(args: argparse.Namespace) -> int:
    """Check and time ``clone`` in every game; print one line per game and the quotable
    summary; return 0 when every game's median is within the goal, 1 otherwise."""
    count = args.cases or 300
    worst = 0.0
    lines = []
    for game_id in game_ids():
        states = positions(game_id, count, args.seed)
        rng = random.Random(0)
        for s in states:
            check_clone(s, rng)
        figures = cpu_per_copy(
            states,
            {"clone": (lambda s: s.clone(), 20), "deepcopy": (copy.deepcopy, 2)},  # type: ignore[attr-defined]
            max(args.batches, 1),
        )
        us, deep = figures["clone"] * 1e6, figures["deepcopy"] * 1e6
        worst = max(worst, us)
        print(
            f"{game_id}: {len(states)} positions checked; clone {us:.1f} us, "
            f"deepcopy {deep:.1f} us median; {deep / us:.1f}x"
        )
        lines.append(f"{game_id} {us:.1f}")
    verdict = "goal met" if worst <= GOAL_US else f"above the goal of {GOAL_US:.0f} us"
    print(f"clone: median us per copy: {', '.join(lines)} ({verdict})")
    return 0 if worst <= GOAL_US else 1

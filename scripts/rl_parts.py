"""Where a Sichuan RL step's instructions go: callgrind counts of the bench's job with parts
left out, on the same seeded trajectory (load-free; ``rl_instructions.py`` gives the whole).

Each variant plays the episodes of ``meldhall bench rl``'s Sichuan runner (seed 12345) and is
counted under callgrind with ``--episodes`` and with 0 (the difference over the steps is its
cost a step); the random choices depend on the mask alone, so every variant plays the same
trajectory and a difference of two variants is the cost of the part between them:

- ``full``: the bench's loop over the AEC environment (``env.last()``, ``env.step``);
- ``match``: the same on ``Match`` directly, reading the shared arrays as the bench does
  (``Match.read`` without ``fresh``; full - match: PettingZoo's and the env's bookkeeping);
- ``noobs``: ``match`` without the observation array, the decision's shared mask only
  (match - noobs: the array);
- ``opts``: ``noobs`` choosing among ``Decision.options()`` instead of the mask (noobs -
  opts: the mask and the pick from it);
- ``engine``: the engine alone replaying the recorded actions (``legal_actions`` and
  ``apply``; opts - engine: the token decision, ``Match.step`` and ``applied``).

    .venv/bin/python scripts/rl_parts.py [--episodes 8] [VARIANT ...]
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import tempfile
from typing import Any

from callgrind_count import callgrind_count

SEED = 12345


def _match_loop(n: int, *, obs: bool = True, mask: bool = True, record: Any = None) -> int:
    from gymnasium.utils import seeding

    from meldhall.rl import aec_env
    from meldhall.rl.actions import Decision
    from meldhall.rl.aec import seed_bytes

    m = aec_env("sichuan", json_infos=False).match
    size = len(m.vocab)
    rng = random.Random(SEED)
    steps = 0
    for episode in range(n):
        np_random, _ = seeding.np_random(SEED + episode)
        m.reset(seed_bytes(np_random))
        if record is not None:
            record.append([])
        while not m.over():
            seat = min(m.to_act())
            if obs:
                _, shown = m.read(seat, fresh=False)
            elif mask:
                shown = m.decision_of(seat).shared_mask(size)
            if mask:
                ids = shown.nonzero()[0]
                token = int(ids[rng.randrange(len(ids))])
            else:
                options = m.decision_of(seat).options()
                token = options[rng.randrange(len(options))]
            if record is not None:
                action = m.decision_of(seat).after(token)
                if not isinstance(action, Decision):
                    record[-1].append((seat, m.state.legal_actions(seat).index(action)))
            m.step(seat, token)
            steps += 1
    return steps


def _engine(n: int, trajectory: str) -> int:
    from gymnasium.utils import seeding

    from meldhall.rl.aec import seed_bytes
    from meldhall.terminal.pieces import find_game

    game = find_game("sichuan")
    options = game.options({})
    with open(trajectory, "rb") as f:
        episodes = pickle.load(f)
    steps = 0
    for episode, moves in enumerate(episodes[:n]):
        np_random, _ = seeding.np_random(SEED + episode)
        state = game.new_state(options, 4, seed_bytes(np_random))
        for seat, i in moves:
            state.to_act()
            state.apply(seat, state.legal_actions(seat)[i])
            steps += 1
    return steps


def inner(variant: str, n: int, trajectory: str) -> int:
    """Play ``n`` episodes of ``variant``; return the steps taken."""
    if variant == "full":
        from meldhall.bench.rl import meldhall_episodes

        return meldhall_episodes("sichuan", SEED)(n)
    if variant == "engine":
        return _engine(n, trajectory)
    flags = {"match": {}, "noobs": {"obs": False}, "opts": {"obs": False, "mask": False}}
    return _match_loop(n, **flags[variant])  # type: ignore[arg-type]


def count(variant: str, n: int, trajectory: str) -> tuple[int, int]:
    """Return (instructions, steps) of one callgrind run of ``variant``."""
    return callgrind_count(
        __file__, ["--inner", variant, str(n), trajectory], {"PYTHONHASHSEED": "0"}
    )


def main() -> None:
    """Print the instructions a step of every variant asked for."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=8)
    parser.add_argument("--inner", nargs=3, metavar=("VARIANT", "N", "TRAJECTORY"))
    parser.add_argument("variants", nargs="*", default=["full", "match", "noobs", "opts", "engine"])
    args = parser.parse_args()
    if args.inner:
        print(inner(args.inner[0], int(args.inner[1]), args.inner[2]))
        return
    with tempfile.TemporaryDirectory() as tmp:
        trajectory = os.path.join(tmp, "trajectory.pkl")
        record: list[list[tuple[int, int]]] = []
        _match_loop(args.episodes, record=record)
        with open(trajectory, "wb") as f:
            pickle.dump(record, f)
        for variant in args.variants:
            full, steps = count(variant, args.episodes, trajectory)
            empty, _ = count(variant, 0, trajectory)
            per_step = (full - empty) / steps
            print(f"{variant:7} {steps} steps: {per_step:,.0f} instr/step", flush=True)


if __name__ == "__main__":
    main()

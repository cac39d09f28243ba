"""Instructions per RL environment step, counted with valgrind's callgrind (load-free).

The same job as ``meldhall bench rl``: random masked steps with the observation read at
every step, meldhall's Sichuan AEC environment against RLCard's ``mahjong``. Each side runs
twice under callgrind, with ``EPISODES`` and with 0 episodes; the difference of the two
instruction totals (imports, environment creation and interpreter start cancel out) divided
by the steps of the long run is the cost of one step.

    .venv/bin/python scripts/rl_instructions.py [--episodes 8] [--game sichuan]

A run of one side inside valgrind: ``rl_instructions.py --inner SIDE N`` (prints the steps).
"""

from __future__ import annotations

import argparse

from callgrind_count import callgrind_count

SEED = 12345


def inner(side: str, episodes: int) -> None:
    """Play ``episodes`` random episodes of ``side`` and print the steps taken."""
    if side == "rlcard":
        from meldhall.bench.rl import rlcard_episodes

        run = rlcard_episodes(SEED)
    else:
        from meldhall.bench.rl import meldhall_episodes

        run = meldhall_episodes(side, SEED)
    print(run(episodes))


def instructions(side: str, episodes: int) -> tuple[int, int]:
    """Return (instructions, steps) of one callgrind run of ``side``."""
    return callgrind_count(__file__, ["--inner", side, str(episodes)], {"PYTHONHASHSEED": "0"})


def main() -> None:
    """Print instructions per step of both sides and their ratio."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=8)
    parser.add_argument("--game", default="sichuan")
    parser.add_argument("--inner", nargs=2, metavar=("SIDE", "N"))
    args = parser.parse_args()
    if args.inner:
        inner(args.inner[0], int(args.inner[1]))
        return
    per_step = {}
    for side in (args.game, "rlcard"):
        full, steps = instructions(side, args.episodes)
        empty, _ = instructions(side, 0)
        per_step[side] = (full - empty) / steps
        print(
            f"{side:8} {steps} steps in {args.episodes} episodes: {per_step[side]:,.0f} instr/step"
        )
    ratio = per_step["rlcard"] / per_step[args.game]
    print(f"callgrind: RLCard mahjong / meldhall {args.game} instructions per step: {ratio:.1f}x")


if __name__ == "__main__":
    main()

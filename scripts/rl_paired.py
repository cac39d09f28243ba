"""Two source trees' Sichuan RL steps per CPU second, in interleaved, paired batches.

Each tree (``PYTHONPATH=TREE/src``) runs ``meldhall bench rl``'s Sichuan job in one
long-lived child process; the two children play the same seeded episodes, batch by batch,
the order swapped from pair to pair (A B, B A, ...), each timing its own batch by its own
CPU time (``time.process_time``), so a drift of the machine's load falls on both alike. The
figure is the median over the pairs of B's steps per CPU second over A's.

    .venv/bin/python scripts/rl_paired.py TREE_A TREE_B [--pairs 12] [--episodes 20]

A child: ``rl_paired.py --inner`` (reads an episode count per line, prints steps and CPU
seconds per batch).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

SEED = 12345


def inner() -> None:
    """Play batches of the bench's Sichuan job as the parent asks; print each one's steps
    and CPU seconds."""
    from meldhall.bench.rl import meldhall_episodes

    run = meldhall_episodes("sichuan", SEED)
    run(2)
    for line in sys.stdin:
        start = time.process_time()
        steps = run(int(line))
        print(steps, time.process_time() - start, flush=True)


def child(tree: str) -> subprocess.Popen[str]:
    """Return a started child running the job from ``tree``'s sources."""
    env = {**os.environ, "PYTHONPATH": os.path.join(os.path.abspath(tree), "src")}
    return subprocess.Popen(
        [sys.executable, __file__, "--inner"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def batch(proc: subprocess.Popen[str], episodes: int) -> tuple[int, float]:
    """Return (steps, CPU seconds) of one batch of ``episodes`` played by ``proc``."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{episodes}\n")
    proc.stdin.flush()
    steps, seconds = proc.stdout.readline().split()
    return int(steps), float(seconds)


def main() -> None:
    """Print both trees' steps per CPU second per pair and the median ratio B / A."""
    parser = argparse.ArgumentParser()
    parser.add_argument("trees", nargs="*")
    parser.add_argument("--pairs", type=int, default=12)
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--inner", action="store_true")
    args = parser.parse_args()
    if args.inner:
        inner()
        return
    a, b = (child(t) for t in args.trees)
    ratios = []
    rates: dict[str, list[float]] = {"A": [], "B": []}
    for i in range(args.pairs):
        order = ((a, "A"), (b, "B")) if i % 2 == 0 else ((b, "B"), (a, "A"))
        got = {}
        for proc, name in order:
            steps, seconds = batch(proc, args.episodes)
            got[name] = steps / seconds
            rates[name].append(got[name])
        ratios.append(got["B"] / got["A"])
    for proc in (a, b):
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    for name, tree in zip("AB", args.trees, strict=True):
        print(f"{name} {tree}: median {statistics.median(rates[name]):.0f} steps per CPU second")
    print(
        f"B/A per pair {', '.join(f'{r:.3f}' for r in ratios)}; "
        f"median {statistics.median(ratios):.3f}"
    )


if __name__ == "__main__":
    main()

"""Learn a Sichuan discard policy against three random bots with REINFORCE, numpy only.

The agent plays seat 0 of ``meldhall.rl.single_agent_env("sichuan", opponents="random")``;
the random bot picks uniformly among its legal moves but always takes a win. The agent
plays like that bot in every decision but one: which tile to discard. There it scores every
tile id the action mask allows with ``theta @ features(tile)`` (copies held of its kind,
neighbours one and two apart in its suit, copies already visible on the table, a terminal
1 or 9) and samples from the softmax of those scores. The features come from the engine's
JSON observation in ``info["observation"]`` and the ids' names in ``env.match.vocab``.

A match counts as a win against the random bots when the agent ends above the mean of the
other three seats (a tie counts half); ``theta = 0`` discards at random. Training runs for
``--minutes``; the script prints the win rate of every ``--window`` training matches, draws
that curve to a PNG (red; the random policy's rate on the evaluation deals in blue; y from
0 to 1 with a grid every 0.1, the 0.5 line black), and finally plays ``--deals`` fixed deals
with the learned theta and with theta = 0.

    .venv/bin/python examples/sichuan_reinforce.py --minutes 3
"""

from __future__ import annotations

import argparse
import itertools
import struct
import time
import zlib
from pathlib import Path

import numpy as np

from meldhall.rl import single_agent_env

EVAL_SEED = 1_000_000
"""Evaluation deals are seeds EVAL_SEED, EVAL_SEED + 1, ...; training seeds stay below."""
FEATURES = ("held", "neighbours", "two apart", "visible", "terminal")
SUITS = "mps"


def kind_of(token: str) -> int:
    """Return the tile kind 0..26 of a tile token such as ``5p#2`` (or a face ``5p``)."""
    return SUITS.index(token[1]) * 9 + int(token[0]) - 1


def counts(tokens: list[str]) -> np.ndarray:
    """Return the 27 kind counts of tile tokens."""
    out = np.zeros(27)
    for t in tokens:
        out[kind_of(t)] += 1
    return out


def features(obs: dict, kinds: list[int]) -> np.ndarray:
    """Return one feature row (``FEATURES``) per candidate discard kind."""
    hand = counts(obs["hand"] + ([obs["drawn"]] if obs.get("drawn") else []))
    seen = counts([t for pile in obs["discards"] for t in pile])
    seen += counts([t for melds in obs["melds"] for m in melds for t in m["tiles"]])
    rows = []
    for k in kinds:
        rank, base = k % 9, k - k % 9

        def near(d: int, rank: int = rank, base: int = base) -> float:
            return sum(hand[base + r] for r in (rank - d, rank + d) if 0 <= r < 9)

        rows.append([hand[k] - 1, near(1), near(2), seen[k], float(rank in (0, 8))])
    return np.array(rows)


def play(env, theta: np.ndarray, rng: np.random.Generator, seed: int, learn: list):
    """Play one match; append (features, chosen row) of every discard to ``learn``; return
    1, 0.5 or 0 (a win, a tie, a loss against the mean of the others)."""
    _, info = env.reset(seed=seed)
    words = env.match.vocab.words
    done = False
    while not done:
        ids = np.flatnonzero(info["action_mask"])
        names = [words[i] for i in ids]
        if "win" in names:
            choice = ids[names.index("win")]
        elif all("#" in n for n in names):  # the tile of a discard
            f = features(info["observation"], [kind_of(n) for n in names])
            z = f @ theta
            p = np.exp(z - z.max())
            p /= p.sum()
            k = int(rng.choice(len(ids), p=p))
            learn.append((f, k, p))
            choice = ids[k]
        else:
            choice = ids[rng.integers(len(ids))]
        _, _, over, truncated, info = env.step(int(choice))
        done = over or truncated
    totals = env.match.view(0)["totals"]
    others = sum(totals[1:]) / 3
    return 1.0 if totals[0] > others else 0.5 if totals[0] == others else 0.0


def evaluate(env, theta: np.ndarray, deals: int, rng: np.random.Generator) -> float:
    """Return the win rate of ``theta`` on the fixed evaluation deals."""
    return float(np.mean([play(env, theta, rng, EVAL_SEED + i, []) for i in range(deals)]))


def write_png(path: Path, pixels: np.ndarray) -> None:
    """Write an RGB uint8 array (height x width x 3) as a PNG file."""
    h, w, _ = pixels.shape
    raw = b"".join(b"\x00" + pixels[y].tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
    path.write_bytes(png + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def draw_curve(path: Path, xs: list[int], lines: list[tuple[list[float], tuple]]) -> None:
    """Draw (x, y) lines, y in 0..1, on a white canvas with a frame and a grid every 0.1."""
    w, h, pad = 720, 400, 30
    img = np.full((h, w, 3), 255, dtype=np.uint8)
    x_max = max(xs[-1], 1)

    def to_px(x: float, y: float) -> tuple[int, int]:
        return pad + round((w - 2 * pad) * x / x_max), h - pad - round((h - 2 * pad) * y)

    for tenth in range(11):
        img[to_px(0, tenth / 10)[1], pad : w - pad] = (200, 200, 200) if tenth != 5 else (0,) * 3
    img[pad : h - pad, pad] = (0, 0, 0)
    for ys, colour in lines:
        points = [to_px(x, y) for x, y in zip(xs, ys, strict=True)]
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            for t in np.linspace(0, 1, max(abs(x1 - x0), abs(y1 - y0), 1) + 1):
                px, py = round(x0 + t * (x1 - x0)), round(y0 + t * (y1 - y0))
                img[py - 1 : py + 2, px - 1 : px + 2] = colour
    write_png(path, img)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time budget")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--window", type=int, default=200, help="matches per curve point")
    parser.add_argument("--deals", type=int, default=400, help="evaluation deals")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--png", type=Path, default=Path("docs/rl-curve.png"))
    args = parser.parse_args()

    env = single_agent_env("sichuan", opponents="random")
    rng = np.random.default_rng(args.seed)
    theta = np.zeros(len(FEATURES))
    xs, rates, window, baseline = [0], [], [], 0.5
    start, matches = time.monotonic(), 0
    while time.monotonic() - start < args.minutes * 60:
        learn: list = []
        won = play(env, theta, rng, args.seed * EVAL_SEED // 10 + matches, learn)
        matches += 1
        window.append(won)
        for f, k, p in learn:  # REINFORCE: grad log p(k) = f[k] - p @ f
            theta += args.lr * (won - baseline) * (f[k] - p @ f)
        baseline = 0.99 * baseline + 0.01 * won
        if len(window) == args.window:
            rates.append(float(np.mean(window)))
            xs.append(matches)
            window = []
            weights = ", ".join(f"{n} {v:+.2f}" for n, v in zip(FEATURES, theta, strict=True))
            print(
                f"matches {matches:5d} ({time.monotonic() - start:4.0f} s): training win rate "
                f"{rates[-1]:.3f}; theta {weights}"
            )
    learned = evaluate(env, theta, args.deals, rng)
    random_rate = evaluate(env, np.zeros(len(FEATURES)), args.deals, rng)
    rates = [random_rate, *rates]
    draw_curve(args.png, xs, [(rates, (200, 40, 40)), ([random_rate] * len(xs), (60, 60, 200))])
    print(
        f"final: {matches} matches in {time.monotonic() - start:.0f} s; on {args.deals} fixed "
        f"deals the learned discards win {learned:.3f} against the random bots, random "
        f"discards {random_rate:.3f}; curve in {args.png}"
    )


if __name__ == "__main__":
    main()

"""``meldhall bench people``: the costs of people online on a temporary SQLite store: an
argon2id hash and check (each sign-in and claim), rating one four-account match (openskill and
its writes), a leaderboard of a game with many accounts, the profile's rating history, and a
name's confusable key. ``--cases`` is the number of accounts (default 1,000)."""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from meldhall.bench.timing import alternate, fmt_time
from meldhall.server.accounts import HASHER
from meldhall.server.names import name_key
from meldhall.store.accounts import AccountStore
from meldhall.store.ratings import RatingStore
from meldhall.store.repository import Store

ACCOUNTS = 1_000
GAME = "okey"


def main(args: argparse.Namespace) -> int:
    """Print the median time of each operation over ``args.batches`` batches; return 0."""
    n = args.cases or ACCOUNTS
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        store = Store.in_dir(Path(folder))
        accounts = AccountStore(store)
        ids = [
            accounts.claim(f"s{i}", f"Player {i}", name_key(f"Player {i}"), "x", None).id
            for i in range(n)
        ]
        ratings = RatingStore(store)
        matches = [0]

        def rate(_batch: int) -> int:
            for _ in range(20):
                four = rng.sample(ids, 4)
                matches[0] += 1
                ratings.rate_match(f"m{matches[0]}", GAME, [(a, p + 1) for p, a in enumerate(four)])
            return 20

        for _ in range(n // 4):  # every account rated a few times before the timings
            rate(0)
        digest = HASHER.hash("a password of a person")
        sides = {
            "argon2 hash": lambda _b: (HASHER.hash("a password of a person"), 1)[1],
            "argon2 verify": lambda _b: (HASHER.verify(digest, "a password of a person"), 1)[1],
            "rate a 4-account match": rate,
            f"leaderboard top 100 of {n}": lambda _b: (ratings.leaderboard(GAME, 100), 1)[1],
            "place of one account": lambda _b: (ratings.place_of(ids[0], GAME), 1)[1],
            "rating history (profile)": lambda _b: (ratings.history(ids[0], GAME), 1)[1],
            "name key": lambda _b: sum(1 for i in range(1000) if name_key(f"Ayşe {i}")),
        }
        results = alternate(sides, args.batches)
        store.close()
    for name, batches in results.items():
        print(f"{name:32} {fmt_time(batches.median):>10}")
    return 0

#!/usr/bin/env python3
"""Make a database of stored matches with the code on ``PYTHONPATH``, for the test that
replays it under later code (``tests/service/test_stored_matches.py``).

Every registered game gets matches played by seeded random legal moves and stored through
the ``Store`` of that code (create, one staged action per move, finished ones marked over),
some to their end, some stopped in play. Beside the database's SQL dump goes what that code
saw at the end of each match: whether it was over, its scores and winners, the seats to act
and the text form of every action they had listed.

    PYTHONPATH=/old/src .venv/bin/python scripts/make_stored_matches.py \\
        --sql tests/service/stored_matches.sql --expect tests/service/stored_matches.json

Only APIs that the store and engine have had since the store recorded rules versions are
used (``Store.create_match``, ``stage_action``, ``commit_staged``, ``finish_match``), so the
script runs against the commit that made the fixture.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

REGISTRY_MODULES = ("meldhall.games.registry", "meldhall.core.registry")
PLANS: tuple[tuple[int, int], ...] = ((2500, 2), (160, 3), (40, 4))
"""Per game: (steps at most, seats wanted), one match each; a match that ends sooner is
stored over."""
AVOID = ("quit",)
"""Verbs a random player picks only when nothing else is listed."""
OWNER = "fixture-owner"


def registry() -> Any:
    """Return the first importable registry module."""
    for name in REGISTRY_MODULES:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError:
            continue
    raise SystemExit("no registry module")


def play(game: Any, store: Any, n: int, steps: int, wanted: int) -> dict[str, Any]:
    """Store one match of ``game`` played by random legal moves; return what the code saw."""
    from meldhall.core.fairness import match_seed

    seats = min(max(wanted, game.min_seats), game.max_seats)
    players = [{"kind": "bot", "bot": "random"} for _ in range(seats)]
    contributions = [f"fixture {game.id} {n}"]
    secret = f"{n:02d}{game.id.encode().hex()}".ljust(64, "0")[:64]
    data = store.create_match(OWNER, game.id, {}, players, secret, contributions)
    state = game.new_state(
        game.options({}), seats, match_seed(bytes.fromhex(secret), contributions)
    )
    rng = random.Random(f"{game.id}/{n}")
    index = 0
    while state.outcome() is None and index < steps:
        seat = rng.choice(sorted(state.to_act()))
        legal = state.legal_actions(seat)
        keep = [a for a in legal if str(a).split(" ")[0] not in AVOID]
        action = rng.choice(keep or legal)
        state.apply(seat, action)
        store.stage_action(data.id, index, seat, action.to_json())
        index += 1
    store.commit_staged()
    outcome = state.outcome()
    if outcome is not None:
        store.finish_match(data.id, outcome.to_json())
    return {
        "match": data.id,
        "game": game.id,
        "actions": index,
        "over": outcome is not None,
        "scores": None if outcome is None else list(outcome.scores),
        "winners": None if outcome is None else sorted(outcome.winners),
        "to_act": sorted(state.to_act()),
        "listed": {
            str(s): [str(a) for a in state.legal_actions(s)] for s in sorted(state.to_act())
        },
    }


def main(argv: list[str] | None = None) -> int:
    """Write the SQL dump and the expectations; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sql", required=True, help="the SQL dump to write")
    parser.add_argument("--expect", required=True, help="the JSON of what the code saw")
    args = parser.parse_args(argv)
    from meldhall.store.repository import Store

    reg = registry()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "stored.sqlite3"
        store = Store(f"sqlite:///{path}")
        seen = [
            play(reg.find_game(gid), store, n, steps, wanted)
            for gid in reg.game_ids()
            for n, (steps, wanted) in enumerate(PLANS)
        ]
        store.close()
        with sqlite3.connect(path) as conn:
            dump = "\n".join(conn.iterdump())
    Path(args.sql).write_text(dump + "\n", encoding="utf-8")
    Path(args.expect).write_text(json.dumps(seen, indent=1) + "\n", encoding="utf-8")
    print(f"{len(seen)} matches, {sum(m['actions'] for m in seen)} actions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``meldhall bench bots``: what the computers of solo tables cost, per game and level.

For each game and each level (easy, normal, hard), solo tables whose every seat is a
computer at that level play whole matches on one event loop, exactly as the server runs them
(``tables/table.py`` with a SQLite store, every action written before it is sent, one
listener per table receiving every state) except that the computers do not pause between
moves (``bot_delay`` 0), and the computers think in a pool of one worker process
(``tables/thinking.py``). A fresh match replaces each finished one until ``--seconds`` (per
game and level; default 8) are spent.

Printed per game and level: actions played, computer decisions (forced moves apart) and how
many fell back to the greedy choice; the decision's wall time (median / p99 from handing it
to the pool to its answer); the CPU seconds per action of the server process and of the
worker; and **solo tables per core**: a solo table's computers move at most once every
``bot_delay`` (0.8 s by default), so one core keeps up with ``bot_delay / (CPU per action)``
tables whose people answered at once (a bound: people think, so real tables act less often).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from meldhall.bench.server import process_cpu
from meldhall.bots.levels import LEVELS, seat_player
from meldhall.core.engine import JSON, Action, Bot
from meldhall.games.registry import find_game, game_ids
from meldhall.store.repository import Store
from meldhall.tables.table import Table
from meldhall.tables.thinking import Decision, Thinker

TABLES = 4
"""Solo tables playing at once (they share the loop and the worker, as a server's do)."""

BOT_DELAY = 0.8
"""The server's default pause before a computer move (``--bot-delay``)."""


class TimedThinker(Thinker):
    """A thinker that remembers the wall seconds of each decision it sent to the pool."""

    def __init__(self, workers: int | None) -> None:
        super().__init__(workers)
        self.walls: list[float] = []

    async def decide(
        self,
        game_id: str,
        bot: Bot,
        observation: Mapping[str, JSON],
        legal: tuple[Action, ...],
        rng: random.Random,
    ) -> Decision:
        """Return the decision (``Thinker.decide``), timing the ones that were thought."""
        start = time.perf_counter()
        decision = await super().decide(game_id, bot, observation, legal, rng)
        if decision.how != "forced":
            self.walls.append(time.perf_counter() - start)
        return decision


@dataclass
class Run:
    """What the tables of one game and level did."""

    game_id: str
    level: str
    actions: int = 0
    matches: int = 0
    server_cpu: float = 0.0
    worker_cpu: float = 0.0
    walls: list[float] = field(default_factory=list)
    decided: dict[str, int] = field(default_factory=dict)

    def cpu_per_action(self) -> float:
        """Return the CPU seconds per action of the server and the worker together."""
        return (self.server_cpu + self.worker_cpu) / max(1, self.actions)

    def tables_per_core(self) -> float:
        """Return the solo tables one core keeps up with (see the module docstring)."""
        cost = self.cpu_per_action()
        return BOT_DELAY / cost if cost > 0 else float("inf")


async def _play(store: Store, thinker: Thinker, run: Run, until: float, slot: int) -> None:
    """Play matches of ``run``'s game at its level, one after another, until ``until``."""
    game = find_game(run.game_id)
    players = [seat_player(run.game_id, run.level) for _ in range(game.default_seats)]
    number = 0
    while time.monotonic() < until:
        secret = random.Random(f"{run.game_id}/{run.level}/{slot}/{number}").randbytes(32)
        number += 1
        match = store.create_match("bench", run.game_id, {}, players, secret.hex(), [""])
        table = Table(store, match, bot_delay=0, thinker=thinker)
        inbox: asyncio.Queue[object] = asyncio.Queue()
        table.attach(0, inbox)  # one listener, as a solo table has its person
        table.start()
        while not table.over and time.monotonic() < until:
            await asyncio.sleep(0.05)
            while not inbox.empty():
                inbox.get_nowait()
        await table.stop()
        run.actions += table.version
        run.matches += table.over


async def measure(
    game_id: str, level: str, seconds: float, store: Store, workers: int | None = 1
) -> Run:
    """Return what ``TABLES`` solo tables of a game at a level did in ``seconds``, their
    computers thinking in a pool of ``workers`` processes (None: in threads)."""
    thinker = TimedThinker(workers)
    run = Run(game_id, level)
    await thinker.ready()  # the worker starts (and imports the bots) before the clock runs
    pids = thinker.pids()
    worker_start = sum(process_cpu(pid) for pid in pids)
    cpu_start = time.process_time()
    until = time.monotonic() + seconds
    await asyncio.gather(*(_play(store, thinker, run, until, slot) for slot in range(TABLES)))
    run.server_cpu = time.process_time() - cpu_start
    run.worker_cpu = sum(process_cpu(pid) for pid in pids) - worker_start
    run.walls = thinker.walls
    run.decided = dict(thinker.decided)
    return run


def _ms(values: list[float], q: float) -> float:
    """Return the ``q`` quantile of ``values`` in milliseconds (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(args: argparse.Namespace) -> int:
    """Measure every game at every level and print the table; return 0."""
    seconds = args.seconds or 8.0
    print(
        f"{TABLES} solo tables of computers at a time, bot_delay 0, one worker process, "
        f"{seconds:g} s per game and level; tables per core at bot_delay {BOT_DELAY:g} s"
    )
    header = (
        f"{'game':<12} {'level':<7} {'actions':>7} {'decisions':>9} {'fallback':>8} "
        f"{'wall ms p50/p99':>16} {'cpu ms/action server+worker':>28} {'tables/core':>11}"
    )
    print(header)
    with tempfile.TemporaryDirectory() as folder:
        store = Store.in_dir(Path(folder))
        try:
            for game_id in game_ids():
                for level in LEVELS:
                    run = asyncio.run(measure(game_id, level, seconds, store))
                    decided = run.decided.get("bot", 0) + run.decided.get("fallback", 0)
                    actions = max(1, run.actions)
                    print(
                        f"{game_id:<12} {level:<7} {run.actions:>7} {decided:>9} "
                        f"{run.decided.get('fallback', 0):>8} "
                        f"{_ms(run.walls, 0.5):>7.2f}/{_ms(run.walls, 0.99):<8.2f} "
                        f"{1000 * run.server_cpu / actions:>13.3f}+"
                        f"{1000 * run.worker_cpu / actions:<14.3f} "
                        f"{run.tables_per_core():>11.0f}",
                        flush=True,
                    )
        finally:
            store.close()
    return 0

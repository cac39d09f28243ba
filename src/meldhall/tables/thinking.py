"""Where the computers think: off the event loop, in a pool of worker processes, within a
budget, falling back to the greedy choice when a decision overruns.

A table hands ``Thinker.decide`` the seat's bot, its observation, the legal actions and the
decision's rng; they are pickled to a worker process, the bot chooses there, and the action
comes back together with the bot itself (a bot may remember things between decisions: a
plan, a count of stalled turns), which the table keeps for the next decision. So a decision
in a worker is exactly the decision the bot would have made in the table's own process.

- A forced move (one legal action) is played at once: no worker, no thinking.
- The decision has ``budget`` seconds of wall time from the moment it is handed over. When
  the answer is not back by then (the worker is slow, or every worker is busy on a loaded
  server), the table plays the greedy bot's choice for the same observation and rng, in its
  own process (a greedy decision costs well under a millisecond); a decision still queued is
  cancelled, and one a worker takes up after its deadline is dropped unread.
- A bot that raises, or a pool that broke (a worker died), falls back the same way; a broken
  pool is replaced for the next decision.

The pool has one process per core by default (``meldhall serve --bot-workers``); its
processes start on the first decisions that need them and serve every table of the server
process. ``Thinker(None)`` thinks in threads of the server process instead (same budget and
fallback; Python threads share one core, so that suits only tests and tiny servers).
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import concurrent.futures
import copy
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from meldhall.bots.base import bots_of, make_bot
from meldhall.core.engine import JSON, Action, Bot
from meldhall.games.registry import find_game, game_ids
from meldhall.tables.metrics import BOT_FALLBACKS

log = logging.getLogger(__name__)

BUDGET_SECONDS = 0.25
"""Wall seconds a decision may take, from being handed to the pool to its answer (the
issue's median budget; every bot of the tables thinks well under a millisecond of CPU)."""

PARENT_CHECK_SECONDS = 1.0
"""How often a worker checks that the process that started it is still alive."""

START_SECONDS = 20.0
"""How long the first decisions wait for the pool's workers to start (then they fall back,
and later decisions no longer wait for the start: each has its budget alone)."""


def cores() -> int:
    """Return the number of cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Decision:
    """What a seat plays and how it was decided: ``forced`` (the only legal action),
    ``bot`` (the bot's own choice), ``fallback`` (the greedy choice: the bot overran its
    budget or failed). ``bot`` is the bot after its decision (for ``bot`` decisions made in a
    worker: the copy that decided there), ``cpu`` the CPU seconds the bot's process spent."""

    action: Action
    how: str
    bot: Bot
    cpu: float = 0.0


def fallback_bot(game_id: str) -> Bot:
    """Return a new bot of the greedy choice of a game: its ``greedy`` bot, else the bot
    that plays its timed-out seats."""
    names = bots_of(game_id)
    return make_bot(game_id, "greedy" if "greedy" in names else find_game(game_id).bots.on_timeout)


def think(
    bot: Bot,
    observation: Mapping[str, JSON],
    legal: tuple[Action, ...],
    rng: random.Random,
    deadline: float,
) -> tuple[Action, Bot, float] | None:
    """Return (the bot's action, the bot after deciding, CPU seconds spent), or None when the
    decision is taken up after its ``deadline`` (``time.monotonic``, the same clock in every
    process of the machine): nobody waits for it any more. Runs in a worker process."""
    if time.monotonic() > deadline:
        return None
    start = time.process_time()
    action = bot.choose(observation, legal, rng)
    return action, bot, time.process_time() - start


def _warm() -> None:
    """Start a new worker: import every game's bot module, so no first decision pays for
    it, and watch the server process, so the worker ends when it does (however it ended:
    a worker blocked waiting for work would otherwise outlive a killed server)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    for game_id in game_ids():
        bots_of(game_id)


def _started() -> bool:
    """Return True (a worker's first task: it is up and has imported the bots)."""
    return True


_POOLS: dict[int, concurrent.futures.ProcessPoolExecutor] = {}
_STARTS: dict[int, list[concurrent.futures.Future[bool]]] = {}
_POOLS_LOCK = threading.Lock()
_GAVE_UP: set[int] = set()
"""The start futures (by id) of pools whose start was waited for ``START_SECONDS`` once."""


def _pool(workers: int) -> tuple[concurrent.futures.ProcessPoolExecutor, list[Any]]:
    """Return this process's pool of ``workers`` processes, made on first use (every table
    and every app of the process share it), and the futures of its workers' start: a
    decision's budget runs from when they are done, so no decision pays for a start."""
    with _POOLS_LOCK:
        pool = _POOLS.get(workers)
        if pool is None:
            pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm,
            )
            _POOLS[workers] = pool
            _STARTS[workers] = [pool.submit(_started) for _ in range(workers)]
        return pool, _STARTS[workers]


def _drop_pool(workers: int, broken: concurrent.futures.ProcessPoolExecutor) -> None:
    """Forget a broken pool (the next decision makes a new one)."""
    with _POOLS_LOCK:
        if _POOLS.get(workers) is broken:
            del _POOLS[workers]
            del _STARTS[workers]
    broken.shutdown(wait=False, cancel_futures=True)


@atexit.register
def _close_pools() -> None:
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
        _POOLS.clear()
        _STARTS.clear()
    for pool in pools:
        pool.shutdown(wait=False, cancel_futures=True)


def _copy(rng: random.Random) -> random.Random:
    """Return a new rng in the state of ``rng``."""
    out = random.Random()
    out.setstate(rng.getstate())
    return out


class Thinker:
    """Decides the computers' moves of a server's tables (see the module docstring)."""

    def __init__(self, workers: int | None = 0, budget: float = BUDGET_SECONDS) -> None:
        """``workers``: processes in the pool (0: one per core; None: threads, no
        processes); ``budget``: wall seconds a decision may take. Raise ``ValueError`` for a
        negative count or a budget that is not positive."""
        if workers is not None and workers < 0:
            raise ValueError(f"bot workers must be 0 (one per core) or more, not {workers}")
        if not budget > 0:
            raise ValueError(f"a decision's budget must be positive seconds, not {budget}")
        self.workers = None if workers is None else workers or cores()
        self.budget = budget
        self.decided: collections.Counter[str] = collections.Counter()
        """Decisions so far by how they were made (``forced``, ``bot``, ``fallback``)."""

    def pids(self) -> list[int]:
        """Return the process ids of the pool's workers started so far (none for threads)."""
        if self.workers is None:
            return []
        with _POOLS_LOCK:
            pool = _POOLS.get(self.workers)
        processes = getattr(pool, "_processes", None) or {}
        return sorted(processes)

    async def decide(
        self,
        game_id: str,
        bot: Bot,
        observation: Mapping[str, JSON],
        legal: tuple[Action, ...],
        rng: random.Random,
    ) -> Decision:
        """Return the decision of ``bot`` for a seat whose legal actions are ``legal``
        (see the module docstring); ``rng`` is left as it was given."""
        if len(legal) == 1:
            self.decided["forced"] += 1
            return Decision(legal[0], "forced", bot)
        try:
            await self.ready()
            deadline = time.monotonic() + self.budget
            answer = await asyncio.wait_for(
                self._submit(bot, observation, legal, rng, deadline), self.budget
            )
        except TimeoutError:
            answer, why = None, "overran its budget"
        except concurrent.futures.BrokenExecutor as exc:
            self._broken(exc)
            answer, why = None, "lost its worker"
        except Exception:  # a broken bot must not stop the table: the greedy choice plays
            log.exception("bot %s of %s failed", type(bot).__name__, game_id)
            answer, why = None, "failed"
        else:
            why = "came back after its deadline"
        if answer is not None and answer[0] in legal:
            action, thought, cpu = answer
            self.decided["bot"] += 1
            return Decision(action, "bot", thought, cpu)
        if answer is not None:
            why = f"chose {answer[0]}, which is not legal"
        BOT_FALLBACKS.inc()
        self.decided["fallback"] += 1
        log.info("bot %s of %s %s: the greedy choice plays", type(bot).__name__, game_id, why)
        start = time.process_time()
        try:
            fallback = fallback_bot(game_id).choose(observation, legal, _copy(rng))
        except Exception:  # e.g. a bot that needs no observation was sent none
            log.exception("the greedy choice of %s failed: the first listed action plays", game_id)
            fallback = legal[0]
        action = fallback if fallback in legal else legal[0]
        return Decision(action, "fallback", bot, time.process_time() - start)

    async def _submit(
        self,
        bot: Bot,
        observation: Mapping[str, JSON],
        legal: tuple[Action, ...],
        rng: random.Random,
        deadline: float,
    ) -> tuple[Action, Bot, float] | None:
        """Return the worker's answer (see ``think``); the rng sent is a copy."""
        if self.workers is None:  # a copy of the bot, as a worker gets one
            return await asyncio.to_thread(
                think, copy.deepcopy(bot), observation, legal, _copy(rng), deadline
            )
        pool = _pool(self.workers)[0]
        future = pool.submit(think, bot, dict(observation), legal, _copy(rng), deadline)
        return await asyncio.wrap_future(future)

    async def ready(self) -> None:
        """Return once the pool's workers are up (at once but for the first decisions);
        raise ``TimeoutError`` when they were not up within ``START_SECONDS``. A pool whose
        start was waited for that long once is not waited for again."""
        if self.workers is None:
            return
        starts = _pool(self.workers)[1]
        if all(start.done() for start in starts) or id(starts) in _GAVE_UP:
            return
        try:
            await asyncio.wait_for(
                asyncio.gather(*(asyncio.wrap_future(start) for start in starts)), START_SECONDS
            )
        except TimeoutError:
            _GAVE_UP.add(id(starts))
            log.warning(
                "bot workers not up after %g s: decisions go on without waiting", START_SECONDS
            )
            raise

    def _broken(self, exc: BaseException) -> None:
        """Replace this thinker's pool after a worker died."""
        log.error("a bot worker died (%s); a new pool takes over", exc)
        if self.workers is not None:
            with _POOLS_LOCK:
                pool = _POOLS.get(self.workers)
            if pool is not None:
                _drop_pool(self.workers, pool)

"""The computers think off the event loop (tables/thinking.py): in a pool of worker processes,
within a budget; a decision that overruns falls back to the greedy choice and the table goes
on; a forced move costs nothing; the loop stays responsive while a bot thinks."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from meldhall.bots.base import make_bot
from meldhall.core.engine import JSON, Action
from meldhall.core.rng import derive
from meldhall.games.registry import find_game
from meldhall.store.repository import Store
from meldhall.tables.table import Table
from meldhall.tables.thinking import Thinker, fallback_bot
from tests.server.online_client import bounded, run

GAME = "okey-cards"


class SlowBot:
    """Thinks ``seconds`` of wall time (asleep), then plays the last legal action."""

    needs_observation = True

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        time.sleep(self.seconds)
        return legal[-1]


class BusyBot:
    """Burns CPU for ``seconds`` (the way a search does), counting its decisions."""

    needs_observation = True

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.decisions = 0

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        end = time.monotonic() + self.seconds
        while time.monotonic() < end:
            pass
        self.decisions += 1
        return legal[-1]


class RefusingBot:
    """Fails the test if it is ever asked."""

    needs_observation = False

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        raise AssertionError("a forced move was thought about")


def _position() -> tuple[dict[str, Any], tuple[Action, ...]]:
    """Return the observation and legal actions of a fresh okey-cards game with a choice."""
    game = find_game(GAME)
    state = game.new_state(game.options({}), 1, b"thinking")
    legal = state.legal_actions(0)
    assert len(legal) > 1
    return dict(state.observation(0)), legal


def test_a_forced_move_is_played_without_thinking() -> None:
    observation, legal = _position()
    decision = run(Thinker(1).decide(GAME, RefusingBot(), observation, legal[:1], random.Random()))
    assert (decision.action, decision.how, decision.cpu) == (legal[0], "forced", 0.0)


def test_a_decision_over_its_budget_plays_the_greedy_choice() -> None:
    observation, legal = _position()
    rng = random.Random(7)
    greedy = fallback_bot(GAME).choose(observation, legal, random.Random(7))
    assert greedy != legal[-1]  # so the slow bot's own choice would show
    thinker = Thinker(1, budget=0.2)
    decision = run(bounded(thinker.decide(GAME, SlowBot(1.0), observation, legal, rng), 5))
    assert (decision.action, decision.how) == (greedy, "fallback")
    assert rng.getstate() == random.Random(7).getstate()  # the table's rng is left alone


def test_a_bot_decides_in_another_process_and_keeps_what_it_learnt() -> None:
    observation, legal = _position()
    bot = BusyBot(0.01)
    decision = run(Thinker(1, budget=30).decide(GAME, bot, observation, legal, random.Random()))
    assert (decision.action, decision.how) == (legal[-1], "bot")
    assert bot.decisions == 0 and isinstance(decision.bot, BusyBot)  # it thought elsewhere
    assert decision.bot.decisions == 1 and decision.cpu > 0


def test_the_event_loop_stays_responsive_while_a_bot_thinks() -> None:
    observation, legal = _position()

    async def main() -> tuple[int, str]:
        ticks = 0
        thinker = Thinker(1, budget=30)
        await thinker.decide(GAME, BusyBot(0.0), observation, legal, random.Random())  # warm
        thinking = asyncio.ensure_future(
            thinker.decide(GAME, BusyBot(1.0), observation, legal, random.Random())
        )
        while not thinking.done():
            await asyncio.sleep(0.01)
            ticks += 1
        return ticks, (await thinking).how

    ticks, how = run(bounded(main(), 20))
    assert how == "bot"
    assert ticks >= 20  # a second of thinking, and the loop kept turning (10 ms naps)


def test_bad_pool_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="bot workers must be 0"):
        Thinker(-1)
    with pytest.raises(ValueError, match="budget must be positive"):
        Thinker(1, budget=0)


def test_a_table_whose_computer_overruns_plays_greedy_and_goes_on(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    players = [{"kind": "bot", "bot": "expert"}]
    match = store.create_match("s", GAME, {}, players, "00" * 32, [""])
    data = store.load_match(match.id)
    assert data is not None

    async def main() -> Table:
        table = Table(store, data, bot_delay=0, thinker=Thinker(1, budget=0.05))
        table.bots[0] = SlowBot(0.5)
        table.start()
        async with asyncio.timeout(60):
            while not table.over:
                await asyncio.sleep(0.05)
        await table.stop()
        return table

    table = run(main())
    stored = store.load_match(match.id)
    assert stored is not None and table.over and len(stored.log) == table.version > 5
    # Every move the slow bot had to choose was the greedy bot's choice, played in its place.
    game = find_game(GAME)
    state = game.new_state(game.options({}), 1, table.seed)
    for version, (seat, raw) in enumerate(stored.log):
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            rng = random.Random(derive(table.seed, "bot", version, seat))
            greedy = make_bot(GAME, "greedy").choose(state.observation(seat), legal, rng)
            assert raw == greedy.to_json()
        state.apply(seat, game.action_from_json(raw))


def test_a_fallback_without_an_observation_plays_the_first_listed_action() -> None:
    _observation, legal = _position()
    thinker = Thinker(1, budget=0.1)
    decision = run(bounded(thinker.decide(GAME, SlowBot(0.5), {}, legal, random.Random()), 5))
    assert (decision.action, decision.how) == (legal[0], "fallback")


ORPHAN_SCRIPT = """
import asyncio, os, random, sys
from meldhall.games.registry import find_game
from meldhall.tables.thinking import Thinker
game = find_game("okey-cards")
state = game.new_state(game.options({}), 1, b"thinking")
from meldhall.bots.base import make_bot
thinker = Thinker(1, budget=30)
decision = asyncio.run(thinker.decide(
    "okey-cards", make_bot("okey-cards", "expert"), dict(state.observation(0)),
    state.legal_actions(0), random.Random()))
print(decision.how, *thinker.pids(), flush=True)
os._exit(0)  # no clean shutdown: as a killed server ends
"""


def test_a_worker_ends_when_its_server_process_dies() -> None:
    done = subprocess.run(
        [sys.executable, "-c", ORPHAN_SCRIPT], capture_output=True, text=True, timeout=120
    )
    how, *pids = done.stdout.split()
    assert how == "bot" and pids
    for _ in range(100):  # the worker checks its parent every second
        if not any(Path(f"/proc/{pid}").exists() for pid in pids):
            break
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in pids)

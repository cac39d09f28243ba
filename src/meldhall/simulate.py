"""Whole matches between bots: the engine loop shared by ``simulate``, benches and tests."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from meldhall.core.engine import Bot, Game, Outcome
from meldhall.core.errors import EngineBug
from meldhall.core.replay import LogEntry
from meldhall.core.rng import derive


@dataclass
class MatchRun:
    """What one simulated match did."""

    outcome: Outcome | None
    actions: int
    hands: int
    events: dict[str, int] = field(default_factory=dict)
    log: list[LogEntry] = field(default_factory=list)
    """Every action of the match with its seat (kept only when asked with ``record``)."""


def play_match(
    game: Game,
    bots: Sequence[Bot],
    seed: bytes,
    options: object | None = None,
    *,
    check: bool = False,
    max_actions: int = 200_000,
    stop_after_hands: int | None = None,
    record: bool = False,
) -> MatchRun:
    """Return the run of one match in which seat i is played by ``bots[i]``.

    With ``check`` every step also verifies the engine's invariants and that the chosen
    action was listed; a broken one raises ``EngineBug``. ``stop_after_hands`` ends the run
    after that many hands (benches that count hands). With ``record`` the run keeps its log.
    """
    opts = options if options is not None else game.options()
    state = game.new_state(opts, len(bots), seed)
    rng = random.Random(derive(seed, "bots"))
    actions = hands = 0
    events: dict[str, int] = {}
    log: list[LogEntry] = []
    while state.outcome() is None:
        movers = sorted(state.to_act())
        if not movers:
            raise EngineBug(f"{game.id}: nobody may act but the match is not over")
        seat = movers[0]
        legal = state.legal_actions(seat)
        if not legal:
            raise EngineBug(f"{game.id}: seat {seat} must act but has no legal action")
        bot = bots[seat]
        obs = state.observation(seat) if bot.needs_observation else {}
        action = bot.choose(obs, legal, rng)
        if check and action not in legal:
            raise EngineBug(f"{game.id}: bot chose {action}, which is not listed")
        if record:
            log.append((seat, action))
        for event in state.apply(seat, action):
            events[event.kind] = events.get(event.kind, 0) + 1
            if event.kind == "hand_over":
                hands += 1
        if check:
            state.check_invariants()
        actions += 1
        if actions > max_actions:
            raise EngineBug(f"{game.id}: match did not end within {max_actions} actions")
        if stop_after_hands is not None and hands >= stop_after_hands:
            break
    return MatchRun(state.outcome(), actions, hands, events, log)


def run_many(
    game: Game,
    bot_factories: Sequence[Callable[[], Bot]],
    games: int,
    seed_text: str,
    *,
    check: bool = False,
    options: object | None = None,
    on_done: Callable[[int, MatchRun], None] | None = None,
    stop_after_hands: int | None = None,
    record: bool = False,
) -> tuple[list[MatchRun], float]:
    """Return every run of ``games`` seeded matches and the seconds they took."""
    runs: list[MatchRun] = []
    start = time.perf_counter()
    for i in range(games):
        bots = [make() for make in bot_factories]
        run = play_match(
            game,
            bots,
            derive(seed_text.encode(), "match", i),
            options,
            check=check,
            stop_after_hands=stop_after_hands,
            record=record,
        )
        runs.append(run)
        if on_done is not None:
            on_done(i, run)
    return runs, time.perf_counter() - start

"""The conformance suite of the engine contract, run for every registered game.

Each check plays seeded random matches through the public protocol only and raises
``AssertionError`` with the seed and step on the first violation:

- every listed action applies; an action not listed now (one listed at an earlier step, or
  for another seat) raises ``IllegalAction`` and leaves the state unchanged, unless the game
  says it lists only some of its legal actions (``lists_every_legal_action = False``, e.g.
  tile-rummy's rearrangements): then what it lists must apply, a subset of what it accepts;
- an object that is no action of the game, or an action with a field out of range (a tile id
  past the last tile, a negative index), raises ``IllegalAction`` and never another
  exception, leaving the state unchanged;
- actions round-trip through their text and JSON forms; observations are JSON;
- replaying the log gives an identical state;
- an observation does not change when the tiles hidden from that viewer are reshuffled;
- matches end within a bound, with the engine's invariants intact at every step.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from meldhall.core.engine import Action, Game, Seat, State
from meldhall.core.errors import IllegalAction
from meldhall.core.replay import replay
from meldhall.core.rng import derive


@dataclass
class Played:
    """A played (possibly unfinished) match: its final state and its log."""

    state: State
    log: list[tuple[Seat, Action]]
    seed: bytes
    options: object


def play_random(
    game: Game,
    seed_text: str,
    *,
    seats: int | None = None,
    options: object | None = None,
    max_actions: int = 20_000,
    probe_every: int = 0,
    stop_at: int | None = None,
    max_hands: int | None = 2,
) -> Played:
    """Return a match played by uniform random choices among the listed actions.

    With ``probe_every`` = k > 0, at every k-th step every listed action is applied to a copy
    (it must apply) and unlisted candidates are tried on the real state (they must raise
    ``IllegalAction`` and change nothing). ``stop_at`` returns the match unfinished after
    that many actions, ``max_hands`` after that many hands (a random match may be long, but
    each hand must end within ``max_actions``).
    """
    n = seats or game.default_seats
    opts = options if options is not None else game.options()
    seed = derive(seed_text.encode(), "conformance")
    state = game.new_state(opts, n, seed)
    rng = random.Random(seed_text)
    sampler = random.Random(f"{seed_text}/probe")  # its own stream: play stays as it was
    log: list[tuple[Seat, Action]] = []
    seen: list[Action] = []
    listed: list[Action] = []
    step = hands = hand_start = 0
    while state.outcome() is None and (stop_at is None or step < stop_at):
        movers = sorted(state.to_act())
        assert movers, f"{game.id} {seed_text} step {step}: nobody to act, match not over"
        seat = movers[rng.randrange(len(movers))]
        legal = state.legal_actions(seat)
        assert legal, f"{game.id} {seed_text} step {step}: seat {seat} to act without actions"
        assert len(set(legal)) == len(legal), f"{game.id}: duplicate legal actions {legal}"
        if probe_every and step % probe_every == 0:
            _probe(game, state, seat, legal, seen + listed, f"{game.id} {seed_text} step {step}")
        listed += sampler.sample(legal, min(3, len(legal)))
        del listed[: max(0, len(listed) - 24)]
        action = legal[rng.randrange(len(legal))]
        seen.append(action)
        if len(seen) > 64:
            del seen[: len(seen) - 64]
        events = state.apply(seat, action)
        state.check_invariants()
        log.append((seat, action))
        step += 1
        if any(e.kind == "hand_over" for e in events):
            hands += 1
            hand_start = step
            if max_hands is not None and hands >= max_hands:
                break
        assert step - hand_start <= max_actions, (
            f"{game.id} {seed_text}: a hand did not end within {max_actions} actions"
        )
    return Played(state, log, seed, opts)


def _probe(
    game: Game, state: State, seat: Seat, legal: tuple[Action, ...], seen: list[Action], where: str
) -> None:
    for action in legal:
        assert game.parse_action(str(action)) == action, f"{where}: text form of {action}"
        data = json.loads(json.dumps(action.to_json()))
        assert game.action_from_json(data) == action, f"{where}: JSON form of {action}"
        trial = copy.deepcopy(state)
        try:
            trial.apply(seat, action)
        except IllegalAction as exc:  # pragma: no cover - the assertion reports it
            raise AssertionError(f"{where}: listed action {action} was rejected: {exc}") from exc
    others: list[tuple[Seat, Action]] = [(seat, a) for a in seen if a not in legal]
    for other in range(state.seats):
        if other == seat:
            continue
        others += [(other, a) for a in state.legal_actions(other) if a in legal][:3]
        others += [(other, a) for a in legal[:2] if other not in state.to_act()]
    before = state.snapshot()
    every = getattr(game, "lists_every_legal_action", True)
    for who, action in others[:16]:
        if action in state.legal_actions(who):
            continue
        if not every:  # accepted or refused, but never another exception
            with contextlib.suppress(IllegalAction):
                copy.deepcopy(state).apply(who, action)
            continue
        try:
            state.apply(who, action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{where}: unlisted {action} by seat {who} was accepted")
        assert state.snapshot() == before, f"{where}: rejected {action} changed the state"
    _probe_malformed(state, seat, legal, where)


def _probe_malformed(state: State, seat: Seat, legal: tuple[Action, ...], where: str) -> None:
    """Assert that objects of no action kind and actions with out-of-range fields raise
    ``IllegalAction`` (never another exception) and change nothing."""
    before = state.snapshot()
    kinds: dict[type, Action] = {}
    for action in legal:
        kinds.setdefault(type(action), action)
    bad: list[object] = [object(), "draw", None]
    for action in kinds.values():
        bad += list(out_of_range(action))[:4]
    for thing in bad:
        try:
            state.apply(seat, thing)  # type: ignore[arg-type]
        except IllegalAction:
            pass
        except Exception as exc:  # pragma: no cover - the assertion reports it
            raise AssertionError(f"{where}: malformed {thing!r} raised {exc!r}") from exc
        else:
            raise AssertionError(f"{where}: malformed {thing!r} was accepted")
        assert state.snapshot() == before, f"{where}: malformed {thing!r} changed the state"


def out_of_range(action: Any) -> Iterator[Any]:
    """Yield copies of a dataclass action with one field out of range: a whole number made
    huge or negative, a huge id added to a tuple of numbers, the same inside a nested
    action (a use, a meld); copies that cannot be built are left out."""
    if not dataclasses.is_dataclass(action) or isinstance(action, type):
        return
    for f in dataclasses.fields(action):
        if not f.init:
            continue
        value = getattr(action, f.name)
        variants: list[Any] = []
        if isinstance(value, int) and not isinstance(value, bool):
            variants = [10**6, -1]
        elif isinstance(value, tuple) and all(isinstance(v, int) for v in value):
            variants = [(*value, 10**6)]
        elif isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
            variants = [(bad, *value[1:]) for bad in out_of_range(value[0])]
        elif dataclasses.is_dataclass(value):
            variants = list(out_of_range(value))
        for variant in variants:
            try:
                yield dataclasses.replace(action, **{f.name: variant})
            except Exception:  # a field check refused to build it: nothing to probe
                continue


def check_replay(game: Game, played: Played) -> None:
    """Assert that replaying the log rebuilds exactly the same state."""
    again = replay(game, played.options, played.state.seats, played.seed, played.log)
    assert again.snapshot() == played.state.snapshot(), f"{game.id}: replay differs"


def check_observations(game: Game, state: State, rng: random.Random) -> None:
    """Assert that observations are JSON and blind to a reshuffle of what they hide."""
    viewers: list[Seat | None] = [*range(state.seats), None]
    for viewer in viewers:
        obs = state.observation(viewer)
        assert json.loads(json.dumps(obs)) == obs, f"{game.id}: observation is not plain JSON"
        other = state.shuffled_hidden(viewer, rng)
        assert other.observation(viewer) == obs, (
            f"{game.id}: observation of {viewer} changes when hidden tiles are reshuffled"
        )
        if viewer is not None:
            assert other.legal_actions(viewer) == state.legal_actions(viewer), (
                f"{game.id}: legal actions of {viewer} depend on hidden tiles"
            )

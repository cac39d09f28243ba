"""A full ceiling for tournaments: a strong bot that reads the whole true state, the order of
the stock or wall included, and looks at how the rest of the hand really goes.

``ClairvoyantCeiling`` (docs/bots.md, "Ceiling") plays as the game's strong bot, except that
at a decision with a choice it takes the strong bot's few best moves (its first choice, then
its choice with that move struck out, and so on) and plays each out in a copy of the true
state to the end of the hand, every seat as the game's ``greedy`` bot (which is what the
tournament seats against it, so the opponents' answers are foreseen, not guessed), the draws
coming from the real stock or wall. It keeps the move whose hand ends best for it (its match
score against the others'), the strong bot's own choice unless another is strictly better.
So it knows what it will draw, what the others will draw and take, and who closes when: no
honest bot can know more, which makes its first-place share the bound the issue asks for
(a bound for the moves it looks at: a wider look could only raise it).

It cheats, so only the tournament seats it (``see_state``), never a table.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence

from meldhall.core.engine import JSON, Action, Bot, State
from meldhall.core.errors import IllegalAction

ROLLOUT_ACTIONS = 3_000
"""A rollout that has not ended its hand after this many actions stops there and is judged
as it stands (greedy hands end in 70-240 actions; one this long is stuck)."""


def hand_value(state: State, seat: int, higher_is_better: bool) -> float:
    """Return how well the match stands for ``seat``: its match score less the mean of the
    best other score and the others' average (in the game's direction, so more is better)."""
    scores = state.observation(seat)["match_scores"]
    assert isinstance(scores, list)
    sign = 1 if higher_is_better else -1
    mine = sign * float(scores[seat])
    others = [sign * float(v) for s, v in enumerate(scores) if s != seat]
    if not others:
        return mine
    return mine - (max(others) + sum(others) / len(others)) / 2


def play_out(state: State, seat: int, models: Sequence[Bot], higher_is_better: bool) -> float:
    """Return ``hand_value`` for ``seat`` once ``state`` (a copy, changed in place) has been
    played to the end of its hand (or of the match) with ``models[s]`` choosing for seat
    ``s``."""
    rng = random.Random(0)
    for _ in range(ROLLOUT_ACTIONS):
        if state.outcome() is not None:
            break
        movers = sorted(state.to_act())
        if not movers:
            break
        mover = movers[0]
        legal = state.legal_actions(mover)
        model = models[mover]
        obs = state.observation(mover) if model.needs_observation else {}
        try:
            events = state.apply(mover, model.choose(obs, legal, rng))
        except IllegalAction:
            # An engine may list a move its own checks refuse: the rollout is judged as it
            # stands.
            break
        if any(e.kind == "hand_over" for e in events):
            break
    return hand_value(state, seat, higher_is_better)


class ClairvoyantCeiling:
    """The strong bot with the true future of the hand in view (module docstring)."""

    needs_observation = True

    def __init__(
        self,
        strong: Bot,
        model: Callable[[], Bot],
        higher_is_better: bool,
        candidates: int = 3,
        worth_searching: Callable[[Sequence[Action]], bool] | None = None,
    ) -> None:
        """``strong``: the bot that proposes moves (and decides when no state was seen);
        ``model``: a new bot that plays every seat of a rollout (the opponents' greedy);
        ``higher_is_better``: the game's score direction; ``candidates``: how many of the
        strong bot's best moves are played out; ``worth_searching``: which decisions are
        searched (all with two moves or more when None)."""
        if candidates < 1:
            raise ValueError(f"candidates must be at least 1, got {candidates}")
        self.strong = strong
        self.model = model
        self.higher_is_better = higher_is_better
        self.candidates = candidates
        self.worth_searching = worth_searching
        self.state: State | None = None

    def see_state(self, state: State) -> None:
        """Remember the true state of the coming decision (and pass it to the strong bot when
        it is a cheating bot too)."""
        self.state = state
        see = getattr(self.strong, "see_state", None)
        if see is not None:
            see(state)

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the move among the strong bot's best few whose hand, played out on the true
        state, ends best (the strong bot's choice when no state was seen or nothing is to
        choose)."""
        state, self.state = self.state, None
        searched = self.worth_searching is None or self.worth_searching(legal)
        if state is None or len(legal) < 2 or not searched:
            return self.strong.choose(observation, legal, rng)
        keep_shared = {id(state): state}
        before = copy.deepcopy(self.strong, keep_shared)
        first = self.strong.choose(observation, legal, rng)
        moves = [first]
        rest = [a for a in legal if a != first]
        while rest and len(moves) < self.candidates:
            probe = copy.deepcopy(before, dict(keep_shared))
            try:
                move = probe.choose(observation, tuple(rest), random.Random(len(moves)))
            except Exception:
                # A bot may rely on the shape of a full list (tile-rummy's greedy finds no
                # discard among what is left): the moves found so far are the candidates.
                break
            if move not in rest:
                break
            moves.append(move)
            rest.remove(move)
        if len(moves) < 2:
            return first
        seat = observation["seat"]
        assert isinstance(seat, int)
        best, best_value = first, -float("inf")
        for move in moves:
            world = state.clone()  # type: ignore[attr-defined]
            events = world.apply(seat, move)
            models = [self.model() for _ in range(world.seats)]
            if any(e.kind == "hand_over" for e in events) or world.outcome() is not None:
                value = hand_value(world, seat, self.higher_is_better)
            else:
                value = play_out(world, seat, models, self.higher_is_better)
            if value > best_value:
                best, best_value = move, value
        return best  # the strong bot remembers its own choice (a bot may keep plans)

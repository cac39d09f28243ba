"""After-match review and hints: the strong computer player judges a seat's decisions.

For every decision of the seat that had a choice, the game's strongest bot is asked what it
would have played from that seat's observation alone (never the true state). Where it prefers
another move, both moves are played out in the same worlds sampled from the observation
(``GAME.sample``), each followed by the game's greedy bots to the end of the hand, and the
difference of the seat's score change is the estimated loss. A game without a sampler still
gets the agreement, with the loss not estimated.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from meldhall.bots.base import make_bot, strongest_bot_name
from meldhall.bots.search import Budget, rollout_values
from meldhall.core.engine import JSON, Action, Bot, Game, Seat, State
from meldhall.core.matchfile import MatchFile, start_state
from meldhall.core.rng import derive

REVIEW_BUDGET = Budget(seconds=0.25, min_rounds=6, max_rounds=48)
"""What one disputed decision may cost: worlds sampled for the two moves compared."""

MAX_PLAYOUT_ACTIONS = 4_000
"""A play-out that has not finished its hand after this many actions is cut there."""


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat: what it played and what the strong bot prefers."""

    step: int
    """The index of the action in the match's log."""
    hand: int
    options: int
    """How many legal actions the seat had."""
    played: str
    best: str
    loss: float | None = None
    """The estimated score the played move gave away against ``best`` (0 when they agree;
    None where the game has no sampler to estimate it)."""
    worlds: int = 0
    """How many sampled worlds the estimate rests on."""

    @property
    def agrees(self) -> bool:
        """Return whether the seat played the strong bot's move."""
        return self.played == self.best

    def to_json(self) -> dict[str, JSON]:
        """Return the decision's JSON form."""
        return {
            "step": self.step,
            "hand": self.hand,
            "options": self.options,
            "played": self.played,
            "best": self.best,
            "agrees": self.agrees,
            "loss": None if self.loss is None else round(self.loss, 3),
            "worlds": self.worlds,
        }


@dataclass(frozen=True)
class Review:
    """A seat's decisions in one match and what the strong bot thought of them."""

    game: str
    seat: Seat
    bot: str
    decisions: tuple[Decision, ...] = field(default_factory=tuple)

    @property
    def agreement(self) -> float:
        """Return the share of decisions (0-100) in which the seat played the bot's move."""
        if not self.decisions:
            return 100.0
        return 100.0 * sum(d.agrees for d in self.decisions) / len(self.decisions)

    def biggest_losses(self, count: int = 3) -> list[Decision]:
        """Return the ``count`` decisions with the largest estimated loss, largest first."""
        estimated = [d for d in self.decisions if d.loss is not None and d.loss > 0]
        return sorted(estimated, key=lambda d: -(d.loss or 0.0))[:count]

    def summary_line(self) -> str:
        """Return the closing line ``review: N decisions, A % agree with strong, biggest loss
        X``."""
        top = self.biggest_losses(1)
        biggest = f"{top[0].loss:.2f} at step {top[0].step}" if top else "none"
        return (
            f"review: {len(self.decisions)} decisions, {self.agreement:.1f} % agree with "
            f"{self.bot}, biggest loss {biggest}"
        )

    def to_json(self) -> dict[str, JSON]:
        """Return the review's JSON form (what is stored with the match)."""
        return {
            "game": self.game,
            "seat": self.seat,
            "bot": self.bot,
            "agreement": round(self.agreement, 2),
            "biggest": [d.step for d in self.biggest_losses()],
            "decisions": [d.to_json() for d in self.decisions],
        }


def score_of(state: State, seat: Seat, higher_is_better: bool) -> float:
    """Return the seat's match score as the review compares it (negated where lower wins)."""
    score = float(state.observation(seat)["match_scores"][seat])
    return score if higher_is_better else -score


def greedy_play_out(game: Game, seat: Seat) -> Callable[[State, random.Random], float]:
    """Return a play-out: every seat plays the game's greedy bot to the end of the current
    hand; the value is the seat's score change (sign by ``game.higher_is_better``)."""

    def run(world: State, rng: random.Random) -> float:
        before = score_of(world, seat, game.higher_is_better)
        bots = [make_bot(game.id, "greedy") for _ in range(world.seats)]
        for _ in range(MAX_PLAYOUT_ACTIONS):
            movers = sorted(world.to_act())
            if not movers:
                break
            mover = movers[0]
            legal = world.legal_actions(mover)
            action = bots[mover].choose(world.observation(mover), legal, rng)
            if any(e.kind == "hand_over" for e in world.apply(mover, action)):
                break
        return score_of(world, seat, game.higher_is_better) - before

    return run


def estimate_loss(
    game: Game,
    observation: Mapping[str, JSON],
    played: Action,
    best: Action,
    rng: random.Random,
    budget: Budget = REVIEW_BUDGET,
) -> tuple[float | None, int]:
    """Return the estimated value ``best`` has over ``played`` from an observation, and the
    worlds it rests on ((None, 0) when the game has no sampler)."""
    sample = getattr(game, "sample", None)  # a declaration without a sampler cannot estimate
    if sample is None:
        return None, 0
    seat = observation["seat"]
    values = rollout_values(
        observation, [played, best], sample, greedy_play_out(game, seat), rng, budget
    )
    return statistics.fmean(values[1]) - statistics.fmean(values[0]), len(values[0])


def review_match(
    file: MatchFile,
    game: Game,
    seat: Seat,
    *,
    budget: Budget = REVIEW_BUDGET,
    on_progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Return the review of one seat's decisions in a match file (``on_progress(done, total)``
    after each action replayed)."""
    name = strongest_bot_name(game.id)
    bot = make_bot(game.id, name)
    rng = random.Random(derive(file.match_seed(), "review", seat))
    state = start_state(file, game)
    decisions: list[Decision] = []
    hand = 1
    for index, (actor, action) in enumerate(file.log):
        if actor == seat:
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                decisions.append(
                    _judge(game, state, seat, legal, action, index, hand, bot, rng, budget)
                )
        events = state.apply(actor, action)
        hand += sum(1 for e in events if e.kind == "hand_over")
        if on_progress is not None:
            on_progress(index + 1, len(file.log))
    return Review(game.id, seat, name, tuple(decisions))


def _judge(
    game: Game,
    state: State,
    seat: Seat,
    legal: Sequence[Action],
    played: Action,
    index: int,
    hand: int,
    bot: Bot,
    rng: random.Random,
    budget: Budget,
) -> Decision:
    observation = state.observation(seat)
    best = bot.choose(observation, tuple(legal), rng)
    if best == played:
        return Decision(index, hand, len(legal), str(played), str(best), 0.0)
    loss, worlds = estimate_loss(game, observation, played, best, rng, budget)
    return Decision(index, hand, len(legal), str(played), str(best), loss, worlds)


@dataclass(frozen=True)
class Hint:
    """The strong bot's move for a seat, with what it is worth against the plain greedy
    move (``margin``: estimated score over it, None when they agree or it cannot be
    estimated)."""

    action: Action
    bot: str
    alternative: Action | None = None
    margin: float | None = None
    worlds: int = 0

    def to_json(self) -> dict[str, JSON]:
        """Return the hint's JSON form: the action (JSON and text) and its numbers."""
        return {
            "action": self.action.to_json(),
            "text": str(self.action),
            "bot": self.bot,
            "alternative": None if self.alternative is None else str(self.alternative),
            "margin": None if self.margin is None else round(self.margin, 2),
            "worlds": self.worlds,
        }


def hint(
    game: Game,
    observation: Mapping[str, JSON],
    legal: tuple[Action, ...],
    rng: random.Random,
    budget: Budget = REVIEW_BUDGET,
) -> Hint:
    """Return the strong bot's move for the observation's seat, judged from the observation
    alone: where the greedy bot would play another move, the margin between the two."""
    name = strongest_bot_name(game.id)
    best = make_bot(game.id, name).choose(observation, legal, rng)
    plain = make_bot(game.id, "greedy").choose(observation, legal, rng)
    if plain == best:
        return Hint(best, name)
    margin, worlds = estimate_loss(game, observation, plain, best, rng, budget)
    return Hint(best, name, plain, margin, worlds)

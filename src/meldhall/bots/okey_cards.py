"""Bots for okey-cards: ``random``, ``greedy`` and ``expert``.

Every bot decides, at each turn, which held cards to keep for the next draw (see
``meldhall.games.okey_cards.planner``) and then carries the plan out one action at a time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from meldhall.bots.okey_cards_lookahead import lookahead_keep
from meldhall.bots.okey_cards_values import ModelValues
from meldhall.core.engine import JSON, Action, Bot
from meldhall.games.okey_cards.pieces import cards_of
from meldhall.games.okey_cards.planner import (
    HAND_LIMIT,
    Position,
    draw_size,
    next_action,
    popcount,
    position_of,
    triples_of_card,
)
from meldhall.games.okey_cards.scoring import best_triple, triple_points


class _PlanningBot:
    """Keeps a plan (the cards to keep) until the draw, recomputing it when the position
    moves off the plan."""

    needs_observation = True

    def __init__(self) -> None:
        self._plan: tuple[int, int, int] | None = None  # (held, unseen, keep)

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the next action of the current plan."""
        pos = position_of(observation)
        plan = self._plan
        if plan is None or not _on_plan(pos, plan):
            plan = (pos.held, pos.unseen, self.keep(pos, rng))
            self._plan = plan
        return next_action(pos, plan[2], legal)

    def keep(self, pos: Position, rng: random.Random) -> int:
        """Return the held cards to keep for the next draw."""
        raise NotImplementedError


def _on_plan(pos: Position, plan: tuple[int, int, int]) -> bool:
    held, unseen, keep = plan
    return pos.unseen == unseen and pos.held & ~held == 0 and keep & ~pos.held == 0


class RandomBot(_PlanningBot):
    """Plays a random valid triple when it holds one, otherwise draws when it can, otherwise
    discards a random card (so games look real); never quits while something can score."""

    def keep(self, pos: Position, rng: random.Random) -> int:
        """Return the held cards to keep: all but a random triple or a random card."""
        triples = [t for t, _ in triple_points(pos.table) if t & pos.held == t]
        if triples:
            return pos.held & ~rng.choice(triples)
        if draw_size(pos.held, pos.unseen, pos.single_draw) or not pos.unseen:
            return pos.held
        return pos.held & ~(1 << rng.choice(cards_of(pos.held)))


def usefulness(card: int, pos: Position) -> float:
    """Return how much ``card`` may still score: the points of every triple holding it that
    can still be completed, weighted by how many of its cards are already held."""
    remaining = pos.held | pos.unseen
    total = 0.0
    for t, value in triples_of_card(pos.table)[card]:
        if t & remaining == t:
            total += value * (4.0 ** popcount(t & pos.held))
    return total


class GreedyBot(_PlanningBot):
    """Plays the best triple it holds at once; otherwise draws, or discards the least
    useful card."""

    def keep(self, pos: Position, rng: random.Random) -> int:
        """Return the held cards to keep: all but the best triple or the least useful card."""
        triple, _ = best_triple(pos.held, pos.table)
        if triple:
            return pos.held & ~triple
        if popcount(pos.held) < HAND_LIMIT or not pos.unseen:
            return pos.held
        worst = min(cards_of(pos.held), key=lambda c: (usefulness(c, pos), c))
        return pos.held & ~(1 << worst)


class ExpertBot(_PlanningBot):
    """Maximises the expected final score: each turn it values every choice of cards to keep
    by the expected points still to come, exactly (expectimax over every draw) when at most
    three cards are unseen; before that the value model fitted by backward induction ranks
    the choices and the best five are valued one draw further (``okey_cards_lookahead``:
    +12.3 [8.7, 16.0] points a game over the model alone, 300 paired decks, docs/bots.md)."""

    def __init__(self) -> None:
        super().__init__()
        self.values: ModelValues | None = None

    def __getstate__(self) -> dict[str, object]:
        """Return the state a pool worker sends back: the plan, not the value memo (rebuilt
        at the next decision), so the bot stays small to pickle."""
        state = dict(self.__dict__)
        state["values"] = None
        return state

    def keep(self, pos: Position, rng: random.Random) -> int:
        """Return the held cards to keep: the decision of highest expected value."""
        if self.values is None or self.values.table != pos.table:
            self.values = ModelValues(pos.table)
        return lookahead_keep(pos, self.values)


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expert": ExpertBot,
}

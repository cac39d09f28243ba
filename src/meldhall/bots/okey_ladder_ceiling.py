"""Ladder Okey's full ceiling (docs/bots.md, "Ceiling"): ``ClairvoyantCeiling`` over the
strong bot, with the work of a turn bounded.

A recall undoes the turn's provisional melds and leads back to the position before them, and
a returned wrong discard leaves the position as it was but for the penalty: a search that
judges such a move better by its rollouts once judges it better again, and lays and recalls
the same opening without end (its first five deals did not finish in 14 minutes, the
combination ids climbing past 10,000). So the ceiling weighs a RECALL only when no DISCARD is
listed, and once it has recalled in a turn, or searched ``SEARCHES_PER_TURN`` decisions of
it, the strong bot plays the rest of that turn.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from meldhall.bots.clairvoyant import ClairvoyantCeiling
from meldhall.core.engine import JSON, Action
from meldhall.games.okey_ladder.actions import Discard, Recall

SEARCHES_PER_TURN = 16
"""Decisions of one turn the ceiling searches at most (an opening turn lays a few melds
and discards; more only in a position that repeats)."""


def without_recall(legal: tuple[Action, ...]) -> tuple[Action, ...]:
    """Return ``legal`` without RECALL when a DISCARD is listed (else unchanged)."""
    if any(type(a) is Recall for a in legal) and any(type(a) is Discard for a in legal):
        return tuple(a for a in legal if type(a) is not Recall)
    return legal


class LadderCeiling(ClairvoyantCeiling):
    """The full ceiling of Ladder Okey (module docstring)."""

    turn: tuple[int, int] = (-1, -1)
    searches = 0
    recalled = False

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the full ceiling's choice, or the strong bot's once this turn has had a
        recall or its share of searches."""
        turn = (int(observation["hand_no"]), int(observation["turn"]))
        if turn != self.turn:
            self.turn, self.searches, self.recalled = turn, 0, False
        if self.recalled or self.searches >= SEARCHES_PER_TURN:
            self.state = None
            return self.strong.choose(observation, legal, rng)
        self.searches += 1
        move = super().choose(observation, without_recall(legal), rng)
        self.recalled = type(move) is Recall
        return move

"""Bots for Tile Rummy 500: they see only the observation and the legal actions.

- ``random``: lays down, feeds and rearranges whenever it can (a random one of those moves),
  otherwise draws or, half the time when it may, takes from the discard pile; discards at
  random.
- ``greedy``: the best immediate move by points (see ``GreedyBot``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from meldhall.core.engine import JSON, Action, Bot
from meldhall.games.tile_rummy.actions import Add, Discard, Meld, Rearrange

PLACEMENTS = (Meld, Add, Rearrange)


class RandomBot:
    """Random legal play that still lays down, feeds and goes out when it can."""

    needs_observation = False

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return a random placement if there is one, else a random draw, take or discard."""
        first = legal[0]
        if isinstance(first, Meld | Add | Rearrange):
            placements = [a for a in legal if isinstance(a, PLACEMENTS)]
            return placements[rng.randrange(len(placements))]
        if isinstance(first, Discard):
            return legal[rng.randrange(len(legal))]
        if len(legal) > 1 and rng.random() < 0.5:
            return legal[1 + rng.randrange(len(legal) - 1)]
        return first


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot}

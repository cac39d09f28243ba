"""Bots for Tile Rummy 500: they see only the observation and the legal actions.

- ``random``: lays down, feeds and rearranges whenever it can (a random one of those moves),
  otherwise draws or, half the time when it may, takes from the discard pile; discards at
  random.
- ``greedy``: the best immediate move by points. It places the most points it can in its own
  melds (going out first of all: that collects every other rack), feeds only to go out, takes
  from the pile when the tile it must place is worth more than the load it takes with it,
  and discards the tile that is worth most and helps least: never a Smiley while it holds
  other tiles, and not a tile another player could add to his own meld.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from meldhall.core.engine import JSON, Action, Bot
from meldhall.games.tile_rummy.actions import (
    Add,
    Discard,
    Draw,
    EndRound,
    Meld,
    Rearrange,
    TakeDiscard,
    Use,
)
from meldhall.games.tile_rummy.melds import Shape, accepting
from meldhall.games.tile_rummy.pieces import SMILEY_A, parse_tile, value_table

PLACEMENTS = (Meld, Add, Rearrange)
GOING_OUT = 1000
"""Score of a move that empties the rack: it ends the round and collects every other rack."""
TAKEN_LOAD = 0.3
"""What a greedy bot counts against each point of the extra tiles a take brings."""
DRAW_WORTH = 8.0
"""What a blind draw from the stock is worth to the greedy bot, in points: a take must beat it."""
FEED_COST = 0.5
"""What feeding costs per point: the points go to the meld's owner, half offset by the rack
points the feeder no longer risks."""


class RandomBot:
    """Random legal play that still lays down, feeds and goes out when it can."""

    needs_observation = False

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return a random placement if there is one, else a random draw, take or discard."""
        first = legal[0]
        if isinstance(first, PLACEMENTS):
            placements = [a for a in legal if isinstance(a, PLACEMENTS)]
            return placements[rng.randrange(len(placements))]
        if isinstance(first, Discard):
            return legal[rng.randrange(len(legal))]
        if len(legal) > 1 and rng.random() < 0.5:
            return legal[1 + rng.randrange(len(legal) - 1)]
        return first


class _View:
    """What a greedy bot reads from one observation."""

    def __init__(self, obs: Mapping[str, JSON]) -> None:
        rules = obs["rules"]
        assert isinstance(rules, dict)
        self.values = value_table(str(rules["tile_values"]), int(rules["smiley_value"]))
        self.wrap = rules["run_wrap"] == "one_end"
        self.seat = obs["seat"]
        hand = obs.get("hand") or []
        assert isinstance(hand, list)
        self.rack = [parse_tile(t) for t in hand]
        melds = obs.get("melds") or []
        assert isinstance(melds, list)
        self.melds = melds
        self.owner: dict[int, int] = {m["id"]: m["owner"] for m in melds}

    def foreign(self) -> set[int]:
        """Return the faces another player's meld would take (a discard that gifts them)."""
        out: set[int] = set()
        for m in self.melds:
            if m["owner"] != self.seat:
                key = m["start"] if m["kind"] == "run" else m["number"]
                out.update(_accepted(m["kind"], key, tuple(m["tiles"]), self.wrap))
        return out


@lru_cache(maxsize=8192)
def _accepted(kind: str, key: int, meld: tuple[str, ...], wrap: bool) -> frozenset[int]:
    """Return the natural faces a meld takes at its ends (or as a set's missing colour)."""
    tiles = [parse_tile(t) for t in meld]
    colour = -1
    if kind == "run":
        colour = next((t >> 1) // 13 for t in tiles if t < SMILEY_A)
    return frozenset(f for f, _ in accepting(Shape(kind, key, colour), tiles, wrap) if f >= 0)


class GreedyBot:
    """The best immediate move by points (see the module docstring)."""

    needs_observation = True
    taken_load = TAKEN_LOAD
    """What a take is charged per point of its extra tiles (a stronger bot may charge less)."""

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the move with the best immediate score."""
        view = _View(observation)
        first = legal[0]
        if isinstance(first, Draw | EndRound):
            return self._draw(view, legal, observation)
        best: Action | None = None
        best_score = 0.0
        for action in legal:
            if isinstance(action, PLACEMENTS):
                score = self._placement(view, action, len(view.rack))
                if score > best_score:
                    best, best_score = action, score
        if best is not None:
            return best
        discards = [a for a in legal if isinstance(a, Discard)]
        foreign = view.foreign()
        return max(discards, key=lambda a: self._discard_score(view, a.tile, foreign))

    def _placement(self, view: _View, use: Use, rack_size: int, taken: Sequence[int] = ()) -> float:
        """Return the points a placement brings the bot (GOING_OUT when it empties the rack,
        counting the ``taken`` pile tiles as rack tiles)."""
        values = view.values
        rack = set(view.rack).union(taken)
        if isinstance(use, Meld):
            placed = [t for t in use.tiles if t in rack]
            score = float(sum(values[t] for t in placed))
        elif isinstance(use, Add):
            placed = [use.tile]
            own = view.owner.get(use.meld) == view.seat
            score = values[use.tile] * (1.0 if own else -FEED_COST)
        else:
            placed = [t for t in use.placed() if t in rack]
            score = float(sum(values[t] for t in placed))
        if len(placed) >= rack_size:
            return GOING_OUT + score
        return score

    def _draw(self, view: _View, legal: tuple[Action, ...], obs: Mapping[str, JSON]) -> Action:
        tokens = obs["pile"]
        assert isinstance(tokens, list)
        pile = [parse_tile(t) for t in tokens]
        best: Action = legal[0]
        best_score = DRAW_WORTH if isinstance(legal[0], Draw) else 0.0
        for action in legal[1:]:
            if not isinstance(action, TakeDiscard):
                continue
            placed = set(_placed(action.use))
            taken = pile[action.index - 1 :]
            load = sum(view.values[t] for t in taken if t not in placed)
            size = len(view.rack) + len(taken)
            score = self._placement(view, action.use, size, taken) - self.taken_load * load
            if score > best_score:
                best, best_score = action, score
        return best

    def _discard_score(self, view: _View, tile: int, foreign: set[int]) -> float:
        """Return how good a discard is: high value, little use to the bot, no gift."""
        if tile >= SMILEY_A:
            return -100.0
        face = tile >> 1
        colour, number = divmod(face, 13)
        help_ = 0
        for other in view.rack:
            if other == tile or other >= SMILEY_A:
                continue
            c, n = divmod(other >> 1, 13)
            if c == colour and 0 < abs(n - number) <= 2:
                help_ += 3 - abs(n - number)
            elif n == number and c != colour:
                help_ += 2
        gift = 10 if face in foreign else 0
        return view.values[tile] - 4 * help_ - gift


def _placed(use: Use) -> list[int]:
    """Return every tile a use puts on the table."""
    if isinstance(use, Meld):
        return list(use.tiles)
    if isinstance(use, Add):
        return [use.tile]
    return use.placed()


def _strong() -> Bot:
    """Return the strong bot (``tile_rummy_strong``; imported late, it builds on this module)."""
    from meldhall.bots.tile_rummy_strong import StrongBot

    return StrongBot()


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "strong": _strong}

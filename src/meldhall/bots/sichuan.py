"""Computer players for Sichuan mahjong. They see the observation and the legal actions
only, never the State, and use the game's pure hand maths (shanten, win check).

- ``random``: uniform among the legal actions, but it always declares a win it is offered
  (so hands end like real ones).
- ``greedy``: the best immediate move by shanten and tile acceptance (the number of unseen
  tiles that bring the hand closer), the missing suit with the fewest tiles, pung and kong
  only when they do not set the hand back, every win; in defence (far from ready while the
  wall runs low or an opponent shows two melds) it discards the safest tile that keeps the
  hand within one step of its best shape. Safety counts the public information: a tile of an
  opponent's missing suit can never complete that opponent's hand, an opponent still
  shedding its missing suit cannot win yet, and tiles whose copies are mostly visible are
  hard to wait on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from meldhall.core.engine import JSON, Action, Bot
from meldhall.core.tiles import parse_kind
from meldhall.games.sichuan.actions import (
    AddedKong,
    ConcealedKong,
    Declare,
    Discard,
    Exchange,
    Kong,
    Pung,
    Win,
)
from meldhall.games.sichuan.hand import KINDS, SHIFT, suit_keys
from meldhall.games.sichuan.pieces import KIND_OF, SEATS, SUIT_LETTER, TOKEN
from meldhall.games.sichuan.shanten import shanten_keys

Counts = list[int]


_KIND_OF_TOKEN: dict[str, int] = {TOKEN[t]: KIND_OF[t] for t in range(108)}


def _kind(token: str) -> int:
    """Return the kind of a tile token (``5p#2``) or face (``5p``)."""
    kind = _KIND_OF_TOKEN.get(token)
    return kind if kind is not None else parse_kind(token)


class RandomBot:
    """Uniform among the legal actions, but always takes a win."""

    needs_observation = False

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return a win when one is legal, else a uniformly random legal action."""
        for action in legal:
            if isinstance(action, Win):
                return action
        return legal[rng.randrange(len(legal))]


class _View:
    """What the greedy bot reads from an observation: its tiles and what is visible."""

    def __init__(self, obs: Mapping[str, Any]) -> None:
        self.seat: int = obs["seat"]
        self.counts: Counts = [0] * KINDS
        for token in obs["hand"]:
            self.counts[_kind(token)] += 1
        miss = obs["missing"][self.seat] or obs.get("my_declaration")
        self.miss = SUIT_LETTER.index(miss) if miss else -1
        own = obs["melds"][self.seat]
        self.melds = len(own)
        self.visible: Counts = list(self.counts)
        for row in obs["discards"]:
            for token in row:
                self.visible[_kind(token)] += 1
        for seat_melds in obs["melds"]:
            for meld in seat_melds:
                for token in meld["tiles"]:
                    self.visible[_kind(token)] += 1
        for win in obs["winners"]:
            for token in win["hand"]:
                self.visible[_kind(token)] += 1
        for win in {w["tile"] for w in obs["winners"]}:
            self.visible[_kind(win)] += 1
        self.wall: int = obs["wall"]
        self.threat = self._threats(obs)

    def _threats(self, obs: Mapping[str, Any]) -> list[float]:
        """Return how dangerous each seat's hand looks (0 for self, winners, pigs)."""
        out = [0.0] * SEATS
        for seat in range(SEATS):
            if seat == self.seat or not obs["active"][seat]:
                continue
            miss = obs["missing"][seat]
            row = obs["discards"][seat]
            if miss and row and row[-1][1] == miss:
                out[seat] = 0.2
                continue
            out[seat] = 1.0 + 0.8 * len(obs["melds"][seat]) + (0.5 if self.wall < 20 else 0.0)
        return out

    def playable(self) -> Counts:
        """Return the counts without missing-suit tiles (they are on their way out)."""
        if self.miss < 0:
            return list(self.counts)
        out = list(self.counts)
        for k in range(9 * self.miss, 9 * self.miss + 9):
            out[k] = 0
        return out

    def danger(self, kind: int, obs: Mapping[str, Any]) -> float:
        """Return the estimated danger of discarding ``kind`` to the active opponents."""
        seen = self.visible[kind]
        if seen >= 4:
            return 0.0
        rank = kind % 9
        base = 0.6 if rank in (0, 8) else 0.8 if rank in (1, 7) else 1.0
        if seen == 3:
            base *= 0.4
        total = 0.0
        for seat in range(SEATS):
            if self.threat[seat] and obs["missing"][seat] != SUIT_LETTER[kind // 9]:
                total += self.threat[seat] * base
        return total


def _shanten(counts: Counts, melds: int) -> int:
    k = suit_keys(counts)
    return shanten_keys(k[0], k[1], k[2], melds)


def _acceptance(counts: Counts, melds: int, miss: int, visible: Counts, current: int) -> int:
    """Return how many unseen tiles would lower the shanten of a 13-slot hand."""
    keys = suit_keys(counts)
    total = 0
    for kind in range(KINDS):
        suit = kind // 9
        if suit == miss or visible[kind] >= 4:
            continue
        trial = list(keys)
        trial[suit] += SHIFT[kind]
        if shanten_keys(trial[0], trial[1], trial[2], melds) < current:
            total += 4 - visible[kind]
    return total


class GreedyBot:
    """Best immediate move by shanten and acceptance, with the defence described above."""

    needs_observation = True

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the greedy choice among ``legal``."""
        for action in legal:
            if isinstance(action, Win):
                return action
        first = legal[0]
        if isinstance(first, Declare):
            return self._declare(observation, legal)
        if isinstance(first, Exchange):
            return self._exchange(observation, legal)
        if any(isinstance(a, Discard) for a in legal):
            return self._turn(observation, legal)
        return self._claim(observation, legal)

    def _declare(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        counts: Counts = [0] * KINDS
        for token in obs["hand"]:
            counts[_kind(token)] += 1

        def cost(action: Action) -> tuple[int, int]:
            assert isinstance(action, Declare)
            suit = counts[9 * action.suit : 9 * action.suit + 9]
            return sum(suit), sum(1 for n in suit if n >= 2)

        return min(legal, key=cost)

    def _exchange(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        counts: Counts = [0] * KINDS
        for token in obs["hand"]:
            counts[_kind(token)] += 1

        def cost(action: Action) -> tuple[int, int]:
            assert isinstance(action, Exchange)
            suit = KIND_OF[action.tiles[0]] // 9
            left = list(counts)
            for t in action.tiles:
                left[KIND_OF[t]] -= 1
            return sum(counts[9 * suit : 9 * suit + 9]), _shanten(left, 0)

        return min(legal, key=cost)

    def _turn(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        view = _View(obs)
        playable = view.playable()
        for action in legal:
            if isinstance(action, (ConcealedKong, AddedKong)):
                after = list(playable)
                after[action.kind] = 0
                if _shanten(after, view.melds + 1) <= _best_discard_shanten(playable, view.melds):
                    return action
        discards: dict[int, Action] = {}
        for action in legal:
            if isinstance(action, Discard):
                discards.setdefault(KIND_OF[action.tile], action)
        scored: list[tuple[int, int, int]] = []
        for kind in discards:
            left = list(playable)
            if left[kind]:
                left[kind] -= 1
            sh = _shanten(left, view.melds)
            scored.append((sh, kind, 0))
        best = min(s for s, _, _ in scored)
        defend = best >= 2 and (view.wall < 24 or max(view.threat) > 2.0)
        if defend:
            pick = min(
                ((view.danger(kind, obs), sh, kind) for sh, kind, _ in scored if sh <= best + 1),
            )
            return discards[pick[2]]
        options: list[tuple[int, float, int]] = []
        for sh, kind, _ in scored:
            if sh != best:
                continue
            left = list(playable)
            if left[kind]:
                left[kind] -= 1
            accept = _acceptance(left, view.melds, view.miss, view.visible, sh)
            options.append((-accept, view.danger(kind, obs), kind))
        return discards[min(options)[2]]

    PUNG_AT_SAME_PACE = False
    """Whether a pung that leaves the hand as far from ready as before is claimed (greedy
    claims only a pung that brings it nearer)."""

    def _claims(self, view: _View, obs: Mapping[str, Any], kind: int) -> bool:
        """Return whether the bot considers claiming the discard of ``kind`` at all."""
        return True

    def _claim(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        window = obs["window"]
        passing = next(a for a in legal if not isinstance(a, (Kong, Pung)))
        if window is None:
            return passing
        view = _View(obs)
        kind = _kind(window["tile"])
        if not self._claims(view, obs, kind):
            return passing
        playable = view.playable()
        now = _shanten(playable, view.melds)
        for action in legal:
            if isinstance(action, Kong):
                after = list(playable)
                after[kind] = 0
                if _shanten(after, view.melds + 1) <= now:
                    return action
        for action in legal:
            if isinstance(action, Pung):
                after = list(playable)
                after[kind] -= 2
                shanten = _best_discard_shanten(after, view.melds + 1)
                if shanten < now or (self.PUNG_AT_SAME_PACE and shanten == now):
                    return action
        return passing


def _best_discard_shanten(counts: Counts, melds: int) -> int:
    """Return the best shanten reachable by discarding one tile of a 14-slot hand."""
    best = 9
    for kind in range(KINDS):
        if counts[kind]:
            counts[kind] -= 1
            best = min(best, _shanten(counts, melds))
            counts[kind] += 1
    return best


def _strong() -> Bot:
    """Return the search bot (``sichuan_strong``; imported late, it builds on this module)."""
    from meldhall.bots.sichuan_strong import StrongBot

    return StrongBot()


def _flush() -> Bot:
    """Return the strong bot (``sichuan_flush``; imported late, it builds on this module)."""
    from meldhall.bots.sichuan_flush import StrongBot

    return StrongBot()


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": _strong,
    "strong": _flush,
}

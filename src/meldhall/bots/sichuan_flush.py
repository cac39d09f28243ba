"""Sichuan's ``strong`` bot: the greedy bot that builds a full flush when its tiles lean to
one suit, and claims pungs that keep its pace (docs/bots.md).

A win pays 2^fan and a full flush (every tile of one suit) adds two fans, four times the
points, so a hand of mostly one suit is worth steering there. It plays like ``greedy``
(bots/sichuan.py) with three changes:

- **Waits by worth**: when two or more discards leave the hand ready, it keeps the waits
  worth most: the unseen copies of each wait times the points the win would score.

- **Flush**: when one playable suit holds at least ``FLUSH_MIN`` of the hand's tiles (and no
  declared meld is of the other suit), it discards a tile of the other playable suit whenever
  that costs at most one step of shanten while it is still ``FLUSH_FAR`` or more steps from
  ready (no step closer to ready), choosing among those as greedy would (acceptance, then
  safety); it claims no pung of the other suit. Defence still comes first when greedy would
  defend.
- **Pace**: a pung (or kong) claimed from a discard is taken when it leaves the hand no
  further from ready than before (greedy asks that it bring the hand closer), except in
  flush mode for the other suit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meldhall.bots.sichuan import (
    GreedyBot,
    _acceptance,
    _kind,
    _shanten,
    _View,
)
from meldhall.core.engine import Action
from meldhall.games.sichuan.actions import AddedKong, ConcealedKong, Discard
from meldhall.games.sichuan.fan import Meld, pattern_fans, points_of
from meldhall.games.sichuan.hand import waits
from meldhall.games.sichuan.pieces import KIND_OF

FLUSH_MIN = 10
"""Tiles of one suit (hand and declared melds) from which the bot plays for a full flush."""

FLUSH_FAR = 3
"""Shanten from which a flush discard may cost one step (closer to ready: none)."""


def flush_suit(view: _View, obs: Mapping[str, Any]) -> int | None:
    """Return the suit the hand plays a full flush in, or None: the playable suit holding at
    least ``FLUSH_MIN`` of its tiles and declared melds, when no meld is of another suit."""
    melds = [_kind(m["tiles"][0]) // 9 for m in obs["melds"][view.seat]]
    playable = view.playable()
    per_suit = [sum(playable[9 * s : 9 * s + 9]) + 3 * melds.count(s) for s in range(3)]
    best = max(range(3), key=lambda s: per_suit[s])
    if best == view.miss or per_suit[best] < FLUSH_MIN:
        return None
    if any(s != best for s in melds):
        return None
    return best


def own_melds(obs: Mapping[str, Any]) -> list[Meld]:
    """Return the seat's declared melds as the fan table reads them (letter, kind)."""
    return [(m["type"], _kind(m["kind"])) for m in obs["melds"][obs["seat"]]]


def wait_value(view: _View, left: Sequence[int], melds: Sequence[Meld], cap: int | None) -> float:
    """Return what a ready 13-slot hand ``left`` is worth: over its waits, the unseen copies
    of the wait times the points the win would score (pattern fans, capped)."""
    total = 0.0
    for kind in waits(left, view.miss, len(melds)):
        unseen = 4 - view.visible[kind]
        if unseen <= 0:
            continue
        trial = list(left)
        trial[kind] += 1
        found = pattern_fans(trial, melds)
        if found is not None:
            total += unseen * points_of(sum(found[1].values()), cap)
    return total


class StrongBot(GreedyBot):
    """``greedy`` with a full flush plan and pace claims (module docstring)."""

    def _turn(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        view = _View(obs)
        ready = self._ready_discard(obs, view, legal)
        if ready is not None:
            return ready
        suit = flush_suit(view, obs)
        if suit is None:
            return super()._turn(obs, legal)
        playable = view.playable()
        if any(isinstance(a, (ConcealedKong, AddedKong)) for a in legal):
            return super()._turn(obs, legal)
        discards: dict[int, Action] = {}
        for action in legal:
            if isinstance(action, Discard):
                discards.setdefault(KIND_OF[action.tile], action)
        if any(k // 9 == view.miss for k in discards) and view.miss >= 0:
            return super()._turn(obs, legal)
        shanten: dict[int, int] = {}
        for kind in discards:
            left = list(playable)
            left[kind] -= 1
            shanten[kind] = _shanten(left, view.melds)
        best = min(shanten.values())
        if best >= 2 and (view.wall < 24 or max(view.threat) > 2.0):
            return super()._turn(obs, legal)
        slack = 1 if best >= FLUSH_FAR else 0
        off = [k for k in discards if k // 9 != suit and shanten[k] <= best + slack]
        if not off:
            return super()._turn(obs, legal)
        options: list[tuple[int, int, float, int]] = []
        for kind in off:
            left = list(playable)
            left[kind] -= 1
            accept = _acceptance(left, view.melds, view.miss, view.visible, shanten[kind])
            options.append((shanten[kind], -accept, view.danger(kind, obs), kind))
        return discards[min(options)[3]]

    def _ready_discard(
        self, obs: Mapping[str, Any], view: _View, legal: Sequence[Action]
    ) -> Action | None:
        """Return, when two or more discards leave the hand ready, the one whose waits are
        worth most (``wait_value``); None otherwise (and when a kong is on offer or a
        missing-suit tile is still held)."""
        if any(isinstance(a, (ConcealedKong, AddedKong)) for a in legal):
            return None
        playable = view.playable()
        if playable != view.counts:
            return None
        melds = own_melds(obs)
        cap = obs["rules"]["fan_cap"]
        cap = cap if isinstance(cap, int) else None
        best: tuple[float, Action] | None = None
        readies = 0
        for action in legal:
            if not isinstance(action, Discard):
                continue
            left = list(playable)
            left[KIND_OF[action.tile]] -= 1
            if _shanten(left, view.melds) != 0:
                continue
            readies += 1
            value = wait_value(view, left, melds, cap)
            if best is None or value > best[0]:
                best = (value, action)
        if readies < 2 or best is None:
            return None
        return best[1]

    PUNG_AT_SAME_PACE = True

    def _claims(self, view: _View, obs: Mapping[str, Any], kind: int) -> bool:
        """Return False for a discard outside the suit of a flush the hand goes for."""
        suit = flush_suit(view, obs)
        return suit is None or kind // 9 == suit

"""The ``strong`` Sichuan bot: the greedy bot's choices, searched where they matter.

Claims (pung or kong offered) and discards with more than one sensible tile are decided by
determinized rollouts (``search``): worlds sampled from the observation alone
(``games.sichuan.sample``), each candidate played in every world and the deal played out by a
fast policy that reads the sampled world's count arrays (it never sees the true state). A win
is always taken; a forced move, the missing-suit declaration and the exchange cost no search.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from meldhall.bots.search import Budget, best_of, rollout_values
from meldhall.bots.sichuan import GreedyBot, _acceptance, _shanten, _View
from meldhall.core.engine import JSON, Action
from meldhall.games.sichuan.actions import (
    DISCARDS,
    KONG,
    PASS,
    PUNG,
    WIN,
    AddedKong,
    ConcealedKong,
    Declare,
    Discard,
    Exchange,
    Kong,
    Pung,
    Win,
)
from meldhall.games.sichuan.hand import SHIFT
from meldhall.games.sichuan.pieces import KIND_OF
from meldhall.games.sichuan.sample import sample
from meldhall.games.sichuan.shanten import shanten_keys
from meldhall.games.sichuan.state import OFFER_KONG, OFFER_PUNG, SichuanState

Z = 1.5
"""Standard errors by which a searched move must beat the greedy one to replace it."""

CANDIDATES = 3
"""Discard kinds searched at most (the greedy bot's best by shanten, then acceptance)."""


def _fast_shanten(keys: Sequence[int], melds: int) -> int:
    return shanten_keys(keys[0], keys[1], keys[2], melds)


def fast_action(state: SichuanState, seat: int, legal: Sequence[Action]) -> Action:
    """Return the rollout policy's move in a sampled world: every win, a pung or kong that
    lowers the shanten, a concealed kong, else the discard leaving the lowest shanten (the
    rarest-neighbour tile among equals)."""
    first = legal[0]
    if first is WIN or isinstance(first, Win):
        return first
    keys = state.keys[seat]
    melds = len(state.melds[seat])
    if state.phase in ("claim", "rob"):
        offer = state.offers.get(seat, 0)
        if offer & (OFFER_PUNG | OFFER_KONG):
            kind = KIND_OF[state.window_tile]
            after = list(keys)
            after[kind // 9] -= 2 * SHIFT[kind]
            if _fast_shanten(after, melds + 1) < _fast_shanten(keys, melds):
                return KONG if offer & OFFER_KONG else PUNG
        return PASS
    if isinstance(first, Declare | Exchange):
        return first
    if isinstance(first, ConcealedKong):
        return first
    counts = state.counts[seat]
    best: tuple[int, int, int] | None = None
    for action in legal:
        if not isinstance(action, Discard):
            continue
        kind = KIND_OF[action.tile]
        if best is not None and kind == best[2]:
            continue
        trial = list(keys)
        trial[kind // 9] -= SHIFT[kind]
        rank = kind % 9
        near = sum(
            counts[kind + d] for d in (-2, -1, 1, 2) if 0 <= rank + d < 9 and counts[kind + d]
        )
        score = (_fast_shanten(trial, melds), near, kind)
        if best is None or score < best:
            best = score
    if best is None:
        return legal[-1]
    kind = best[2]
    tile = next(t for t in state.hands[seat] if KIND_OF[t] == kind)
    return DISCARDS[tile]


def play_out(seat: int) -> Any:
    """Return a rollout function: it plays a sampled world to the end of the current deal by
    ``fast_action`` and returns ``seat``'s running match score (totals plus this deal)."""

    def run(world: SichuanState, rng: random.Random) -> float:
        deal = world.deal_no
        while world.result is None and world.deal_no == deal:
            mover = min(world.to_act())
            legal = world.legal_actions(mover)
            world.apply(mover, fast_action(world, mover, legal))
        if world.result is not None:
            return float(world.result.scores[seat])
        return float(world.totals[seat])

    return run


class StrongBot:
    """Greedy choices, with claims and close discards searched over sampled worlds."""

    needs_observation = True

    def __init__(self, budget: Budget | None = None) -> None:
        self.greedy = GreedyBot()
        self.budget = budget or Budget()

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the searched choice among ``legal`` (the greedy one where nothing is close)."""
        if len(legal) == 1:
            return legal[0]
        greedy = self.greedy.choose(observation, legal, rng)
        if isinstance(greedy, Win | Declare | Exchange):
            return greedy
        candidates = self._candidates(observation, legal, greedy)
        if len(candidates) < 2:
            return greedy
        seat = observation["seat"]
        values = rollout_values(observation, candidates, sample, play_out(seat), rng, self.budget)
        return best_of(candidates, values, Z)

    def _candidates(
        self, obs: Mapping[str, Any], legal: Sequence[Action], greedy: Action
    ) -> list[Action]:
        """Return the greedy choice first, then the other moves worth searching."""
        if obs["window"] is not None:
            claims = [a for a in legal if isinstance(a, Pung | Kong)]
            if not claims:
                return [greedy]
            passing = next(a for a in legal if not isinstance(a, Pung | Kong | Win))
            return list(dict.fromkeys([greedy, passing, *claims]))
        view = _View(obs)
        playable = view.playable()
        out: list[Action] = [greedy]
        out += [a for a in legal if isinstance(a, ConcealedKong | AddedKong) and a != greedy]
        ranked: list[tuple[int, int, Action]] = []
        seen: set[int] = set()
        for action in legal:
            if not isinstance(action, Discard):
                continue
            kind = KIND_OF[action.tile]
            if kind in seen:
                continue
            seen.add(kind)
            left = list(playable)
            if left[kind]:
                left[kind] -= 1
            sh = _shanten(left, view.melds)
            accept = _acceptance(left, view.melds, view.miss, view.visible, sh)
            ranked.append((sh, -accept, action))
        if not ranked:
            return out
        best = min(r[0] for r in ranked)
        close = sorted((r for r in ranked if r[0] == best), key=lambda r: r[1])
        for _, _, action in close:
            if len(out) >= CANDIDATES:
                break
            if isinstance(greedy, Discard) and KIND_OF[greedy.tile] == KIND_OF[action.tile]:  # type: ignore[attr-defined]
                continue
            out.append(action)
        return out

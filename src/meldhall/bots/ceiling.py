"""Cheating bots for tournaments only: they see the true state, so their figure is a
ceiling an honest bot cannot be expected to pass (docs/bots.md). No table ever seats one.

A ceiling bot has ``see_state(state)``, which the tournament calls before every decision
(``meldhall tournament GAME --bots ceiling,greedy,greedy,greedy``). Sichuan's plays as its
``strong`` bot, but never discards a tile any active opponent would win on (it reads their
concealed hands), so it never deals in unless every discard does.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from meldhall.bots.sichuan import _kind
from meldhall.bots.sichuan_flush import StrongBot as SichuanStrong
from meldhall.core.engine import Action, Bot, State
from meldhall.core.errors import MeldhallError
from meldhall.games.registry import find_game, game_ids
from meldhall.games.sichuan.actions import Discard
from meldhall.games.sichuan.hand import KINDS, waits
from meldhall.games.sichuan.pieces import KIND_OF, SUIT_LETTER


def opponents_waits(state: State, seat: int) -> set[int]:
    """Return the tile kinds on which some active opponent of ``seat`` would win, read from
    each opponent's own observation of the true state."""
    out: set[int] = set()
    for other in range(state.seats):
        if other == seat:
            continue
        obs = state.observation(other)
        if not obs["active"][other]:
            continue
        counts = [0] * KINDS
        for token in obs["hand"]:
            counts[_kind(token)] += 1
        miss = obs["missing"][other] or obs.get("my_declaration")
        if not miss:
            continue
        out.update(waits(counts, SUIT_LETTER.index(miss), len(obs["melds"][other])))
    return out


class SichuanCeiling(SichuanStrong):
    """Sichuan's strong bot with perfect defence (see the module docstring)."""

    def __init__(self) -> None:
        self.state: State | None = None

    def see_state(self, state: State) -> None:
        """Remember the true state of the coming decision."""
        self.state = state

    def _turn(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if self.state is None:
            return super()._turn(obs, legal)
        deadly = opponents_waits(self.state, obs["seat"])
        safe = tuple(a for a in legal if not (isinstance(a, Discard) and KIND_OF[a.tile] in deadly))
        if not any(isinstance(a, Discard) for a in safe):
            return super()._turn(obs, legal)
        return super()._turn(obs, safe)


def ceiling_bot(game_id: str) -> Bot:
    """Return a new ceiling bot of a game (its declared ``bots.ceiling``), or raise
    ``MeldhallError`` naming the games that have one."""
    path = find_game(game_id).bots.ceiling
    if path is None:
        having = [g for g in game_ids() if find_game(g).bots.ceiling]
        raise MeldhallError(
            f"{game_id} has no ceiling bot; the games with one: {', '.join(having)}"
        )
    module, name = path.rsplit(".", 1)
    factory: Callable[[], Bot] = getattr(importlib.import_module(module), name)
    return factory()

"""Ladder Okey's ``strong`` bot: the keep-score bot (``okey_ladder_strong``) whose discard
before opening keeps the best chance of opening over the coming draws (docs/bots.md).

An unopened seat pays the whole base, so before opening it judges each discard (one tile a
face) by how many of ``SAMPLES`` sampled futures let it open: each future draws ``DRAWS``
tiles from the tiles it cannot see (the same draws for every candidate, so their luck
cancels), and the hand without the discard plus the draws reaches the need when its best
series (the core solver, exact) or its best pairs reach their requirements. A future whose
whole hand (the discard kept) falls short is short for every candidate, and a candidate the
best arrangement leaves over reaches whenever the whole hand does, so most futures cost one
search. Ties (among them: no future reaches) go to the keep score.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from meldhall.bots.okey_ladder_strong import StrongBot
from meldhall.core.engine import JSON, Action
from meldhall.core.solver import best_pairs, best_partition
from meldhall.games.okey_ladder.actions import Discard
from meldhall.games.okey_ladder.hints import ids
from meldhall.games.okey_ladder.opening import LADDER_RULES, rack_counts
from meldhall.games.okey_ladder.options import parse_ladder_options
from meldhall.games.okey_ladder.pieces import WILD, Jokers, colour_of, number_of
from meldhall.games.okey_ladder.sample import unseen_tiles

DRAWS = 5
"""Tiles each sampled future draws (the hand is judged with all of them at once; 5 beat 3 in
paired tournaments, docs/bots.md)."""

SAMPLES = 24
"""Sampled futures per discard decision before opening."""

_Best = tuple[int, tuple[int, ...]]
"""A best arrangement's value and the face counts it leaves over."""

_CACHE: dict[tuple[bool, int, tuple[int, ...], int], _Best] = {}
_CACHE_LIMIT = 200_000


def best_of(counts: list[int], jokers: int, okey: int, pairs: bool) -> _Best:
    """Return the value of the best series (or, with ``pairs``, pairs) among the faces
    ``counts`` and ``jokers`` real jokers, and the counts it leaves over (cached)."""
    key = (pairs, okey if pairs else -1, tuple(counts), jokers)
    found = _CACHE.get(key)
    if found is not None:
        return found
    if pairs:
        sol = best_pairs(counts, jokers, LADDER_RULES, (colour_of(okey), number_of(okey)))
    else:
        sol = best_partition(counts, jokers, LADDER_RULES, "value")
    if len(_CACHE) > _CACHE_LIMIT:
        _CACHE.clear()
    found = _CACHE[key] = (sol.value, sol.leftover)
    return found


def _reaches(
    counts: list[int], jokers: int, face: int, okey: int, needs: tuple[int, int]
) -> tuple[bool, bool]:
    """Return whether the hand ``counts`` reaches the need (any kind) with all its tiles,
    and without one tile of ``face``."""
    full = False
    for k, need in enumerate(needs):
        value, left = best_of(counts, jokers, okey, k == 1)
        if value < need:
            continue
        full = True
        if left[face]:
            return True, True
        counts[face] -= 1
        value = best_of(counts, jokers, okey, k == 1)[0]
        counts[face] += 1
        if value >= need:
            return True, True
    return full, False


def reach_counts(
    hand: Sequence[int],
    faces: Sequence[int],
    unseen: Sequence[int],
    jokers: Jokers,
    needs: tuple[int, int],
    rng: random.Random,
    samples: int = SAMPLES,
    draws: int = DRAWS,
    raised: Sequence[tuple[int, int]] = (),
) -> list[int]:
    """Return, for each face of ``faces`` (one tile of it discarded from ``hand``), in how
    many of ``samples`` futures of ``draws`` tiles drawn from ``unseen`` the rest of the
    hand with the draws reaches ``needs`` (series, pairs), plus in how many it reaches each
    of the higher ``raised`` needs (series, pairs) as well."""
    out = [0] * len(faces)
    draws = min(draws, len(unseen))
    levels = [needs, *raised]
    for _ in range(samples):
        counts, wild = rack_counts([*hand, *rng.sample(unseen, draws)], jokers.eff)
        for level in levels:
            for i, face in enumerate(faces):
                full, without = _reaches(counts, wild, face, jokers.okey, level)
                if not full:
                    break
                out[i] += without
    return out


class ReachBot(StrongBot):
    """The keep-score bot with its discards before opening judged by sampled futures (module
    docstring)."""

    def __init__(
        self, samples: int = SAMPLES, draws: int = DRAWS, raises: Sequence[int] = ()
    ) -> None:
        super().__init__()
        self.rng = random.Random(0)
        self.samples = samples
        self.draws = draws
        self.raises = tuple(raises)

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the keep-score bot's move, with the discard before opening by reach."""
        self.rng = rng
        return super().choose(observation, legal, rng)

    def _discard(self, obs: Mapping[str, Any], legal: Sequence[Action], jokers: Jokers) -> Action:
        chosen = super()._discard(obs, legal, jokers)
        if type(chosen) is not Discard or obs["laid"] is not None:
            return chosen
        if obs["opened"][obs["seat"]] != "none":
            return chosen
        by_face: dict[int, Discard] = {}
        for d in self._ranked(obs, legal, jokers):
            if jokers.eff[d.tile] != WILD:
                by_face.setdefault(jokers.eff[d.tile], d)
        if len(by_face) < 2:
            return chosen
        faces = list(by_face)
        needs = (obs["need"], obs["pairs_need"])
        options = parse_ladder_options(obs["public"]["rules"])
        reach = reach_counts(
            hand=ids(obs["hand"]),
            faces=faces,
            unseen=unseen_tiles(obs),
            jokers=jokers,
            needs=needs,
            rng=self.rng,
            samples=self.samples,
            draws=self.draws,
            raised=[(n, options.pairs_need(n)) for n in (obs["need"] + r for r in self.raises)],
        )
        best = max(range(len(faces)), key=lambda i: (reach[i], -i))
        return by_face[faces[best]]

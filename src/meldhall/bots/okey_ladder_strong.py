"""Ladder Okey's keep-score bot (the ``strong`` bot before ``okey_ladder_reach``, which builds
on it; scripts name it ``meldhall.bots.okey_ladder_strong:StrongBot``): the greedy bot with
discards aimed at the opening (docs/bots.md).

In 101 a seat that never opens pays the whole base (400-800) while an opened loser pays 10 a
tile, so before opening everything serves the opening: it plays like ``greedy``
(bots/okey_ladder.py) but judges a discard by the tile's live use and its number (an opening
is a sum of numbers, so a loose high tile is worth more than a loose low one,
``NUMBER_WEIGHT``); a partner whose completing tiles are all seen (in the discard piles or on
the table) counts for nothing. After opening only the count of tiles left matters, so it
keeps whatever lays off or combines best, numbers aside.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meldhall.bots.okey_ladder import GreedyBot, _safe_discards, _unblock
from meldhall.core.engine import Action
from meldhall.games.okey_ladder.actions import Discard
from meldhall.games.okey_ladder.hints import FACE_INDEX, ids
from meldhall.games.okey_ladder.pieces import WILD, Jokers, colour_of, number_of

NUMBER_WEIGHT = 0.3
"""Keep score per number of a tile before opening (a loose 13 is kept over a loose 2)."""


PAIRS_PLAN = 4
"""Pairs in an unopened hand from which it keeps its pairs first (an opening of pairs beats
no opening: an opened loser pays a few tiles, doubled, an unopened one the whole base)."""

PAIR_BONUS = 4.0
"""Extra keep score of a paired tile under the pairs plan."""


def seen_faces(obs: Mapping[str, Any]) -> dict[int, int]:
    """Return per face index how many of its tiles the seat sees outside its hand: the
    discard piles and the table."""
    seen: dict[int, int] = {}
    tokens: list[str] = [t for pile in obs["discards"] for t in pile["tiles"]]
    for combo in obs["table"]:
        tokens.extend(combo["tiles"])
    for token in tokens:
        face = FACE_INDEX.get(token.rstrip("ab"))
        if face is not None:
            seen[face] = seen.get(face, 0) + 1
    return seen


def usefulness(
    hand: Sequence[int], eff: Sequence[int], seen: Mapping[int, int], opened: bool
) -> dict[int, float]:
    """Return how much each tile helps the rest of the hand towards combinations, counting
    a partner only while a tile completing the pair of them is unseen, and before opening
    the tile's number (``NUMBER_WEIGHT``)."""
    counts: dict[int, int] = {}
    for t in hand:
        counts[eff[t]] = counts.get(eff[t], 0) + 1

    def live(face: int) -> int:
        return max(0, 2 - seen.get(face, 0) - counts.get(face, 0))

    pairs = sum(n // 2 for f, n in counts.items() if f != WILD)
    pair_bonus = PAIR_BONUS if not opened and pairs >= PAIRS_PLAN else 0.0
    out: dict[int, float] = {}
    for t in hand:
        f = eff[t]
        if f == WILD:
            out[t] = 100.0
            continue
        colour, number = colour_of(f), number_of(f)
        score = (NUMBER_WEIGHT if not opened else 0.0) * number + number / 1000
        score += (1.5 + pair_bonus) * (counts[f] - 1)
        for d, weight in ((-2, 0.6), (-1, 1.0), (1, 1.0), (2, 0.6)):
            n = number + d
            if not (1 <= n <= 13) or not counts.get(f + d):
                continue
            lo, hi = min(number, n), max(number, n)
            ends = [lo + 1] if hi - lo == 2 else [lo - 1, hi + 1]
            if any(1 <= e <= 13 and live(f + e - number) for e in ends):
                score += weight * counts[f + d]
        same = [c for c in range(4) if c != colour and counts.get(c * 13 + number - 1)]
        if same:
            rest = [c for c in range(4) if c != colour and c not in same]
            if len(same) >= 2 or any(live(c * 13 + number - 1) for c in rest):
                score += len(same)
        out[t] = score
    return out


class StrongBot(GreedyBot):
    """``greedy`` with discards aimed at the opening (module docstring)."""

    def _discard(self, obs: Mapping[str, Any], legal: Sequence[Action], jokers: Jokers) -> Action:
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            way_out = _unblock(legal)
            return way_out if way_out is not None else legal[0]
        if len(discards) == 1:
            return discards[0]
        return self._ranked(obs, legal, jokers)[0]

    def _ranked(
        self, obs: Mapping[str, Any], legal: Sequence[Action], jokers: Jokers
    ) -> list[Discard]:
        """Return the safe discards (``_safe_discards``) by keep score, the first to throw
        first."""
        safe = _safe_discards(obs, legal, jokers)
        opened = obs["opened"][obs["seat"]] != "none"
        use = usefulness(ids(obs["hand"]), jokers.eff, seen_faces(obs), opened)
        return sorted(safe, key=lambda d: (use[d.tile], d.tile))

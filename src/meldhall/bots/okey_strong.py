"""A candidate for okey's ``strong`` bot: the distance bot of ``bots/okey.py`` with acceptance
(mahjong's ukeire) at its discards and takes.

A hand's *acceptance* is how many unseen tiles would bring it nearer a win if drawn: for each
face, whether it lowers the distance (some tile out and it in), weighted by its copies the
seat has not seen (own rack, the indicator, the piles it may look through, the other piles'
tops). Among the discards that leave the hand equally near a win, the bot keeps the one with
the most acceptance (usefulness and the next player's faces break the remaining ties), and it
takes the previous discard when that lowers the distance, or keeps it and raises the
acceptance by ``TAKE_GAIN`` tiles or more.

Whether a face lowers the distance d is one question to the core solver's distance search:
can the hand with that face, d naturals out and d - 1 wilds in, split into melds (the face
then replaces one of the leaving tiles). The searches of one hand share their memo.

Not the registered ``strong`` bot: paired against the distance bot it showed no gain on the
tuning seed (docs/bots.md, okey); ``make`` builds it for ``scripts/paired_tournament.py``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from meldhall.bots.okey import (
    CANDIDATES,
    GreedyOkeyBot,
    StrongOkeyBot,
    _always_take,
    _next_players_faces,
    distance,
    usefulness,
)
from meldhall.core.engine import JSON, Action
from meldhall.core.solver.distance import _can_win, _wild_sizes
from meldhall.core.solver.queries import most_pairs
from meldhall.core.solver.rules import MeldRules
from meldhall.core.solver.search import prepare
from meldhall.core.solver.universe import compile_universe, encode
from meldhall.games.okey.actions import Discard
from meldhall.games.okey.hand import HandRules, meld_rules
from meldhall.games.okey.pieces import FACES, OKEY_TILE_IDS, effective_faces

TAKE_GAIN = 4
"""How many more accepting tiles a take that keeps the distance must bring."""

EXACT_UPTO = 1
"""The largest distance whose accepting faces the solver finds exactly (dearer beyond)."""


def unseen_faces(observation: Mapping[str, JSON], okey: int) -> list[int]:
    """Return per face how many of its tiles the viewer has not seen (the okey face counts
    the false jokers, the real jokers are left out)."""
    left = [2] * FACES
    tokens: list[str] = [str(observation["indicator"])]
    tokens += [str(t) for t in observation.get("hand") or []]
    piles = observation.get("discards")
    for pile in piles if isinstance(piles, list) else []:
        if not isinstance(pile, dict):
            continue
        tiles = pile.get("tiles")
        if isinstance(tiles, list):
            tokens += [str(t) for t in tiles]
        elif pile.get("top"):
            tokens.append(str(pile["top"]))
    for token in tokens:
        t = OKEY_TILE_IDS[token]
        if t >= 104:
            left[okey] -= 1
        elif t >> 1 != okey:
            left[t >> 1] -= 1
    return [max(0, n) for n in left]


def accepting_faces(hand: Sequence[int], rules: HandRules, now: int) -> set[int]:
    """Return the faces whose tile, drawn into the 14-tile ``hand`` at distance ``now``, lower
    its distance (one tile out): exactly up to ``EXACT_UPTO``, beyond it the faces that make
    a set or run of three with two faces of the hand (none when ``now`` is 0)."""
    if now <= 0:
        return set()
    counts, wild = effective_faces(list(hand), rules.okey)
    out: set[int] = set()
    if rules.seven_pairs and 7 - most_pairs(counts, wild) == now:
        out.update(f for f, n in enumerate(counts) if n & 1)
    if now > EXACT_UPTO:
        return out | _completing_faces(counts, rules.wrap)
    melds = meld_rules(rules.wrap, rules.max_run)
    return out | _meld_accepting(counts, wild, now, melds, _near_faces(counts, rules.wrap))


def _completing_faces(counts: Sequence[int], wrap: bool) -> set[int]:
    """Return the faces that make a set or a run of three with two other faces of
    ``counts``."""
    out: set[int] = set()
    for face in range(FACES):
        colour, index = divmod(face, 13)
        others = sum(1 for c in range(4) if c != colour and counts[c * 13 + index])
        if others >= 2:
            out.add(face)
            continue
        held = [_held(counts, colour, index + delta, wrap) for delta in (-2, -1, 1, 2)]
        if (held[0] and held[1]) or (held[1] and held[2]) or (held[2] and held[3]):
            out.add(face)
    return out


def _held(counts: Sequence[int], colour: int, index: int, wrap: bool) -> bool:
    """Return whether ``counts`` holds the tile of ``colour`` at position ``index`` (0-based;
    13 is the 1 above 13 when runs wrap)."""
    if wrap and index == 13:
        index = 0
    return 0 <= index < 13 and counts[colour * 13 + index] > 0


def _near_faces(counts: Sequence[int], wrap: bool) -> set[int]:
    """Return the faces that share a set or a run of up to three with a tile of ``counts``."""
    near: set[int] = set()
    for face, n in enumerate(counts):
        if not n:
            continue
        colour, index = divmod(face, 13)
        near.update(c * 13 + index for c in range(4))
        for delta in (-2, -1, 1, 2):
            number = index + delta
            if wrap:
                number %= 13
            if 0 <= number < 13:
                near.add(colour * 13 + number)
    return near


def _meld_accepting(
    counts: Sequence[int], wild: int, now: int, rules: MeldRules, faces: Iterable[int]
) -> set[int]:
    """Return the ``faces`` with which ``counts`` (and ``wild`` jokers), ``now`` naturals out
    and ``now - 1`` wilds in, split into sets and runs."""
    top = max(min(rules.max_run, 2 * rules.min_run - 1), rules.max_set)
    jokers = wild + now - 1
    universe = compile_universe(rules, min(jokers, top), True)
    faces = [f for f in faces if counts[f] < 2]
    grown = list(counts)
    for face in faces:
        grown[face] += 1
    # the melds any of the grown hands holds: a superset of each one's own
    cands, _, _ = prepare(universe, encode(grown, 0, rules) + (jokers << universe.joker_shift))
    grown = list(counts)
    sizes = _wild_sizes(rules)
    memo: dict[int, bool] = {}
    out = set()
    for face in faces:
        grown[face] += 1
        start = encode(grown, 0, rules) + (jokers << universe.joker_shift)
        grown[face] -= 1
        if _can_win(universe, cands, start, now, memo, sizes):
            out.add(face)
    return out


def acceptance(hand: Sequence[int], rules: HandRules, now: int, unseen: Sequence[int]) -> int:
    """Return how many unseen tiles lower the distance of ``hand`` (at distance ``now``)."""
    return sum(unseen[f] for f in accepting_faces(hand, rules, now))


class AcceptanceOkeyBot(StrongOkeyBot):
    """The distance bot, breaking distance ties by acceptance at discards and takes."""

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the move the module docstring describes."""
        self._observation = observation
        return super().choose(observation, legal, rng)

    def _wants(self, hand: list[int], tile: int, rules: HandRules) -> bool:  # type: ignore[override]
        """Return whether to take ``tile``: it wins, is a real joker, lowers the distance, or
        keeps it and raises the acceptance by ``TAKE_GAIN``."""
        if _always_take(hand, tile, rules):
            return True
        now = distance(hand, rules)
        if now == 0:
            return False
        unseen = unseen_faces(self._observation, rules.okey)
        found = best_discard(
            [*hand, tile], rules, allowed=set(hand), unseen=unseen, safe=set(), rng=None
        )
        if found is None:
            return False
        after, gain, _ = found
        if after != now:
            return after < now
        return gain >= acceptance(hand, rules, now, unseen) + TAKE_GAIN

    def _discard(  # type: ignore[override]
        self,
        observation: Mapping[str, JSON],
        hand: list[int],
        rules: HandRules,
        discards: list[Action],
        rng: random.Random,
    ) -> Action:
        listed = {a.tile: a for a in discards if isinstance(a, Discard)}
        found = best_discard(
            hand,
            rules,
            allowed=set(listed),
            unseen=unseen_faces(observation, rules.okey),
            safe=_next_players_faces(observation),
            rng=rng,
        )
        if found is None:
            return GreedyOkeyBot._discard(observation, hand, rules, discards, rng)
        return listed[found[2]]


def best_discard(
    hand: list[int],
    rules: HandRules,
    *,
    allowed: set[int],
    unseen: Sequence[int],
    safe: set[int],
    rng: random.Random | None,
) -> tuple[int, int, int] | None:
    """Return (distance after, acceptance after, tile) for the best discard of a 15-tile hand
    among its least useful few ``allowed`` tiles, never a real joker (None when none is
    allowed): the nearest a win, then the most acceptance, then the least useful (a face the
    next player threw counts as less useful), then ``rng``'s pick."""
    scores = usefulness(hand, rules.okey, rules.wrap)
    ranked: dict[int, tuple[float, int]] = {}
    for t in hand:
        if t not in allowed or scores[t] >= 1000.0:
            continue
        face = rules.okey if t >= 104 else t >> 1
        value = scores[t] - (0.75 if face in safe else 0.0)
        if face not in ranked or value < ranked[face][0]:
            ranked[face] = (value, t)
    candidates = sorted(ranked.values())[:CANDIDATES]
    if not candidates:
        return None
    measured: list[tuple[int, float, int, list[int]]] = []
    for value, t in candidates:
        rest = list(hand)
        rest.remove(t)
        measured.append((distance(rest, rules), value, t, rest))
    low = min(m[0] for m in measured)
    best: list[tuple[int, float, int]] = []
    for d, value, t, rest in measured:
        if d == low:
            best.append((-acceptance(rest, rules, d, unseen), value, t))
    top = min(best)[:2]
    ties = [t for a, v, t in best if (a, v) == top]
    tile = ties[rng.randrange(len(ties))] if rng is not None and len(ties) > 1 else ties[0]
    return low, -top[0], tile


def make() -> AcceptanceOkeyBot:
    """Return a new acceptance bot (the paired tournament's factory)."""
    return AcceptanceOkeyBot()

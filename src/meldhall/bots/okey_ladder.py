"""Bots for Ladder Okey: they see only the observation and the legal actions.

- ``random``: random legal play that still opens (an exact search of the listed melds, once a
  bound says the need may be reached), lays off and lays new combinations whenever it can, and
  avoids discarding fitting tiles and real jokers when it has another tile; after opening it
  takes the previous discard half the time when it makes a new combination at once.
- ``greedy``: opens as soon as the solver finds an opening (series before pairs, a one-go finish
  whenever possible), takes the discard only for an opening or a new combination, lays all it
  can after opening, exchanges jokers, pushes pairs onto pairs openers, keeps a real joker for a
  joker finish, and discards its least useful safe tile.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from typing import Any

from meldhall.core.engine import JSON, Action, Bot
from meldhall.core.solver import most_pairs
from meldhall.games.okey_ladder.actions import (
    Discard,
    GivePair,
    LayOff,
    Meld,
    Recall,
    ReplaceJoker,
    ReturnTaken,
    TakeDiscard,
)
from meldhall.games.okey_ladder.combos import PAIR
from meldhall.games.okey_ladder.hints import (
    FACE_INDEX,
    ID_OF,
    ids,
    jokers_of,
    meld_value,
    meld_values,
    opening_bound,
)
from meldhall.games.okey_ladder.legal import meld_actions, melds_with
from meldhall.games.okey_ladder.opening import (
    Opening,
    best_from_melds,
    best_opening,
    rack_counts,
)
from meldhall.games.okey_ladder.pieces import WILD, Jokers, colour_of, number_of

_TILES = attrgetter("tiles")
_KIND = attrgetter("kind")


def _leading_melds(legal: Sequence[Any]) -> list[Meld]:
    """Return the MELD actions, which lead the canonical order of legal actions (by kind:
    runs, sets, pairs)."""
    return list(legal[: bisect_left(legal, True, key=_not_meld)])


def _not_meld(action: Any) -> bool:
    return type(action) is not Meld


def _of(legal: Sequence[Any], kind: type) -> list[Any]:
    return [a for a in legal if type(a) is kind]


def _is_discard(action: Any) -> bool:
    return type(action) is Discard


def _discards(legal: Sequence[Any]) -> list[Discard]:
    """Return the DISCARD actions, which end the canonical order of legal actions."""
    return list(legal[bisect_left(legal, True, key=_is_discard) :])


_TABLE_MOVES = (Meld, LayOff, ReplaceJoker, GivePair)


def _not_table_move(action: Any) -> bool:
    return type(action) not in _TABLE_MOVES


def _table_moves(legal: Sequence[Action]) -> list[Action]:
    """Return the MELD, LAY_OFF, REPLACE_JOKER and GIVE_PAIR actions, which lead the
    canonical order of legal actions."""
    return list(legal[: bisect_left(legal, True, key=_not_table_move)])


class _Planner:
    """Opening plans kept between the calls of one turn (the bot's own memory)."""

    def __init__(self) -> None:
        self.key: tuple[int, int] | None = None
        self.plan: list[Meld] = []

    def next_meld(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Meld | None:
        """Return the next meld of this turn's plan if it is still legal."""
        if self.key != (obs["hand_no"], obs["turn"]) or not self.plan:
            return None
        meld = self.plan.pop(0)
        return meld if meld in legal else None

    def planned(self, obs: Mapping[str, Any]) -> bool:
        """Return True when a plan was made this turn (laid out, or still being laid)."""
        return self.key == (obs["hand_no"], obs["turn"])

    def start(self, obs: Mapping[str, Any], plan: Sequence[Meld]) -> Meld:
        """Remember ``plan`` for this turn and return its first meld."""
        self.key = (obs["hand_no"], obs["turn"])
        self.plan = list(plan[1:])
        return plan[0]


def _keep_one(opening: Opening, jokers: Jokers, size: int) -> Opening:
    """Return ``opening`` without its least valuable meld when it would lay every tile (a
    tile must stay for the discard)."""
    if opening.placed < size or not opening.melds:
        return opening
    values = {m: meld_value(m, jokers.eff, jokers.okey) for m in opening.melds}
    drop = min(opening.melds, key=lambda m: values[m])
    melds = tuple(m for m in opening.melds if m != drop)
    return Opening(opening.value - values[drop], melds, opening.placed - len(drop.tiles))


class OpeningGate:
    """Upper bounds on a seat's best openings, carried from one decision to the next.

    When the hand gained one tile x since the last decision of the hand (and lost any), the
    best opening now is at most the last bound plus the best meld holding x (the best
    packing minus the meld holding x was a packing then), so most turns skip the search.
    """

    def __init__(self) -> None:
        self.hand = -1
        self.tiles: frozenset[str] = frozenset()
        self.bounds = (0, 0)

    def carried(self, obs: Mapping[str, Any], melds: Sequence[Meld], jokers: Jokers) -> list[int]:
        """Return the carried bounds (series, pairs), or very large ones when unknown."""
        unknown = [1 << 30, 1 << 30]
        if obs["hand_no"] != self.hand:
            return unknown
        added = [t for t in obs["hand"] if t not in self.tiles]
        if not added:
            return list(self.bounds)
        if len(added) > 1:
            return unknown
        x = ID_OF[added[0]]
        gain = [0, 0]
        for m in melds:
            if x in m.tiles:
                k = 1 if m.kind == PAIR else 0
                gain[k] = max(gain[k], meld_value(m, jokers.eff, jokers.okey))
        return [self.bounds[0] + gain[0], self.bounds[1] + gain[1]]

    def store(self, obs: Mapping[str, Any], bounds: Sequence[int]) -> None:
        """Remember the hand and the bounds of this decision."""
        self.hand = obs["hand_no"]
        self.tiles = frozenset(obs["hand"])
        self.bounds = (bounds[0], bounds[1])


def _most_pairs(hand: Sequence[int], eff: Sequence[int]) -> int:
    """Return the most disjoint pairs among ``hand``: two tiles of a face, or a real joker
    with any tile."""
    return most_pairs(*rack_counts(hand, eff))


def _may_lay_all_but_one(
    group: Sequence[Meld], pairs: bool, obs: Mapping[str, Any], eff: Sequence[int]
) -> bool:
    """Return False when the melds of ``group`` surely cannot lay every tile of the hand
    but one (too few tiles in them, or too few disjoint pairs in the hand)."""
    size = len(obs["hand"])
    if len(set().union(*map(_TILES, group))) < size - 1:
        return False
    return not pairs or 2 * _most_pairs(ids(obs["hand"]), eff) >= size - 1


def opening_plan(
    obs: Mapping[str, Any],
    legal: Sequence[Action],
    jokers: Jokers,
    gate: OpeningGate,
    *,
    solver: bool = False,
) -> Opening | None:
    """Return the opening to lay now: one reaching its requirement (series first), or one
    laying every tile but one (the one-go finish); None when there is none.

    The listed MELD actions are searched exactly (``best_from_melds``) unless a bound rules
    the opening out; with ``solver`` the core solver's opening is laid when it reaches."""
    melds: list[Meld] = _leading_melds(legal)
    size = len(obs["hand"])
    needs = (obs["need"], obs["pairs_need"])
    bounds = gate.carried(obs, melds, jokers)
    split = bisect_left(melds, PAIR, key=_KIND)
    groups = (melds[:split], melds[split:])
    eff, okey = jokers.eff, jokers.okey
    if bounds[0] > 1 << 20:
        bounds = list(opening_bound(melds, eff, okey))
    plan = None
    for k, pairs in enumerate((False, True)):
        need = needs[k]
        group = groups[k]
        one_go: bool | None = None
        if bounds[k] < need:
            one_go = _may_lay_all_but_one(group, pairs, obs, eff)
            if not one_go:
                continue
        values = meld_values(group, eff, okey)
        tag = ("pairs", okey) if pairs else ("series",)
        best = best_from_melds(group, values, eff, tag=tag, least=need)
        bounds[k] = best.value
        best = _keep_one(best, jokers, size)
        if best.value >= need:
            plan = best
            if solver:
                found = best_opening(ids(obs["hand"]), jokers, pairs)
                if found.value >= need and found.placed < size:
                    plan = found
            break
        if one_go is None:
            one_go = _may_lay_all_but_one(group, pairs, obs, eff)
        if one_go:
            most = best_from_melds(group, values, eff, by_size=True, tag=tag, least=size - 1)
            if most.placed == size - 1:
                plan = most
                break
    gate.store(obs, bounds)
    return plan


def _unblock(legal: Sequence[Any]) -> Action | None:
    """Return the way out when no discard is listed (an unused taken tile)."""
    for kind in (Recall, ReturnTaken):
        found: list[Action] = _of(legal, kind)
        if found:
            return found[0]
    return None


def _taken_move(
    obs: Mapping[str, Any], legal: Sequence[Any], jokers: Jokers, planner: _Planner
) -> Action | None:
    """Return how to use a tile taken from the discard (a new combination, or an opening
    holding it), or RETURN_TAKEN; None when no taken tile waits in the hand."""
    taken = obs["taken"]
    if taken is None or taken not in obs["hand"]:
        return None
    tile = ID_OF[taken]
    if obs["opened"][obs["seat"]] != "none":
        uses: list[Action] = [a for a in legal if type(a) in (Meld, GivePair) and tile in a.tiles]
        if uses:
            return uses[0]
    elif not any(c["provisional"] for c in obs["table"]):
        opening = opening_plan(obs, legal, jokers, OpeningGate())
        if opening is not None and any(tile in m.tiles for m in opening.melds):
            return planner.start(obs, opening.melds)
    return _of(legal, ReturnTaken)[0] if _of(legal, ReturnTaken) else _unblock(legal)


def _safe_discards(
    obs: Mapping[str, Any], legal: Sequence[Action], jokers: Jokers
) -> list[Discard]:
    """Return the listed discards that cost nothing (no real joker, no fitting tile), or
    the non-joker ones, or all."""
    discards: list[Discard] = _discards(legal)
    fitting = {FACE_INDEX[name] for name in obs["fitting"]}
    eff = jokers.eff
    safe = [d for d in discards if eff[d.tile] != WILD and eff[d.tile] not in fitting]
    return safe or [d for d in discards if eff[d.tile] != WILD] or discards


def _makes_meld(obs: Mapping[str, Any]) -> bool:
    """Return True when an opened player can lay the previous discard in a new
    combination of its own kind at once."""
    status = obs["opened"][obs["seat"]]
    pile = obs["discards"][(obs["seat"] - 1) % 4]["tiles"]
    if status == "none" or not pile:
        return False
    jokers = jokers_of(obs)
    tile = ID_OF[pile[-1]]
    if jokers.eff[tile] == WILD:
        return False
    hand = [*ids(obs["hand"]), tile]
    kind = PAIR if status == "pairs" else -1
    return any((m.kind == PAIR) == (kind == PAIR) for m in melds_with(tile, hand, jokers.eff))


class RandomBot:
    """Random legal play that still opens, lays off and goes out when it can."""

    needs_observation = True

    def __init__(self) -> None:
        self.planner = _Planner()
        self.gate = OpeningGate()

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the chosen action (see the module docstring)."""
        obs: Mapping[str, Any] = observation
        if obs["phase"] != "act":
            if len(legal) > 1 and rng.random() < 0.5 and _makes_meld(obs):
                return legal[1]
            return legal[0]
        jokers = jokers_of(obs)
        planned = self.planner.next_meld(obs, legal)
        if planned is not None:
            return planned
        taken = _taken_move(obs, legal, jokers, self.planner)
        if taken is not None:
            return taken
        me = obs["seat"]
        if obs["opened"][me] == "none":
            if not any(c["provisional"] for c in obs["table"]):
                opening = opening_plan(obs, legal, jokers, self.gate)
                if opening is not None:
                    return self.planner.start(obs, opening.melds)
        else:
            moves = _table_moves(legal)
            if moves:
                return moves[rng.randrange(len(moves))]
        safe = _safe_discards(obs, legal, jokers)
        if not safe:
            way_out = _unblock(legal)
            return way_out if way_out is not None else legal[rng.randrange(len(legal))]
        return safe[rng.randrange(len(safe))]


def _usefulness(hand: Sequence[int], eff: Sequence[int]) -> dict[int, float]:
    """Return how much each tile helps the rest of the hand towards combinations: copies
    of its face, neighbours of its colour within two, its number in other colours."""
    counts: dict[int, int] = {}
    for t in hand:
        counts[eff[t]] = counts.get(eff[t], 0) + 1
    out: dict[int, float] = {}
    for t in hand:
        f = eff[t]
        if f == WILD:
            out[t] = 100.0
            continue
        colour, number = colour_of(f), number_of(f)
        score = number / 100 + 1.5 * (counts[f] - 1)
        for d, weight in ((-2, 0.6), (-1, 1.0), (1, 1.0), (2, 0.6)):
            if 1 <= number + d <= 13:
                score += weight * counts.get(f + d, 0)
        for c in range(4):
            if c != colour:
                score += counts.get(c * 13 + number - 1, 0)
        out[t] = score
    return out


class GreedyBot:
    """The best immediate move, with the solver for openings (see the module docstring)."""

    needs_observation = True

    def __init__(self) -> None:
        self.planner = _Planner()
        self.gate = OpeningGate()

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the chosen action (see the module docstring)."""
        obs: Mapping[str, Any] = observation
        jokers = jokers_of(obs)
        if obs["phase"] != "act":
            takes: list[Action] = _of(legal, TakeDiscard)
            if takes and self._wants_discard(obs, jokers):
                return takes[0]
            return legal[0]
        planned = self.planner.next_meld(obs, legal)
        if planned is not None:
            return planned
        taken = _taken_move(obs, legal, jokers, self.planner)
        if taken is not None:
            return taken
        me = obs["seat"]
        if obs["opened"][me] == "none":
            if obs["laid"] is None:
                opening = opening_plan(obs, legal, jokers, self.gate, solver=True)
                if opening is not None:
                    return self.planner.start(obs, opening.melds)
            elif not self.planner.planned(obs):
                return self._laid_unplanned(obs, legal, jokers)
        else:
            move = self._table_move(obs, legal, jokers)
            if move is not None:
                return move
        return self._discard(obs, legal, jokers)

    def _laid_unplanned(
        self, obs: Mapping[str, Any], legal: Sequence[Action], jokers: Jokers
    ) -> Action:
        """Return the move of a bot that finds provisional combinations it did not plan (a
        new bot in the middle of a turn, as in a ceiling's rollouts): the rest of an opening
        that reaches the need (or a one-go finish) from the hand, else RECALL, after which
        it plans the turn afresh; the discard once what is laid reaches the need."""
        laid = obs["laid"]
        short = laid["need"] - laid["value"]
        if short <= 0:
            return self._discard(obs, legal, jokers)
        rest = opening_plan(
            {**obs, "need": short, "pairs_need": short}, legal, jokers, OpeningGate()
        )
        if rest is not None and rest.melds:
            return self.planner.start(obs, rest.melds)
        recall: list[Action] = _of(legal, Recall)
        return recall[0] if recall else self._discard(obs, legal, jokers)

    def _wants_discard(self, obs: Mapping[str, Any], jokers: Jokers) -> bool:
        """Return True when the previous discard makes a new combination now."""
        pile = obs["discards"][(obs["seat"] - 1) % 4]["tiles"]
        if not pile:
            return False
        tile = ID_OF[pile[-1]]
        hand = [*ids(obs["hand"]), tile]
        opened = obs["opened"][obs["seat"]]
        eff, okey = jokers.eff, jokers.okey
        if opened == "none":
            for pairs, need in ((False, obs["need"]), (True, obs["pairs_need"])):
                melds = meld_actions(hand, eff, okey, not pairs, pairs, len(hand) - 1)
                if tile not in {t for m in melds for t in m.tiles}:
                    continue
                k = 1 if pairs else 0
                if opening_bound(melds, eff, okey)[k] < need:
                    continue
                tag = ("pairs", okey) if pairs else ("series",)
                values = [meld_value(m, eff, okey) for m in melds]
                if best_from_melds(melds, values, eff, tag=tag, least=need).value < need:
                    continue
                rest = [(m, v) for m, v in zip(melds, values, strict=True) if tile not in m.tiles]
                without = best_from_melds(
                    [m for m, _ in rest], [v for _, v in rest], eff, tag=tag, least=need
                )
                if without.value < need:
                    return True
            return False
        series = opened == "series"
        melds = meld_actions(hand, jokers.eff, jokers.okey, series, not series, len(hand) - 1)
        return any(tile in m.tiles for m in melds)

    def _table_move(
        self, obs: Mapping[str, Any], legal: Sequence[Action], jokers: Jokers
    ) -> Action | None:
        eff = jokers.eff
        hand = ids(obs["hand"])
        jokers_in_hand = [t for t in hand if eff[t] == WILD]
        swaps: list[Action] = _of(legal, ReplaceJoker)
        if swaps:
            return swaps[0]
        gifts: list[GivePair] = _of(legal, GivePair)
        if gifts:
            return max(gifts, key=lambda g: meld_value(Meld(PAIR, g.tiles), eff, jokers.okey))
        melds: list[Meld] = _of(legal, Meld)
        if melds:
            plain = [m for m in melds if not any(eff[t] == WILD for t in m.tiles)]
            pool = plain or melds
            best = max(pool, key=lambda m: (len(m.tiles), meld_value(m, eff, jokers.okey)))
            if len(best.tiles) < len(hand) - 1 or not jokers_in_hand or plain:
                return best
        layoffs: list[LayOff] = _of(legal, LayOff)
        natural = [x for x in layoffs if eff[x.tile] != WILD]
        if natural:
            own = [x for x in natural if x.tile not in jokers_in_hand]
            return (own or natural)[0]
        wild = [x for x in layoffs if eff[x.tile] == WILD]
        if wild and len(hand) > 2 and len(jokers_in_hand) > 1:
            return wild[0]
        return None

    def _discard(self, obs: Mapping[str, Any], legal: Sequence[Action], jokers: Jokers) -> Action:
        discards: list[Discard] = _of(legal, Discard)
        if not discards:
            way_out = _unblock(legal)
            return way_out if way_out is not None else legal[0]
        if len(discards) == 1:
            return discards[0]
        safe = _safe_discards(obs, legal, jokers)
        use = _usefulness(ids(obs["hand"]), jokers.eff)
        return min(safe, key=lambda d: (use[d.tile], d.tile))


def _strong() -> Bot:
    """Return the strong bot (``okey_ladder_reach``; imported late, it builds on this module)."""
    from meldhall.bots.okey_ladder_reach import ReachBot

    return ReachBot()


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "strong": _strong}

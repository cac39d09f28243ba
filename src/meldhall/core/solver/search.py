"""The exact search: a memoised recursion over packed hands.

The recursion looks at the lowest slot k still holding a natural tile. First it decides how
many copies of k stay out of every meld (at most the copies that may be left: rack copies;
table copies must be placed), then it covers the other copies one at a time by a meld whose
lowest natural tile is k. Copies already taken by melds are counted as table copies first,
which is never worse, so the number of copies of k that may be left is min(copies now, rack
copies). Jokers left when no natural tile remains go into jokers-only melds (when the rules
allow them) or stay out; table jokers must be placed.

``Search.best`` maximises a score per meld; ``Search.most_tiles`` counts tiles only and cuts
by the tiles left and by the bound of dual prices (branch and bound, ``bound.py``);
``FrontSearch`` keeps, per number of tiles placed, the best value (openings against a
threshold).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import accumulate

from meldhall.core.solver.bound import SCALE, Prices
from meldhall.core.solver.universe import FIELD, Template, Universe, slot_counts

NEG = -(1 << 60)
"""Score of an impossible state (a table tile or joker that cannot be placed)."""

Score = Callable[[Template], int]


class Search:
    """One question on one hand: ``best(hand)`` is the best total score of disjoint melds,
    ``most_tiles`` the most tiles placed (its score must count tiles).

    Only melds the starting hand holds are tried, from ``start``: the hand without the free
    tiles no such meld uses (``size`` tiles).
    """

    __slots__ = (
        "_at",
        "_bound",
        "_cands",
        "_choice",
        "_end",
        "_free",
        "_free_jokers",
        "_memo",
        "_moves",
        "_paid",
        "_plain",
        "_prices",
        "_score",
        "_signed",
        "_templates",
        "_u",
        "size",
        "start",
    )

    def __init__(
        self,
        universe: Universe,
        score: Score,
        free: list[int],
        free_jokers: int,
        hand: int,
    ) -> None:
        self._u = universe
        scored = _scored(universe, score)
        self._score = scored.table
        self._templates = scored.templates
        self._cands, self._plain, self.start, self.size = _prepare_scored(
            universe, scored, hand, free
        )
        self._moves: list[tuple[_Move, ...] | None] = list(self._plain)
        self._paid: list[int] = []
        self._at: list[int] = []
        self._free = free
        self._free_jokers = free_jokers
        self._memo: dict[int, int] = {}
        self._bound: dict[int, int] = {}
        self._choice: dict[int, int] = {}
        self._end: dict[int, tuple[int, tuple[Template, ...]]] = {}
        self._prices: Prices | None = None
        self._signed = 0

    def groups(self) -> list[tuple[Template, ...]]:
        """Return the melds the starting hand holds, one tuple per lowest slot."""
        return self._cands

    def price(self, prices: Prices, paid: list[int]) -> int:
        """Cut ``most_tiles`` by ``prices`` from now on (``paid``: each meld of ``groups``
        in order priced, at least its tiles times SCALE); return the bound of ``start`` times
        SCALE (the ``dual`` to pass at the start). A slot's priced moves are built when the
        search first reaches it."""
        self._prices = prices
        self._paid = paid
        self._at = list(accumulate(map(len, self._plain), initial=0))
        self._moves = [None if moves else moves for moves in self._plain]
        signed = 0
        if min(prices.slots) < 0:
            signed = sum(15 << (FIELD * k) for k, w in enumerate(prices.slots) if w < 0)
        if prices.joker < 0:
            signed |= 255 << self._u.joker_shift
        self._signed = signed
        return prices.total(self.start, self._free, self._free_jokers, self._u.joker_shift)

    def _priced(self, k: int) -> tuple[_Move, ...]:
        """Return (and keep) the moves of slot ``k`` with the prices of ``price``."""
        assert self._prices is not None
        w, wj = self._prices.slots, self._prices.joker
        plain = self._plain[k]
        at = self._at[k]
        paid = self._paid[at : at + len(plain)]
        signed = self._signed
        if signed:
            jshift, fj, free = self._u.joker_shift, self._free_jokers, self._free
            moves = tuple(
                [
                    (m[0], m[1], p, _negative(m[0] & signed, w, wj, free, fj, jshift))
                    if m[0] & signed
                    else (m[0], m[1], p, ())
                    for m, p in zip(plain, paid, strict=True)
                ]
            )
        else:
            moves = tuple([(m[0], m[1], p, ()) for m, p in zip(plain, paid, strict=True)])
        self._moves[k] = moves
        return moves

    def unit_dual(self) -> int:
        """Return the ``dual`` to pass at the start without prices: the tiles times SCALE."""
        return self.size * SCALE

    def best(self, hand: int, must: int = 0) -> int:
        """Return the best score from ``hand`` (``must``: no more copies of the lowest slot may
        be left out)."""
        key = hand << 1 | must
        memo = self._memo
        got = memo.get(key)
        if got is not None:
            return got
        u = self._u
        nat = hand & u.natural_mask
        if not nat:
            result = self._jokers_only(hand >> u.joker_shift)[0]
        else:
            k = ((nat & -nat).bit_length() - 1) // FIELD
            shift = FIELD * k
            count = (hand >> shift) & 15
            result = NEG
            if not must:
                for left in range(min(count, self._free[k]) + 1):
                    got = self.best(hand - (left << shift), 1 if left < count else 0)
                    if got > result:
                        result = got
            else:
                guard = u.guard
                score = self._score
                for t in self._cands[k]:
                    r = (hand | guard) - t.mask
                    if r & guard == guard:
                        rest = r ^ guard
                        got = self.best(rest, 1 if (rest >> shift) & 15 else 0)
                        if got > NEG:
                            got += score[t.mask]
                            if got > result:
                                result = got
        memo[key] = result
        return result

    def most_tiles(self, hand: int, must: int, size: int, need: int, dual: int) -> int:
        """Return the most tiles placed from ``hand`` when that is at least ``need``, else an
        upper bound below ``need`` (branch and bound).

        A state is cut as soon as its tiles, or its bound by the prices (``dual``, times
        SCALE: ``price``), cannot reach ``need``; bounds are kept apart from exact answers, so
        ``melds`` follows exact answers only.
        """
        if size < need:
            return size
        cap = dual // SCALE
        if cap < need:
            return cap
        if cap > size:
            cap = size
        key = hand << 1 | must
        got = self._memo.get(key)
        if got is not None:
            return got
        bound = self._bound.get(key)
        if bound is not None and bound < need:
            return bound
        u = self._u
        nat = hand & u.natural_mask
        choice = 0
        if not nat:
            result = self._jokers_only(hand >> u.joker_shift)[0]
        else:
            k = ((nat & -nat).bit_length() - 1) // FIELD
            shift = FIELD * k
            count = (hand >> shift) & 15
            result = NEG
            if not must:
                prices = self._prices
                w = SCALE if prices is None else prices.slots[k]
                free = self._free[k]
                for left in range(min(count, free) + 1):
                    floor = need if need > result else result + 1
                    if w >= 0:
                        paid = w * left
                    else:
                        paid = w * (max(0, count - free) - max(0, count - left - free))
                    got = self.most_tiles(
                        hand - (left << shift),
                        1 if left < count else 0,
                        size - left,
                        floor,
                        dual - paid,
                    )
                    if got > result:
                        result = got
                        choice = left
                        if got >= cap:
                            break
            else:
                guard = u.guard
                held = hand | guard
                moves = self._moves[k]
                if moves is None:
                    moves = self._priced(k)
                for mask, gain, paid, neg in moves:
                    r = held - mask
                    if r & guard == guard:
                        rest = r ^ guard
                        for nshift, field, nfree, nw, n in neg:
                            c = (hand >> nshift) & field
                            paid -= nw * n - nw * (max(0, c - nfree) - max(0, c - n - nfree))
                        floor = need if need > result else result + 1
                        got = self.most_tiles(
                            rest,
                            1 if (rest >> shift) & 15 else 0,
                            size - gain,
                            floor - gain,
                            dual - paid,
                        )
                        if got > NEG:
                            got += gain
                            if got > result:
                                result = got
                                choice = mask
                                if got >= cap:
                                    break
        if result >= need:
            self._memo[key] = result
            # the first child in canonical order that reaches the result, as ``melds`` finds
            # it: a child reaching it returns its exact value, every earlier one less
            self._choice[key] = choice
        else:
            self._bound[key] = result
        return result

    def placed_melds(self) -> tuple[Template, ...]:
        """Return the melds of the answer from ``start`` after a ``most_tiles`` that reached
        its ``need``: the choices it kept, the same melds ``melds`` would find."""
        out: list[Template] = []
        hand, must = self.start, 0
        u = self._u
        choice, templates = self._choice, self._templates
        natural = u.natural_mask
        while hand & natural:
            got = choice[hand << 1 | must]
            shift = FIELD * (((hand & -hand).bit_length() - 1) // FIELD)
            if must:
                out.append(templates[got])
                hand -= got  # the hand holds the meld
                must = 1 if (hand >> shift) & 15 else 0
            else:
                must = 1 if got < (hand >> shift) & 15 else 0
                hand -= got << shift
        out.extend(self._jokers_only(hand >> u.joker_shift)[1])
        return tuple(out)

    def melds(self, hand: int) -> tuple[Template, ...]:
        """Return the melds of a best answer from ``hand`` (after ``best(hand)``)."""
        out: list[Template] = []
        must = 0
        u = self._u
        while True:
            target = self.memo_of(hand, must)
            nat = hand & u.natural_mask
            if not nat:
                out.extend(self._jokers_only(hand >> u.joker_shift)[1])
                return tuple(out)
            k = ((nat & -nat).bit_length() - 1) // FIELD
            shift = FIELD * k
            count = (hand >> shift) & 15
            if not must:
                for left in range(min(count, self._free[k]) + 1):
                    nxt = 1 if left < count else 0
                    if self.memo_of(hand - (left << shift), nxt) == target:
                        hand, must = hand - (left << shift), nxt
                        break
                continue
            for t in self._cands[k]:
                r = (hand | u.guard) - t.mask
                if r & u.guard == u.guard:
                    rest = r ^ u.guard
                    nxt = 1 if (rest >> shift) & 15 else 0
                    got = self.memo_of(rest, nxt)
                    if got > NEG and got + self._score[t.mask] == target:
                        out.append(t)
                        hand, must = rest, nxt
                        break

    def memo_of(self, hand: int, must: int) -> int:
        """Return the score of a state the search settled (NEG: never reached, or cut off)."""
        if not hand & self._u.natural_mask:
            return self._jokers_only(hand >> self._u.joker_shift)[0]
        return self._memo.get(hand << 1 | must, NEG - 1)

    def _jokers_only(self, jokers: int) -> tuple[int, tuple[Template, ...]]:
        """Return the best score and melds for ``jokers`` left without natural tiles: all of
        the table jokers (beyond the free ones) must be placed."""
        got = self._end.get(jokers)
        if got is not None:
            return got
        # best[j] = best score and melds using exactly j jokers in jokers-only melds
        best: list[tuple[int, tuple[Template, ...]] | None] = [None] * (jokers + 1)
        best[0] = (0, ())
        for j in range(1, jokers + 1):
            for t in self._u.wild:
                prev = best[j - t.jokers] if t.jokers <= j else None
                if prev is not None:
                    cand = (prev[0] + self._score[t.mask], (*prev[1], t))
                    cur = best[j]
                    if cur is None or cand[0] > cur[0]:
                        best[j] = cand
        result: tuple[int, tuple[Template, ...]] = (NEG, ())
        for used in range(max(0, jokers - self._free_jokers), jokers + 1):
            cand_ = best[used]
            if cand_ is not None and cand_[0] > result[0]:
                result = cand_
        self._end[jokers] = result
        return result


def _negative(
    mask: int, w: tuple[int, ...], wj: int, free: list[int], fj: int, jshift: int
) -> tuple[_Neg, ...]:
    """Return the faces (and jokers) of a meld priced below zero, as ``most_tiles`` reads
    them (``mask``: the meld's fields of those faces)."""
    neg: list[_Neg] = []
    jokers = mask >> jshift
    if jokers:
        neg.append((jshift, 255, fj, wj, jokers))
    naturals = mask & ((1 << jshift) - 1)
    while naturals:
        k = ((naturals & -naturals).bit_length() - 1) // FIELD
        neg.append((FIELD * k, 15, free[k], w[k], (naturals >> (FIELD * k)) & 15))
        naturals &= ~(15 << (FIELD * k))
    return tuple(neg)


_Neg = tuple[int, int, int, int, int]
"""A face of a meld priced below zero: (shift, field mask, rack copies, price, copies used)."""
_Move = tuple[int, int, int, tuple[_Neg, ...]]
"""A meld for ``most_tiles``: (mask, score, its price times SCALE, its faces priced below 0)."""
_Held = tuple[tuple[Template, ...], tuple[_Move, ...], int]
"""The melds of one lowest slot a hand holds, their moves at unit prices (a tile costs
SCALE), and their masks' union."""


@dataclass(frozen=True, slots=True)
class _Scored:
    """A universe's melds with one score function's scores, computed once per pair."""

    universe: Universe
    table: dict[int, int]
    """Meld mask → score, every meld of the universe."""
    templates: dict[int, Template]
    """Meld mask → meld, every meld of the universe."""
    by_low: tuple[tuple[tuple[int, int, Template], ...], ...]
    """Per lowest slot, (mask, score, meld) in the universe's order."""
    windows: tuple[int, ...] | None
    """Per lowest slot, the slots its melds use (one bit per slot, at the slot's lowest count
    bit); None when a meld takes two copies of a face (then every hand is checked meld by
    meld)."""
    most_jokers: tuple[int, ...]
    """Per lowest slot, the most jokers one of its melds holds."""
    ones: int
    """The lowest count bit of every natural slot."""
    held: tuple[dict[tuple[int, int], _Held], ...]
    """Per lowest slot, what a hand holds by the slots of its window it holds and its jokers
    (as many as the slot's melds can use): the same for every hand alike there."""


_SCORED: dict[tuple[int, Score], _Scored] = {}
_SCORED_MAX = 256
_HELD_MAX = 4096
"""Entries kept per slot of ``_Scored.held`` (a slot's window rarely has more patterns)."""


def _scored(universe: Universe, score: Score) -> _Scored:
    """Return the melds of ``universe`` scored by ``score`` (cached on the universe's
    identity and the function: compiled universes are cached too)."""
    key = (id(universe), score)
    got = _SCORED.get(key)
    if got is not None and got.universe is universe:
        return got
    templates = {t.mask: t for group in universe.by_low for t in group}
    templates.update((t.mask, t) for t in universe.wild)
    table = {mask: score(t) for mask, t in templates.items()}
    by_low = tuple(tuple((t.mask, table[t.mask], t) for t in g) for g in universe.by_low)
    ones = _ones(universe)
    single = all(not (t.mask & universe.natural_mask & ~ones) for g in universe.by_low for t in g)
    windows = None
    if single:
        windows = tuple(
            sum_masks(t.mask & universe.natural_mask for t in g) for g in universe.by_low
        )
    most_jokers = tuple(max((t.jokers for t in g), default=0) for g in universe.by_low)
    held: tuple[dict[tuple[int, int], _Held], ...] = tuple({} for _ in universe.by_low)
    if len(_SCORED) >= _SCORED_MAX:
        _SCORED.clear()
    got = _SCORED[key] = _Scored(
        universe, table, templates, by_low, windows, most_jokers, ones, held
    )
    return got


def sum_masks(masks: Iterable[int]) -> int:
    """Return the union (bitwise or) of ``masks``."""
    out = 0
    for m in masks:
        out |= m
    return out


def _ones(universe: Universe) -> int:
    """Return the mask with the lowest count bit of every natural slot."""
    return sum(1 << (FIELD * k) for k in range(universe.kinds))


def _prepare_scored(
    universe: Universe, scored: _Scored, hand: int, free: list[int]
) -> tuple[list[tuple[Template, ...]], list[tuple[_Move, ...]], int, int]:
    """Return ``prepare``'s answer with, per slot, the (mask, score) of its melds."""
    empty: tuple[Template, ...] = ()
    cands: list[tuple[Template, ...]] = [empty] * universe.kinds
    moves: list[tuple[_Move, ...]] = [()] * universe.kinds
    used = 0
    nat = hand & universe.natural_mask
    counts = slot_counts(nat, universe.kinds)
    present = [k for k, c in enumerate(counts) if c]
    windows = scored.windows
    jokers = hand >> universe.joker_shift
    if windows is not None:
        seen = (nat | nat >> 1 | nat >> 2) & scored.ones
        most_jokers = scored.most_jokers
        nat_mask = universe.natural_mask
        for k in present:
            window = seen & windows[k]
            key = (window, min(jokers, most_jokers[k]))
            memo = scored.held[k]
            entry = memo.get(key)
            if entry is None:
                group = [x for x in scored.by_low[k] if _holds(x[2], window, key[1], nat_mask)]
                entry = (
                    tuple(x[2] for x in group),
                    tuple((x[0], x[1], x[1] * SCALE, ()) for x in group),
                    sum_masks(x[0] for x in group),
                )
                if len(memo) >= _HELD_MAX:
                    memo.clear()
                memo[key] = entry
            cands[k], moves[k] = entry[0], entry[1]
            used |= entry[2]
    else:
        guard = universe.guard
        held = hand | guard
        for k in present:
            group = [x for x in scored.by_low[k] if (held - x[0]) & guard == guard]
            if group:
                cands[k] = tuple(x[2] for x in group)
                moves[k] = tuple((x[0], x[1], x[1] * SCALE, ()) for x in group)
                used |= sum_masks(x[0] for x in group)
    start = hand
    size = jokers
    placed = slot_counts(used, universe.kinds)
    for k in present:
        count = counts[k]
        if not placed[k]:  # no held meld uses the face: its rack copies stay out
            drop = min(count, free[k])
            start -= drop << (FIELD * k)
            count -= drop
        size += count
    return cands, moves, start, size


def _holds(t: Template, seen: int, jokers: int, natural_mask: int) -> bool:
    """Return True when a hand holding the slots ``seen`` (one tile each is enough: no meld
    takes two copies of a face) and ``jokers`` jokers holds ``t``."""
    naturals = t.mask & natural_mask
    return naturals & seen == naturals and t.jokers <= jokers


def prepare(
    universe: Universe, hand: int, free: list[int] | None = None
) -> tuple[list[tuple[Template, ...]], int, int]:
    """Return, per slot, the melds whose lowest natural tile is there that ``hand`` holds; the
    hand without the free copies (``None``: all) of faces no such meld uses; its tile count."""
    guard = universe.guard
    cands: list[tuple[Template, ...]] = [()] * universe.kinds
    used = 0
    rest = hand & universe.natural_mask
    present = []
    while rest:
        k = ((rest & -rest).bit_length() - 1) // FIELD
        rest &= ~(15 << (FIELD * k))
        present.append(k)
        group = tuple(t for t in universe.by_low[k] if ((hand | guard) - t.mask) & guard == guard)
        cands[k] = group
        for t in group:
            used |= t.mask
    start = hand
    size = hand >> universe.joker_shift
    for k in present:
        shift = FIELD * k
        count = (hand >> shift) & 15
        if not (used >> shift) & 15:
            drop = count if free is None else min(count, free[k])
            start -= drop << shift
            count -= drop
        size += count
    return cands, start, size


Front = dict[int, int]
"""A Pareto front: weight (tiles placed) → the best value reaching exactly that weight."""


class FrontSearch:
    """Openings: for every number of tiles placed, the most valuable disjoint melds placing
    exactly that many (``weight`` counts the tiles of a meld that matter: all, or naturals)."""

    __slots__ = ("_cands", "_memo", "_u", "_weight", "_wild", "start")

    def __init__(self, universe: Universe, weight: Callable[[Template], int], hand: int) -> None:
        self._u = universe
        self._cands, self.start, _ = prepare(universe, hand)
        self._weight = {t.mask: weight(t) for group in self._cands for t in group}
        self._wild: dict[int, Front] = {}
        for t in universe.wild:
            self._weight[t.mask] = weight(t)
        self._memo: dict[int, Front] = {}

    def front(self, hand: int, must: int = 0) -> Front:
        """Return the front of ``hand`` (every natural tile may stay out)."""
        key = hand << 1 | must
        got = self._memo.get(key)
        if got is not None:
            return got
        u = self._u
        nat = hand & u.natural_mask
        if not nat:
            result = self._jokers_only(hand >> u.joker_shift)
        else:
            k = ((nat & -nat).bit_length() - 1) // FIELD
            shift = FIELD * k
            count = (hand >> shift) & 15
            if not must:
                result = dict(self.front(hand - (count << shift), 0))
                for left in range(count):
                    _merge(result, self.front(hand - (left << shift), 1), 0, 0)
            else:
                result = {}
                guard = u.guard
                weight = self._weight
                for t in self._cands[k]:
                    r = (hand | guard) - t.mask
                    if r & guard == guard:
                        rest = r ^ guard
                        sub = self.front(rest, 1 if (rest >> shift) & 15 else 0)
                        _merge(result, sub, weight[t.mask], t.value)
        self._memo[key] = result
        return result

    def melds(self, hand: int, weight: int, value: int) -> tuple[Template, ...]:
        """Return melds of ``hand`` placing ``weight`` and worth ``value`` (an entry of the
        front of ``hand``)."""
        out: list[Template] = []
        must = 0
        u = self._u
        while True:
            nat = hand & u.natural_mask
            if not nat:
                out.extend(self._wild_melds(hand >> u.joker_shift, weight, value))
                return tuple(out)
            k = ((nat & -nat).bit_length() - 1) // FIELD
            shift = FIELD * k
            count = (hand >> shift) & 15
            if not must:
                for left in range(count + 1):
                    nxt = 1 if left < count else 0
                    if self.front(hand - (left << shift), nxt).get(weight) == value:
                        hand, must = hand - (left << shift), nxt
                        break
                continue
            for t in self._cands[k]:
                r = (hand | u.guard) - t.mask
                if r & u.guard == u.guard:
                    rest = r ^ u.guard
                    nxt = 1 if (rest >> shift) & 15 else 0
                    w = self._weight[t.mask]
                    if self.front(rest, nxt).get(weight - w) == value - t.value:
                        out.append(t)
                        hand, must, weight, value = rest, nxt, weight - w, value - t.value
                        break

    def _jokers_only(self, jokers: int) -> Front:
        got = self._wild.get(jokers)
        if got is not None:
            return got
        result: Front = {0: 0}
        for t in self._u.wild:
            if t.jokers <= jokers:
                sub = self._jokers_only(jokers - t.jokers)
                _merge(result, sub, self._weight[t.mask], t.value)
        self._wild[jokers] = result
        return result

    def _wild_melds(self, jokers: int, weight: int, value: int) -> list[Template]:
        out: list[Template] = []
        while weight or value:
            for t in self._u.wild:
                if t.jokers <= jokers:
                    w = self._weight[t.mask]
                    sub = self._jokers_only(jokers - t.jokers)
                    if sub.get(weight - w) == value - t.value:
                        out.append(t)
                        jokers, weight, value = jokers - t.jokers, weight - w, value - t.value
                        break
            else:
                break
        return out


def _merge(into: Front, sub: Front, weight: int, value: int) -> None:
    for w, v in sub.items():
        w += weight
        v += value
        if v > into.get(w, NEG):
            into[w] = v

"""Listing the legal actions of the player to act, in canonical order: MELD, LAY_OFF,
REPLACE_JOKER, GIVE_PAIR, RECALL, RETURN_TAKEN, DISCARD (okey-ladder.md 8).

Melds are enumerated on effective faces: every window of a colour that the rack's natural
tiles and real jokers can fill (a joker may also stand where a natural tile is held), every
choice of colours and copies for a set, every pair. Each physical choice is its own action.

>>> from meldhall.core.tiles import parse_okey_many
>>> from meldhall.games.okey_ladder.pieces import Jokers, parse_okey
>>> j = Jokers.of(parse_okey("K13").id)
>>> rack = sorted(t.id for t in parse_okey_many("R1 R2 R3 R4 Y9"))
>>> [str(m) for m in meld_actions(rack, j.eff, j.okey, True, True, 4)]
['meld run R1a R2a R3a', 'meld run R1a R2a R3a R4a', 'meld run R2a R3a R4a']
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Sequence
from itertools import combinations, permutations, product
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from meldhall.games.okey_ladder.actions import (
    Discard,
    Draw,
    GivePair,
    LayOff,
    Meld,
    Recall,
    ReplaceJoker,
    ReturnTaken,
    TakeDiscard,
)
from meldhall.games.okey_ladder.combos import GROUP, PAIR, RUN, SET, colour_mask
from meldhall.games.okey_ladder.pieces import TILE_COUNT, WILD, colour_of, number_of
from meldhall.games.okey_ladder.scoring import NONE, PAIRS, SERIES

if TYPE_CHECKING:
    from meldhall.games.okey_ladder.state import LadderState

__all__ = ["actions", "meld_actions"]

_DRAW, _TAKE, _RETURN, _RECALL = Draw(), TakeDiscard(), ReturnTaken(), Recall()
_DISCARDS = tuple(Discard(t) for t in range(TILE_COUNT))


_INTERNED: dict[tuple[int, tuple[int, ...]], Meld] = {}
_INTERN_LIMIT = 200_000


def _meld(kind: int, tiles: tuple[int, ...]) -> Meld:
    """Return the MELD action of ``kind`` with ``tiles`` (in canonical order), shared between
    listings: the same combinations come back turn after turn."""
    key = (kind, tiles)
    meld = _INTERNED.get(key)
    if meld is None:
        if len(_INTERNED) > _INTERN_LIMIT:
            _INTERNED.clear()
        meld = _INTERNED[key] = Meld(kind, tiles)
    return meld


_LAYOFFS: dict[tuple[int, int, int], LayOff] = {}


def _layoff(tile: int, cid: int, end: int) -> LayOff:
    """Return the LAY_OFF action (shared between listings, like melds)."""
    key = (tile, cid, end)
    action = _LAYOFFS.get(key)
    if action is None:
        if len(_LAYOFFS) > _INTERN_LIMIT:
            _LAYOFFS.clear()
        action = _LAYOFFS[key] = LayOff(tile, cid, end)
    return action


def _split(rack: Sequence[int], eff: Sequence[int]) -> tuple[dict[int, list[int]], list[int]]:
    by_face: dict[int, list[int]] = {}
    wild: list[int] = []
    for t in rack:
        f = eff[t]
        if f == WILD:
            wild.append(t)
        else:
            by_face.setdefault(f, []).append(t)
    return by_face, wild


def _fill(options: list[list[int]], wild: list[int], out: list[Meld], fixed: int = -1) -> None:
    """Append a run for every way to fill the slots: a natural tile of the slot or a joker
    (each joker once; never in slot ``fixed``)."""
    if not wild:
        out.extend(_meld(RUN, tiles) for tiles in product(*options))
        return
    jokers = len(wild)
    slots = [o if i == fixed else [*o, -1] for i, o in enumerate(options)]  # -1: a joker
    for tiles in product(*slots):
        holes = tiles.count(-1)
        if not holes:
            out.append(_meld(RUN, tiles))
        elif holes <= jokers:
            at = [i for i, t in enumerate(tiles) if t < 0]
            filled = list(tiles)
            for chosen in permutations(wild, holes):
                for i, j in zip(at, chosen, strict=True):
                    filled[i] = j
                out.append(_meld(RUN, tuple(filled)))


def _runs(
    by_face: dict[int, list[int]],
    wild: list[int],
    max_size: int,
    out: list[Meld],
    colours: Sequence[int] = range(4),
    through: int = 0,
) -> None:
    """Append the runs of the given colours (with ``through``, only windows holding that
    number, its slot kept natural)."""
    jokers = len(wild)
    numbers = [0, 0, 0, 0]
    for f in by_face:
        numbers[f // 13] |= 2 << (f % 13)
    for colour in colours:
        base = colour * 13 - 1
        mask = numbers[colour]
        if not jokers:
            _plain_runs(by_face, base, mask, max_size, out, through)
            continue
        if not mask:
            continue
        have = [bool(mask >> n & 1) for n in range(14)]
        lows = range(max(1, through - max_size + 1), through + 1) if through else range(1, 12)
        for low in lows:
            if not jokers and not have[low]:
                continue
            missing = 0
            for high in range(low, 14):
                if not have[high]:
                    missing += 1
                    if missing > jokers:
                        break
                length = high - low + 1
                if length > max_size:
                    break
                if length >= 3 and high >= through:
                    options = [by_face.get(base + n, []) for n in range(low, high + 1)]
                    _fill(options, wild, out, through - low if through else -1)


def _plain_runs(
    by_face: dict[int, list[int]],
    base: int,
    mask: int,
    max_size: int,
    out: list[Meld],
    through: int,
) -> None:
    """Append the runs without jokers inside the stretches of consecutive numbers held
    (bit n of ``mask``: number n is held; faces are ``base + n``)."""
    n = 1
    while mask >> n:
        if not mask >> n & 1:
            n += 1
            continue
        start = n
        while mask >> n & 1:
            n += 1
        stop = n - 1
        if stop - start < 2 or (through and not start <= through <= stop):
            continue
        for low in range(start, stop - 1):
            if through and low > through:
                break
            for high in range(max(low + 2, through), min(stop, low + max_size - 1) + 1):
                options = [by_face[base + k] for k in range(low, high + 1)]
                if all(len(o) == 1 for o in options):
                    out.append(_meld(RUN, tuple(o[0] for o in options)))
                else:
                    out.extend(_meld(RUN, tiles) for tiles in product(*options))


def _sets(
    by_face: dict[int, list[int]],
    wild: list[int],
    max_size: int,
    out: list[Meld],
    numbers: Sequence[int] = range(1, 14),
    colour: int = -1,
) -> None:
    """Append the sets of the given numbers (with ``colour``, only sets holding it)."""
    jokers = len(wild)
    by_number: dict[int, list[tuple[int, list[int]]]] = {}
    if len(numbers) == 1:
        faces = [c * 13 + numbers[0] - 1 for c in range(4)]
        by_number[numbers[0]] = [(f // 13, by_face[f]) for f in faces if f in by_face]
    else:
        for f in sorted(by_face):
            by_number.setdefault(f % 13 + 1, []).append((f // 13, by_face[f]))
    for number in numbers:
        present = by_number.get(number)
        if present is None or len(present) + jokers < 3:
            continue
        for size in range(1, len(present) + 1):
            for chosen in combinations(present, size):
                if colour >= 0 and all(c != colour for c, _ in chosen):
                    continue
                for k in range(max(0, 3 - size), min(jokers, 4 - size) + 1):
                    if size + k > max_size:
                        continue
                    for naturals in product(*(tiles for _, tiles in chosen)):
                        for js in combinations(wild, k):
                            out.append(_meld(SET, tuple(sorted(naturals + js))))


def _pairs(by_face: dict[int, list[int]], wild: list[int], out: list[Meld]) -> None:
    for tiles in by_face.values():
        if len(tiles) >= 2:
            out.append(_meld(PAIR, (tiles[0], tiles[1])))
    if wild:
        for f in sorted(by_face):
            for t in by_face[f]:
                for j in wild:
                    out.append(_meld(PAIR, (t, j) if t < j else (j, t)))
        if len(wild) == 2:
            out.append(_meld(PAIR, (wild[0], wild[1])))


def melds_with(tile: int, rack: Sequence[int], eff: Sequence[int]) -> list[Meld]:
    """Return every meld of ``rack`` holding the natural tile ``tile`` (in ``rack``)."""
    f = eff[tile]
    colour, index = divmod(f, 13)
    by_face: dict[int, list[int]] = {}
    wild: list[int] = []
    others: list[int] = []
    for t in rack:
        g = eff[t]
        if g == WILD:
            wild.append(t)
        elif g == f:
            if t != tile:
                others.append(t)
        elif g // 13 == colour or g % 13 == index:
            found = by_face.get(g)
            if found is None:
                by_face[g] = [t]
            else:
                found.append(t)
    by_face[f] = [tile]
    if not wild:
        return _natural_melds_with(tile, f, by_face, others)
    out: list[Meld] = []
    _runs(by_face, wild, 13, out, (colour,), index + 1)
    _sets(by_face, wild, 4, out, (index + 1,), colour)
    out.extend(_meld(PAIR, (tile, t) if tile < t else (t, tile)) for t in others + wild)
    return out


def _natural_melds_with(
    tile: int, f: int, by_face: dict[int, list[int]], others: list[int]
) -> list[Meld]:
    """Return every meld holding ``tile`` (face ``f``) when the rack has no real joker:
    ``by_face`` holds the rack's tiles of f's colour or number (``tile`` alone for f),
    ``others`` the other tiles of face f."""
    out: list[Meld] = []
    colour, index = divmod(f, 13)
    lo = hi = f
    start, stop = colour * 13, colour * 13 + 12
    while lo > start and lo - 1 in by_face:
        lo -= 1
    while hi < stop and hi + 1 in by_face:
        hi += 1
    if hi - lo >= 2:
        for low in range(lo, f + 1):
            for high in range(max(low + 2, f), hi + 1):
                options = [by_face[g] for g in range(low, high + 1)]
                if all(len(o) == 1 for o in options):
                    out.append(_meld(RUN, tuple(o[0] for o in options)))
                else:
                    out.extend(_meld(RUN, tiles) for tiles in product(*options))
    present = [by_face[g] for g in range(index, 52, 13) if g != f and g in by_face]
    for size in range(2, len(present) + 1):
        for chosen in combinations(present, size):
            for naturals in product(*chosen):
                out.append(_meld(SET, tuple(sorted((tile, *naturals)))))
    out.extend(_meld(PAIR, (tile, t) if tile < t else (t, tile)) for t in others)
    return out


def meld_actions(
    rack: Sequence[int],
    eff: Sequence[int],
    okey: int,
    series: bool,
    pairs: bool,
    max_size: int,
) -> list[Meld]:
    """Return every MELD of the rack's tiles (runs and sets if ``series``, pairs if
    ``pairs``) with at most ``max_size`` tiles, runs first, then sets, then pairs."""
    del okey  # pairs of two jokers stand for the okey; the tiles alone define the action
    by_face, wild = _split(rack, eff)
    out: list[Meld] = []
    if series and max_size >= 3:
        _runs(by_face, wild, max_size, out)
        _sets(by_face, wild, max_size, out)
    if pairs and max_size >= 2:
        _pairs(by_face, wild, out)
    return out


MeldCache = tuple[int, frozenset[int], tuple[Meld, ...], int]
"""A seat's listed melds: (okey, rack, melds sorted, index of the first pair)."""

_order = attrgetter("kind", "tiles")
_kind = attrgetter("kind")
_tiles = attrgetter("tiles")
"""The canonical order of melds: by kind, then by tiles."""


def rack_melds(state: LadderState, seat: int) -> tuple[Meld, ...]:
    """Return every meld of ``seat``'s rack (all kinds and sizes) sorted by (kind, tiles),
    updated from the seat's previous answer when only a few natural tiles came in."""
    return _rack_entry(state, seat)[2]


def _rack_entry(state: LadderState, seat: int) -> MeldCache:
    """Return the seat's meld cache entry for its rack now: (okey, rack, melds, index of the
    first pair)."""
    rack = frozenset(state.racks[seat])
    okey = state.jokers.okey
    eff = state.jokers.eff
    cached = state.meld_cache[seat]
    added = None
    if cached is not None and cached[0] == okey:
        if cached[1] == rack:
            return cached
        added = rack - cached[1]
    if cached is None or added is None or len(added) > 2 or any(eff[x] == WILD for x in added):
        result = tuple(sorted(meld_actions(sorted(rack), eff, okey, True, True, 14), key=_order))
    else:
        removed = cached[1] - rack
        melds = [m for m in cached[2] if removed.isdisjoint(m.tiles)] if removed else [*cached[2]]
        found: set[Meld] = set()
        for x in added:
            found.update(melds_with(x, state.racks[seat], eff))
        for m in found:  # none of them was listed: each holds a tile the rack just gained
            insort(melds, m, key=_order)
        result = tuple(melds)
    entry = (okey, rack, result, bisect_left(result, PAIR, key=_kind))
    state.meld_cache[seat] = entry
    return entry


TableCache = tuple[int, list[tuple[int, int, frozenset[int]]], list[tuple[int, int, int]]]
"""What the table offers, per table version: (version, open ends, jokers on the table)."""


def _longest(melds: Sequence[Meld]) -> int:
    """Return the most tiles of a meld of ``melds`` (2 when there is none; no meld holds
    more than 13)."""
    return max(map(len, map(_tiles, melds)), default=2)


def _table_facts(state: LadderState) -> TableCache:
    """Return (version, ends, jokers) of the table now, cached until the table changes:
    (combination, end, faces it takes) for every open end, and (combination, slot, tile)
    for every real joker in a combination."""
    cached = state.ends_cache
    if cached is not None and cached[0] == state.table_version:
        return cached
    eff = state.jokers.eff
    ends: list[tuple[int, int, frozenset[int]]] = []
    jokers: list[tuple[int, int, int]] = []
    for combo in state.combos.values():
        grouped: dict[int, set[int]] = {}
        for end, face in combo.accepts(eff):
            grouped.setdefault(end, set()).add(face)
        ends += [(combo.cid, end, frozenset(faces)) for end, faces in grouped.items()]
        jokers += [(combo.cid, slot, t) for slot, t in enumerate(combo.tiles) if eff[t] == WILD]
    entry = state.ends_cache = (state.table_version, ends, jokers)
    return entry


def _layoffs(state: LadderState, rack: list[int], out: list[Any]) -> None:
    eff = state.jokers.eff
    by_face: dict[int, list[int]] = {}
    wild: list[int] = []
    for t in rack:
        if t != state.taken:
            f = eff[t]
            if f == WILD:
                wild.append(t)
            else:
                by_face.setdefault(f, []).append(t)
    used = state.ends_used
    for cid, end, faces in _table_facts(state)[1]:
        if used and (cid, end) in used:
            continue
        found = [t for f in faces if f in by_face for t in by_face[f]]
        if found:
            found.sort()
            out.extend(_layoff(t, cid, end) for t in found)
        if wild:
            out.extend(_layoff(j, cid, end) for j in wild)


def _replacements(state: LadderState, rack: list[int], out: list[Any]) -> None:
    eff = state.jokers.eff
    jokers = _table_facts(state)[2]
    if not jokers:
        return
    usable = [t for t in rack if t != state.taken and eff[t] != WILD]
    for cid, slot, joker in jokers:
        if joker in state.jokers_placed:
            continue
        combo = state.combos[cid]
        if combo.kind != SET:
            identity = combo.slot_face(slot, eff)
            out.extend(ReplaceJoker(combo.cid, joker, (t,)) for t in usable if eff[t] == identity)
            continue
        mask = colour_mask(combo.tiles, eff)
        fitting = [
            t
            for t in usable
            if number_of(eff[t]) == combo.start and not mask & (1 << colour_of(eff[t]))
        ]
        if len(combo.tiles) == 4:
            out.extend(ReplaceJoker(combo.cid, joker, (t,)) for t in fitting)
        elif (combo.cid, GROUP) not in state.ends_used:
            for a, b in combinations(fitting, 2):
                if colour_of(eff[a]) != colour_of(eff[b]):
                    out.append(ReplaceJoker(combo.cid, joker, (a, b)))


def _gifts(state: LadderState, seat: int, rack: list[int], out: list[Any]) -> None:
    if state.pairs_limit_reached():
        return
    recipients = [s for s in range(4) if s != seat and state.opened[s] == PAIRS]
    if not recipients:
        return
    pairs = meld_actions(rack, state.jokers.eff, state.jokers.okey, False, True, 2)
    for to in recipients:
        out.extend(GivePair(to, m.tiles) for m in pairs if state.keeps_discard(seat, m.tiles))


def _discards(state: LadderState, seat: int, rack: list[int], out: list[Any]) -> None:
    if rack and state.discard_refusal(seat, rack[0]) is None:
        out.extend(map(_DISCARDS.__getitem__, rack))


def actions(state: LadderState) -> tuple[Any, ...]:
    """Return the legal actions of the player to act, in canonical order."""
    seat = state.to_move
    phase = state.phase
    if phase == "take":
        first: list[Any] = [_DRAW] if state.wall else []
        if state.piles[(seat - 1) % 4]:
            first.append(_TAKE)
        return tuple(first)
    if phase == "must_draw":
        return (_DRAW,) if state.wall else ()
    rack = state.racks[seat]
    out: list[Any] = []
    status = state.opened[seat]
    if status == NONE:
        kind = state.prov_kind
        series = kind in (NONE, SERIES)
        pairs = kind in (NONE, PAIRS)
    else:
        series, pairs = status == SERIES, status == PAIRS
    taken = state.taken if state.taken in rack else -1
    limit = len(rack) - 1
    _, _, melds, first_pair = _rack_entry(state, seat)
    if taken < 0 and limit >= 2 and (limit >= 13 or _longest(melds[:first_pair]) <= limit):
        out.extend(melds[: first_pair if series else 0])
        out.extend(melds[first_pair if pairs else len(melds) :])
    else:
        out.extend(
            m
            for m in melds
            if (pairs if m.kind == PAIR else series)
            and len(m.tiles) <= limit - (taken >= 0 and taken not in m.tiles)
        )
    if state.may_work_table(seat):
        if len(rack) >= (3 if state.taken in rack else 2):
            _layoffs(state, rack, out)
        _replacements(state, rack, out)
        if state.effective_status(seat) == SERIES:
            _gifts(state, seat, rack, out)
    if state.provisional:
        out.append(_RECALL)
    if state.taken >= 0 and state.taken in rack:
        out.append(_RETURN)
    _discards(state, seat, rack, out)
    return tuple(out)

"""Meld rules of Tile Rummy 500 (rules section 5 and 6): sets, runs on positions 0..14, the
Smileys' meanings, where a tile may be added, and the melds a pool of tiles can form.

Everything works on tile ids (``faces``). A run is given in ascending order; its *start* is the
position of its first tile (0 stands for a 13 before a 1, 14 for a 1 after a 13).

>>> from meldhall.games.tile_rummy.pieces import parse_tile
>>> ids = lambda text: [parse_tile(t) for t in text.split()]
>>> judge("run", ids("R12a R13a R1a"), wrap=True)
Shape(kind='run', key=12, colour=0)
>>> judge("run", ids("R12a R13a R1a R2a"), wrap=True) is None
True
>>> joker_identities(judge_any(ids("Sa R1a Sb"), True), ids("Sa R1a Sb"))
['R13', 'R2']
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from meldhall.games.tile_rummy.pieces import COLOURS, FACES, SMILEY_A, pos_number

LOW = "low"
HIGH = "high"


@dataclass(frozen=True, slots=True)
class Shape:
    """What a valid meld is: ``kind`` "run" (``key`` = start position, ``colour``) or "set"
    (``key`` = number, ``colour`` = -1)."""

    kind: str
    key: int
    colour: int


MAX_RUN = 14


def line(wrap: bool) -> tuple[int, int]:
    """Return the lowest and highest run position (0..14 with 13-1 at one end, else 1..13)."""
    return (0, 14) if wrap else (1, 13)


def max_run(wrap: bool) -> int:
    """Return the most tiles a run may hold: 14 (seed), 13 without the 13-1 step."""
    return MAX_RUN if wrap else 13


def judge_run(tiles: Sequence[int], wrap: bool) -> Shape | None:
    """Return the run shape of tiles listed in ascending order, or None (5.2)."""
    lo, hi = line(wrap)
    length = len(tiles)
    if length < 3 or length > max_run(wrap):
        return None
    colour = -1
    start = -100
    for i, t in enumerate(tiles):
        if t >= SMILEY_A:
            continue
        f = t >> 1
        c, n = divmod(f, 13)
        n += 1
        if colour < 0:
            colour = c
            for cand in (n - i, -i if n == 13 else -100, 14 - i if n == 1 else -100):
                if lo <= cand and cand + length - 1 <= hi:
                    start = cand
                    break
            else:
                return None
        elif c != colour or pos_number(start + i) != n:
            return None
    if colour < 0:
        return None
    return Shape("run", start, colour)


def judge_set(tiles: Sequence[int]) -> Shape | None:
    """Return the set shape (3-4 tiles, one number, different colours), or None (5.1)."""
    if not 3 <= len(tiles) <= 4:
        return None
    number = 0
    seen = 0
    for t in tiles:
        if t >= SMILEY_A:
            continue
        c, n = divmod(t >> 1, 13)
        if number == 0:
            number = n + 1
        elif number != n + 1:
            return None
        if seen & (1 << c):
            return None
        seen |= 1 << c
    if number == 0:
        return None
    return Shape("set", number, -1)


def judge(kind: str, tiles: Sequence[int], wrap: bool) -> Shape | None:
    """Return the shape of the tiles read as ``kind`` ("run" or "set"), or None."""
    if kind == "run":
        return judge_run(tiles, wrap)
    if kind == "set":
        return judge_set(tiles)
    return None


def judge_any(tiles: Sequence[int], wrap: bool) -> Shape | None:
    """Return the run reading if valid, else the set reading, else None."""
    return judge_run(tiles, wrap) or judge_set(tiles)


def missing_colours(tiles: Sequence[int]) -> list[int]:
    """Return the colours (ascending) that no number tile of a set shows."""
    seen = 0
    for t in tiles:
        if t < SMILEY_A:
            seen |= 1 << ((t >> 1) // 13)
    return [c for c in range(4) if not seen & (1 << c)]


def joker_identities(shape: Shape | None, tiles: Sequence[int]) -> list[str]:
    """Return what every Smiley stands for, in tile order: ``R12``; ``?5`` for an open colour.

    In a run the position fixes it; in a 3-tile set the colour is open; in a 4-tile set a
    single Smiley is the missing colour and two Smileys share the two missing ones (open).
    """
    if shape is None:
        return []
    out: list[str] = []
    if shape.kind == "run":
        for i, t in enumerate(tiles):
            if t >= SMILEY_A:
                out.append(f"{COLOURS[shape.colour]}{pos_number(shape.key + i)}")
        return out
    smileys = sum(1 for t in tiles if t >= SMILEY_A)
    missing = missing_colours(tiles)
    name = f"?{shape.key}"
    if len(tiles) == 4 and smileys == 1:
        name = f"{COLOURS[missing[0]]}{shape.key}"
    return [name] * smileys


def fits(shape: Shape, tiles: Sequence[int], tile: int, end: str | None, wrap: bool) -> bool:
    """Return True when ``tile`` may be added to the meld at ``end`` (6): a run takes a tile
    at its low or high end only, a 3-tile set a fourth tile of a missing colour (or a Smiley)."""
    smiley = tile >= SMILEY_A
    if shape.kind == "set":
        if end is not None or len(tiles) != 3:
            return False
        if smiley:
            return True
        c, n = divmod(tile >> 1, 13)
        return n + 1 == shape.key and c in missing_colours(tiles)
    lo, hi = line(wrap)
    if len(tiles) >= max_run(wrap):
        return False
    if end == LOW:
        pos = shape.key - 1
    elif end == HIGH:
        pos = shape.key + len(tiles)
    else:
        return False
    if pos < lo or pos > hi:
        return False
    return smiley or (tile >> 1) == shape.colour * 13 + pos_number(pos) - 1


def accepting(shape: Shape, tiles: Sequence[int], wrap: bool) -> list[tuple[int, str | None]]:
    """Return every (face, end) a meld accepts; face -1 stands for a Smiley."""
    out: list[tuple[int, str | None]] = []
    if shape.kind == "set":
        if len(tiles) == 3:
            out += [(c * 13 + shape.key - 1, None) for c in missing_colours(tiles)]
            out.append((-1, None))
        return out
    lo, hi = line(wrap)
    if len(tiles) >= max_run(wrap):
        return out
    base = shape.colour * 13 - 1
    low, high = shape.key - 1, shape.key + len(tiles)
    if low >= lo:
        out += [(base + pos_number(low), LOW), (-1, LOW)]
    if high <= hi:
        out += [(base + pos_number(high), HIGH), (-1, HIGH)]
    return out


# ----------------------------------------------------------------------------- enumeration

Template = tuple[str, tuple[int, ...]]
"""A meld by faces: kind and one slot per tile, a face 0..51 or -1 for a Smiley."""

_SUBSETS: list[list[tuple[int, ...]]] = [
    [
        cols
        for size in range(1, 5)
        for cols in combinations(range(4), size)
        if all(mask & (1 << c) for c in cols)
    ]
    for mask in range(16)
]


class Pool:
    """Tiles available to form melds, counted by face, with the ids of each face ascending."""

    __slots__ = ("counts", "ids", "num_masks", "pos_masks", "smileys")

    def __init__(self, tiles: Sequence[int] = ()) -> None:
        counts = [0] * FACES
        ids: dict[int, list[int]] = {}
        smileys: list[int] = []
        pos_masks = [0, 0, 0, 0]
        num_masks = [0] * 14
        for t in sorted(tiles):
            if t >= SMILEY_A:
                smileys.append(t)
                continue
            f = t >> 1
            counts[f] += 1
            if f in ids:
                ids[f].append(t)
            else:
                ids[f] = [t]
            c = f // 13
            pos_masks[c] |= _POS_BITS[f - c * 13 + 1]
            num_masks[f - c * 13 + 1] |= 1 << c
        self.counts = counts
        self.ids = ids
        self.smileys = smileys
        self.pos_masks = pos_masks
        self.num_masks = num_masks

    def add(self, tile: int) -> None:
        """Add one tile to the pool."""
        if tile >= SMILEY_A:
            insort(self.smileys, tile)
            return
        f = tile >> 1
        self.counts[f] += 1
        insort(self.ids.setdefault(f, []), tile)
        c, n = divmod(f, 13)
        n += 1
        self.pos_masks[c] |= _POS_BITS[n]
        self.num_masks[n] |= 1 << c


_STARTS = {True: (1 << 13) - 1, False: ((1 << 12) - 1) & ~1}
"""Bit s set for every start position of a 3-tile run (0..12 with wrap, else 1..11)."""

_POS_BITS = [0] + [1 << n for n in range(1, 14)]
_POS_BITS[13] |= 1
_POS_BITS[1] |= 1 << 14


def templates(pool: Pool, wrap: bool, must: int | None = None) -> list[Template]:
    """Return the melds the pool can form, by faces, in a canonical order.

    Sets: every colour subset of one number, completed by Smileys to 3 or 4 tiles. Runs: every
    window of positions, with Smileys exactly where the pool lacks the tile. ``must`` keeps
    only melds holding that face (or, with -1, holding a Smiley).
    """
    jokers = len(pool.smileys)
    out: list[Template] = []
    _set_templates(pool, jokers, must, out)
    _run_templates(pool, jokers, wrap, must, out)
    return out


def _set_templates(pool: Pool, jokers: int, must: int | None, out: list[Template]) -> None:
    numbers: Sequence[int] = range(1, 14)
    must_colour = -1
    if must is not None and must >= 0:
        must_colour, number = divmod(must, 13)
        numbers = (number + 1,)
    for n in numbers:
        mask = pool.num_masks[n]
        if not mask or (mask.bit_count() + jokers < 3):
            continue
        for cols in _SUBSETS[mask]:
            k = len(cols)
            if must_colour >= 0 and must_colour not in cols:
                continue
            for j in range(max(0, 3 - k), min(jokers, 4 - k) + 1):
                if must == -1 and j == 0:
                    continue
                out.append(("set", tuple(c * 13 + n - 1 for c in cols) + (-1,) * j))


def _run_templates(
    pool: Pool, jokers: int, wrap: bool, must: int | None, out: list[Template]
) -> None:
    lo, hi = line(wrap)
    colours: Sequence[int] = range(4)
    if must is not None and must >= 0:
        colours = (must // 13,)
    counts = pool.counts
    for c in colours:
        mask = pool.pos_masks[c]
        if not mask and not jokers:
            continue
        base = c * 13 - 1
        if jokers == 0:
            starts = mask & (mask >> 1) & (mask >> 2) & _STARTS[wrap]
            _plain_runs(mask, counts, base, hi, starts, must, out)
            continue
        for s in range(lo, hi - 1):
            missing = 0
            used13 = used1 = 0
            slots: list[int] = []
            naturals = 0
            for e in range(s, min(hi, s + max_run(wrap) - 1) + 1):
                n = pos_number(e)
                f = base + n
                if n == 13:
                    used13 += 1
                    have = counts[f] >= used13
                elif n == 1:
                    used1 += 1
                    have = counts[f] >= used1
                else:
                    have = counts[f] > 0
                if have:
                    slots.append(f)
                    naturals += 1
                else:
                    missing += 1
                    if missing > jokers:
                        break
                    slots.append(-1)
                if (
                    e - s >= 2
                    and naturals
                    and (must is None or (must in slots if must >= 0 else missing > 0))
                ):
                    out.append(("run", tuple(slots)))


def _plain_runs(
    mask: int,
    counts: list[int],
    base: int,
    hi: int,
    starts: int,
    must: int | None,
    out: list[Template],
) -> None:
    """Append every run without Smileys of one colour (``base`` = colour × 13 − 1)."""
    while starts:
        low = starts & -starts
        starts ^= low
        s = low.bit_length() - 1
        slots = [base + pos_number(s), base + s + 1, base + pos_number(s + 2)]
        if must is None or must in slots:
            out.append(("run", tuple(slots)))
        e = s + 3
        last = min(hi, s + MAX_RUN - 1)
        while e <= last and mask >> e & 1:
            if (e == 13 and s == 0 and counts[base + 13] < 2) or (
                e == 14 and s <= 1 and counts[base + 1] < 2
            ):
                break
            slots.append(base + pos_number(e))
            if must is None or must in slots:
                out.append(("run", tuple(slots)))
            e += 1


def assign(template: Template, pool: Pool, forced: int | None = None) -> tuple[int, ...]:
    """Return the tile ids of a template: the lowest ids of each face (and Smiley) in order,
    except that ``forced`` takes the first slot of its face."""
    slots = template[1]
    taken: dict[int, int] = {}
    forced_face = -2
    if forced is not None:
        forced_face = -1 if forced >= SMILEY_A else forced >> 1
    out: list[int] = []
    for f in slots:
        ids = pool.smileys if f < 0 else pool.ids[f]
        if f == forced_face and forced_face not in taken:
            taken[f] = 0
            out.append(forced)  # type: ignore[arg-type]
            continue
        k = taken.get(f, 0)
        i = 0
        for t in ids:
            if t == forced:
                continue
            if i == k:
                out.append(t)
                break
            i += 1
        taken[f] = k + 1
    return tuple(out)

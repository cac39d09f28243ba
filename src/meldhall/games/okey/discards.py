"""Which discards of a 15-tile hand leave a winning hand, fast enough to list DISCARD_WIN
actions on every turn.

Cheap necessary conditions come first, on bit masks (bit ``n − 1`` of a colour's mask is the
number ``n``). A tile is *unmelded* when no whole set or run of natural tiles holds it; in a
winning hand every unmelded tile sits in a meld with a real joker, and a meld with one joker
holds at most four unmelded tiles (two on each side of the joker), so 14 tiles with ``w``
jokers have at most 0, 4 or 8 of them. Most hands fail here. The few candidates left are
tested by the fast search of ``split``. The arrangement solver has the last word: the state
judges every claimed win with it (``hand.judge``), and the tests check both agree.

>>> from meldhall.games.okey.hand import ids
>>> rules = HandRules(okey=41)  # indicator K2
>>> hand = ids("R1 R2 R3 Y7 B7 K7 B10 B11 B12 B13 Y4 Y5 Y6 Y7 B5")
>>> [TOKENS[t] for t in winning_discards(hand, rules)]
['B5a']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from meldhall.games.okey.hand import HandRules, fits_sets_runs
from meldhall.games.okey.pieces import FACES, TILE_COUNT, TOKENS, effective_faces
from meldhall.games.okey.split import skips

__all__ = ["TOKENS", "winning_discards"]

_MASK13 = (1 << 13) - 1
_LIMIT = (1, 5, 9)
"""Most unmelded tiles a 15-tile hand with 0, 1, 2 jokers may hold and still win by
discarding a natural tile (one more than a 14-tile winner can hold)."""
_COLOUR = tuple(f // 13 for f in range(FACES))
_BIT = tuple(1 << (f % 13) for f in range(FACES))


@cache
def _tile_bits(okey: int) -> tuple[tuple[int, int] | None, ...]:
    """Return per tile id its (colour, number bit) under okey face ``okey``, None for a real
    joker (a false joker takes the okey face)."""
    out: list[tuple[int, int] | None] = []
    for t in range(TILE_COUNT):
        face = okey if t >= 104 else t >> 1
        out.append(None if t < 104 and face == okey else (_COLOUR[face], _BIT[face]))
    return tuple(out)


def _masks(hand: Sequence[int], okey: int) -> tuple[list[int], list[int], int]:
    """Return per colour the numbers held once or more, held twice, and the real jokers."""
    once = [0, 0, 0, 0]
    twice = [0, 0, 0, 0]
    wild = 0
    bits = _tile_bits(okey)
    for t in hand:
        info = bits[t]
        if info is None:
            wild += 1
            continue
        c, bit = info
        if once[c] & bit:
            twice[c] |= bit
        else:
            once[c] |= bit
    return once, twice, wild


def _unmelded_masks(once: list[int], wrap: bool) -> list[int]:
    """Return per colour the numbers held that no natural set or run holds."""
    a, b, c, d = once
    sets = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    out = []
    for m in once:
        x = m | ((m & 1) << 13) if wrap else m
        starts = x & (x >> 1) & (x >> 2)
        runs = starts | (starts << 1) | (starts << 2)
        runs = (runs | (runs >> 13)) & _MASK13 if wrap else runs & _MASK13
        out.append(m & ~(runs | sets))
    return out


def _face_at(colour: int, position: int) -> int:
    return colour * 13 + (0 if position == 14 else position - 1)


def _one_meld(group: list[int], jokers: int, counts: Sequence[int], rules: HandRules) -> bool:
    """Return False when the tiles of ``group`` cannot lie together in one set or run with
    at most ``jokers`` jokers and the other tiles of ``counts`` (a necessary condition)."""
    if not group:
        return True
    number, colour = group[0] % 13, group[0] // 13
    if all(f % 13 == number for f in group) and len(set(group)) == len(group) <= 3:
        return True
    if any(f // 13 != colour for f in group):
        return False
    numbers = sorted(f % 13 + 1 for f in group)
    if len(set(numbers)) != len(numbers):
        # only the 1 may repeat, at both ends of 1-2-...-13-1
        return rules.top == 14 and rules.max_run == 14 and numbers.count(1) == 2
    choices = [numbers]
    if numbers[0] == 1 and rules.wrap:
        choices.append([*numbers[1:], 14])
    for positions in choices:
        low, high = positions[0], positions[-1]
        if high - low + 1 > rules.max_run:
            continue
        taken = set(positions)
        missing = sum(
            1 for q in range(low, high + 1) if q not in taken and not counts[_face_at(colour, q)]
        )
        if missing <= jokers:
            return True
    return False


def _lines(face: int) -> tuple[tuple[str, int], tuple[str, int]]:
    return (("colour", face // 13), ("number", face % 13))


def _on(line: tuple[str, int], face: int) -> bool:
    return (face // 13 if line[0] == "colour" else face % 13) == line[1]


def _two_melds(group: list[int], counts: Sequence[int], rules: HandRules) -> bool:
    """Return False when the tiles of ``group`` fit neither one meld with two jokers nor two
    melds with one joker each (a necessary condition; a meld's tiles share a colour or a
    number)."""
    if _one_meld(group, 2, counts, rules):
        return True
    for first in _lines(group[0]):
        off = [f for f in group if not _on(first, f)]
        if not off:
            return True  # two melds on one line (two runs of a colour, two sets of a number)
        for second in _lines(off[0]):
            if any(not _on(second, f) for f in off):
                continue
            both = [f for f in group if _on(first, f) and _on(second, f)]
            only_first = [f for f in group if _on(first, f) and not _on(second, f)]
            for mask in range(1 << len(both)):
                a = only_first + [f for i, f in enumerate(both) if mask >> i & 1]
                b = off + [f for i, f in enumerate(both) if not mask >> i & 1]
                if _one_meld(a, 1, counts, rules) and _one_meld(b, 1, counts, rules):
                    return True
    return False


def _coverable(group: list[int], wild: int, counts: Sequence[int], rules: HandRules) -> bool:
    """Return False when unmelded tiles ``group`` cannot all sit in melds with ``wild``
    jokers (a necessary condition)."""
    if wild == 0:
        return not group
    if wild == 1:
        return _one_meld(group, 1, counts, rules)
    return _two_melds(group, counts, rules)


def _natural_discards(
    counts: list[int], wild: int, unmelded: list[int], rules: HandRules
) -> set[int]:
    """Return the faces whose discard (one tile) leaves sets and runs, jokers kept."""
    if _coverable(unmelded, wild, counts, rules):
        if len(unmelded) == _LIMIT[wild]:
            candidates = sorted(set(unmelded))
        else:
            candidates = [f for f in range(FACES) if counts[f]]
    else:
        candidates = []
        for face in sorted(set(unmelded)):
            rest = list(unmelded)
            rest.remove(face)
            if _coverable(rest, wild, counts, rules):
                candidates.append(face)
    if len(candidates) > 2:
        found = skips(counts, wild, top=rules.top, max_run=rules.max_run)
        candidates = [f for f in candidates if f in found]
    out: set[int] = set()
    for face in candidates:
        counts[face] -= 1
        if fits_sets_runs(counts, wild, rules):
            out.add(face)
        counts[face] += 1
    return out


def winning_discards(hand: Sequence[int], rules: HandRules) -> tuple[int, ...]:
    """Return the tiles of a 15-tile hand whose discard leaves a winning hand, in hand order."""
    once, twice, wild = _masks(hand, rules.okey)
    o0, o1, o2, o3 = once
    t0, t1, t2, t3 = twice
    singles = (o0 ^ t0).bit_count() + (o1 ^ t1).bit_count()
    singles += (o2 ^ t2).bit_count() + (o3 ^ t3).bit_count()
    unmelded_masks = _unmelded_masks(once, rules.wrap)
    u0, u1, u2, u3 = unmelded_masks
    n_unmelded = u0.bit_count() + u1.bit_count() + u2.bit_count() + u3.bit_count()
    n_unmelded += (u0 & t0).bit_count() + (u1 & t1).bit_count()
    n_unmelded += (u2 & t2).bit_count() + (u3 & t3).bit_count()
    naturals_may = n_unmelded <= _LIMIT[wild]
    joker_may = wild > 0 and n_unmelded <= _LIMIT[wild - 1] - 1
    pairs_may = rules.seven_pairs and singles - 1 <= wild
    if not (naturals_may or joker_may or pairs_may):
        return ()
    counts, _ = effective_faces(list(hand), rules.okey)
    unmelded = [
        c * 13 + b
        for c in range(4)
        for b in range(13)
        if unmelded_masks[c] >> b & 1
        for _ in range(counts[c * 13 + b])
    ]
    faces = _natural_discards(counts, wild, unmelded, rules) if naturals_may else set()
    joker_wins = False
    if joker_may:
        coverable = _coverable(unmelded, wild - 1, counts, rules)
        joker_wins = coverable and fits_sets_runs(counts, wild - 1, rules)
    if pairs_may:
        if wild and singles <= wild - 1:
            joker_wins = True
        for face in range(FACES):
            if counts[face] and (singles - 1 if counts[face] == 1 else singles + 1) <= wild:
                faces.add(face)
    if not faces and not joker_wins:
        return ()
    okey = rules.okey
    out: list[int] = []
    for t in hand:
        if t >= 104:
            if okey in faces:
                out.append(t)
        elif t >> 1 == okey:
            if joker_wins:
                out.append(t)
        elif t >> 1 in faces:
            out.append(t)
    return tuple(out)

"""Shanten (tiles away from ready) on count arrays, by per-suit tables (pure functions).

Standard form: a hand is cut into sets (``m``), partial sets (``q``: a pair, two adjacent
ranks or two ranks with a gap) and single tiles. With ``M`` sets, ``Q`` partial sets and
``H`` = 1 when one of the partial sets is a pair (the head), the usual count is

    shanten = 8 - 2M - min(Q, 4 - M + H)

minimised over every cut (``M`` includes declared melds). This is the formula of the
``mahjong`` library (``Shanten``), searched here exhaustively. Suits do not interact, so
each suit's nine counts are reduced once to the few cuts that can matter, the Pareto front
of ``(m, q, h)`` (one cut beats another when it has at least as many sets, at least as many
sets plus partial sets, and a head if the other has one), cached by the suit key of
``hand.py``; a hand is then three look-ups and a product of three short lists.

Seven pairs in Sichuan counts four of a kind as two pairs: ``6 - sum(count // 2)``.

>>> from meldhall.games.sichuan.hand import counts_of
>>> shanten(counts_of("1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 5p 5p"))
-1
>>> shanten(counts_of("1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 5p 7s"))
0
>>> seven_pairs_shanten(counts_of("1m 1m 1m 1m 2m 2m 3m 3m 5p 5p 6p 6p 7p 7p"))
-1
"""

from __future__ import annotations

from collections.abc import Sequence

from meldhall.games.sichuan.hand import RANK_SHIFT, RANKS, key_counts

Cut = tuple[int, int, int]
"""One suit's cut: (sets, partial sets, 1 if a pair is among the partial sets)."""

_Q_CAP = 5
"""More than five partial sets never lower the count (the min in the formula is <= 5)."""

_CUTS: dict[int, tuple[Cut, ...]] = {0: ((0, 0, 0),)}
_PAIRS: dict[int, int] = {}


def _front(best: dict[int, int]) -> tuple[Cut, ...]:
    """Return the cuts no other cut beats, best first (most sets, then most sets plus
    partial sets, then a head), from the most partial sets per ``2 * sets + head`` (for the
    same sets and head, more partial sets always beat fewer)."""
    codes = sorted(
        ((slot >> 1) * 64 + ((slot >> 1) + q) * 2 + (slot & 1) for slot, q in best.items()),
        reverse=True,
    )
    out: list[Cut] = []
    for code in codes:
        m, mq, h = code >> 6, (code >> 1) & 31, code & 1
        for o in out:
            if o[0] >= m and o[0] + o[1] >= mq and o[2] >= h:
                break
        else:
            out.append((m, mq - m, h))
    return tuple(out)


def _joined(low: tuple[Cut, ...], high: tuple[Cut, ...]) -> tuple[Cut, ...]:
    """Return the front of two groups of ranks two or more empty ranks apart (no set or
    partial set joins them): the best of every cut of one with every cut of the other."""
    best: dict[int, int] = {}
    get = best.get
    for m0, q0, h0 in low:
        for m1, q1, h1 in high:
            slot = 2 * (m0 + m1) + (h0 | h1)
            q = q0 + q1
            if q > _Q_CAP:
                q = _Q_CAP
            if get(slot, -1) < q:
                best[slot] = q
    return _front(best)


def suit_cuts(key: int) -> tuple[Cut, ...]:
    """Return the Pareto front of ``(sets, partial sets, head)`` over every cut of one suit.

    The front depends on the shape of the counts only, not on where in the suit they lie
    (no rule of Sichuan treats a rank apart), so a key is first shifted down to start at
    rank 1 and the shifted key's front is shared; ranks two or more empty ranks apart never
    meet in a set or partial set, so such groups are solved apart and joined.

    >>> suit_cuts(0)
    ((0, 0, 0),)
    >>> from meldhall.games.sichuan.hand import counts_of, suit_key
    >>> suit_cuts(suit_key(counts_of("1m 2m 3m 5m 5m"), 0))
    ((1, 1, 1),)
    """
    known = _CUTS.get(key)
    if known is not None:
        return known
    low = ((key & -key).bit_length() - 1) >> 3
    if low:
        front = suit_cuts(key >> (8 * low))
        _CUTS[key] = front
        return front
    raw = key.to_bytes(RANKS, "little").rstrip(b"\0")
    gap = raw.find(b"\0\0")
    if gap > 0:
        front = _joined(suit_cuts(key & ((1 << (8 * gap)) - 1)), suit_cuts(key >> (8 * gap)))
        _CUTS[key] = front
        return front
    # the lowest rank holds tiles: every way to spend all of them at once (pungs, pairs,
    # chows, partial chows, singles), so the recursion only meets keys with that rank empty
    c0 = key & 255
    c1 = (key >> 8) & 255
    c2 = (key >> 16) & 255
    ways = _WAYS.get((c0, c1, c2)) or _ways(c0, c1, c2)
    best: dict[int, int] = {}
    get = best.get
    for used, dslot, dq, dh in ways:
        rest = key - used
        if rest and not rest & 255:  # shifted here: no entry for the unshifted key
            rest >>= 8 * (((rest & -rest).bit_length() - 1) >> 3)
        for m, q, h in _CUTS.get(rest) or suit_cuts(rest):
            slot = 2 * m + dslot + (h | dh)
            q += dq
            if q > _Q_CAP:
                q = _Q_CAP
            if get(slot, -1) < q:
                best[slot] = q
    front = _front(best)
    _CUTS[key] = front
    return front


_WAYS: dict[tuple[int, int, int], tuple[tuple[int, int, int, int], ...]] = {}


def _ways(c0: int, c1: int, c2: int) -> tuple[tuple[int, int, int, int], ...]:
    """Return (tiles used as a key, 2 x sets, partial sets, head) for every way to spend
    the ``c0`` tiles of the lowest rank, with ``c1`` and ``c2`` tiles on the next two ranks:
    pungs, pairs, chows, two-rank and gapped partial chows; the rest are singles."""
    two, three = RANK_SHIFT[1], RANK_SHIFT[2]
    out: set[tuple[int, int, int, int]] = set()
    for pungs in range(c0 // 3 + 1):
        for pairs in range((c0 - 3 * pungs) // 2 + 1):
            rest = c0 - 3 * pungs - 2 * pairs
            for chows in range(min(rest, c1, c2) + 1):
                for near in range(min(rest - chows, c1 - chows) + 1):
                    for gapped in range(min(rest - chows - near, c2 - chows) + 1):
                        used = c0 + (chows + near) * two + (chows + gapped) * three
                        partial = pairs + near + gapped
                        out.add((used, 2 * (pungs + chows), partial, 1 if pairs else 0))
    ways = tuple(sorted(out))
    _WAYS[(c0, c1, c2)] = ways
    return ways


def _pairs(key: int) -> int:
    """Return the number of pairs in one suit, four of a kind counting twice."""
    known = _PAIRS.get(key)
    if known is None:
        known = sum(n // 2 for n in key_counts(key))
        _PAIRS[key] = known
    return known


def standard_shanten_keys(k0: int, k1: int, k2: int, melds: int = 0) -> int:
    """Return the standard-form shanten of concealed tiles with these suit keys and
    ``melds`` declared melds (-1: a complete hand)."""
    c0 = _CUTS.get(k0) or suit_cuts(k0)
    c1 = _CUTS.get(k1) or suit_cuts(k1)
    c2 = _CUTS.get(k2) or suit_cuts(k2)
    best = 8
    for m0, q0, h0 in c0:
        for m1, q1, h1 in c1:
            m01 = m0 + m1 + melds
            q01 = q0 + q1
            h01 = h0 | h1
            for m2, q2, h2 in c2:
                m = m01 + m2
                q = q01 + q2
                room = 4 - m + (h01 | h2)
                value = 8 - 2 * m - (q if q < room else room)
                if value < best:
                    best = value
    return best


def shanten_keys(k0: int, k1: int, k2: int, melds: int = 0) -> int:
    """Return the shanten over both forms (seven pairs only without melds)."""
    best = standard_shanten_keys(k0, k1, k2, melds)
    if melds == 0:
        p0 = _PAIRS.get(k0)
        if p0 is None:
            p0 = _pairs(k0)
        p1 = _PAIRS.get(k1)
        if p1 is None:
            p1 = _pairs(k1)
        p2 = _PAIRS.get(k2)
        if p2 is None:
            p2 = _pairs(k2)
        pairs = p0 + p1 + p2
        seven = 6 - (pairs if pairs < 7 else 7)
        if seven < best:
            return seven
    return best


def standard_shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Return the standard-form shanten of a count array with ``melds`` declared melds."""
    b = bytes(counts)
    return standard_shanten_keys(
        int.from_bytes(b[0:9], "little"),
        int.from_bytes(b[9:18], "little"),
        int.from_bytes(b[18:27], "little"),
        melds,
    )


def seven_pairs_shanten(counts: Sequence[int]) -> int:
    """Return the seven-pairs shanten (four of a kind are two pairs)."""
    pairs = sum(n // 2 for n in counts)
    return 6 - min(pairs, 7)


def shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Return the shanten of a count array over the standard form and (without melds)
    seven pairs: -1 complete, 0 ready, 1 one tile from ready, ..."""
    b = bytes(counts)
    return shanten_keys(
        int.from_bytes(b[0:9], "little"),
        int.from_bytes(b[9:18], "little"),
        int.from_bytes(b[18:27], "little"),
        melds,
    )


def clear_caches() -> None:
    """Empty the per-suit tables (benchmarks measure a cold start with it)."""
    _CUTS.clear()
    _CUTS[0] = ((0, 0, 0),)
    _PAIRS.clear()
    _WAYS.clear()

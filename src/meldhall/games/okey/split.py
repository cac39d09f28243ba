"""Fast yes/no searches: do these tiles split into okey sets and runs, and which one tile
may be left out so that the rest does? Depth first over faces in order, the first tile left
always placed in a set or a run, with memos of the positions already searched. They scan
the candidate discards of every turn (``discards``); the arrangement solver judges every
win claimed (``hand.judge``).

>>> from meldhall.games.okey.pieces import effective_faces
>>> from meldhall.games.okey.hand import ids
>>> counts, wild = effective_faces(ids("R1 R2 R3 Y7 B7 K7 B10 B11 B12 B13 Y4 Y5 Y6 Y7"), 41)
>>> fits(counts, wild, top=14, max_run=14)
True
>>> counts[4] += 1  # a red 5 more: only that red 5 (face 4) may be left out
>>> sorted(skips(counts, wild, top=14, max_run=14))
[4]
>>> counts, wild = effective_faces(ids("Y13 Y1 Y2 R5 R6 R7 B9 Y9 K9 K4 K5 K6 K7 K8"), 41)
>>> fits(counts, wild, top=14, max_run=14)
False
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from meldhall.games.okey.pieces import FACES

Then = Callable[[int, int], bool]
"""What to do once a meld is placed: called with (face to go on from, jokers left); True
stops the enumeration."""


class _Search:
    """One search over a count array (mutated and restored in place) with its memos."""

    def __init__(self, counts: Sequence[int], top: int, max_run: int) -> None:
        self.c = list(counts)
        self.top = top
        self.max_run = max_run
        self.memo: dict[tuple[int, ...], bool] = {}
        self.skip_memo: dict[tuple[int, ...], frozenset[int]] = {}

    def _first(self, i: int) -> int:
        c = self.c
        while i < FACES and not c[i]:
            i += 1
        return i

    def place(self, i: int, jokers: int) -> bool:
        """Return True when every tile from face ``i`` on and ``jokers`` jokers split."""
        c = self.c
        i = self._first(i)
        if i == FACES:
            return jokers == 0
        key = (i, jokers, *c[i:])
        known = self.memo.get(key)
        if known is not None:
            return known
        c[i] -= 1
        found = self._melds(i, jokers, self.place)
        c[i] += 1
        self.memo[key] = found
        return found

    def skip(self, i: int, jokers: int) -> frozenset[int]:
        """Return the faces one tile of which may be left out (from face ``i`` on) so that
        the rest and ``jokers`` jokers split."""
        c = self.c
        i = self._first(i)
        if i == FACES:
            return frozenset()
        key = (i, jokers, *c[i:])
        known = self.skip_memo.get(key)
        if known is not None:
            return known
        found: set[int] = set()

        def gather(face: int, left: int) -> bool:
            found.update(self.skip(face, left))
            return False

        c[i] -= 1
        if self.place(i, jokers):
            found.add(i)
        self._melds(i, jokers, gather)
        c[i] += 1
        result = frozenset(found)
        self.skip_memo[key] = result
        return result

    def _melds(self, i: int, jokers: int, then: Then) -> bool:
        """Put one tile of face ``i`` (already taken out) into each possible set or run and
        call ``then``; return True as soon as it does."""
        return self._sets(i, jokers, then) or self._runs(i, jokers, then)

    def _sets(self, i: int, jokers: int, then: Then) -> bool:
        c = self.c
        colour, index = divmod(i, 13)
        others = [k * 13 + index for k in range(colour + 1, 4) if c[k * 13 + index]]
        if len(others) + jokers < 2:
            return False
        for size in range(len(others) + 1):
            for chosen in combinations(others, size):
                for used in range(max(0, 2 - size), min(jokers, 3 - size) + 1):
                    for f in chosen:
                        c[f] -= 1
                    stop = then(i, jokers - used)
                    for f in chosen:
                        c[f] += 1
                    if stop:
                        return True
        return False

    def _runs(self, i: int, jokers: int, then: Then) -> bool:
        colour, index = divmod(i, 13)
        base = colour * 13
        if self._down(i, base, index + 1, index + 1, 1, jokers, then):
            return True
        return index == 0 and self.top == 14 and self._down(i, base, 14, 14, 1, jokers, then)

    def _down(
        self, i: int, base: int, high: int, low: int, length: int, jokers: int, then: Then
    ) -> bool:
        """Runs whose positions low..high are filled: extend upward, then one lower."""
        if self._up(i, base, high + 1, length, jokers, then):
            return True
        q = low - 1
        if q < 1 or length >= self.max_run:
            return False
        c = self.c
        f = base + q - 1
        if c[f]:
            c[f] -= 1
            stop = self._down(i, base, high, q, length + 1, jokers, then)
            c[f] += 1
            if stop:
                return True
        return jokers > 0 and self._down(i, base, high, q, length + 1, jokers - 1, then)

    def _up(self, i: int, base: int, q: int, length: int, jokers: int, then: Then) -> bool:
        if length >= 3 and then(i, jokers):
            return True
        if q > self.top or length >= self.max_run:
            return False
        c = self.c
        f = base if q == 14 else base + q - 1
        if c[f]:
            c[f] -= 1
            stop = self._up(i, base, q + 1, length + 1, jokers, then)
            c[f] += 1
            if stop:
                return True
        return jokers > 0 and self._up(i, base, q + 1, length + 1, jokers - 1, then)


def fits(counts: Sequence[int], wild: int, *, top: int, max_run: int) -> bool:
    """Return True when the tiles (``counts`` per face plus ``wild`` real jokers) split into
    sets of 3-4 distinct colours and runs of 3 up to ``max_run`` on positions 1..``top``
    (position 14 is the number 1 above 13)."""
    return _Search(counts, top, max_run).place(0, wild)


def skips(counts: Sequence[int], wild: int, *, top: int, max_run: int) -> frozenset[int]:
    """Return the faces of which one tile may be left out so that the rest splits."""
    return _Search(counts, top, max_run).skip(0, wild)

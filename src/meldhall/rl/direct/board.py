"""One viewer's layout array kept up to date between reads instead of rebuilt per read.

A ``Board`` holds a float32 array (the layout, then zeros up to the observation's size) and,
beside it, a shadow of every value it wrote: the piece ids of each block of flags, the flag
positions of the small fields, the numbers. Bringing it up to date compares each source in
the state with its shadow (a list comparison, done in C) and writes only the floats that
differ. Nothing depends on how the state got where it is: the first read of a new match, a
state swapped for another (``shuffled_hidden``), or a read skipped for a hundred steps all
compare against what the array holds, so the array always equals a fresh fill of the state
(tests/rl/test_direct.py checks it against the stateless ``fill`` under random reads).

Comparing every source at every read still costs a little per source, so a game may also
say, after each ``apply``, which sources its events may have changed (``pending``): a board
read on the same state object then compares only those. Anything the game does not name
exactly (and any other state object) makes the next read compare every source.

Writes go through a ``memoryview`` of the array (a third of numpy's cost per float).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


class Board:
    """The array of one viewer and the shadows of what it holds (see the module docstring).

    ``blocks[k]`` lists the piece ids flagged in block ``k`` (block starts are the game's
    business), ``flags`` the positions of the small flag fields, ``numbers`` the values at
    the viewer's number positions ``number_at``. ``state`` is the state object of the last
    read; ``pending`` the blocks whose sources may have changed since then on that object
    (None: any of them).
    """

    __slots__ = ("array", "blocks", "flags", "number_at", "numbers", "pending", "state", "view")

    def __init__(self, blank: np.ndarray, blocks: int, number_at: Iterable[int]):
        self.array = blank.copy()
        self.view = self.array.data.cast("B").cast("f")
        self.blocks: list[list[int]] = [[] for _ in range(blocks)]
        self.flags: list[int] = []
        self.number_at: tuple[int, ...] = tuple(int(p) for p in number_at)
        self.numbers: list[float] = [0.0] * len(self.number_at)
        self.state: object = None
        self.pending: set[int] | None = None

    def changed(self, state: object) -> set[int] | None:
        """Return the blocks to compare now for a read of ``state`` (None: all of them),
        and start noting changes afresh from this read on."""
        pending = self.pending if state is self.state else None
        self.state = state
        self.pending = set()
        return pending

    def note(self, blocks: tuple[int, ...] | None) -> None:
        """Note that an ``apply`` may have changed ``blocks`` (None: any); return None."""
        if blocks is None:
            self.pending = None
        elif self.pending is not None:
            self.pending.update(blocks)

    def block(self, k: int, base: int, pieces: list[int]) -> None:
        """Make block ``k`` (flags from ``base`` + piece id) show exactly ``pieces`` (ids
        distinct within a block: every physical piece is in one place); return None."""
        old = self.blocks[k]
        if pieces == old:
            return
        view = self.view
        if len(pieces) == len(old) + 1 and pieces[:-1] == old:
            view[base + pieces[-1]] = 1.0
        elif len(pieces) + 1 == len(old) and old[:-1] == pieces:
            view[base + old[-1]] = 0.0
        else:
            now = set(pieces)
            for p in old:
                if p not in now:
                    view[base + p] = 0.0
            for p in now.difference(old):
                view[base + p] = 1.0
        self.blocks[k] = list(pieces)

    def set_flags(self, flags: list[int]) -> None:
        """Make the small flag fields show exactly the positions ``flags``; return None."""
        old = self.flags
        if flags == old:
            return
        view = self.view
        for p in old:
            view[p] = 0.0
        for p in flags:
            view[p] = 1.0
        self.flags = flags

    def set_numbers(self, values: list[float]) -> None:
        """Write ``values`` at ``number_at`` where they differ from the last; return None."""
        old = self.numbers
        if values == old:
            return
        view = self.view
        for p, new, was in zip(self.number_at, values, old, strict=True):
            if new != was:
                view[p] = new
        self.numbers = values

"""One viewer's observation array kept up to date between reads instead of rebuilt per read.

A ``Board`` holds a float32 array (the layout, then the section of the decision spelled so
far) and, beside it, a shadow of what it shows: the piece ids of each block of flags, the
flag positions of the fields that change from turn to turn, the ``to_act`` row and the
tokens spelled. Bringing it up to date compares each source in the state with its shadow (a
list comparison, done in C) and writes only the floats that differ; the game writes the
numbers whose sources may have changed. Nothing depends on how the state got where it is:
the first read of a new match, a state swapped for another (``shuffled_hidden``), or a read
skipped for a hundred steps all compare against what the array holds, so the array always
equals a fresh fill of the state (tests/rl/test_direct.py checks it against the stateless
``fill`` under random reads).

Comparing every source at every read still costs a little per source, so a game also says,
after each ``apply``, which sources its events may have changed (``pending``): a board read
on the same state object then compares only those, and nothing but the ``to_act`` row and
the spelled tokens when no event since its last read changed a piece, a number or the phase
(``pending`` empty). Anything the game does not name exactly (and any other state object)
makes the next read compare every source and write every number. A change the game knows
exactly (Sichuan's discards and draws) it may write at once, into the array and its shadow
alike, on the boards last read on the same state object, leaving ``pending`` as it is.

Writes go through a ``memoryview`` of the array (a third of numpy's cost per float); a row
of fixed width (``to_act``) is written whole from a kept row of floats.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

import numpy as np


class Board:
    """The array of one viewer and the shadows of what it holds (see the module docstring).

    ``blank`` is the zero array it was copied from (a read with another blank makes a new
    board), ``blocks[k]`` lists the piece ids flagged in block ``k`` (block starts are the
    game's business), ``turn`` the positions of the flag fields that change from turn to
    turn, ``to_act`` the kept row last written at the ``to_act`` field, ``number_at`` the
    viewer's number positions (the game writes them), ``spelled`` the tokens counted in
    the decision section (at ``size`` + token), ``shared`` a read-only view of ``array``
    (what a read hands out when it need not copy). ``state`` is the state object of the last
    read; ``pending`` the blocks whose sources may have changed since then on that object
    (None: any source).
    """

    __slots__ = (
        "array",
        "blank",
        "blocks",
        "number_at",
        "pending",
        "shared",
        "spelled",
        "state",
        "to_act",
        "turn",
        "view",
    )

    def __init__(self, blank: np.ndarray, blocks: int, number_at: Iterable[int]):
        self.blank = blank
        self.array = blank.copy()
        self.view = self.array.data.cast("B").cast("f")
        self.shared = self.array.view()
        self.shared.flags.writeable = False
        self.blocks: list[list[int]] = [[] for _ in range(blocks)]
        self.turn: list[int] = []
        self.to_act: memoryview | None = None
        self.number_at: tuple[int, ...] = tuple(int(p) for p in number_at)
        self.spelled: tuple[int, ...] = ()
        self.state: object = None
        self.pending: set[int] | None = None

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
        n = len(pieces) - len(old)
        if n == 1 and pieces[:-1] == old:
            view[base + pieces[-1]] = 1.0
            old.append(pieces[-1])
            return
        if n == -1 and old[:-1] == pieces:
            view[base + old.pop()] = 0.0
            return
        if n == 1 or n == -1:
            moved = _sorted_step(old, pieces, n)
            if moved is not None:
                view[base + moved] = 1.0 if n == 1 else 0.0
                return
        now = set(pieces)
        for p in now.symmetric_difference(old):
            view[base + p] = 1.0 if p in now else 0.0
        self.blocks[k] = list(pieces)

    def set_turn(self, flags: list[int]) -> None:
        """Make the turn-to-turn flag fields show exactly the positions ``flags``; return
        None."""
        old = self.turn
        if flags == old:
            return
        view = self.view
        for p in old:
            view[p] = 0.0
        for p in flags:
            view[p] = 1.0
        self.turn = flags

    def spell(self, base: int, tokens: tuple[int, ...]) -> None:
        """Make the decision section (from ``base``) count exactly ``tokens`` (a token may
        stand more than once; the tuple is kept as the shadow); return None."""
        view = self.view
        for t in self.spelled:
            view[base + t] = 0.0
        for t in tokens:
            view[base + t] += 1.0
        self.spelled = tokens


def _sorted_step(old: list[int], pieces: list[int], n: int) -> int | None:
    """Return the id whose insertion (``n`` 1) or removal (``n`` -1) at its sorted place
    turns ``old`` into ``pieces``, that change made to ``old``; None, ``old`` unchanged,
    when no one id does (a sorted hand after a draw or a discard takes this path: two sums,
    a bisection and one comparison instead of two sets)."""
    moved = (sum(pieces) - sum(old)) * n
    i = bisect_left(old, moved)
    if n == 1:
        old.insert(i, moved)
        if old == pieces:
            return moved
        del old[i]
    elif i < len(old) and old[i] == moved:
        del old[i]
        if old == pieces:
            return moved
        old.insert(i, moved)
    return None

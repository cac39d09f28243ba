"""Single combinations (okey-ladder.md 6): runs, groups ("sets"), pairs, their values, the
identities of their jokers, and what a table combination accepts at its ends (9.1, 10.1).

Everything works on effective faces (see ``pieces``): a face 0..51 or ``WILD``.

>>> run_start([3, 4, 5]), run_value(1, 7), set_value(13, 3), set_value(13, 4)
(3, 10, 17, 18)
>>> run_start([11, 12, 13])  # R12 R13 Y1: no wrap, not even across colours
-1
"""

from __future__ import annotations

from collections.abc import Sequence

from meldhall.games.okey_ladder.pieces import FACE_NAME, TOKEN, WILD, colour_of, number_of

RUN, SET, PAIR = 0, 1, 2
KIND_NAMES = ("run", "set", "pair")
"""Combination kinds by index; the spec's "group" is called "set" as in the vectors."""

LOW, HIGH, GROUP = 0, 1, 2
END_NAMES = ("low", "high", "set")
"""Where a tile is laid off: a run's low or high end, or into a set."""

COMBO_IDS = 10_000
"""The largest combination id (ids start at 1). A recalled or returned opening gives its ids
back only once the count reaches this: the table never holds more than 53 combinations."""


def run_start(effs: Sequence[int]) -> int:
    """Return the face of the lowest slot of a run given low to high, or -1 if invalid.

    A run is 3..13 tiles of one colour with consecutive numbers inside 1..13 (no wrap);
    wild tiles take the number of their slot.
    """
    length = len(effs)
    if not 3 <= length <= 13:
        return -1
    for i, f in enumerate(effs):
        if f != WILD:
            low = number_of(f) - i
            if low < 1 or low + length - 1 > 13:
                return -1
            start = f - i
            for j, g in enumerate(effs):
                if g != WILD and g != start + j:
                    return -1
            return start
    return -1


def set_number(effs: Sequence[int]) -> int:
    """Return the number of a valid set (3 or 4 tiles, one number, different colours;
    wild tiles fill missing colours), or 0 if invalid."""
    if not 3 <= len(effs) <= 4:
        return 0
    number = 0
    colours = 0
    for f in effs:
        if f == WILD:
            continue
        bit = 1 << colour_of(f)
        if colours & bit or (number and number != number_of(f)):
            return 0
        colours |= bit
        number = number_of(f)
    return number


def pair_face(effs: Sequence[int], okey: int) -> int:
    """Return the face a pair stands for, or -1 if the two tiles are not a pair (6.3)."""
    if len(effs) != 2:
        return -1
    a, b = effs
    if a == WILD:
        return okey if b == WILD else b
    if b == WILD or a == b:
        return a
    return -1


def run_value(low: int, length: int) -> int:
    """Return a run's value: (h − 1) + (L − 3), h its highest number (6.1)."""
    return low + length - 2 + length - 3


def set_value(number: int, size: int) -> int:
    """Return a set's value: the number (three 13s: 17), + 1 with four tiles (6.2)."""
    return (17 if number == 13 else number) + (1 if size == 4 else 0)


def colour_mask(tiles: Sequence[int], eff: Sequence[int]) -> int:
    """Return the bit mask of the colours of the natural (non-wild) tiles."""
    mask = 0
    for t in tiles:
        f = eff[t]
        if f != WILD:
            mask |= 1 << colour_of(f)
    return mask


class Combo:
    """A combination on the table: ``tiles`` low to high for runs; ``start`` is the face of
    the lowest slot (run), the number (set) or the face (pair)."""

    __slots__ = ("cid", "kind", "owner", "provisional", "start", "tiles")

    def __init__(
        self, cid: int, owner: int, kind: int, tiles: list[int], start: int, provisional: bool
    ) -> None:
        self.cid = cid
        self.owner = owner
        self.kind = kind
        self.tiles = tiles
        self.start = start
        self.provisional = provisional

    def copy(self) -> Combo:
        """Return an independent copy."""
        return Combo(
            self.cid, self.owner, self.kind, list(self.tiles), self.start, self.provisional
        )

    def value(self) -> int:
        """Return the combination's value (section 6)."""
        if self.kind == RUN:
            return run_value(number_of(self.start), len(self.tiles))
        if self.kind == SET:
            return set_value(self.start, len(self.tiles))
        return number_of(self.start)

    def slot_face(self, index: int, eff: Sequence[int]) -> int:
        """Return the face the tile in slot ``index`` stands for (runs and pairs), or -1 for
        a set's joker whose colour is open."""
        if self.kind == RUN:
            return self.start + index
        if self.kind == PAIR:
            return self.start
        f = eff[self.tiles[index]]
        if f != WILD:
            return f
        mask = colour_mask(self.tiles, eff)
        missing = [c for c in range(4) if not mask & (1 << c)]
        wilds = sum(1 for t in self.tiles if eff[t] == WILD)
        if len(self.tiles) == 4 and wilds == 1:
            return missing[0] * 13 + self.start - 1
        return -1

    def joker_number(self, index: int) -> int:
        """Return the number a joker in slot ``index`` stands for (the n of S14)."""
        if self.kind == RUN:
            return number_of(self.start) + index
        if self.kind == SET:
            return self.start
        return number_of(self.start)

    def accepts(self, eff: Sequence[int]) -> list[tuple[int, int]]:
        """Return (end, face) for every face a tile may add here (9.1), WILD for a real
        joker's place; ignores the one-tile-per-end limit."""
        if self.kind == RUN:
            low = number_of(self.start)
            high = low + len(self.tiles) - 1
            out = []
            if low > 1:
                out.append((LOW, self.start - 1))
            if high < 13:
                out.append((HIGH, self.start + len(self.tiles)))
            return out
        if self.kind == SET and len(self.tiles) == 3:
            mask = colour_mask(self.tiles, eff)
            return [(GROUP, c * 13 + self.start - 1) for c in range(4) if not mask & (1 << c)]
        return []

    def to_json(self, eff: Sequence[int]) -> dict[str, object]:
        """Return the public JSON form: id, owner, kind, tiles, joker identities, value."""
        jokers = []
        for i, t in enumerate(self.tiles):
            if eff[t] == WILD:
                f = self.slot_face(i, eff)
                jokers.append(FACE_NAME[f] if f >= 0 else f"?{self.start}")
        return {
            "id": self.cid,
            "owner": self.owner,
            "kind": KIND_NAMES[self.kind],
            "tiles": [TOKEN[t] for t in self.tiles],
            "jokers": jokers,
            "value": self.value(),
            "provisional": self.provisional,
        }


def shape(kind: int, tiles: Sequence[int], eff: Sequence[int], okey: int) -> int:
    """Return the ``start`` of a valid combination of ``kind`` laid as ``tiles`` (runs low to
    high), or -1 when it is not one (``INVALID_COMBINATION``)."""
    effs = [eff[t] for t in tiles]
    if kind == RUN:
        return run_start(effs)
    if kind == SET:
        return set_number(effs) or -1
    return pair_face(effs, okey)

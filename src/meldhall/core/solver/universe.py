"""Every meld a rule set allows, compiled once per (rules, jokers) into bit masks.

A hand is one int: the count of a face in bits 4s..4s+2 of its slot s = (number − 1) ×
colours + colour (bit 4s+3 is a guard, so counts are at most 7), the jokers in an 8-bit field
above the last slot. Slots go number by number, so a search that always settles the lowest
slot first works along the numbers, and hands that differ only below it never differ.
A meld is the same layout; ``(hand | GUARD) - mask`` keeps every guard bit exactly when the
hand holds the meld, and then ``^ GUARD`` is what remains.

Melds are stored once per (natural tiles, jokers), keeping the most valuable reading. When
values add up over tiles, a run that splits into two valid runs is left out: its parts give
the same tiles and the same value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache, partial
from itertools import combinations
from operator import itemgetter

from meldhall.core.solver.melds import Face, Meld
from meldhall.core.solver.rules import LadderValue, MeldRules, TileSum

FIELD = 4
MAX_COUNT = 7
JOKER_FIELD = 8
MAX_JOKERS = 127


@dataclass(frozen=True, slots=True)
class Template:
    """A meld with its mask; ``low`` is its lowest natural slot (−1: jokers only)."""

    mask: int
    low: int
    naturals: int
    jokers: int
    value: int
    build: Callable[[], Meld]

    def meld(self) -> Meld:
        """Return the meld (built on demand: most compiled melds are never used)."""
        return self.build()


@dataclass(frozen=True, slots=True)
class Universe:
    """The compiled melds of one rule set: by lowest natural slot, and the jokers-only ones."""

    kinds: int
    joker_shift: int
    guard: int
    natural_mask: int
    by_low: tuple[tuple[Template, ...], ...]
    wild: tuple[Template, ...]


def joker_shift(rules: MeldRules) -> int:
    """Return the bit offset of the joker field."""
    return rules.kinds * FIELD


def encode(counts: Sequence[int], jokers: int, rules: MeldRules) -> int:
    """Return the packed hand of a count array and a joker count (ValueError when out of range).

    >>> encode([2, 0, 1] + [0] * 49, 1, MeldRules()) == 2 + (1 << 32) + (1 << 208)
    True
    """
    if len(counts) != rules.kinds:
        raise ValueError(f"counts need {rules.kinds} entries, got {len(counts)}")
    if not 0 <= jokers <= MAX_JOKERS:
        raise ValueError(f"jokers must be in 0..{MAX_JOKERS}, got {jokers}")
    if min(counts) < 0 or max(counts) > MAX_COUNT:
        k, c = next((k, c) for k, c in enumerate(counts) if not 0 <= c <= MAX_COUNT)
        raise ValueError(f"count of kind {k} must be in 0..{MAX_COUNT}, got {c}")
    layout = _layout(rules)
    # one byte a slot of the even slots, then of the odd ones: each lands on its 4-bit field
    even = int.from_bytes(bytes(layout.even(counts)), "little")
    odd = int.from_bytes(bytes(layout.odd(counts)), "little")
    return even | odd << FIELD | jokers << layout.joker_shift


def decode(packed: int, rules: MeldRules) -> tuple[tuple[int, ...], int]:
    """Return the count array and joker count of a packed hand."""
    layout = _layout(rules)
    return layout.kinds_of(slot_counts(packed, rules.kinds)), packed >> layout.joker_shift


def slot_counts(packed: int, kinds: int) -> bytearray:
    """Return the counts of the ``kinds`` natural slots of a packed hand, in slot order (one
    more, 0, when ``kinds`` is odd)."""
    width = (kinds + 1) // 2
    fields = (packed & ((1 << FIELD * kinds) - 1)).to_bytes(width, "little")
    slots = bytearray(2 * width)
    slots[0::2] = fields.translate(_LOW)
    slots[1::2] = fields.translate(_HIGH)
    return slots


_LOW = bytes(b & 15 for b in range(256))
_HIGH = bytes(b >> FIELD for b in range(256))


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where a rule set's count-array entries sit in a packed hand."""

    by_slot: Callable[[Sequence[int]], tuple[int, ...]]
    """A count array's entries in slot order."""
    even: Callable[[Sequence[int]], tuple[int, ...]]
    """Its entries of the even slots, in slot order."""
    odd: Callable[[Sequence[int]], tuple[int, ...]]
    """Its entries of the odd slots, in slot order."""
    kinds_of: Callable[[Sequence[int]], tuple[int, ...]]
    """The count array of a sequence of counts in slot order."""
    joker_shift: int


@lru_cache(maxsize=256)
def _layout(rules: MeldRules) -> _Layout:
    kinds = rules.kinds
    slots = [slot_of_kind(k, rules) for k in range(kinds)]
    order = sorted(range(kinds), key=slots.__getitem__)
    shift = joker_shift(rules)
    return _Layout(
        by_slot=_getter(order),
        even=_getter(order[0::2]),
        odd=_getter(order[1::2]),
        kinds_of=_getter(slots),
        joker_shift=shift,
    )


def _getter(indices: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """Return a function giving the entries of a sequence at ``indices``, as a tuple."""
    if len(indices) == 1:
        only = indices[0]
        return lambda seq: (seq[only],)
    if not indices:
        return lambda seq: ()
    return itemgetter(*indices)


def slot(colour: int, number: int, rules: MeldRules) -> int:
    """Return the slot of a face in a packed hand."""
    return (number - 1) * rules.colours + colour


def slot_of_kind(kind: int, rules: MeldRules) -> int:
    """Return the slot of count-array index ``kind`` (colour × numbers + number − 1)."""
    return slot(kind // rules.numbers, kind % rules.numbers + 1, rules)


def by_slot(counts: Sequence[int], rules: MeldRules) -> list[int]:
    """Return a count array reordered by slot."""
    if len(counts) != rules.kinds:
        raise ValueError(f"counts need {rules.kinds} entries, got {len(counts)}")
    return list(_layout(rules).by_slot(counts))


Raw = tuple[int, int, int, int, Callable[[], Meld]]
"""A meld before it is kept: (mask with jokers, value, naturals, jokers, its Meld builder)."""


def _run_melds(rules: MeldRules, max_jokers: int, split: bool) -> list[Raw]:
    out: list[Raw] = []
    line = list(rules.positions())
    n = rules.numbers
    jshift = joker_shift(rules)
    longest = rules.max_run
    if split and rules.loose_jokers and rules.min_natural <= max(0, rules.min_run - max_jokers):
        longest = min(longest, 2 * rules.min_run - 1)  # every longer run splits in two
    shapes: dict[int, list[tuple[int, ...]]] = {}
    for length in range(rules.min_run, longest + 1):
        shapes[length] = [
            holes
            for j in range(min(max_jokers, length - rules.min_natural) + 1)
            for holes in combinations(range(length), j)
            if _run_ok(rules, length, holes) and not (split and _run_splits(rules, length, holes))
        ]
    for length, holes_list in shapes.items():
        for start in range(len(line) - length + 1):
            pos = tuple(line[start : start + length])
            if pos[0] == 0 and pos[-1] == n + 1:
                continue  # both_ends: 13-1 at the bottom and 13-1 at the top
            numbers = [rules.number_at(p) for p in pos]
            for holes in holes_list:
                value = _run_value(rules, pos, numbers, holes)
                colour0 = sum(
                    1 << (FIELD * slot(0, x, rules))
                    for i, x in enumerate(numbers)
                    if i not in holes
                )
                for colour in range(rules.colours):
                    mask = (colour0 << (FIELD * colour)) + (len(holes) << jshift)
                    build = partial(_run_meld, colour, numbers, holes, value)
                    out.append((mask, value, length - len(holes), len(holes), build))
    return out


def _run_value(
    rules: MeldRules, pos: tuple[int, ...], numbers: list[int], holes: tuple[int, ...]
) -> int:
    n = rules.numbers
    if isinstance(rules.value, LadderValue):
        top = pos[-1] if pos[-1] <= n else n + 1
        return rules.value.run_value(top=top, length=len(pos))
    return sum(
        rules.value.slot_value(number, top=p == n + 1, joker=i in holes)
        for i, (p, number) in enumerate(zip(pos, numbers, strict=True))
    )


def _run_meld(colour: int, numbers: list[int], holes: tuple[int, ...], value: int) -> Meld:
    tiles: list[Face | None] = [None if i in holes else (colour, x) for i, x in enumerate(numbers)]
    return Meld("run", tuple(tiles), tuple((colour, x) for x in numbers), value)


def _run_ok(rules: MeldRules, length: int, holes: tuple[int, ...]) -> bool:
    if length - len(holes) < rules.min_natural:
        return False
    if rules.loose_jokers or length <= rules.min_run or not holes:
        return True
    return holes[0] != 0 and holes[-1] != length - 1


def _run_splits(rules: MeldRules, length: int, holes: tuple[int, ...]) -> bool:
    for cut in range(rules.min_run, length - rules.min_run + 1):
        left = tuple(h for h in holes if h < cut)
        right = tuple(h - cut for h in holes if h >= cut)
        if _run_ok(rules, cut, left) and _run_ok(rules, length - cut, right):
            return True
    return False


def _set_melds(rules: MeldRules, max_jokers: int) -> list[Raw]:
    out: list[Raw] = []
    top = min(rules.max_set, rules.colours)
    jshift = joker_shift(rules)
    for number in range(1, rules.numbers + 1):
        for size in range(rules.min_set, top + 1):
            for j in range(min(max_jokers, size - rules.min_natural) + 1):
                if j and not rules.loose_jokers and size > rules.min_set:
                    continue
                for colours in combinations(range(rules.colours), size - j):
                    if isinstance(rules.value, TileSum):
                        v = rules.value.tile_value(number, top=False)
                        jv = v if rules.value.joker_value is None else rules.value.joker_value
                        value = v * len(colours) + jv * j
                    else:
                        value = rules.value.set_value(number, size=size)
                    mask = sum(1 << (FIELD * slot(c, number, rules)) for c in colours)
                    build = partial(_set_meld, rules, number, colours, j, value)
                    out.append((mask + (j << jshift), value, len(colours), j, build))
    return out


def _set_meld(rules: MeldRules, number: int, colours: tuple[int, ...], j: int, value: int) -> Meld:
    missing = [c for c in range(rules.colours) if c not in colours]
    closed = len(colours) + j == rules.colours
    tiles: list[Face | None] = [(c, number) for c in colours] + [None] * j
    stands: list[tuple[int | None, int]] = [(c, number) for c in colours]
    stands += [(missing[i] if closed else None, number) for i in range(j)]
    return Meld("set", tuple(tiles), tuple(stands), value)


def _template(rules: MeldRules, raw: Raw) -> Template:
    mask, value, naturals, jokers, build = raw
    naturals_mask = mask & ((1 << joker_shift(rules)) - 1)
    low = -1
    if naturals_mask:
        low = ((naturals_mask & -naturals_mask).bit_length() - 1) // FIELD
    return Template(mask, low, naturals, jokers, value, cache(build))  # melds are immutable


@lru_cache(maxsize=256)
def compile_universe(rules: MeldRules, max_jokers: int, wild: bool = False) -> Universe:
    """Return every meld of ``rules`` with at most ``max_jokers`` jokers.

    ``wild``: compile for the distance question, where brought-in tiles are wild jokers that
    may form melds alone and sit anywhere (``min_natural`` 0, ``loose_jokers``), and runs are
    always split (only tiles matter).
    """
    if wild:
        rules = _wild_rules(rules)
    split = wild or rules.value.additive
    best: dict[int, Raw] = {}
    for raw in _run_melds(rules, max_jokers, split) + _set_melds(rules, max_jokers):
        old = best.get(raw[0])
        if old is None or raw[1] > old[1]:
            best[raw[0]] = raw
    by_low: list[list[Template]] = [[] for _ in range(rules.kinds)]
    wild_only: list[Template] = []
    for raw in best.values():
        t = _template(rules, raw)
        (wild_only if t.low < 0 else by_low[t.low]).append(t)
    for group in by_low:
        group.sort(key=lambda t: (-t.naturals - t.jokers, -t.value))
    shift = joker_shift(rules)
    guard = sum(1 << (FIELD * k + FIELD - 1) for k in range(rules.kinds))
    guard |= 1 << (shift + JOKER_FIELD - 1)
    return Universe(
        kinds=rules.kinds,
        joker_shift=shift,
        guard=guard,
        natural_mask=(1 << shift) - 1,
        by_low=tuple(tuple(g) for g in by_low),
        wild=tuple(wild_only),
    )


def _wild_rules(rules: MeldRules) -> MeldRules:
    return replace(rules, min_natural=0, loose_jokers=True)

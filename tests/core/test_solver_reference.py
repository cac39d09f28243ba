"""A brute-force reference for the arrangement solver, written from the rules alone: it reads
every sub-multiset of a small hand as a meld in every possible way, and tries every disjoint
combination of those melds. Slow, simple, and independent of the solver's compiled melds."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from meldhall.core.solver import LadderValue, Meld, MeldRules, Solution, TileSum

Face = tuple[int, int]
Candidate = tuple[tuple[int, ...], int, int]
"""(natural counts, jokers, best value) of one meld."""


def _top_value(value: TileSum, number: int, top: bool, joker: bool) -> int:
    if joker and value.joker_value is not None:
        return value.joker_value
    if top and value.ace_high_value is not None:
        return value.ace_high_value
    return value.values[number - 1]


def line(rules: MeldRules) -> list[int]:
    """Return the run-line positions of the rules."""
    n = rules.numbers
    return {
        "plain": list(range(1, n + 1)),
        "ace_high": list(range(1, n + 2)),
        "both_ends": list(range(0, n + 2)),
    }[rules.run_line]


def number_at(rules: MeldRules, p: int) -> int:
    """Return the number a run position stands for."""
    return rules.numbers if p == 0 else 1 if p == rules.numbers + 1 else p


def set_value(rules: MeldRules, naturals: list[Face], jokers: int) -> int | None:
    """Return the value of the naturals and jokers read as a set, or None."""
    size = len(naturals) + jokers
    if not rules.min_set <= size <= min(rules.max_set, rules.colours):
        return None
    if len(naturals) < rules.min_natural:
        return None
    if not rules.loose_jokers and size > rules.min_set and jokers:
        return None
    colours = [c for c, _ in naturals]
    if len(set(colours)) != len(colours):
        return None
    numbers = {n for _, n in naturals} or set(range(1, rules.numbers + 1))
    if len(numbers) != 1 and naturals:
        return None
    best = None
    for number in numbers:
        if isinstance(rules.value, LadderValue):
            v = (rules.value.thirteens if number == 13 else number) + (1 if size >= 4 else 0)
        else:
            v = sum(_top_value(rules.value, number, False, False) for _ in naturals)
            v += jokers * _top_value(rules.value, number, False, True)
        best = v if best is None else max(best, v)
    return best


def run_value(rules: MeldRules, naturals: list[Face], jokers: int) -> int | None:
    """Return the best value of the naturals and jokers read as a run, or None."""
    size = len(naturals) + jokers
    if not rules.min_run <= size <= rules.max_run or len(naturals) < rules.min_natural:
        return None
    colours = {c for c, _ in naturals} or set(range(rules.colours))
    if len(colours) != 1:
        return None
    positions = line(rules)
    n = rules.numbers
    best = None
    for start in range(len(positions) - size + 1):
        seg = positions[start : start + size]
        if seg[0] == 0 and seg[-1] == n + 1:
            continue
        places = [[i for i, p in enumerate(seg) if number_at(rules, p) == f[1]] for f in naturals]
        for slots in product(*places):
            if len(set(slots)) != len(slots):
                continue
            holes = [i for i in range(size) if i not in slots]
            loose = holes and (holes[0] == 0 or holes[-1] == size - 1)
            if loose and not rules.loose_jokers and size > rules.min_run:
                continue
            if isinstance(rules.value, LadderValue):
                top = seg[-1] if seg[-1] <= n else n + 1
                v = (top - 1) + (size - 3)
            else:
                v = sum(
                    _top_value(rules.value, number_at(rules, p), p == n + 1, i in holes)
                    for i, p in enumerate(seg)
                )
            best = v if best is None else max(best, v)
    return best


def meld_value(rules: MeldRules, naturals: list[Face], jokers: int) -> int | None:
    """Return the best value of the tiles read as any meld, or None when no reading fits."""
    values = [v for v in (set_value(rules, naturals, jokers), run_value(rules, naturals, jokers))]
    found = [v for v in values if v is not None]
    return max(found) if found else None


def faces(counts: tuple[int, ...], rules: MeldRules) -> list[Face]:
    """Return the natural tiles of a count array."""
    n = rules.numbers
    return [(k // n, k % n + 1) for k, c in enumerate(counts) for _ in range(c)]


def candidates(counts: tuple[int, ...], jokers: int, rules: MeldRules) -> list[Candidate]:
    """Return every sub-multiset of the hand that is a meld, with its best value."""
    present = [k for k, c in enumerate(counts) if c]
    out: list[Candidate] = []
    for pick in product(*(range(counts[k] + 1) for k in present)):
        sub = [0] * len(counts)
        for k, c in zip(present, pick, strict=True):
            sub[k] = c
        for j in range(jokers + 1):
            v = meld_value(rules, faces(tuple(sub), rules), j)
            if v is not None:
                out.append((tuple(sub), j, v))
    return out


def collections(
    counts: tuple[int, ...], jokers: int, rules: MeldRules
) -> Iterator[tuple[list[Candidate], tuple[int, ...], int]]:
    """Yield every collection of disjoint melds with the counts and jokers it leaves."""
    cands = candidates(counts, jokers, rules)

    def walk(
        i: int, rest: tuple[int, ...], j: int, chosen: list[Candidate]
    ) -> Iterator[tuple[list[Candidate], tuple[int, ...], int]]:
        if i == len(cands):
            yield list(chosen), rest, j
            return
        yield from walk(i + 1, rest, j, chosen)
        sub, sj, _ = cands[i]
        times = 0
        while True:
            times += 1
            left = tuple(r - times * s for r, s in zip(rest, sub, strict=True))
            if min(left) < 0 or j - times * sj < 0:
                return
            yield from walk(i + 1, left, j - times * sj, chosen + [cands[i]] * times)

    yield from walk(0, counts, jokers, [])


def size(c: Candidate) -> int:
    """Return the tiles in a candidate meld."""
    return sum(c[0]) + c[1]


def best_full(counts: tuple[int, ...], jokers: int, rules: MeldRules) -> int | None:
    """Return the best value of a partition of the whole hand, or None."""
    full = [
        sum(c[2] for c in ch)
        for ch, rest, j in collections(counts, jokers, rules)
        if not any(rest) and not j
    ]
    return max(full) if full else None


def best_scores(
    counts: tuple[int, ...], jokers: int, rules: MeldRules
) -> list[tuple[int, int, int]]:
    """Return (value, tiles placed, natural tiles placed) of every collection."""
    return [
        (sum(c[2] for c in ch), sum(size(c) for c in ch), sum(sum(c[0]) for c in ch))
        for ch, _, _ in collections(counts, jokers, rules)
    ]


def check_solution(sol: Solution, counts: tuple[int, ...], jokers: int, rules: MeldRules) -> None:
    """Assert that every meld of ``sol`` is valid, worth its best reading, consistent with
    what it stands for, and that melds plus leftover are the hand."""
    n = rules.numbers
    used = [0] * len(counts)
    used_jokers = 0
    for meld in sol.melds:
        naturals = [t for t in meld.tiles if t is not None]
        j = len(meld.tiles) - len(naturals)
        assert meld.value == meld_value(rules, naturals, j), meld
        _check_stands_for(meld, rules)
        for c, num in naturals:
            used[c * n + num - 1] += 1
        used_jokers += j
    assert tuple(u + r for u, r in zip(used, sol.leftover, strict=True)) == tuple(counts)
    assert used_jokers + sol.leftover_jokers == jokers
    assert sol.value == sum(m.value for m in sol.melds)


def _check_stands_for(meld: Meld, rules: MeldRules) -> None:
    assert len(meld.stands_for) == len(meld.tiles)
    for tile, stands in zip(meld.tiles, meld.stands_for, strict=True):
        if tile is not None:
            assert tile == stands
    if meld.kind == "set":
        assert len({s[1] for s in meld.stands_for}) == 1
        colours = [s[0] for s in meld.stands_for if s[0] is not None]
        assert len(set(colours)) == len(colours)
    elif meld.kind == "run":
        assert len({s[0] for s in meld.stands_for}) == 1
        numbers = [s[1] for s in meld.stands_for]
        pos = line(rules)
        segs = [
            pos[i : i + len(numbers)]
            for i in range(len(pos) - len(numbers) + 1)
            if [number_at(rules, p) for p in pos[i : i + len(numbers)]] == numbers
        ]
        assert segs, meld


# ---------------------------------------------------------------- the reference's own checks

RK = MeldRules()


def hand(*tiles: Face) -> tuple[int, ...]:
    """Return the Rummikub count array of some (colour, number) tiles."""
    out = [0] * RK.kinds
    for c, num in tiles:
        out[c * 13 + num - 1] += 1
    return tuple(out)


def test_reference_reads_melds() -> None:
    assert meld_value(RK, [(0, 5), (0, 6)], 1) == 18  # 5 6 J: the joker as a 7
    assert meld_value(RK, [(0, 12), (0, 13)], 1) == 36  # J 12 13
    assert meld_value(RK, [(0, 5), (1, 5), (0, 5)], 0) is None
    assert meld_value(RK, [(0, 13)], 2) == 39  # 13 13 13 as a set
    okey = MeldRules(run_line="ace_high", max_run=14)
    assert meld_value(okey, [(0, 12), (0, 13), (0, 1)], 0) == 26
    assert meld_value(RK, [(0, 12), (0, 13), (0, 1)], 0) is None


def test_reference_partitions() -> None:
    h = hand((0, 1), (0, 2), (0, 3), (1, 3), (2, 3))
    assert best_full(h, 0, RK) is None
    assert best_full(h, 1, RK) == 15  # 1 2 J and 3 3 3
    assert max(best_scores(h, 0, RK)) == (9, 3, 3)

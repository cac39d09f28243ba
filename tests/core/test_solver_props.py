"""Property tests: every solver question against the brute-force reference on small hands,
for every run line, run-length limits, joker counts 0..2 and every value scheme."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meldhall.core.solver import (
    RUMMIKUB,
    RUMMIKUB_SOLVER_CONVENTION,
    LadderValue,
    MeldRules,
    TileSum,
    best_opening,
    best_pairs,
    best_partition,
    distance_to_win,
    is_winning,
    max_placed_with_table,
    tiles_left,
    winning_partition,
)
from tests.core.test_solver_reference import (
    best_full,
    best_scores,
    candidates,
    check_solution,
    collections,
    size,
)

WRITER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
REMI = (11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

RULES = {
    "rummikub": RUMMIKUB,
    "peer": RUMMIKUB_SOLVER_CONVENTION,
    "okey": MeldRules(run_line="ace_high", max_run=14),
    "okey13": MeldRules(run_line="ace_high", max_run=13),
    "ladder": MeldRules(value=LadderValue()),
    "ladder_high": MeldRules(run_line="ace_high", max_run=5, value=LadderValue()),
    "tile_rummy": MeldRules(
        run_line="both_ends", max_run=14, value=TileSum(WRITER, joker_value=10)
    ),
    "tile_rummy_face": MeldRules(run_line="both_ends", max_run=4, value=TileSum(joker_value=30)),
    "remi": MeldRules(run_line="ace_high", value=TileSum(REMI)),
    "remi_low_ace": MeldRules(run_line="ace_high", value=TileSum((1, *REMI[1:]), 11)),
    "no_natural": MeldRules(min_natural=0, max_set=3),
    "short": MeldRules(run_line="both_ends", min_run=3, max_run=3, loose_jokers=False),
    "small_set": MeldRules(
        colours=3, numbers=7, run_line="ace_high", max_run=8, value=TileSum(tuple(range(1, 8)))
    ),
}

FAST = settings(
    max_examples=int(__import__("os").environ.get("SOLVER_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)


@st.composite
def hands(draw: st.DrawFn, max_tiles: int = 7) -> tuple[str, tuple[int, ...], int]:
    """Return (rules name, counts, jokers): tiles from up to three colours and a window of
    five numbers (wrapping past the top, to meet every end of the run line)."""
    name = draw(st.sampled_from(sorted(RULES)))
    rules = RULES[name]
    colours = draw(st.lists(st.integers(0, rules.colours - 1), min_size=1, max_size=3, unique=True))
    start = draw(st.integers(0, rules.numbers - 1))
    jokers = draw(st.integers(0, 2))
    picks = draw(
        st.lists(
            st.tuples(st.sampled_from(colours), st.integers(0, 4)),
            min_size=0,
            max_size=max_tiles - jokers,
        )
    )
    counts = [0] * rules.kinds
    for colour, offset in picks:
        k = colour * rules.numbers + (start + offset) % rules.numbers
        if counts[k] < 2:
            counts[k] += 1
    return name, tuple(counts), jokers


@FAST
@given(hands())
def test_winning(case: tuple[str, tuple[int, ...], int]) -> None:
    name, counts, jokers = case
    rules = RULES[name]
    expected = best_full(counts, jokers, rules)
    assert is_winning(counts, jokers, rules) == (expected is not None)
    sol = winning_partition(counts, jokers, rules)
    if expected is None:
        assert sol is None
    else:
        assert sol is not None and sol.value == expected
        check_solution(sol, counts, jokers, rules)
        assert not any(sol.leftover) and sol.leftover_jokers == 0


@FAST
@given(hands())
def test_best_partition_and_tiles_left(case: tuple[str, tuple[int, ...], int]) -> None:
    name, counts, jokers = case
    rules = RULES[name]
    scores = best_scores(counts, jokers, rules)
    by_value = best_partition(counts, jokers, rules, "value")
    check_solution(by_value, counts, jokers, rules)
    assert (by_value.value, by_value.placed) == max((v, p) for v, p, _ in scores)
    by_tiles = best_partition(counts, jokers, rules, "placed")
    check_solution(by_tiles, counts, jokers, rules)
    assert (by_tiles.placed, by_tiles.value) == max((p, v) for v, p, _ in scores)
    assert tiles_left(counts, jokers, rules) == sum(counts) + jokers - by_tiles.placed


@FAST
@given(hands(), st.integers(0, 40), st.sampled_from(["value", "placed", "naturals"]))
def test_best_opening(case: tuple[str, tuple[int, ...], int], need: int, objective: str) -> None:
    name, counts, jokers = case
    rules = RULES[name]
    scores = best_scores(counts, jokers, rules)
    sol, reached = best_opening(counts, jokers, rules, need, objective)  # type: ignore[arg-type]
    check_solution(sol, counts, jokers, rules)
    assert reached == (max(v for v, _, _ in scores) >= need)
    naturals = sum(1 for m in sol.melds for t in m.tiles if t is not None)
    if objective == "value" or not reached:
        assert (sol.value, sol.placed) == max((v, p) for v, p, _ in scores)
    elif objective == "placed":
        assert (sol.placed, sol.value) == max((p, v) for v, p, _ in scores if v >= need)
    else:
        assert (naturals, sol.value) == max((n, v) for v, _, n in scores if v >= need)


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, tuple[int, ...], int, tuple[int, ...], int]:
    """Return (rules name, table counts, table jokers, rack counts, rack jokers): a table of
    one or two melds dealt from the reference's candidates, and a small rack."""
    name, pool, pool_jokers = draw(hands(max_tiles=8))
    rules = RULES[name]
    melds = [c for c in candidates(pool, pool_jokers, rules) if size(c) <= 5]
    table = [0] * rules.kinds
    table_jokers = 0
    if melds:
        for sub, j, _ in draw(st.lists(st.sampled_from(melds), max_size=2)):
            if table_jokers + j <= 2 and all(t + s <= 2 for t, s in zip(table, sub, strict=True)):
                table = [t + s for t, s in zip(table, sub, strict=True)]
                table_jokers += j
    _, rack, rack_jokers = draw(hands(max_tiles=4))
    rack = tuple(min(r, 2 - t) for r, t in zip(rack[: rules.kinds], table, strict=False))
    if len(rack) < rules.kinds:
        rack = rack + (0,) * (rules.kinds - len(rack))
    rack_jokers = min(rack_jokers, 2 - table_jokers)
    return name, tuple(table), table_jokers, rack, rack_jokers


@FAST
@given(tables())
def test_max_placed_with_table(
    case: tuple[str, tuple[int, ...], int, tuple[int, ...], int],
) -> None:
    name, table, table_jokers, rack, rack_jokers = case
    rules = RULES[name]
    total = tuple(t + r for t, r in zip(table, rack, strict=True))
    jokers = table_jokers + rack_jokers
    best = None
    for chosen, rest, j in collections(total, jokers, rules):
        if j <= rack_jokers and all(x <= r for x, r in zip(rest, rack, strict=True)):
            score = sum(size(c) for c in chosen)
            best = score if best is None else max(best, score)
    assert best is not None  # the table melds themselves
    sol = max_placed_with_table(table, table_jokers, rack, rack_jokers, rules)
    check_solution(sol, total, jokers, rules)
    assert sol.placed + sum(table) + table_jokers == best
    assert all(x <= r for x, r in zip(sol.leftover, rack, strict=True))


@FAST
@given(hands(max_tiles=6))
def test_distance_to_win(case: tuple[str, tuple[int, ...], int]) -> None:
    """Reference: the most tiles kept such that they and wild tiles in place of the others
    split into melds (added tiles are wild, so melds of them alone are allowed)."""
    name, counts, jokers = case
    rules = replace(RULES[name], min_natural=0, loose_jokers=True)
    n = sum(counts) + jokers
    best = None
    present = [k for k, c in enumerate(counts) if c]
    from itertools import product

    for pick in product(*(range(counts[k] + 1) for k in present)):
        sub = [0] * len(counts)
        for k, c in zip(present, pick, strict=True):
            sub[k] = c
        d = sum(counts) - sum(sub)
        if best is not None and d >= best:
            continue
        if best_full(tuple(sub), jokers + d, rules) is not None:
            best = d
    try:
        got = distance_to_win(counts, jokers, RULES[name])
    except ValueError:
        assert best is None
        return
    assert got == best, (n, got, best)


@FAST
@given(hands(max_tiles=8), st.sampled_from([None, (1, 7), (0, 2)]))
def test_best_pairs(
    case: tuple[str, tuple[int, ...], int], identity: tuple[int, int] | None
) -> None:
    name, counts, jokers = case
    rules = RULES[name]
    sol = best_pairs(counts, jokers, rules, identity)
    check_pairs = [m for m in sol.melds if m.kind == "pair"]
    assert len(check_pairs) == len(sol.melds)
    for m in sol.melds:
        naturals = [t for t in m.tiles if t is not None]
        assert len(set(naturals)) <= 1
        assert all(s == m.stands_for[0] for s in m.stands_for)
    assert sol.value == _ref_pairs(counts, jokers, rules, identity)


def _ref_pairs(
    counts: tuple[int, ...], jokers: int, rules: MeldRules, identity: tuple[int, int] | None
) -> int:
    """Best total value of disjoint pairs by exhaustive search."""
    n = rules.numbers

    def value(number: int, j: int) -> int:
        if isinstance(rules.value, LadderValue):
            return number
        v = rules.value.values[number - 1]
        jv = v if rules.value.joker_value is None else rules.value.joker_value
        return v * (2 - j) + jv * j

    double = (
        value(identity[1], 2) if identity else max(value(x, 2) for x in range(1, rules.numbers + 1))
    )

    def walk(k: int, j: int) -> int:
        if k == len(counts):
            return (j // 2) * double if j >= 2 else 0
        best = 0
        c = counts[k]
        number = k % n + 1
        for whole in range(c // 2 + 1):
            for half in range(min(c - 2 * whole, j) + 1):
                got = whole * value(number, 0) + half * value(number, 1) + walk(k + 1, j - half)
                best = max(best, got)
        return best

    return max(walk(0, jokers - 2 * jj) + jj * double for jj in range(jokers // 2 + 1))


@pytest.mark.parametrize("name", sorted(RULES))
def test_every_rule_set_compiles(name: str) -> None:
    rules = RULES[name]
    assert best_partition([0] * rules.kinds, 2, rules).value >= 0

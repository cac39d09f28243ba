"""The LP bound of the most-tiles question (core/solver/bound.py): its prices are valid for
every meld, bound the optimum, and never change an answer or its melds."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given

from meldhall.core.solver import (
    RUMMIKUB_SOLVER_CONVENTION,
    MeldRules,
    Solution,
    max_placed_with_table,
    queries,
)
from meldhall.core.solver.bound import SCALE, Prices, _lifted, lp_prices
from meldhall.core.solver.search import Search
from meldhall.core.solver.universe import Universe, by_slot, compile_universe, encode
from tests.core.test_solver_props import FAST, RULES, tables

KINDS = 52


Table = tuple[list[int], int, list[int], int]
"""Table counts, table jokers, rack counts, rack jokers."""


def _random_table(rng: random.Random) -> Table:
    """Return (table counts, table jokers, rack counts, rack jokers): random runs of 3-5 and
    sets of 3-4 (a joker inside some) from two sets of 1-13 in four colours and two jokers,
    up to 20-40 table tiles, then 14 rack tiles from the rest (as ``bench solver`` (b))."""
    pool = [2] * KINDS
    jokers = 2
    table = [0] * KINDS
    table_jokers = 0
    size, target = 0, rng.randint(20, 40)
    for _ in range(1000):  # a few tries fail (no copies left, or past 40 tiles)
        if size >= target:
            break
        if rng.random() < 0.5:
            colour, length = rng.randrange(4), rng.randint(3, 5)
            start = rng.randint(0, 13 - length)
            faces = [colour * 13 + start + i for i in range(length)]
        else:
            number = rng.randrange(13)
            faces = [c * 13 + number for c in rng.sample(range(4), rng.randint(3, 4))]
        joker = 0
        if jokers and rng.random() < 0.2:
            faces.pop(rng.randrange(1, len(faces) - 1) if len(faces) > 3 else rng.randrange(3))
            joker = 1
        if size + len(faces) + joker > 40 or any(pool[f] == 0 for f in faces):
            continue
        for f in faces:
            pool[f] -= 1
            table[f] += 1
        jokers -= joker
        table_jokers += joker
        size += len(faces) + joker
    rest = [f for f in range(KINDS) for _ in range(pool[f])] + [-1] * jokers
    rack = [0] * KINDS
    drawn = rng.sample(rest, 14)
    for f in drawn:
        if f >= 0:
            rack[f] += 1
    return table, table_jokers, rack, drawn.count(-1)


def _both(
    table: list[int], table_jokers: int, rack: list[int], rack_jokers: int, rules: MeldRules
) -> tuple[Solution, Solution]:
    """Return the answer without prices and the answer with prices (every hand priced)."""
    with patch.object(queries, "PRICED_SIZE", 1 << 30):
        plain = max_placed_with_table(table, table_jokers, rack, rack_jokers, rules)
    with patch.object(queries, "PRICED_SIZE", 0):
        priced = max_placed_with_table(table, table_jokers, rack, rack_jokers, rules)
    return plain, priced


@pytest.mark.parametrize("name", ["peer", "rummikub", "tile_rummy", "okey"])
def test_prices_keep_every_answer_on_large_tables(name: str) -> None:
    rules = RULES[name]
    rng = random.Random(16)
    for _ in range(25):
        case = _random_table(rng)
        plain, priced = _both(*case, rules)
        assert priced == plain  # the same melds in the same order, not only the same count


@FAST
@given(tables())
def test_prices_keep_every_answer_on_small_tables(
    case: tuple[str, tuple[int, ...], int, tuple[int, ...], int],
) -> None:
    name, table, table_jokers, rack, rack_jokers = case
    plain, priced = _both(list(table), table_jokers, list(rack), rack_jokers, RULES[name])
    assert priced == plain


def _priced_table(
    rng: random.Random,
) -> tuple[Table, Universe, Search, tuple[Prices, list[int]] | None]:
    """Return a random valid table (table, table jokers, rack, rack jokers) under rummikub's
    rules, its universe, its search and the LP's prices of it (None when the LP gave none)."""
    rules = RUMMIKUB_SOLVER_CONVENTION
    table, table_jokers, rack, rack_jokers = _random_table(rng)
    jokers = table_jokers + rack_jokers
    total = [t + r for t, r in zip(table, rack, strict=True)]
    universe = compile_universe(rules, jokers)
    free = by_slot(rack, rules)
    search = Search(universe, queries._tiles, free, rack_jokers, encode(total, jokers, rules))
    got = lp_prices(universe, search.groups(), search.start, free, rack_jokers)
    return (table, table_jokers, rack, rack_jokers), universe, search, got


def test_prices_pay_for_every_meld_and_bound_the_optimum() -> None:
    rng = random.Random(7)
    rules = RUMMIKUB_SOLVER_CONVENTION
    for _ in range(20):
        (table, table_jokers, rack, rack_jokers), universe, search, got = _priced_table(rng)
        assert got is not None  # a valid table always has an LP optimum
        prices, paid = got
        melds = [t for group in search.groups() for t in group]
        assert len(paid) == len(melds)
        for t, p in zip(melds, paid, strict=True):
            naturals = sum(prices.slots[k] for k in range(universe.kinds) if t.mask >> (4 * k) & 15)
            assert p == naturals + t.jokers * prices.joker
            assert p >= (t.naturals + t.jokers) * SCALE
        bound = search.price(prices, paid) // SCALE
        sol = max_placed_with_table(table, table_jokers, rack, rack_jokers, rules)
        assert bound >= sol.placed + sum(table) + table_jokers


def test_kept_choices_give_the_melds_the_memo_walk_finds() -> None:
    rng = random.Random(11)
    for i in range(20):
        _, _, search, got = _priced_table(rng)
        dual = search.unit_dual()
        if got is not None and i % 2:  # half of them with the LP's prices
            dual = search.price(*got)
        need = min(search.size, dual // SCALE)
        while (best := search.most_tiles(search.start, 0, search.size, need, dual)) < need:
            need = min(need - 1, best)
        assert search.placed_melds() == search.melds(search.start)
        assert len(search.placed_melds()) > 0


def test_a_meld_short_of_its_tiles_lifts_the_face_that_bounds_it() -> None:
    # two melds: faces 0 1 2, where face 2 (1 copy) bounds it, and faces 1 3, where face 1
    # bounds it (used twice, like two jokers, out of 3 copies)
    rows = np.array([0, 1, 2, 1, 3], dtype=np.int32)
    values = np.array([1, 1, 1, 2, 1], dtype=np.int64)
    starts = np.array([0, 3, 5], dtype=np.int32)
    upper = np.array([2.0, 3.0, 1.0, 4.0])
    reach = upper[rows] / values
    prices = np.array([SCALE, SCALE, SCALE, SCALE], dtype=np.int64)
    lifted = _lifted(prices, np.array([5, -1], dtype=np.int64), rows, values, reach, starts)
    assert lifted.tolist() == [SCALE, SCALE, SCALE + 5, SCALE]
    lifted = _lifted(prices, np.array([0, 5], dtype=np.int64), rows, values, reach, starts)
    assert lifted.tolist() == [SCALE, SCALE + 3, SCALE, SCALE]  # 5 over a coefficient of 2


def test_a_table_that_cannot_be_placed_has_no_prices() -> None:
    rules = RUMMIKUB_SOLVER_CONVENTION
    table, rack = [0] * KINDS, [0] * KINDS
    table[0:2] = [1, 1]  # K1 K2 alone on the table
    table[20:23] = [1, 1, 1]
    rack[30] = 1
    universe = compile_universe(rules, 0)
    free = by_slot(rack, rules)
    total = [t + r for t, r in zip(table, rack, strict=True)]
    search = Search(universe, queries._tiles, free, 0, encode(total, 0, rules))
    assert lp_prices(universe, search.groups(), search.start, free, 0) is None
    with patch.object(queries, "PRICED_SIZE", 0), pytest.raises(ValueError, match="cannot"):
        max_placed_with_table(table, 0, rack, 0, rules)


_PEER_FIRST = """
import random
import highspy
import numpy as np
from tests.core.test_solver_bound import _priced_table

peer = highspy.Highs()  # the peer's HiGHS starts the shared scheduler with its default threads
peer.setOptionValue("output_flag", False)
peer.addVar(0, highspy.kHighsInf)
peer.changeColCost(0, -1.0)
peer.addRow(-highspy.kHighsInf, 4.0, 1, np.array([0], dtype=np.int32), np.array([1.0]))
peer.run()
rng = random.Random(7)
print(sum(_priced_table(rng)[3] is not None for _ in range(5)))
"""


def test_prices_survive_a_peer_highs_that_started_first() -> None:
    # A fresh process: HiGHS's scheduler is process-wide, and whoever starts it first sets
    # its threads; after a default-threads peer, a one-thread solve fails unless retried.
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), str(root)])}
    done = subprocess.run(
        [sys.executable, "-c", _PEER_FIRST],
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
        timeout=120,
        check=True,
    )
    assert done.stdout.split()[-1] == "5"

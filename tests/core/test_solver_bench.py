"""``meldhall bench solver``: its seeded cases are valid and both sides agree on a few (the
timing itself is the bench's job, never a test's)."""

from __future__ import annotations

import pytest

pytest.importorskip("rummikub_solver")

from meldhall.bench.solver import (
    KINDS,
    Peer,
    meldhall_a,
    meldhall_b,
    racks,
    tables,
)
from meldhall.core.rng import seed_from_text


def test_cases_are_seeded_and_valid() -> None:
    seed = seed_from_text("test")
    assert racks(seed, 5) == racks(seed, 5)
    for case in tables(seed, 5):
        table = sum(case.table) + case.table_jokers
        assert 20 <= table <= 40
        assert sum(case.rack) + case.rack_jokers == 14
        assert all(t + r <= 2 for t, r in zip(case.table, case.rack, strict=True))
        assert case.table_jokers + case.rack_jokers <= 2 and len(case.table) == KINDS
        assert meldhall_b(case) >= 0  # the table alone is valid


def test_both_sides_agree_on_a_few_cases() -> None:
    seed = seed_from_text("agree")
    peer = Peer()
    for case in racks(seed, 4):
        assert meldhall_a(case) == peer.a(peer.state(case))
    for case in tables(seed, 2):
        assert meldhall_b(case) == peer.b(peer.state(case))

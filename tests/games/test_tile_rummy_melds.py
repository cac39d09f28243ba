"""Meld rules of tile-rummy (rules 5, 6): validation, additions and the meld enumeration."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldhall.games.tile_rummy.melds import (
    HIGH,
    LOW,
    Pool,
    accepting,
    assign,
    fits,
    joker_identities,
    judge,
    judge_any,
    templates,
)
from meldhall.games.tile_rummy.pieces import face_of, parse_tile, pos_number


def ids(text: str) -> list[int]:
    return [parse_tile(t) for t in text.split()]


@pytest.mark.parametrize(
    ("tiles", "wrap", "kind", "key"),
    [
        ("R1a R2a R3a", True, "run", 1),
        ("R12a R13a R1a", True, "run", 12),
        ("R13a R1a R2a", True, "run", 0),
        ("R1a R2a R3a R4a R5a R6a R7a R8a R9a R10a R11a R12a R13a R1b", True, "run", 1),
        ("Sa Sb R3a", True, "run", 1),
        ("R3a Sa Sb", True, "run", 3),
        ("R13a R1a R2a", False, None, None),
        ("R12a R13a R1a", False, None, None),
        ("R11a R12a R13a", False, "run", 11),
        ("R12a R13a R1a R2a", True, None, None),
        ("Sa R13a R1a", True, "run", 12),
        ("Sa R13a R1a R2a", True, None, None),
        ("R1a R2a R3a R4a R5a R6a R7a R8a R9a R10a R11a R12a R13a R1b", False, None, None),
        ("R5a K5a Y5a B5a", True, "set", 5),
        ("R5a K5a Sa Sb", True, "set", 5),
    ],
)
def test_judge_any(tiles: str, wrap: bool, kind: str | None, key: int | None) -> None:
    """Run positions 0..14 with 13-1 at one end only (T-D19); none without the wrap option."""
    shape = judge_any(ids(tiles), wrap)
    assert (shape.kind, shape.key) == (kind, key) if shape else kind is None


def test_smiley_meanings() -> None:
    run = ids("Sa R1a Sb")
    assert joker_identities(judge("run", run, True), run) == ["R13", "R2"]
    group = ids("R5a K5a Sa")
    assert joker_identities(judge("set", group, True), group) == ["?5"]
    full = ids("R5a K5a Sa Y5a")
    assert joker_identities(judge("set", full, True), full) == ["B5"]
    two = ids("R5a Sa K5a Sb")
    assert joker_identities(judge("set", two, True), two) == ["?5", "?5"]


def test_fits_ends_only() -> None:
    run = ids("R4a Sa R6a")
    shape = judge("run", run, True)
    assert shape is not None
    assert fits(shape, run, parse_tile("R3a"), LOW, True)
    assert fits(shape, run, parse_tile("R7a"), HIGH, True)
    assert fits(shape, run, parse_tile("Sb"), HIGH, True)
    assert not fits(shape, run, parse_tile("R5b"), LOW, True)
    assert not fits(shape, run, parse_tile("R7a"), LOW, True)
    assert not fits(shape, run, parse_tile("R3a"), None, True)
    assert sorted(accepting(shape, run, True), key=str) == sorted(
        [(face_of(0, 3), LOW), (-1, LOW), (face_of(0, 7), HIGH), (-1, HIGH)], key=str
    )


def test_fourteen_tiles_take_nothing() -> None:
    run = ids("R13a R1a R2a R3a R4a R5a R6a R7a R8a R9a R10a R11a R12a R13b")
    shape = judge("run", run, True)
    assert shape is not None and accepting(shape, run, True) == []
    assert not fits(shape, run, parse_tile("Sa"), HIGH, True)


# ------------------------------------------------------------------ enumeration


def _brute(pool: list[int], wrap: bool) -> set[tuple[str, tuple[int, ...]]]:
    """Every Smiley-free meld of the pool by faces, straight from the definitions."""
    counts = [0] * 52
    for t in pool:
        counts[t >> 1] += 1
    out: set[tuple[str, tuple[int, ...]]] = set()
    for number in range(1, 14):
        colours = [c for c in range(4) if counts[face_of(c, number)]]
        for size in (3, 4):
            for cols in combinations(colours, size):
                out.add(("set", tuple(face_of(c, number) for c in cols)))
    lo, hi = (0, 14) if wrap else (1, 13)
    for colour in range(4):
        for s in range(lo, hi + 1):
            for e in range(s + 2, min(hi, s + 13) + 1):
                faces = tuple(face_of(colour, pos_number(p)) for p in range(s, e + 1))
                if all(faces.count(f) <= counts[f] for f in faces):
                    out.add(("run", faces))
    return out


tiles_strategy = st.lists(st.integers(0, 103), min_size=0, max_size=18, unique=True)


@settings(max_examples=150, deadline=None)
@given(tiles_strategy, st.booleans())
def test_templates_without_smileys_are_exactly_the_melds(pool: list[int], wrap: bool) -> None:
    found = templates(Pool(pool), wrap)
    assert len(found) == len(set(found))
    assert set(found) == _brute(pool, wrap)


@settings(max_examples=150, deadline=None)
@given(tiles_strategy, st.integers(0, 2), st.booleans())
def test_templates_with_smileys_are_valid_and_available(
    pool: list[int], smileys: int, wrap: bool
) -> None:
    tiles = pool + [104, 105][:smileys]
    p = Pool(tiles)
    found = templates(p, wrap)
    assert len(found) == len(set(found))
    for template in found:
        chosen = assign(template, p)
        assert len(set(chosen)) == len(chosen) and set(chosen) <= set(tiles)
        shape = judge(template[0], chosen, wrap)
        assert shape is not None, template
    for face in {t >> 1 for t in pool}:
        must = templates(p, wrap, face)
        assert must == [t for t in found if face in t[1]]


def test_assign_forces_the_target() -> None:
    pool = Pool(ids("R7a R7b R8a R9a"))
    (template,) = [t for t in templates(pool, True) if t[0] == "run" and len(t[1]) == 3]
    assert assign(template, pool) == tuple(ids("R7a R8a R9a"))
    assert assign(template, pool, parse_tile("R7b")) == tuple(ids("R7b R8a R9a"))

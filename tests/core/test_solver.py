"""The solver on the rule tables of the specs: each row a hand from a rules file (section in
the comment) and the answer the rules give."""

from __future__ import annotations

import pytest

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

OKEY = MeldRules(run_line="ace_high", max_run=14)
OKEY_13 = MeldRules(run_line="ace_high", max_run=13)
LADDER = MeldRules(value=LadderValue())
TILE_RUMMY = MeldRules(
    run_line="both_ends",
    max_run=14,
    value=TileSum((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10), joker_value=10),
)
REMI = MeldRules(run_line="ace_high", value=TileSum((11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)))


def hand(text: str, rules: MeldRules = RUMMIKUB) -> tuple[list[int], int]:
    """Return counts and jokers of tiles written ``R5 K13 J`` (colours R Y B K = 0..3)."""
    counts = [0] * rules.kinds
    jokers = 0
    for token in text.split():
        if token == "J":
            jokers += 1
        else:
            counts["RYBK".index(token[0]) * rules.numbers + int(token[1:]) - 1] += 1
    return counts, jokers


def value_of(text: str, rules: MeldRules) -> int | None:
    """Return the value of the tiles as one winning hand (None: no partition)."""
    counts, jokers = hand(text, rules)
    sol = winning_partition(counts, jokers, rules)
    return None if sol is None else sol.value


@pytest.mark.parametrize(
    ("text", "rules", "winning"),
    [
        ("R12 R13 R1", OKEY, True),  # okey 6.2: 12-13-1
        ("R13 R1 R2", OKEY, False),  # okey 6.2: no 13-1-2
        ("R7 R7 K7", OKEY, False),  # okey 6.1: a colour twice
        ("R7 Y7 B7 K7", OKEY, True),
        ("R7 J R9", OKEY, True),  # a real joker fills the gap
        ("R12 R13 R1", LADDER, False),  # okey-ladder 6.1: no wrap
        ("R13 R1 R2", TILE_RUMMY, True),  # tile-rummy 5.2: 13 first
        ("R12 R13 R1", TILE_RUMMY, True),  # 1 last
        ("R12 R13 R1 R2", TILE_RUMMY, False),  # never through 13-1 in the middle
        ("R12 R13 R1", REMI, True),  # remi 5.2: Q-K-A
        ("R13 R1 R2", REMI, False),  # K-A-2 is irregular
        ("R6 J J R9", REMI, True),  # remi 5.3: two jokers in one run
        ("J J J", REMI, False),  # R-D7: a natural card in every meld
        ("J J J", MeldRules(min_natural=0), True),
        ("R2 R3 R4 J", RUMMIKUB, True),  # a joker extending a run
        ("R2 R3 R4 J", RUMMIKUB_SOLVER_CONVENTION, False),  # every joker must be needed
        ("R5 Y5 B5 J", RUMMIKUB_SOLVER_CONVENTION, False),
        ("R5 Y5 J", RUMMIKUB_SOLVER_CONVENTION, True),
    ],
)
def test_winning_rows(text: str, rules: MeldRules, winning: bool) -> None:
    counts, jokers = hand(text, rules)
    assert is_winning(counts, jokers, rules) == winning
    assert (winning_partition(counts, jokers, rules) is not None) == winning


def test_okey_fourteen_tile_run() -> None:
    """okey 6.2: 1-2-...-13-1 wins; with max_run 13 the same tiles still win, split."""
    text = " ".join(f"K{n}" for n in range(1, 14)) + " K1"
    for rules in (OKEY, OKEY_13):
        counts, jokers = hand(text, rules)
        sol = winning_partition(counts, jokers, rules)
        assert sol is not None and sol.placed == 14


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("R1 R2 R3", 2),  # okey-ladder 6.1: (h-1)+(L-3)
        ("R11 R12 R13", 12),
        ("R1 R2 R3 R4 R5 R6 R7", 10),  # S6: 1-7 = 10
        ("R1 R2 R3 R4 R5", 6),
        ("R13 Y13 B13", 17),  # S5: three 13s give 17
        ("R13 Y13 B13 K13", 18),  # 6.2 DECISION
        ("R5 Y5 B5 K5", 6),
        ("R5 R6 J", 6),  # the joker as the 7
    ],
)
def test_ladder_values(text: str, value: int) -> None:
    assert value_of(text, LADDER) == value


def test_ladder_whole_run_value() -> None:
    """1..13 is worth 22 as one run, less than split: 1..7, 8-9-10, 11-12-13 (10 + 9 + 12)."""
    counts, _ = hand(" ".join(f"R{n}" for n in range(1, 14)), LADDER)
    sol = best_partition(counts, 0, LADDER)
    assert sol.value == 31 and sol.placed == 13


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("R12 R13 R1", 21),  # tile-rummy 5.4 (writer values)
        ("R5 K5 J", 20),  # the Smiley counts 10
        ("R13 R1 R2", 13),
    ],
)
def test_tile_rummy_values(text: str, value: int) -> None:
    assert value_of(text, TILE_RUMMY) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("R1 R2 R3", 16),  # remi 5.4: the ace 11 also in A-2-3
        ("R12 R13 R1", 31),
        ("R5 J R7", 18),  # the joker a 6
        ("R10 Y10 J", 30),
    ],
)
def test_remi_values(text: str, value: int) -> None:
    assert value_of(text, REMI) == value


def test_remi_opening_threshold() -> None:
    """remi 6: 30 is enough, 24 is not."""
    counts, jokers = hand("R10 Y10 J", REMI)
    assert best_opening(counts, jokers, REMI, 30)[1]
    counts, jokers = hand("K2 K3 K4 B5 Y5 R5", REMI)
    sol, reached = best_opening(counts, jokers, REMI, 30)
    assert not reached and sol.value == 24


def test_opening_objectives() -> None:
    counts, jokers = hand("R10 R11 R12 R13 Y13 B13 K1 K2 K3")
    by_value, _ = best_opening(counts, jokers, RUMMIKUB, 30)
    assert by_value.value == 33 + 39 + 6  # 10-11-12, the 13s as a set, 1-2-3
    by_tiles, reached = best_opening(counts, jokers, RUMMIKUB, 30, "placed")
    assert reached and by_tiles.placed == 9
    counts, jokers = hand("R1 R2 R3 R11 R12 J")
    naturals, reached = best_opening(counts, jokers, RUMMIKUB, 30, "naturals")
    assert reached and sum(1 for m in naturals.melds for t in m.tiles if t) == 5


def test_tiles_left_and_partition() -> None:
    counts, jokers = hand("R1 R2 R3 R4 K9 K9")
    assert tiles_left(counts, jokers, RUMMIKUB) == 2
    sol = best_partition(counts, jokers, RUMMIKUB, "placed")
    assert sol.placed == 4 and sol.leftover[3 * 13 + 8] == 2


def test_table_rearranged() -> None:
    """The end of a four-tile table run leaves it to make a set with two rack tiles."""
    table, tj = hand("R4 R5 R6 R7")
    rack, rj = hand("Y4 B4 R1")
    sol = max_placed_with_table(table, tj, rack, rj, RUMMIKUB)
    assert sol.placed == 2  # R4 leaves the run for Y4 B4 R4
    assert sol.leftover[0] == 1 and not any(sol.leftover[1:])


def test_table_must_be_valid() -> None:
    table, tj = hand("R4 R5")
    with pytest.raises(ValueError, match="table"):
        max_placed_with_table(table, tj, [0] * 52, 0, RUMMIKUB)


def test_pairs() -> None:
    """okey-ladder 6.3: identical tiles; a joker pairs with anything; two jokers are a pair of
    the okey identity."""
    counts, _ = hand("R9 R9 K9 Y5", LADDER)
    sol = best_pairs(counts, 0, LADDER)
    assert sol.value == 9 and sol.placed == 2
    sol = best_pairs(counts, 2, LADDER, joker_identity=(0, 5))
    assert sol.value == 9 + 9 + 5 and sol.leftover_jokers == 0
    sol = best_pairs([0] * 52, 2, LADDER, joker_identity=(0, 5))
    assert sol.value == 5 and sol.melds[0].stands_for == ((0, 5), (0, 5))


def test_distance() -> None:
    counts, jokers = hand("R1 R2 R3 K7 K8 K9")
    assert distance_to_win(counts, jokers, RUMMIKUB) == 0
    counts, jokers = hand("R1 R2 R3 K7 K8 Y1")
    assert distance_to_win(counts, jokers, RUMMIKUB) == 1
    counts, jokers = hand("R1 Y5 B9")
    assert distance_to_win(counts, jokers, RUMMIKUB) == 2
    with pytest.raises(ValueError, match="no winning hand"):
        distance_to_win(*hand("R1 R2"), RUMMIKUB)


@pytest.mark.parametrize(
    "make",
    [
        lambda: is_winning([0] * 51, 0, RUMMIKUB),
        lambda: is_winning([8] + [0] * 51, 0, RUMMIKUB),
        lambda: is_winning([0] * 52, -1, RUMMIKUB),
        lambda: MeldRules(min_run=4, max_run=3),
        lambda: MeldRules(numbers=7),
        lambda: best_partition([0] * 52, 0, RUMMIKUB, "most"),  # type: ignore[arg-type]
    ],
)
def test_bad_input(make: object) -> None:
    with pytest.raises(ValueError):
        make()  # type: ignore[operator]

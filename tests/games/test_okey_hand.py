"""Winning hands (okey.md 6): the spec's rows, joker identities, the options that change what
wins, and the fast discard scan checked against the arrangement solver by brute force."""

from __future__ import annotations

import random

import pytest

from meldhall.core.solver import is_winning
from meldhall.core.tiles import parse_okey_many
from meldhall.games.okey.discards import winning_discards
from meldhall.games.okey.hand import (
    SETS_RUNS,
    SEVEN_PAIRS,
    HandRules,
    judge,
    meld_rules,
    readings,
    unique_identities,
)
from meldhall.games.okey.pieces import FACES, effective_faces, okey_face
from meldhall.games.okey.split import fits, skips


def verdict_of(indicator: str, tiles: str, **rules: object):  # type: ignore[no-untyped-def]
    """Return the judge's verdict on 14 tiles (tokens) under an indicator."""
    parsed = parse_okey_many(f"{indicator} {tiles}")
    okey = okey_face(parsed[0].id)
    counts, wild = effective_faces([t.id for t in parsed[1:]], okey)
    return judge(counts, wild, HandRules(okey=okey, **rules))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("row", "indicator", "tiles", "form"),
    [
        ("C1", "K2", "R1 R2 R3 Y7 B7 K7 B10 B11 B12 B13 Y4 Y5 Y6 Y7", SETS_RUNS),
        ("C2", "K2", "Y12 Y13 Y1 R5 R6 R7 B9 Y9 K9 K4 K5 K6 K7 K8", SETS_RUNS),
        ("C3", "K2", "Y13 Y1 Y2 R5 R6 R7 B9 Y9 K9 K4 K5 K6 K7 K8", None),  # 13-1-2
        ("C4", "K2", "R7 R7 K7 R1 R2 R3 B9 Y9 K9 K4 K5 K6 K8 K9", None),  # colour repeated
        ("C5", "B9", "R3 R3 Y8 Y8 K11 K11 B1 B1 R12 R12 Y5 Y5 K2 K2", SEVEN_PAIRS),
        ("C6", "B9", "R3 Y3 Y8 Y8 K11 K11 B1 B1 R12 R12 Y5 Y5 K2 K2", None),
        ("C7", "R4", "K6 R5 R5 K9 Y10 K10 B10 R1 R2 R3 Y11 Y12 Y13 Y1", SETS_RUNS),
        ("C8", "R4", "R4 J R6 K5 Y5 B5 J R9 R10 R11 Y1 Y2 Y3 Y4", SETS_RUNS),
        ("C9", "R4", "K7 J K9 K5 Y5 B5 R9 R10 R11 Y1 Y2 Y3 Y4 B2", None),  # J is R5
        ("C10", "Y6", "R1 R2 R3 R4 K8 K9 K10 B11 Y11 R11 B5 B6 B7 B8", SETS_RUNS),
        ("C11", "Y6", "R3 Y7 Y8 Y8 K11 K11 B1 B1 R12 R12 Y5 Y5 K2 K2", SEVEN_PAIRS),
        ("C12", "R4", "Y13 R5 Y2 K1 K2 K3 B6 B7 B8 R9 Y9 K9 Y4 Y5", None),
        ("C13", "K13", "K1 R8 R9 B4 B5 B6 Y2 Y3 Y4 Y5 R11 R12 R13 R1", SETS_RUNS),
        ("C14", "K13", "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12 Y13 Y1", SETS_RUNS),
        ("C15", "R4", "R5 R5 Y8 Y8 K11 K11 B1 B1 R12 R12 Y5 Y5 K2 K2", SEVEN_PAIRS),
    ],
)
def test_okey_spec_rows(row: str, indicator: str, tiles: str, form: str | None) -> None:
    verdict = verdict_of(indicator, tiles)
    assert (verdict.form if verdict else None) == form, row


def test_okey_C14_max_run_13_still_wins_split_in_two() -> None:
    tiles = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12 Y13 Y1"
    long = verdict_of("K13", tiles)
    short = verdict_of("K13", tiles, max_run=13)
    assert long is not None and long.full_run
    assert short is not None and short.form == SETS_RUNS and not short.full_run


def test_okey_wrap_runs_none_forbids_12_13_1() -> None:
    tiles = "Y12 Y13 Y1 R5 R6 R7 B9 Y9 K9 K4 K5 K6 K7 K8"
    assert verdict_of("K2", tiles) is not None
    assert verdict_of("K2", tiles, wrap=False, max_run=13) is None


def test_okey_seven_pairs_option_off() -> None:
    tiles = "R3 R3 Y8 Y8 K11 K11 B1 B1 R12 R12 Y5 Y5 K2 K2"
    assert verdict_of("B9", tiles, seven_pairs=False) is None


def test_okey_pairs_preferred_when_both_readings_exist() -> None:
    # R1 R1 R2 R2 R3 R3 is also two runs: the more valuable reading (pairs) is scored
    tiles = "R1 R1 R2 R2 R3 R3 Y5 Y5 Y6 Y6 Y7 Y7 B9 B9"
    verdict = verdict_of("K2", tiles)
    assert verdict is not None and verdict.form == SEVEN_PAIRS
    assert verdict_of("K2", tiles, seven_pairs=False) is None  # B9 B9 is no meld


def test_okey_false_joker_and_real_joker_pair() -> None:
    # ind=R4: J is R5 and pairs with a real joker (R5*)
    tiles = "J R5 Y8 Y8 K11 K11 B1 B1 R12 R12 Y5 Y5 K2 K2"
    verdict = verdict_of("R4", tiles)
    assert verdict is not None and verdict.form == SEVEN_PAIRS


@pytest.mark.parametrize(
    ("indicator", "tiles", "identities"),
    [
        ("R4", "K6 R5 R5 K9 Y10 K10 B10 R1 R2 R3 Y11 Y12 Y13 Y1", [("K", 7), ("K", 8)]),
        # a joker in a 3-tile set leaves its colour open
        ("R4", "R5 Y9 B9 R1 R2 R3 K1 K2 K3 K4 B10 B11 B12 B13", [(None, 9)]),
        # seven pairs: the joker pairs the lone tile
        ("R4", "R3 R5 Y8 Y8 K11 K11 B1 B1 R12 R12 Y5 Y5 K2 K2", [("R", 3)]),
    ],
)
def test_okey_joker_identities_when_unique(
    indicator: str, tiles: str, identities: list[tuple[str | None, int]]
) -> None:
    verdict = verdict_of(indicator, tiles)
    assert verdict is not None
    assert list(verdict.wild_identities or []) == identities


def test_okey_joker_completing_a_four_tile_set_takes_the_missing_colour() -> None:
    parsed = parse_okey_many("R4 R5 Y9 B9 K9 R1 Y1 B1 K1 R6 R7 R8 B11 B12 B13")
    counts, wild = effective_faces([t.id for t in parsed[1:]], okey_face(parsed[0].id))
    found = set(readings(counts, wild, HandRules(okey=okey_face(parsed[0].id))))
    assert (("R", 9),) in found  # R5* as the red 9 of Y9 B9 K9
    assert (("R", 5),) in found  # or below R6 R7 R8
    assert unique_identities(counts, wild, HandRules(okey=4)) is None


def test_okey_joker_identity_not_unique() -> None:
    # R5* next to R6 R7 may be R5 or R8; two jokers in pairs may pair each other
    assert verdict_of("R4", "R5 R6 R7 Y1 Y2 Y3 B4 B5 B6 K7 K8 K9 K10 K11").wild_identities is None
    pairs = verdict_of("R4", "R5 R5 Y8 Y8 K11 K11 B1 B1 R12 R12 Y5 Y5 K2 K2")
    assert pairs is not None and pairs.wild_identities is None


# ---------------------------------------------------------------- against the solver


def _near_win(rng: random.Random, okey: int, indicator: int) -> list[int]:
    """Return 15 tiles: a hand built from melds and pairs, jokers swapped in, one more tile
    and sometimes one tile changed (so wins and near misses are common)."""
    while True:
        pool = set(range(106)) - {indicator}
        hand: list[int] = []
        while len(hand) < 14:
            kind = rng.random()
            faces: list[int] = []
            if kind < 0.45:
                colour, length = rng.randrange(4), rng.choice([3, 3, 4, 5])
                start = rng.randrange(1, 16 - length)
                faces = [
                    colour * 13 + (0 if p == 14 else p - 1) for p in range(start, start + length)
                ]
            elif kind < 0.8:
                number = rng.randrange(13)
                faces = [c * 13 + number for c in rng.sample(range(4), rng.choice([3, 4]))]
            else:
                face = rng.randrange(FACES)
                faces = [face, face]
            tiles = []
            for face in faces:
                free = [t for t in (2 * face, 2 * face + 1) if t in pool and t not in tiles]
                if not free:
                    break
                tiles.append(free[0])
            if len(tiles) == len(faces):
                pool -= set(tiles)
                hand += tiles
        if len(hand) == 14:
            break
    for _ in range(rng.choice([0, 0, 1, 2])):
        jokers = [t for t in (2 * okey, 2 * okey + 1, 104, 105) if t in pool]
        if jokers:
            i = rng.randrange(14)
            pool.add(hand[i])
            hand[i] = rng.choice(jokers)
            pool.discard(hand[i])
    hand.append(rng.choice(sorted(pool)))
    pool.discard(hand[-1])
    if rng.random() < 0.4:
        i = rng.randrange(15)
        new = rng.choice(sorted(pool))
        hand[i] = new
    return sorted(hand)


def _brute(hand: list[int], rules: HandRules) -> tuple[int, ...]:
    out = []
    for t in hand:
        counts, wild = effective_faces([x for x in hand if x != t], rules.okey)
        pairs = rules.seven_pairs and sum(c & 1 for c in counts) <= wild
        if pairs or is_winning(counts, wild, meld_rules(rules.wrap, rules.max_run)):
            out.append(t)
    return tuple(out)


def test_okey_discard_scan_matches_the_solver_by_brute_force() -> None:
    rng = random.Random(2024)
    wins = 0
    for i in range(900):
        indicator = rng.randrange(104)
        okey = okey_face(indicator)
        wrap = rng.random() < 0.8
        rules = HandRules(
            okey=okey,
            wrap=wrap,
            max_run=rng.choice([14, 13]) if wrap else 13,
            seven_pairs=rng.random() < 0.8,
        )
        if i % 4 == 0:
            hand = sorted(rng.sample([t for t in range(106) if t != indicator], 15))
        else:
            hand = _near_win(rng, okey, indicator)
        expected = _brute(hand, rules)
        wins += bool(expected)
        assert winning_discards(hand, rules) == expected, (hand, rules)
    assert wins > 120, "the generator should give many winning hands"


def test_okey_fast_search_and_readings_agree_with_the_solver() -> None:
    rng = random.Random(7)
    for _ in range(400):
        indicator = rng.randrange(104)
        okey = okey_face(indicator)
        hand = _near_win(rng, okey, indicator)
        drop = rng.randrange(15)
        counts, wild = effective_faces(hand[:drop] + hand[drop + 1 :], okey)
        rules = HandRules(okey=okey)
        solver = is_winning(counts, wild, meld_rules(True, 14))
        assert fits(counts, wild, top=14, max_run=14) == solver
        assert (next(readings(counts, wild, rules), None) is not None) == solver


def test_okey_skips_lists_every_tile_that_may_be_left_out() -> None:
    rng = random.Random(11)
    for _ in range(200):
        indicator = rng.randrange(104)
        okey = okey_face(indicator)
        hand = _near_win(rng, okey, indicator)
        counts, wild = effective_faces(hand, okey)
        expected = set()
        for face in range(FACES):
            if counts[face]:
                counts[face] -= 1
                if is_winning(counts, wild, meld_rules(True, 14)):
                    expected.add(face)
                counts[face] += 1
        assert skips(counts, wild, top=14, max_run=14) == expected

"""Hand maths of Sichuan mahjong against independent brute force: win check, waits, shanten,
and the fan table's choice of interpretation."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldhall.games.sichuan.fan import pattern_fans, score_win
from meldhall.games.sichuan.hand import (
    counts_of,
    is_seven_pairs,
    is_standard_win,
    is_win,
    waits,
)
from meldhall.games.sichuan.shanten import seven_pairs_shanten, shanten, standard_shanten


def _brute_sets(counts: tuple[int, ...]) -> bool:
    """Return True when the counts split into pungs and chows (plain recursion)."""
    if not any(counts):
        return True
    i = next(k for k, n in enumerate(counts) if n)
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        if _brute_sets(tuple(c)):
            return True
        c[i] += 3
    if i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if _brute_sets(tuple(c)):
            return True
    return False


def _brute_win(counts: list[int]) -> bool:
    for k in range(27):
        if counts[k] >= 2:
            c = list(counts)
            c[k] -= 2
            if _brute_sets(tuple(c)):
                return True
    return sum(counts) == 14 and all(n in (0, 2, 4) for n in counts)


@cache
def _brute_cuts(counts: tuple[int, ...]) -> frozenset[tuple[int, int, int]]:
    """Every (sets, partial sets, has pair) of a whole hand, by plain enumeration."""
    if not any(counts):
        return frozenset({(0, 0, 0)})
    i = next(k for k, n in enumerate(counts) if n)
    out: set[tuple[int, int, int]] = set()

    def go(removed: list[int], dm: int, dq: int, dh: int) -> None:
        c = list(counts)
        for k in removed:
            c[k] -= 1
        for m, q, h in _brute_cuts(tuple(c)):
            out.add((m + dm, q + dq, h | dh))

    r = i % 9
    if counts[i] >= 3:
        go([i, i, i], 1, 0, 0)
    if counts[i] >= 2:
        go([i, i], 0, 1, 1)
    if r <= 6 and counts[i + 1] and counts[i + 2]:
        go([i, i + 1, i + 2], 1, 0, 0)
    if r <= 7 and counts[i + 1]:
        go([i, i + 1], 0, 1, 0)
    if r <= 6 and counts[i + 2]:
        go([i, i + 2], 0, 1, 0)
    go([i], 0, 0, 0)
    return frozenset(out)


def _brute_standard_shanten(counts: list[int], melds: int = 0) -> int:
    return min(
        8 - 2 * (m + melds) - min(q, 4 - m - melds + h) for m, q, h in _brute_cuts(tuple(counts))
    )


def _random_hand(rng: random.Random, size: int, suits: int = 3) -> list[int]:
    tiles = rng.sample([k // 4 for k in range(36 * suits)], size)
    counts = [0] * 27
    for k in tiles:
        counts[k] += 1
    return counts


hands14 = st.lists(st.integers(0, 26), min_size=14, max_size=14).filter(
    lambda ks: all(ks.count(k) <= 4 for k in set(ks))
)


def _counts(kinds: list[int]) -> list[int]:
    counts = [0] * 27
    for k in kinds:
        counts[k] += 1
    return counts


@settings(max_examples=400, deadline=None)
@given(hands14)
def test_win_check_equals_brute_force(kinds: list[int]) -> None:
    counts = _counts(kinds)
    assert is_win(counts) == _brute_win(counts)


def test_win_check_on_winning_heavy_one_suit_hands() -> None:
    rng = random.Random(3)
    wins = 0
    for _ in range(3000):
        counts = _random_hand(rng, 14, suits=1)
        expected = _brute_win(counts)
        wins += expected
        assert is_win(counts) == expected, counts
    assert wins > 50


def test_standard_and_seven_pairs_forms() -> None:
    seven = counts_of("1m 1m 1m 1m 2m 2m 3m 3m 5p 5p 6p 6p 7p 7p")
    assert is_seven_pairs(seven) and is_win(seven) and is_standard_win(seven)
    only_pairs = counts_of("1m 1m 4m 4m 7m 7m 2p 2p 5p 5p 8p 8p 9p 9p")
    assert is_win(only_pairs) and not is_standard_win(only_pairs)
    assert not is_win(only_pairs, melds=1)


@settings(max_examples=300, deadline=None)
@given(hands14)
def test_shanten_equals_brute_force(kinds: list[int]) -> None:
    counts = _counts(kinds)
    assert standard_shanten(counts) == _brute_standard_shanten(counts)
    assert shanten(counts) == min(_brute_standard_shanten(counts), seven_pairs_shanten(counts))
    assert (shanten(counts) == -1) == is_win(counts)


def test_shanten_with_declared_melds() -> None:
    rng = random.Random(5)
    for melds in (1, 2, 3, 4):
        for _ in range(200):
            counts = _random_hand(rng, 14 - 3 * melds)
            assert standard_shanten(counts, melds) == _brute_standard_shanten(counts, melds)
            assert shanten(counts, melds) == standard_shanten(counts, melds)


def test_shanten_matches_the_mahjong_library() -> None:
    lib = pytest.importorskip("mahjong.shanten").Shanten
    rng = random.Random(9)
    for suits in (1, 3):
        for _ in range(400):
            counts = _random_hand(rng, 14, suits)
            ours = standard_shanten(counts)
            assert ours == lib.calculate_shanten_for_regular_hand(counts + [0] * 7), counts


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 17), min_size=13, max_size=13))
def test_waits_equal_brute_force(kinds: list[int]) -> None:
    if any(kinds.count(k) > 4 for k in kinds):
        return
    counts = _counts(kinds)
    expected = [
        k
        for k in range(18)
        if counts[k] < 4 and _brute_win([n + (i == k) for i, n in enumerate(counts)])
    ]
    assert waits(counts, miss=2) == expected


def test_waits_exclude_the_missing_suit_and_fifth_copies() -> None:
    assert waits(counts_of("1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 5s"), miss=2) == []
    hand = counts_of("1m 1m 1m 1m 2m 3m 4m 5p 6p 7p 8p 8p 8p")
    assert waits(hand, miss=2) == [3]
    two_pairs = counts_of("1m 1m 1m 2m 2m 1p 1p 1p 1p 2p 2p 2p 3p")  # both suits split already
    assert waits(two_pairs, miss=2) == [1, 10]


@pytest.mark.parametrize(
    ("hand", "melds", "fans"),
    [
        # seven pairs beats the standard split (T07)
        (
            "1m 1m 1m 1m 2m 2m 3m 3m 5p 5p 6p 6p 7p 7p",
            [],
            {"seven_pairs": 2, "root": 1},
        ),
        # seven pairs of 2/5/8 tiles: no all-2/5/8 pungs (that needs pungs)
        (
            "2m 2m 5m 5m 8m 8m 2p 2p 5p 5p 8p 8p 8p 8p",
            [],
            {"seven_pairs": 2, "root": 1},
        ),
        # all pungs with a concealed pung split: all pungs 1 beats basic
        ("2m 2m 2m 4m 4m 4m 6p 6p 6p 7p 7p 7p 9p 9p", [], {"all_pungs": 1}),
        # full flush, all pungs, and a root from a kong meld
        (
            "3p 3p 3p 5p 5p 5p 9p 9p",
            [("K", 10), ("P", 15)],
            {"all_pungs": 1, "full_flush": 2, "root": 1},
        ),
        # outside needs every meld to be terminal: a 5p pung meld spoils it
        ("1m 2m 3m 7m 8m 9m 9m 9m 9m 1p 1p", [("P", 13)], {"root": 1}),
    ],
)
def test_fan_interpretations(hand: str, melds: list[tuple[str, int]], fans: dict[str, int]) -> None:
    result = pattern_fans(counts_of(hand), melds)
    assert result is not None and result[1] == fans


def test_score_caps_and_events() -> None:
    counts = counts_of("1m 2m 3m 1m 2m 3m 7m 8m 9m 9m 9m 9m 1m 1m")
    capped = score_win(counts, (), events=("last_tile",), cap=5)
    assert capped is not None and capped.fan == 7 and capped.points == 32
    uncapped = score_win(counts, (), cap=None)
    assert uncapped is not None and uncapped.points == 64
    assert score_win(counts_of("1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 5p 5p 7p"), ()) is None


def test_suit_flags_on_every_small_suit() -> None:
    """Every suit of up to 8 tiles (4 copies a rank): the mod-3 split rule equals search."""
    from itertools import product

    from meldhall.games.sichuan.hand import EVEN, PAIR, SETS, suit_flags

    checked = 0
    for c in product(range(5), repeat=9):
        total = sum(c)
        if total > 8:
            continue
        counts = list(c) + [0] * 18
        key = int.from_bytes(bytes(c), "little")
        sets = _brute_sets(tuple(counts))
        pair = any(
            c[r] >= 2 and _brute_sets((*counts[:r], c[r] - 2, *counts[r + 1 :])) for r in range(9)
        )
        flags = suit_flags(key)
        assert bool(flags & SETS) == sets and bool(flags & PAIR) == pair, c
        assert bool(flags & EVEN) == all(n % 2 == 0 for n in c)
        checked += 1
    assert checked > 20000

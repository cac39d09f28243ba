"""Sichuan options that no scenario vector plays (sichuan.md 14): ``dealer``,
``postponed_kong_pays``, ``missing_suit_strictness`` and ``ready_check_visible_tiles``.
Each test fails when its option is ignored (the default used instead)."""

from __future__ import annotations

import random

from meldhall.core.engine import Event
from meldhall.core.rng import SeededStream, derive, seed_from_text
from meldhall.games.sichuan import GAME
from meldhall.games.sichuan.pieces import TOKEN
from tests.games.test_sichuan_helpers import (
    act,
    deal,
    discard,
    kong_net,
    names,
    pass_all,
    rejected,
    tsumogiri,
)


def _random_dealer(seed: bytes) -> int:
    """Return the first dealer the default ``dealer = "random"`` draws from ``seed`` (D1)."""
    return SeededStream(derive(seed, "hand", 0), "dealer").randbelow(4)


def test_dealer_seat0_deals_every_hand_from_seat_zero() -> None:
    checked = 0
    for n in range(16):
        seed = seed_from_text(f"seat0 {n}")
        if _random_dealer(seed) == 0:
            continue
        state = GAME.new_state(GAME.options({"dealer": "seat0"}), 4, seed)
        assert state.dealer == 0 and len(state.hands[0]) == 14
        checked += 1
    assert checked >= 8


def _next_dealers(seed: bytes) -> list[tuple[int, int]]:
    """Play a random 4-deal match with the rotation and return, per deal after the first,
    ``(expected, actual)`` dealers: the first winner, the discarder after a first win by
    several on one discard, the same dealer after a deal without a winner."""
    state = GAME.new_state(GAME.options({"dealer": "rotation", "deals": 4}), 4, seed)
    rng = random.Random(seed)
    dealer = state.dealer
    first: tuple[list[int], int | None] | None = None
    out: list[tuple[int, int]] = []
    while state.outcome() is None:
        seat = rng.choice(sorted(state.to_act()))
        legal = state.legal_actions(seat)
        wins = [a for a in legal if str(a) == "win"]
        action = wins[0] if wins and rng.random() < 0.7 else rng.choice(legal)
        events: tuple[Event, ...] = state.apply(seat, action)
        won = [e.public for e in events if e.kind == "win"]
        if won and first is None:
            first = ([w["seat"] for w in won], won[0]["from"])
        for e in events:
            if e.kind == "deal" and e.seat == 0:
                if first is None:
                    expected = dealer
                elif len(first[0]) == 1 or first[1] is None:
                    expected = first[0][0]
                else:
                    expected = first[1]
                dealer = e.public["dealer"]
                out.append((expected, dealer))
                first = None
    return out


def test_dealer_rotation_passes_the_deal_to_the_first_winner() -> None:
    pairs = [p for n in range(6) for p in _next_dealers(seed_from_text(f"rotation {n}"))]
    assert len(pairs) == 18
    assert all(expected == actual for expected, actual in pairs), pairs
    assert len({actual for _, actual in pairs}) > 1


POSTPONED_HANDS = [
    "6p 6p 6p 1s 1s 2s 3s 4s 5s 7p 8p 9p 9s 2p",
    "6p 1p 1p 2p 3p 7s 7s 8s 8s 5s 6s 4s 3s",
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 4p 5p 8p 8p",
    "1p 2p 3p 7p 8p 9p 2s 2s 4s 5s 6s 8s 9p",
]
"""P0 holds three 6p and pungs P1's 6p: the fourth copy stays in P0's hand."""


def _postponed_kong(pays: bool) -> list[int]:
    """Return the kong payments after P0's added kong of a 6p held since the pung."""
    state = deal(
        POSTPONED_HANDS,
        front="1s 1m 2m 3m 9s",
        miss="mmsm",
        options={"postponed_kong_pays": pays},
    )
    discard(state, 0, "2p")
    pass_all(state)
    discard(state, 1, "6p")
    pass_all(state, but=(0,))
    act(state, 0, "pung")
    assert state.entered == "pung" and "added_kong 6p" not in names(state.legal_actions(0))
    discard(state, 0, "7p")
    pass_all(state)
    tsumogiri(state, 3)
    assert state.turn == 0 and not TOKEN[state.drawn].startswith("6p")
    act(state, 0, "added_kong 6p")
    assert state.postponed
    pass_all(state)
    assert [m.letter for m in state.melds[0]] == ["A"]
    return kong_net(state)


def test_postponed_kong_pays_by_default() -> None:
    assert _postponed_kong(True) == [3, -1, -1, -1]


def test_postponed_kong_pays_nothing_with_the_option_off() -> None:
    assert _postponed_kong(False) == [0, 0, 0, 0]


T17_HANDS = [
    "9m 5p 1s 1s 2s 3s 4p 6p 8p 8p 7s 8s 1p 4p",
    "2m 7m 5p 5p 1p 2p 3p 9s 9s 9s 4s 5s 6s",
    "3m 3p 3p 6p 7p 9p 9p 2s 2s 5s 6s 7s 4s",
    "8m 1p 2p 4p 7p 9p 3s 3s 4s 5s 6s 8s 2s",
]
"""sichuan.md T17: P1 holds two tiles of its missing suit m."""


def test_missing_suit_relaxed_allows_pung_and_kong_but_no_win() -> None:
    state = deal(
        T17_HANDS,
        front="9s 1s 1s 2p",
        miss="mmmm",
        options={"missing_suit_strictness": "relaxed"},
    )
    discard(state, 0, "9m")
    pass_all(state)
    assert state.turn == 1 and TOKEN[state.drawn].startswith("9s")
    assert "concealed_kong 9s" in names(state.legal_actions(1))
    assert rejected(state, 1, "win") == "HOLDS_MISSING_SUIT"
    assert rejected(state, 1, f"discard {TOKEN[state.drawn]}") == "MUST_DISCARD_MISSING_SUIT"
    discard(state, 1, "2m")
    pass_all(state)
    discard(state, 2, "3m")
    pass_all(state)
    discard(state, 3, "8m")
    pass_all(state)
    discard(state, 0, "5p")
    assert "pung" in names(state.legal_actions(1))
    pass_all(state, but=(1,))
    act(state, 1, "pung")
    assert state.turn == 1 and [m.letter for m in state.melds[1]] == ["P"]


READY_HANDS = [
    "5p 5p 5p 1m 1m 2p 3p 4p 6p 7p 8p 9p 9p 2m",
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 5p",
    "1s 2s 3s 4s 5s 6s 7s 8s 9s 2p 3p 4p 9s",
    "1s 2s 3s 4s 5s 6s 7s 8s 9s 6p 7p 8p 2s",
]
"""P1 waits on 5p alone; P0 holds and discards the three other copies."""


def _ready_after_the_copies_are_seen(visible: str) -> bool:
    state = deal(READY_HANDS, miss="ssmm", options={"ready_check_visible_tiles": visible})
    assert state.seat_at_end(1).ready
    for _ in range(3):
        discard(state, 0, "5p")
        assert "win" in names(state.legal_actions(1))
        pass_all(state)
        tsumogiri(state, 3)
    assert sum(TOKEN[t].startswith("5p") for t in state.discards[0]) == 3
    return state.seat_at_end(1).ready


def test_ready_check_ignores_visible_copies_by_default() -> None:
    assert _ready_after_the_copies_are_seen("ignore")


def test_ready_check_excludes_a_wait_whose_every_copy_is_visible() -> None:
    assert not _ready_after_the_copies_are_seen("exclude")

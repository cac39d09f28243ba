"""The scenario vectors of okey.md section 10 (VECTORS.md 6): C16, C17, C19, C20, C21, C22,
each built from an explicit deal and played through the engine protocol."""

from __future__ import annotations

import pytest

from meldhall.core.errors import IllegalAction
from meldhall.core.rng import seed_from_text
from meldhall.games.okey import GAME
from meldhall.games.okey.actions import (
    DRAW,
    END,
    SHOW,
    TAKE,
    Discard,
    DiscardWin,
)
from meldhall.games.okey.deal import deal_from_order
from meldhall.games.okey.explicit import deal_options, explicit_options
from meldhall.games.okey.pieces import OKEY_TILE_IDS, TOKENS
from meldhall.games.okey.state import AWAIT_DISCARD, AWAIT_TAKE, OkeyState

SEED = seed_from_text("okey scenarios")


def state_of(raw: dict[str, object]) -> OkeyState:
    """Return a new match (4 seats unless the options say otherwise) from raw options."""
    options = GAME.options(raw)
    return GAME.new_state(options, options.players, SEED)


def tid(token: str) -> int:
    """Return the tile id of a suffixed token such as ``R5a``."""
    return OKEY_TILE_IDS[token]


def rejected(state: OkeyState, seat: int, action: object, code: str) -> None:
    """Assert that ``action`` by ``seat`` is rejected with ``code`` and changes nothing."""
    before = state.snapshot()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)  # type: ignore[arg-type]
    assert info.value.code == code
    assert state.snapshot() == before


def first_discard(state: OkeyState) -> int:
    """Return the first tile of the player to act (a plain discard for tests)."""
    return state.hands[state.turn][0]


# ---------------------------------------------------------------- C16, C17 indicator show


def c16_state() -> OkeyState:
    # ind=B8; seat 2 holds the other B8; seat 0 is the first player (dealer 3)
    return state_of(explicit_options("B8a", {2: "B8b"}, dealer=3))


def test_okey_C16_show_costs_every_other_player_one_point_once() -> None:
    state = c16_state()
    state.apply(0, Discard(first_discard(state)))
    state.apply(1, DRAW)
    state.apply(1, Discard(first_discard(state)))
    assert state.turn == 2 and state.phase == AWAIT_TAKE
    assert state.legal_actions(2)[0] == SHOW
    assert state.observation(2)["can_show"] is True
    assert state.observation(1)["can_show"] is False
    events = state.apply(2, SHOW)
    assert [e.kind for e in events] == ["show_indicator"]
    assert events[0].public["deltas"] == [-1, -1, 0, -1]
    assert state.scores == [19, 19, 20, 19]
    assert state.shown_by == 2
    assert state.phase == AWAIT_TAKE and state.turn == 2, "the show does not use the turn"
    assert tid("B8b") in state.hands[2], "the shown tile stays in the hand"
    assert SHOW not in state.legal_actions(2)
    rejected(state, 2, SHOW, "SHOW_NOT_ALLOWED")


def test_okey_C16_first_player_may_show_before_the_first_discard() -> None:
    state = state_of(explicit_options("B8a", {0: "B8b"}, dealer=3))
    assert state.phase == AWAIT_DISCARD and state.legal_actions(0)[0] == SHOW
    state.apply(0, SHOW)
    assert state.scores == [20, 19, 19, 19]
    rejected(state, 0, SHOW, "SHOW_NOT_ALLOWED")


def test_okey_C16_show_needs_the_twin_the_turn_and_the_option() -> None:
    state = c16_state()
    rejected(state, 2, SHOW, "NOT_YOUR_TURN")
    rejected(state, 0, SHOW, "SHOW_NOT_ALLOWED")
    raw = explicit_options("B8a", {0: "B8b"}, dealer=3)
    off = state_of({**raw, "indicator_show": False})
    assert SHOW not in off.legal_actions(0)
    rejected(off, 0, SHOW, "SHOW_NOT_ALLOWED")


def test_okey_C17_no_show_after_the_first_draw() -> None:
    state = c16_state()
    state.apply(0, Discard(first_discard(state)))
    state.apply(1, DRAW)
    state.apply(1, Discard(first_discard(state)))
    state.apply(2, DRAW)
    assert SHOW not in state.legal_actions(2)
    rejected(state, 2, SHOW, "SHOW_NOT_ALLOWED")
    state.apply(2, Discard(next(t for t in state.hands[2] if t != tid("B8b"))))
    for seat in (3, 0, 1):
        state.apply(seat, DRAW)
        state.apply(seat, Discard(first_discard(state)))
    assert state.turn == 2 and state.phase == AWAIT_TAKE
    assert SHOW not in state.legal_actions(2)
    rejected(state, 2, SHOW, "SHOW_NOT_ALLOWED")
    assert state.scores == [20, 20, 20, 20]


def test_okey_C17_first_player_cannot_show_after_discarding() -> None:
    state = state_of(explicit_options("B8a", {0: "B8b"}, dealer=3))
    state.apply(0, Discard(next(t for t in state.hands[0] if t != tid("B8b"))))
    for seat in (1, 2, 3):
        state.apply(seat, DRAW)
        state.apply(seat, Discard(first_discard(state)))
    assert state.turn == 0 and tid("B8b") in state.hands[0]
    rejected(state, 0, SHOW, "SHOW_NOT_ALLOWED")


# ---------------------------------------------------------------- C19 empty wall


def test_okey_C19_empty_wall_ends_the_hand_without_score() -> None:
    state = state_of(explicit_options("R4a", {0: "K13a"}, wall="", dealer=3))
    state.apply(0, Discard(tid("K13a")))
    assert state.turn == 1 and state.wall_count() == 0
    assert state.legal_actions(1) == (END,)
    rejected(state, 1, TAKE, "TAKE_ONLY_TO_WIN")
    rejected(state, 1, DRAW, "WALL_EMPTY")
    events = state.apply(1, END)
    over = next(e for e in events if e.kind == "hand_over")
    assert over.public["result"] == "no_score"
    assert over.public["winner"] is None
    assert over.public["deltas"] == [0, 0, 0, 0]
    assert state.scores == [20, 20, 20, 20]
    assert state.outcome() is None
    assert state.hand_no == 2 and state.dealer == 0 and state.first_player == 1
    assert [e.kind for e in events][:2] == ["hand_over", "hand_start"]


def test_okey_C19_empty_wall_take_is_allowed_only_to_win() -> None:
    # seat 1 holds C1's 14 winning tiles minus B13; seat 0 discards B13
    winner = "R1a R2a R3a Y7a B7a K7a B10a B11a B12a Y4a Y5a Y6a Y7b R9a"
    state = state_of(explicit_options("K2a", {0: "B13a", 1: winner}, wall="", dealer=3))
    state.apply(0, Discard(tid("B13a")))
    assert state.legal_actions(1) == (TAKE, END)
    state.apply(1, TAKE)
    assert state.observation(1)["must_win"] is True
    assert state.legal_actions(1) == (DiscardWin(tid("R9a")),)
    rejected(state, 1, Discard(tid("R9a")), "TAKE_ONLY_TO_WIN")
    rejected(state, 1, DiscardWin(tid("R1a")), "NOT_A_WINNING_HAND")
    events = state.apply(1, DiscardWin(tid("R9a")))
    over = next(e for e in events if e.kind == "hand_over")
    assert over.public["winner"] == 1 and over.public["deltas"] == [-2, 0, -2, -2]
    assert state.must_win is False
    state.check_invariants()


def test_okey_C19_a_forced_take_that_wins_may_end_the_match() -> None:
    winner = "R1a R2a R3a Y7a B7a K7a B10a B11a B12a Y4a Y5a Y6a Y7b R9a"
    raw = explicit_options("K2a", {0: "B13a", 1: winner}, wall="", dealer=3)
    state = state_of({**raw, "start_points": 2})
    state.apply(0, Discard(tid("B13a")))
    state.apply(1, TAKE)
    state.apply(1, DiscardWin(tid("R9a")))
    assert state.outcome() is not None
    state.check_invariants()


def test_okey_C19_wall_end_continue_allows_one_extra_circuit() -> None:
    raw = explicit_options("R4a", {0: "K13a"}, wall="", dealer=3)
    state = state_of({**raw, "wall_end": "continue"})
    state.apply(0, Discard(tid("K13a")))
    for seat in (1, 2, 3, 0):
        assert state.legal_actions(seat) == (TAKE, END)
        state.apply(seat, TAKE)
        state.apply(seat, Discard(first_discard(state)))
    assert state.legal_actions(1) == (END,), "after one circuit: take only to win"
    state.apply(1, END)
    assert state.hand_no == 2


# ---------------------------------------------------------------- C20 the canonical deal


def test_okey_C20_canonical_deal_d1_5_d2_2() -> None:
    t = list(range(106))
    deal = deal_from_order(t, 5, [2], 4, first_player=0)  # dealer 3
    first, opposite, third, dealer = (deal.hand(s) for s in (0, 1, 2, 3))
    assert deal.stack == 4 and deal.indicator == t[21] and t[21] < 104
    assert sorted(first) == t[25:30] + t[45:50] + t[65:70]
    assert list(opposite) == t[34:29:-1] + t[54:49:-1] + [t[74], t[73], t[72], t[71]]
    assert list(third) == t[39:34:-1] + t[59:54:-1] + [t[70], t[79], t[78], t[77]]
    assert list(dealer) == t[44:39:-1] + t[64:59:-1] + [t[76], t[75], t[84], t[83]]
    assert len(deal.wall) == 48
    assert list(deal.wall[:4]) == [t[82], t[81], t[80], t[89]]
    assert list(deal.wall[-6:]) == [t[15], t[105], t[24], t[23], t[22], t[20]]
    placed = sorted([deal.indicator, *deal.wall, *(x for h in deal.hands for x in h)])
    assert placed == t


def test_okey_C20_canonical_deal_played_tile_by_tile() -> None:
    deal = deal_from_order(range(106), 5, [2], 4, first_player=0)
    state = state_of(deal_options(deal, dealer=3))
    assert state.indicator == 21 and state.wall_count() == 48
    assert [sorted(h) for h in state.hands] == [sorted(h) for h in deal.hands]
    state.apply(0, Discard(first_discard(state)))
    drawn: list[int] = []
    while state.wall_count():
        seat = state.turn
        events = state.apply(seat, DRAW)
        tile = OKEY_TILE_IDS[str(events[0].private["tile"])]  # type: ignore[index]
        assert events[0].for_viewer(None).get("tile") is None, "a draw is private"
        drawn.append(tile)
        assert state.wall_count() == 48 - len(drawn)
        state.apply(seat, Discard(tile))
    assert drawn == list(deal.wall)
    assert drawn[:4] == [82, 81, 80, 89]
    assert drawn[-6:] == [15, 105, 24, 23, 22, 20]
    assert 21 not in drawn, "the indicator is never drawn"
    assert state.legal_actions(state.turn) == (END,)
    state.apply(state.turn, END)
    assert state.scores == [20, 20, 20, 20] and state.hand_no == 2


def test_okey_C20_engine_deals_hand_one_canonically() -> None:
    from meldhall.core.rng import SeededStream, derive
    from meldhall.games.okey.deal import canonical_deal

    state = GAME.new_state(GAME.options(), 4, SEED)
    hand_seed = derive(SEED, "hand", 1)
    dealer = SeededStream(hand_seed, "dealer").randbelow(4)
    deal = canonical_deal(hand_seed, 4, first_player=(dealer + 1) % 4)
    assert state.dealer == dealer and state.first_player == (dealer + 1) % 4
    assert state.indicator == deal.indicator and state.wall == list(deal.wall)
    assert [sorted(h) for h in state.hands] == [sorted(h) for h in deal.hands]
    assert state.dice == [deal.d1, *deal.d2_rolls]


# ---------------------------------------------------------------- C21 the first player


def test_okey_C21_first_player_discards_first() -> None:
    state = state_of(explicit_options("R4a", {}, dealer=3))
    assert state.turn == 0 and state.phase == AWAIT_DISCARD and len(state.hands[0]) == 15
    rejected(state, 0, DRAW, "WRONG_PHASE")
    rejected(state, 0, TAKE, "WRONG_PHASE")
    rejected(state, 1, DRAW, "NOT_YOUR_TURN")
    assert DRAW not in state.legal_actions(0)
    state.apply(0, Discard(first_discard(state)))
    assert state.turn == 1 and state.phase == AWAIT_TAKE
    assert state.legal_actions(1) == (DRAW, TAKE)


# ---------------------------------------------------------------- C22 a false claim


C1_TILES = "R1a R2a R3a Y7a B7a K7a B10a B11a B12a B13a Y4a Y5a Y6a Y7b"


def test_okey_C22_false_discard_win_is_rejected_state_unchanged() -> None:
    state = state_of(explicit_options("K2a", {0: C1_TILES + " B5a"}, dealer=3))
    assert state.legal_actions(0)[0] == DiscardWin(tid("B5a"))
    assert DiscardWin(tid("R3a")) not in state.legal_actions(0)
    rejected(state, 0, DiscardWin(tid("R3a")), "NOT_A_WINNING_HAND")
    rejected(state, 0, DiscardWin(tid("K13b")), "TILE_NOT_IN_HAND")
    events = state.apply(0, DiscardWin(tid("B5a")))
    over = next(e for e in events if e.kind == "hand_over").public
    assert over["winner"] == 0 and over["final_discard"] == "B5a"
    assert over["form"] == "sets_runs" and over["points"] == 2
    assert over["deltas"] == [0, -2, -2, -2]
    assert over["hands"][0] == [TOKENS[t] for t in sorted(tid(x) for x in C1_TILES.split())]
    assert over["hands"][1] is None
    assert state.scores == [20, 18, 18, 18]
    assert state.hand_no == 2


def test_okey_C22_penalty_option_accepts_a_false_claim_as_a_discard() -> None:
    raw = explicit_options("K2a", {0: C1_TILES + " B5a"}, dealer=3)
    state = state_of({**raw, "false_claim": "penalty(2)"})
    assert DiscardWin(tid("R3a")) in state.legal_actions(0)
    events = state.apply(0, DiscardWin(tid("R3a")))
    assert [e.kind for e in events] == ["discard", "false_claim"]
    assert state.scores == [18, 20, 20, 20]
    assert state.piles[0] == [tid("R3a")] and state.turn == 1

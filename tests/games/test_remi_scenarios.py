"""The scenario vectors of rules/remi.md 13 (VECTORS.md 6): R18-R20, R41 opening; R21-R25,
R42, R43 laying off; R26-R32 joker exchange; R33, R34 turn rules; R37, R38 Kalooki or not;
R39 stock rebuild; R44 the deal. Each builds its position from an explicit deck (or, where play
cannot reach it, an explicit position) and plays through the engine protocol."""

from __future__ import annotations

from meldhall.core.tiles import split_tokens
from meldhall.games.remi import GAME
from meldhall.games.remi.actions import DrawDiscard, DrawStock, Exchange, LayOff
from meldhall.games.remi.state import RemiState
from tests.games.test_remi_helpers import (
    SEED,
    deal,
    hand_of,
    kinds,
    meld_view,
    pass_turn,
    play,
    position,
    rejected,
)

KINGS = "KC KD KS"
"""A set worth 30 that opens by itself."""


def opened_with(hands: list[str], opening: str, extra: str = "") -> RemiState:
    """Return a 2-player match where seat 0 opened in its first turn with ``opening`` (melds
    in brackets) and seat 1 passed; seat 0 is about to draw again."""
    state = deal(hands, stock="2C#2 3D#2 4H#2" + extra)
    play(state, 0, "DRAW_STOCK", f"OPEN {opening}", "DISCARD 2C#2")
    pass_turn(state, 1)
    return state


# ---------------------------------------------------------------- opening


def test_remi_R18_open_with_exactly_30() -> None:
    state = deal(["10H 10S JK", ""])
    play(state, 0, "DRAW_STOCK")
    events = play(state, 0, "OPEN [10H 10S JK]")
    assert kinds(events) == ["open"]
    assert events[0].public["value"] == 30
    assert meld_view(state, 0)["kind"] == "set" and meld_view(state, 0)["jokers"] == ["10?"]
    assert state.observation(None)["opened"] == [True, False]
    assert len(hand_of(state, 0)) == 11 and state.to_act() == {0}


def test_remi_R19_opening_below_30_is_illegal() -> None:
    state = deal(["2C 3C 4C 5D 5S 5H", ""])
    play(state, 0, "DRAW_STOCK")
    rejected(state, 0, "OPEN [2C 3C 4C] [5D 5S 5H]", "OPENING_TOO_LOW")
    assert state.observation(None)["opened"] == [False, False]


def test_remi_R20_lay_off_before_opening_is_illegal() -> None:
    state = deal(["8H", f"5H 6H 7H {KINGS}"])
    pass_turn(state, 0)
    play(state, 1, "DRAW_STOCK", f"OPEN [5H 6H 7H] [{KINGS}]")
    pass_turn_after_draw(state, 1)
    play(state, 0, "DRAW_STOCK")
    rejected(state, 0, "LAY_OFF 8H m0 high", "NOT_OPEN")
    assert not any(isinstance(a, LayOff) for a in state.legal_actions(0))


def pass_turn_after_draw(state: RemiState, seat: int) -> None:
    """Discard the first card the seat may discard."""
    discard = next(a for a in state.legal_actions(seat) if str(a).startswith("DISCARD"))
    state.apply(seat, discard)


def test_remi_R41_meld_before_opening_is_illegal() -> None:
    state = deal(["2C 3C 4C", ""])
    play(state, 0, "DRAW_STOCK")
    rejected(state, 0, "MELD [2C 3C 4C]", "OPEN_FIRST")
    rejected(state, 0, "OPEN [2C 3C 4C]", "OPENING_TOO_LOW")


# ---------------------------------------------------------------- laying off


def test_remi_R21_lay_off_below_q_k_a() -> None:
    state = opened_with(["QS KS AS JS 2S", ""], "[QS KS AS]")
    assert meld_view(state, 0)["value"] == 31
    play(state, 0, "DRAW_STOCK")
    events = play(state, 0, "LAY_OFF JS m0 low")
    assert events[0].public["meld"]["cards"] == ["JS#1", "QS#1", "KS#1", "AS#1"]
    assert meld_view(state, 0)["low"] == "J" and meld_view(state, 0)["high"] == "A"


def test_remi_R22_no_lay_off_above_a_high_ace() -> None:
    state = opened_with(["QS KS AS JS 2S", ""], "[QS KS AS]")
    play(state, 0, "DRAW_STOCK")
    rejected(state, 0, "LAY_OFF 2S m0 high", "RUN_LIMIT")
    rejected(state, 0, "LAY_OFF 2S m0 low", "WRONG_RANK")


def test_remi_R23_no_lay_off_below_a_low_ace() -> None:
    state = opened_with([f"AH 2H 3H KH {KINGS}", ""], f"[AH 2H 3H] [{KINGS}]")
    play(state, 0, "DRAW_STOCK")
    rejected(state, 0, "LAY_OFF KH m0 low", "RUN_LIMIT")
    assert GAME.parse_action("LAY_OFF KH m1") in state.legal_actions(0)


def test_remi_R24_no_repeated_suit_in_a_set() -> None:
    state = opened_with([f"7H 7S 7D 7H {KINGS}", ""], f"[7H 7S 7D] [{KINGS}]")
    play(state, 0, "DRAW_STOCK")
    rejected(state, 0, "LAY_OFF 7H#2 m0", "SUIT_REPEATED")


def closed_joker_set() -> RemiState:
    """Return R25's position: seat 0 laid 7D off on [7H 7S JK], closing the set."""
    state = opened_with([f"7H 7S JK 7D 7C {KINGS}", ""], f"[7H 7S JK] [{KINGS}]")
    play(state, 0, "DRAW_STOCK")
    events = play(state, 0, "LAY_OFF 7D m0")
    assert events[0].public["meld"]["cards"] == ["7S#1", "7H#1", "7D#1", "JK#1"]
    return state


def test_remi_R25_lay_off_closes_a_joker_set() -> None:
    view = meld_view(closed_joker_set(), 0)
    assert view["closed"] is True and view["jokers"] == ["7C"]


def test_remi_R26_the_joker_of_a_closed_set_is_never_taken() -> None:
    state = closed_joker_set()
    rejected(state, 0, "EXCHANGE m0 give 7C take JK", "SET_CLOSED")
    rejected(state, 0, "LAY_OFF 7C m0", "SET_FULL")


def test_remi_R42_joker_laid_low_becomes_the_ace() -> None:
    state = opened_with(["2C 3C 4C KH KD KS JK JK AC", ""], "[2C 3C 4C] [KH KD KS]", extra=" 5S#2")
    play(state, 0, "DRAW_STOCK")
    events = play(state, 0, "LAY_OFF JK#1 m0 low")
    assert events[0].public["meld"]["cards"] == ["JK#1", "2C#1", "3C#1", "4C#1"]
    assert meld_view(state, 0)["jokers"] == ["AC"]
    assert meld_view(state, 0)["value"] == 11 + 2 + 3 + 4
    rejected(state, 0, "LAY_OFF AC m0 low", "RUN_LIMIT")
    rejected(state, 0, "LAY_OFF JK#2 m0 low", "RUN_LIMIT")
    assert GAME.parse_action("LAY_OFF JK#2 m0 high") in state.legal_actions(0)


def test_remi_R43_natural_on_a_two_joker_set_locks_both() -> None:
    state = opened_with(["10H JK JK 10S 10D", ""], "[10H JK=10? JK=10?]")
    play(state, 0, "DRAW_STOCK")
    play(state, 0, "LAY_OFF 10S m0")
    view = meld_view(state, 0)
    assert view["cards"] == ["10S#1", "10H#1", "JK#1", "JK#2"]
    assert view["closed"] is True and view["jokers"] == ["10?", "10?"]
    rejected(state, 0, "EXCHANGE m0 give 10D take JK#1", "SET_CLOSED")


# ---------------------------------------------------------------- joker exchange


def both_opened(seat0: str, opening0: str, seat1: str, opening1: str) -> RemiState:
    """Return a match where seat 0 opened (if ``opening0``), then seat 1 opened; seat 0 is
    about to draw."""
    state = deal([seat0, seat1], stock="2C#2 3D#2 4H#2 5S#2")
    play(state, 0, "DRAW_STOCK")
    if opening0:
        play(state, 0, f"OPEN {opening0}")
    play(state, 0, "DISCARD 2C#2")
    play(state, 1, "DRAW_STOCK", f"OPEN {opening1}", "DISCARD 3D#2")
    return state


def test_remi_R27_two_missing_naturals_free_a_set_joker() -> None:
    state = both_opened("KC KD KS 10D 10C", "[KC KD KS]", "10H 10S JK", "[10H 10S JK]")
    play(state, 0, "DRAW_STOCK")
    events = play(state, 0, "EXCHANGE m1 give 10D 10C take JK")
    assert events[0].public["meld"]["cards"] == ["10S#1", "10H#1", "10D#1", "10C#1"]
    assert "JK#1" in hand_of(state, 0) and "10D#1" not in hand_of(state, 0)
    assert state.observation(1)["known"][0] == ["JK#1"]
    assert meld_view(state, 1)["closed"] is False


def test_remi_R28_one_natural_cannot_free_a_two_natural_set_joker() -> None:
    state = both_opened("KC KD KS 10D 10C", "[KC KD KS]", "10H 10S JK", "[10H 10S JK]")
    play(state, 0, "DRAW_STOCK")
    rejected(state, 0, "EXCHANGE m1 give 10D take JK", "EXCHANGE_NEEDS_BOTH")


def test_remi_R29_one_natural_frees_one_joker_of_a_two_joker_set() -> None:
    state = both_opened("KC KD KS 10S", "[KC KD KS]", "10H JK JK", "[10H JK=10? JK=10?]")
    play(state, 0, "DRAW_STOCK")
    legal = state.legal_actions(0)
    assert GAME.parse_action("EXCHANGE m1 give 10S take JK#2") in legal
    events = play(state, 0, "EXCHANGE m1 give 10S take JK#1")
    assert events[0].public["meld"]["cards"] == ["10S#1", "10H#1", "JK#2"]
    assert meld_view(state, 1)["jokers"] == ["10?"] and "JK#1" in hand_of(state, 0)


def test_remi_R30_the_card_a_run_joker_stands_for_frees_it() -> None:
    state = both_opened("QC QD QS 5H", "[QC QD QS]", f"4H JK 6H {KINGS}", f"[4H JK 6H] [{KINGS}]")
    assert meld_view(state, 1)["jokers"] == ["5H"]
    play(state, 0, "DRAW_STOCK")
    events = play(state, 0, "EXCHANGE m1 give 5H take JK")
    assert events[0].public["meld"]["cards"] == ["4H#1", "5H#1", "6H#1"]
    assert "JK#1" in hand_of(state, 0)


def test_remi_R31_another_card_does_not_free_a_run_joker() -> None:
    state = both_opened("QC QD QS 5D", "[QC QD QS]", f"4H JK 6H {KINGS}", f"[4H JK 6H] [{KINGS}]")
    play(state, 0, "DRAW_STOCK")
    rejected(state, 0, "EXCHANGE m1 give 5D take JK", "WRONG_CARD")
    assert not any(isinstance(a, Exchange) for a in state.legal_actions(0))


def test_remi_R32_exchange_needs_an_open_player() -> None:
    state = both_opened("QC QD QS 5H", "", f"4H JK 6H {KINGS}", f"[4H JK 6H] [{KINGS}]")
    play(state, 0, "DRAW_STOCK")
    rejected(state, 0, "EXCHANGE m0 give 5H take JK", "NOT_OPEN")


# ---------------------------------------------------------------- turn rules


def test_remi_R33_a_taken_discard_is_not_discarded_again() -> None:
    nine = "[KC KD KS] [QC QD QS] [JC JD JS]"
    state = deal([f"{KINGS} QC QD QS JC JD JS", "9C"], stock="2H#2 3H#2")
    play(state, 0, "DRAW_STOCK", f"OPEN {nine}", "DISCARD 2H#2")
    assert len(hand_of(state, 0)) == 4
    play(state, 1, "DRAW_STOCK", "DISCARD 9C")
    play(state, 0, "DRAW_DISCARD")
    assert len(hand_of(state, 0)) == 5 and state.observation(1)["taken"] == "9C#1"
    rejected(state, 0, "DISCARD 9C", "TAKEN_CARD_REDISCARD")
    other = next(c for c in hand_of(state, 0) if c != "9C#1")
    assert GAME.parse_action(f"DISCARD {other}") in state.legal_actions(0)


def test_remi_R33_the_taken_discard_may_close() -> None:
    state = position(
        hands=["9S", "2C 5D"], discard="3H 9C", melds=[("10S JS QS", 1)], opened=[True, True]
    )
    play(state, 0, "DRAW_DISCARD")
    rejected(state, 0, "DISCARD 9C", "TAKEN_CARD_REDISCARD")
    play(state, 0, "LAY_OFF 9S m0 low")
    events = play(state, 0, "DISCARD 9C")
    over = next(e for e in events if e.kind == "hand_over")
    assert over.public["closer"] == 0 and over.public["kalooki"] is False


def test_remi_R34_one_card_must_stay_in_hand() -> None:
    eleven = "[KC KD KS KH] [QC QD QS QH] [JC JD JS]"
    hand = "KC KD KS KH QC QD QS QH JC JD JS 5D 6D"
    state = deal([hand, ""], stock="2H#2 3H#2 7D")
    play(state, 0, "DRAW_STOCK", f"OPEN {eleven}", "DISCARD 2H#2")
    pass_turn(state, 1)
    play(state, 0, "DRAW_STOCK")
    assert sorted(hand_of(state, 0)) == ["5D#1", "6D#1", "7D#1"]
    rejected(state, 0, "MELD [5D 6D 7D]", "LAST_CARD_MUST_REMAIN")
    assert [str(a) for a in state.legal_actions(0)] == [
        "DISCARD 5D#1",
        "DISCARD 6D#1",
        "DISCARD 7D#1",
    ]


# ---------------------------------------------------------------- Kalooki


def test_remi_R37_opening_the_whole_hand_is_a_kalooki() -> None:
    hand = "KC KD KS QC QD QS JC JD JS 2H 3H 4H 5H"
    state = deal([hand, "", ""], stock="9S#2")
    play(state, 0, "DRAW_STOCK", "OPEN [KC KD KS] [QC QD QS] [JC JD JS] [2H 3H 4H 5H]")
    events = play(state, 0, "DISCARD 9S#2")
    over = next(e for e in events if e.kind == "hand_over")
    assert over.public["closer"] == 0 and over.public["kalooki"] is True
    lines = over.public["lines"]
    assert [line["penalty"] for line in lines] == [0] + [line["points"] + 25 for line in lines[1:]]
    assert over.public["penalties"][0] == 0 and state.observation(None)["hand_number"] == 2


def test_remi_R37_lay_offs_on_own_new_melds_keep_the_kalooki() -> None:
    hand = "KC KD KS QC QD QS JC JD JS 2H 3H 4H 5H"
    state = deal([hand, ""], stock="9S#2")
    play(state, 0, "DRAW_STOCK", "OPEN [KC KD KS] [QC QD QS] [JC JD JS] [2H 3H 4H]")
    events = play(state, 0, "LAY_OFF 5H m3 high", "DISCARD 9S#2")
    assert next(e for e in events if e.kind == "hand_over").public["kalooki"] is True


def test_remi_R38_laying_off_on_an_older_meld_is_no_kalooki() -> None:
    seat0 = "QC QD QS QH JC JD JS 7D 8D 9D 3S 2S 7S"
    seat1 = "4S 5S 6S 10C 10D 10H"
    state = deal([seat0, seat1], stock="9H#2 KC#2 KD#2")
    pass_turn(state, 0)
    play(state, 1, "DRAW_STOCK", "OPEN [4S 5S 6S] [10C 10D 10H]", "DISCARD KC#2")
    play(state, 0, "DRAW_STOCK", "OPEN [QC QD QS QH] [JC JD JS] [7D 8D 9D]")
    play(state, 0, "LAY_OFF 3S m0 low", "LAY_OFF 2S m0 low", "LAY_OFF 7S m0 high")
    events = play(state, 0, "DISCARD KD#2")
    over = next(e for e in events if e.kind == "hand_over")
    assert over.public["closer"] == 0 and over.public["kalooki"] is False
    assert over.public["penalties"][1] == over.public["lines"][1]["points"]


def test_remi_R38_an_exchange_is_no_kalooki() -> None:
    seat0 = "QC QD QS QH JC JD JS 7D 8D 9D 5H 2C 3C"
    seat1 = f"4H JK 6H {KINGS}"
    state = deal([seat0, seat1], stock="9H#2 8H#2 10H#2")
    pass_turn(state, 0)
    play(state, 1, "DRAW_STOCK", f"OPEN [4H JK 6H] [{KINGS}]", "DISCARD 8H#2")
    play(state, 0, "DRAW_STOCK", "OPEN [QC QD QS QH] [JC JD JS] [7D 8D 9D]")
    play(state, 0, "EXCHANGE m0 give 5H take JK", "MELD [JK 2C 3C]")
    events = play(state, 0, "DISCARD 10H#2")
    assert next(e for e in events if e.kind == "hand_over").public["kalooki"] is False


# ---------------------------------------------------------------- stock and deal


def test_remi_R39_the_stock_is_rebuilt_from_the_discards_but_the_top() -> None:
    state = position(hands=["KD 5S", "7C"], discard="4C 9H", phase="play", rest=1)
    events = play(state, 0, "DISCARD KD")
    assert kinds(events) == ["discard", "stock_rebuilt"]
    assert state.observation(None)["discard"] == ["KD#1"]
    assert state.observation(None)["stock"] == 2 and state.to_act() == {1}
    assert sorted(state.snapshot()["stock"]) == ["4C#1", "9H#1"]
    again = position(hands=["KD 5S", "7C"], discard="4C 9H", phase="play", rest=1)
    play(again, 0, "DISCARD KD")
    assert again.snapshot() == state.snapshot()
    assert state.legal_actions(1) == (DrawStock(), DrawDiscard())


def test_remi_R39_nothing_to_rebuild_is_a_dead_hand() -> None:
    state = position(hands=["KD 5S", "7C"], discard="", phase="play", rest=1)
    events = play(state, 0, "DISCARD KD")
    over = next(e for e in events if e.kind == "hand_over")
    assert over.public["dead"] is True and over.public["penalties"] == [0, 0]
    assert state.observation(None)["hand_number"] == 2


def test_remi_R44_four_players_from_a_fixed_deck() -> None:
    deck = [
        f"{r}{s}#{p}"
        for p in (1, 2)
        for s in "SHDC"
        for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    ]
    deck += ["JK#1", "JK#2"]
    options = GAME.options({"deck": deck, "first_dealer": 1})
    state = GAME.new_state(options, 4, SEED)
    view = state.observation(None)
    assert view["dealer"] == 1 and view["first_player"] == 2 and state.to_act() == {2}
    assert view["hand_counts"] == [13, 13, 13, 13] and view["stock"] == 53
    assert view["discard"] == [deck[52]]
    order = [2, 3, 0, 1]
    for k, seat in enumerate(order):
        assert sorted(state.snapshot()["hands"][seat]) == sorted(deck[k:52:4])
    events = play(state, 2, "DRAW_STOCK")
    assert events[0].private == {"card": deck[53]}
    assert split_tokens(" ".join(state.snapshot()["stock"][::-1]))[:2] == deck[54:56]


def test_remi_a_joker_meld_laid_without_declaration_reads_as_laid_in_order() -> None:
    # Decision (docs/validation.md): [10H JK JK] with nothing declared is the run 10H JH QH
    # (5.2: cards are laid in ascending order, so the order fixes what a joker stands for);
    # to lay it as a set the player declares the jokers, as R43 does with JK=10?.
    state = opened_with(["10H JK JK 10S 9H KH 5D", ""], "[10H JK JK]")
    view = meld_view(state, 0)
    assert (view["kind"], view["jokers"]) == ("run", ["JH", "QH"])
    play(state, 0, "DRAW_STOCK")
    assert "LAY_OFF 9H#1 m0 low" in [str(a) for a in state.legal_actions(0)]
    assert not any(str(a).startswith("LAY_OFF 10S") for a in state.legal_actions(0))
    declared = opened_with(["10H JK JK 10S 9H KH 5D", ""], "[10H JK=10? JK=10?]")
    assert meld_view(declared, 0)["kind"] == "set"

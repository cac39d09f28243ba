"""Scenario vectors of okey-cards.md section 9 (VECTORS.md 6): K11-K17, K19, K20, built
from explicit decks and played through the engine protocol."""

from __future__ import annotations

from typing import Any

import pytest

from meldhall.core.engine import Event
from meldhall.core.errors import IllegalAction
from meldhall.games.okey_cards import GAME
from meldhall.games.okey_cards.state import OkeyCardsState

ALL_BY_NUMBER = " ".join(f"{c}{n}" for n in range(1, 9) for c in "RBY")


def new_game(deck: str, **options: Any) -> OkeyCardsState:
    """Return a READY game whose deck starts with ``deck`` (top first)."""
    return GAME.new_state(
        GAME.options({"deck": "explicit", "deck_order": deck, **options}), 1, b"test"
    )


def act(state: OkeyCardsState, *texts: str) -> list[Event]:
    """Apply actions by their text form; return all their events."""
    events: list[Event] = []
    for text in texts:
        events += state.apply(0, GAME.parse_action(text))
        state.check_invariants()
    return events


def rejected(state: OkeyCardsState, text: str) -> str:
    """Return the reason code of an action that must be rejected without changing anything."""
    before = state.snapshot()
    with pytest.raises(IllegalAction) as info:
        state.apply(0, GAME.parse_action(text))
    assert state.snapshot() == before
    assert GAME.parse_action(text) not in state.legal_actions(0)
    return info.value.code


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def test_okey_cards_K11_eight_groups_score_440_gold() -> None:
    state = new_game(ALL_BY_NUMBER)
    for n in range(1, 9):
        events = act(state, "draw", f"select R{n}", f"select B{n}")
        assert state.score == sum(10 * k + 10 for k in range(1, n))
        events = act(state, f"select Y{n}")
        assert events[-1].kind == "match_over" if n == 8 else events[-1].kind == "combination"
        assert state.score == sum(10 * k + 10 for k in range(1, n + 1))
    obs = state.observation(0)
    assert obs["deck_count"] == 0 and obs["hand"] == [] and obs["over"] is True
    assert obs["score"] == 440 and obs["reward"] == "gold" and obs["phase"] == "over"
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (440,)
    assert outcome.termination == "cards_used"
    assert kinds(events)[-2:] == ["hand_over", "match_over"]
    assert events[-1].public["reward"] == "gold"
    assert state.to_act() == frozenset() and state.legal_actions(0) == ()


def test_okey_cards_K12_invalid_triple_returns_then_same_colour_run() -> None:
    state = new_game("R2 R4 R5 B7 Y1 R3")
    act(state, "draw")
    assert state.observation(0)["hand"] == ["R2", "R4", "R5", "B7", "Y1"]
    events = act(state, "select R2", "select R4", "select R5")
    assert events[-1].kind == "invalid"
    assert events[-1].public["cards"] == ["R2", "R4", "R5"]
    assert sorted(state.observation(0)["hand"]) == ["B7", "R2", "R4", "R5", "Y1"]
    assert state.observation(0)["field"] == [None, None, None]
    assert state.score == 0
    act(state, "discard R2")
    events = act(state, "draw")
    assert events[0].private == {"cards": ["R3"]}
    events = act(state, "select R3", "select R4", "select R5")
    combo = events[-1]
    assert combo.kind == "combination"
    assert combo.public["points"] == 70 and combo.public["same_colour"] is True
    assert state.score == 70
    assert sorted(state.observation(0)["hand"]) == ["B7", "Y1"]


def test_okey_cards_K13a_the_maximum_560() -> None:
    triples = [
        "R3 R4 R5",
        "B3 B4 B5",
        "Y3 Y4 Y5",
        "R6 R7 R8",
        "B6 B7 B8",
        "Y6 Y7 Y8",
        "R1 B1 Y1",
        "R2 B2 Y2",
    ]
    state = new_game(" ".join(triples))
    gains = []
    for triple in triples:
        before = state.score
        act(state, "draw", *(f"select {card}" for card in triple.split()))
        gains.append(state.score - before)
    assert gains == [70, 70, 70, 100, 100, 100, 20, 30]
    assert state.score == 560
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (560,)


def test_okey_cards_K14_draw_with_hand_full_counting_the_field() -> None:
    state = new_game(ALL_BY_NUMBER)
    act(state, "draw", "select R1", "select R2")
    assert rejected(state, "draw") == "HAND_FULL"
    act(state, "unselect R2", "discard R2")
    assert act(state, "draw")[0].public["count"] == 1


def test_okey_cards_K15_field_card_cannot_be_discarded() -> None:
    state = new_game(ALL_BY_NUMBER)
    act(state, "draw", "select B1")
    assert rejected(state, "discard B1") == "NOT_IN_HAND"
    act(state, "unselect B1")
    assert GAME.parse_action("discard B1") in state.legal_actions(0)
    act(state, "discard B1")
    assert state.observation(0)["discards"] == ["B1"]


def test_okey_cards_K16_ready_allows_only_draw_and_quit() -> None:
    state = new_game(ALL_BY_NUMBER)
    assert state.observation(0)["phase"] == "ready"
    assert [str(a) for a in state.legal_actions(0)] == ["draw", "quit"]
    for card in ("R1", "B5", "Y8"):
        assert rejected(state, f"select {card}") == "NOT_IN_HAND"
        assert rejected(state, f"discard {card}") == "NOT_IN_HAND"
        assert rejected(state, f"unselect {card}") == "NOT_ON_FIELD"


def test_okey_cards_K17_automatic_end_without_a_combination() -> None:
    # R4 R5 R6 first (scored), Y2 R1 B3 Y8 last; everything between is discarded. After the
    # last draw R1 Y2 B3 is still a run, so the game goes on until Y2 is discarded.
    last = ["Y2", "R1", "B3", "Y8"]
    middle = [c for c in ALL_BY_NUMBER.split() if c not in [*last, "R4", "R5", "R6"]]
    state = new_game(" ".join(["R4", "R5", "R6", *middle, *last]))
    act(state, "draw", "select R4", "select R5", "select R6")
    while state.observation(0)["deck_count"]:
        act(state, *(f"discard {c}" for c in state.observation(0)["hand"]), "draw")
    assert sorted(state.observation(0)["hand"]) == sorted(last)
    assert state.outcome() is None and state.score == 80
    events = act(state, "discard Y2")
    assert kinds(events) == ["discard", "hand_over", "match_over"]
    obs = state.observation(0)
    assert obs["over"] is True and sorted(obs["hand"]) == ["B3", "R1", "Y8"]
    assert obs["score"] == 80 and obs["last_result"]["termination"] == "no_combination"
    assert obs["last_result"]["hands"] == [obs["hand"]]


def test_okey_cards_K17_auto_end_off_waits_for_the_player() -> None:
    state = new_game("R1 B3 Y8 R5 B6", auto_end=False)
    act(state, "draw")
    while state.observation(0)["deck_count"]:
        act(state, *(f"discard {c}" for c in state.observation(0)["hand"]), "draw")
    act(state, *(f"discard {c}" for c in state.observation(0)["hand"] if c[0] != "R"))
    assert state.outcome() is None
    assert [str(a) for a in state.legal_actions(0)][-1] == "quit"
    act(state, *(f"discard {c}" for c in state.observation(0)["hand"]))
    outcome = state.outcome()
    assert outcome is not None and outcome.termination == "cards_used"


def test_okey_cards_K19_quit_keeps_the_score() -> None:
    state = new_game("Y6 Y7 Y8 R1 R2 R3")
    act(state, "draw", "select Y6", "select Y7", "select Y8", "draw")
    act(state, "select R1", "select R2", "select R3")
    assert state.score == 150 and state.observation(0)["phase"] == "playing"
    events = act(state, "quit")
    assert kinds(events) == ["quit", "hand_over", "match_over"]
    assert events[-1].public["reward"] == "bronze"
    obs = state.observation(0)
    assert obs["over"] is True and obs["phase"] == "over" and obs["score"] == 150
    assert obs["reward"] == "bronze" and obs["last_result"]["termination"] == "quit"
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (150,) and outcome.termination == "quit"
    assert rejected(state, "draw") == "GAME_OVER"


def test_okey_cards_K20_single_draw_mode() -> None:
    state = new_game(ALL_BY_NUMBER, draw_mode="single")
    for n in range(1, 4):
        events = act(state, "draw")
        assert events[0].public["count"] == 1
        assert len(state.observation(0)["hand"]) == n
    assert state.observation(0)["hand"] == ["R1", "B1", "Y1"]
    assert state.observation(0)["deck_count"] == 21

"""A whole Okey match through the engine: scoring (8), the end of the match (9), every
option of section 11 that changes play, observations (5.1), events and replay."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from meldhall.core.replay import replay
from meldhall.core.rng import seed_from_text
from meldhall.games.okey import GAME
from meldhall.games.okey.actions import DRAW, END, SHOW, Discard, DiscardWin
from meldhall.games.okey.explicit import explicit_options
from meldhall.games.okey.pieces import OKEY_TILE_IDS, TOKENS
from meldhall.games.okey.state import OkeyState

SEED = seed_from_text("okey match tests")
C1 = "R1a R2a R3a Y7a B7a K7a B10a B11a B12a B13a Y4a Y5a Y6a Y7b"
C10 = "R1a R2a R3a R4a K8a K9a K10a B11a Y11a R11a B5a B6a B7a B8a"
C11 = "R3a Y7a Y8a Y8b K11a K11b B1a B1b R12a R12b Y5a Y5b K2a K2b"


def state_of(raw: dict[str, object], **extra: object) -> OkeyState:
    """Return a new match from raw options (plus ``extra`` options)."""
    options = GAME.options({**raw, **extra})
    return GAME.new_state(options, options.players, SEED)


def tid(token: str) -> int:
    """Return the tile id of a suffixed token."""
    return OKEY_TILE_IDS[token]


def hand_over(events: tuple[object, ...]) -> dict[str, object]:
    """Return the public data of the ``hand_over`` event among ``events``."""
    return dict(next(e for e in events if e.kind == "hand_over").public)  # type: ignore[attr-defined]


def win_first(raw: dict[str, object], tile: str, **extra: object) -> tuple[OkeyState, dict]:  # type: ignore[type-arg]
    """Return the state and hand result after seat 0 (first player) wins discarding ``tile``."""
    state = state_of(raw, **extra)
    return state, hand_over(state.apply(0, DiscardWin(tid(tile))))


# ---------------------------------------------------------------- the score sheet (8)


def test_okey_joker_discard_doubles_the_win() -> None:
    state, result = win_first(explicit_options("Y6a", {0: C10 + " Y7a"}), "Y7a")
    assert result["form"] == "sets_runs" and result["joker_discard"] is True
    assert result["points"] == 4 and state.scores == [20, 16, 16, 16]


def test_okey_seven_pairs_with_a_joker_discard_costs_eight() -> None:
    state, result = win_first(explicit_options("Y6a", {0: C11 + " Y7b"}), "Y7b")
    assert result["form"] == "seven_pairs" and result["points"] == 8
    assert result["jokers"] == ["R3"]
    assert state.scores == [20, 12, 12, 12]
    _, four = win_first(explicit_options("Y6a", {0: C11 + " Y7b"}), "Y7b", pairs_joker_points=4)
    assert four["points"] == 4


def test_okey_false_joker_discard_is_not_a_joker_discard() -> None:
    _, result = win_first(explicit_options("K2a", {0: C1 + " Ja"}), "Ja")
    assert result["joker_discard"] is False and result["points"] == 2


def test_okey_colour_double_doubles_win_points_not_the_show() -> None:
    raw = explicit_options("K2a", {0: C1 + " K2b"})
    state = state_of(raw, colour_double=True)
    state.apply(0, SHOW)
    assert state.scores == [20, 19, 19, 19]
    result = hand_over(state.apply(0, DiscardWin(tid("K2b"))))
    assert result["points"] == 4 and state.scores == [20, 15, 15, 15]
    assert state.observation(2)["score_sheet"] == [
        {"hand": 1, "deltas": [0, -5, -5, -5], "scores": [20, 15, 15, 15]}
    ]
    _, blue = win_first(explicit_options("B2a", {0: C1 + " B5a"}), "B5a", colour_double=True)
    assert blue["points"] == 2


def test_okey_partnership_only_the_opponents_pay() -> None:
    raw = explicit_options("K2a", {0: C1 + " K2b"})
    state = state_of(raw, partnership=True)
    state.apply(0, SHOW)
    assert state.scores == [20, 19, 20, 19]
    state.apply(0, DiscardWin(tid("K2b")))
    assert state.scores == [20, 17, 20, 17]
    assert state.observation(0)["partners"] == [[0, 2], [1, 3]]


def test_okey_countup_the_winner_gains() -> None:
    raw = explicit_options("K2a", {0: C1 + " K2b"})
    state = state_of(raw, scoring="countup")
    assert state.scores == [0, 0, 0, 0]
    state.apply(0, SHOW)
    state.apply(0, DiscardWin(tid("K2b")))
    assert state.scores == [3, 0, 0, 0] and state.outcome() is None
    ended, _ = win_first(
        explicit_options("K2a", {0: C1 + " B5a"}), "B5a", scoring="countup", start_points=2
    )
    outcome = ended.outcome()
    assert outcome is not None and outcome.winners == frozenset({0})
    assert outcome.termination == "target_reached"


# ---------------------------------------------------------------- the end of the match (9)


def test_okey_match_ends_when_a_score_reaches_zero() -> None:
    state, _ = win_first(explicit_options("K2a", {0: C1 + " B5a"}), "B5a", start_points=3)
    assert state.scores == [3, 1, 1, 1] and state.outcome() is None
    state2 = state_of(explicit_options("K2a", {0: C1 + " B5a"}), start_points=2)
    events = state2.apply(0, DiscardWin(tid("B5a")))
    assert [e.kind for e in events] == ["hand_over", "match_over"]
    outcome = state2.outcome()
    assert outcome is not None and outcome.scores == (2, 0, 0, 0)
    assert outcome.ranks == (1, 2, 2, 2), "equal scores share a rank"
    assert outcome.winners == frozenset({0, 1, 2, 3}), "ranks 1 and 2 win (shared rank)"
    assert state2.to_act() == frozenset() and state2.legal_actions(1) == ()
    assert state2.observation(None)["over"] is True


def test_okey_score_zero_by_a_penalty_ends_the_match_at_the_end_of_the_hand() -> None:
    raw = explicit_options("K2a", {0: C1 + " B5a"}, wall="")
    state = state_of(raw, false_claim="penalty(2)", start_points=2)
    state.apply(0, DiscardWin(tid("R3a")))
    assert state.scores == [0, 2, 2, 2] and state.outcome() is None
    state.apply(1, END)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == frozenset({1, 2, 3})


def test_okey_gosterme_points_stand_in_a_hand_without_score() -> None:
    state = state_of(explicit_options("K2a", {0: "K2b"}, wall=""))
    state.apply(0, SHOW)
    state.apply(0, Discard(next(t for t in state.hands[0] if t != tid("K2b"))))
    events = state.apply(1, END)
    assert hand_over(events)["result"] == "no_score"
    assert state.scores == [20, 19, 19, 19]


def test_okey_full_run_wins_the_match_at_once() -> None:
    tiles = "Y1a Y2a Y3a Y4a Y5a Y6a Y7a Y8a Y9a Y10a Y11a Y12a Y13a Y1b R9a"
    raw = explicit_options("K13a", {0: tiles})
    state, result = win_first(raw, "R9a", full_run_wins_match=True)
    assert result["full_run"] is True
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == frozenset({0})
    assert outcome.termination == "full_run" and outcome.ranks[0] == 1
    plain, _ = win_first(raw, "R9a")
    assert plain.outcome() is None


def test_okey_elimination_continues_with_fewer_players() -> None:
    # seat 2 shows (K2b), seat 3 wins with C1 after drawing B5a: seats 1 and 3... see scores
    raw = explicit_options("K2a", {2: "K2b", 3: C1}, wall="R13a R13b B5a", dealer=3)
    state = state_of(raw, elimination=True, start_points=3)
    state.apply(0, Discard(state.hands[0][0]))
    for seat in (1, 2):
        if seat == 2:
            state.apply(2, SHOW)
        drawn = state.apply(seat, DRAW)[0].private["tile"]  # type: ignore[index]
        state.apply(seat, Discard(tid(str(drawn))))
    state.apply(3, DRAW)
    events = state.apply(3, DiscardWin(tid("B5a")))
    assert state.scores == [0, 0, 1, 2]
    assert hand_over(events)["eliminated"] == [0, 1]
    assert state.active == [False, False, True, True] and state.outcome() is None
    assert state.hand_no == 2 and state.dealer == 2 and state.first_player == 3
    assert state.wall_count() == 76 and [len(h) for h in state.hands] == [0, 0, 14, 15]
    assert state.to_act() == frozenset({3})
    obs = state.observation(2)
    assert obs["active"] == [False, False, True, True] and obs["tile_counts"] == [0, 0, 14, 15]
    state.check_invariants()


def test_okey_elimination_last_player_standing_wins() -> None:
    raw = explicit_options("K2a", {0: C1 + " B5a"})
    state, _ = win_first(raw, "B5a", elimination=True, start_points=2)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == frozenset({0})
    assert outcome.termination == "last_player" and outcome.ranks == (1, 2, 2, 2)
    state.check_invariants()


# ---------------------------------------------------------------- observations (5.1)


def _play_a_round(state: OkeyState) -> None:
    state.apply(state.turn, Discard(state.hands[state.turn][0]))
    for _ in range(5):
        seat = state.turn
        state.apply(seat, DRAW)
        state.apply(seat, Discard(state.hands[seat][0]))


def test_okey_observation_keys_and_own_hand() -> None:
    state = GAME.new_state(GAME.options(), 4, SEED)
    obs = state.observation(2)
    keys = (
        "game",
        "seat",
        "hand_number",
        "phase",
        "to_act",
        "turn",
        "must_win",
        "dealer",
        "first_player",
        "dice",
        "indicator",
        "okey",
        "hand",
        "tile_counts",
        "wall_count",
        "set_aside_count",
        "discards",
        "scores",
        "active",
        "partners",
        "scoring",
        "target",
        "can_show",
        "shown_by",
        "last_hand",
        "score_sheet",
        "over",
        "outcome",
        "rules",
    )
    for key in keys:
        assert key in obs, key
    assert obs["hand"] == [TOKENS[t] for t in state.hands[2]]
    assert json.loads(json.dumps(obs)) == obs
    assert state.observation(None)["hand"] is None
    assert sum(obs["tile_counts"]) + obs["wall_count"] + 1 == 106  # type: ignore[arg-type]


def test_okey_observation_hides_other_hands_and_buried_discards() -> None:
    state = GAME.new_state(GAME.options(), 4, SEED)
    _play_a_round(state)
    viewer = 1
    obs = state.observation(viewer)
    text = json.dumps(obs)
    previous = (viewer - 1) % 4
    for seat, pile in enumerate(obs["discards"]):  # type: ignore[arg-type]
        assert pile["count"] == len(state.piles[seat])
        assert pile["top"] == (TOKENS[state.piles[seat][-1]] if state.piles[seat] else None)
        visible = seat in (viewer, previous)
        assert (pile["tiles"] is not None) == visible
    shown = {t for s in (viewer, previous) for t in state.piles[s]}
    shown |= {p[-1] for p in state.piles if p} | set(state.hands[viewer])
    for seat in range(4):
        for t in state.hands[seat]:
            if t not in shown:
                assert f'"{TOKENS[t]}"' not in text
    spectator = state.observation(None)
    assert all(p["tiles"] is None for p in spectator["discards"])  # type: ignore[union-attr]
    everyone = GAME.new_state(GAME.options({"discard_visibility": "all"}), 4, SEED)
    _play_a_round(everyone)
    assert all(p["tiles"] is not None for p in everyone.observation(None)["discards"])  # type: ignore[union-attr]


def test_okey_observation_is_blind_to_hidden_tiles() -> None:
    state = GAME.new_state(GAME.options(), 4, SEED)
    _play_a_round(state)
    rng = random.Random(3)
    for viewer in (0, 1, 2, 3, None):
        other = state.shuffled_hidden(viewer, rng)
        assert other.observation(viewer) == state.observation(viewer)
        other.check_invariants()
    assert state.shuffled_hidden(None, rng).snapshot() != state.snapshot()


def test_okey_end_of_hand_reveals_the_winner_only() -> None:
    state = state_of(explicit_options("K2a", {0: C1 + " B5a"}))
    events = state.apply(0, DiscardWin(tid("B5a")))
    result = hand_over(events)
    assert result["hands"][1:] == [None, None, None]  # type: ignore[index]
    assert result["final_discard"] == "B5a" and result["indicator"] == "K2a"
    assert result["settlement"] == [{"seat": s, "delta": -2, "reason": "win"} for s in (1, 2, 3)]
    assert state.observation(3)["last_hand"] == result
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["hand_over", "hand_start"] and kinds.count("deal") == 4
    deal = [e for e in events if e.kind == "deal"]
    assert all(e.for_viewer(None) == {"kind": "deal", "seat": e.seat} for e in deal)
    assert deal[0].for_viewer(0)["hand"] == [TOKENS[t] for t in state.hands[0]]


# ---------------------------------------------------------------- random play, replay


def test_okey_whole_matches_end_under_every_option_set() -> None:
    from meldhall.bots.base import make_bot
    from meldhall.simulate import play_match

    for i, raw in enumerate(OPTION_SETS):
        options = GAME.options({"start_points": 4, **raw})
        bots = [make_bot("okey", "greedy") for _ in range(options.players)]
        run = play_match(GAME, bots, seed_from_text(f"options {i}"), options, check=True)
        assert run.outcome is not None, raw
        assert run.outcome.winners, raw


OPTION_SETS = [
    {},
    {"players": 2},
    {"players": 3, "discard_visibility": "all"},
    {"partnership": True, "colour_double": True},
    {"elimination": True, "start_points": 3},
    {"scoring": "countup", "start_points": 4},
    {"wall_end": "continue", "seven_pairs": False},
    {"false_claim": "penalty(1)", "start_points": 3},
    {"wrap_runs": "none", "max_run": 13, "indicator_show": False},
]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(OPTION_SETS))
def test_okey_random_play_keeps_invariants_and_replays(seed: int, raw: dict[str, object]) -> None:
    options = GAME.options(raw)
    match_seed = seed_from_text(f"okey-h-{seed}")
    state = GAME.new_state(options, options.players, match_seed)
    rng = random.Random(seed)
    log = []
    for _ in range(400):
        if state.outcome() is not None:
            break
        seat = next(iter(state.to_act()))
        legal = state.legal_actions(seat)
        wins = [a for a in legal if isinstance(a, DiscardWin)]
        action = wins[0] if wins and rng.random() < 0.5 else legal[rng.randrange(len(legal))]
        state.apply(seat, action)
        state.check_invariants()
        log.append((seat, action))
    again = replay(GAME, options, options.players, match_seed, log)
    assert again.snapshot() == state.snapshot()
    for viewer in [*range(options.players), None]:
        obs = state.observation(viewer)
        assert json.loads(json.dumps(obs)) == obs


# ---------------------------------------------------------------- vector questions


def test_okey_vector_answers_beyond_the_files() -> None:
    score = GAME.answer_vector(
        "score",
        {"scores": [5, 5, 5, 5], "winner": 0, "form": "seven_pairs", "joker_discard": True},
        GAME.options({"partnership": True}),
    )
    assert score == {
        "scores": [5, -3, 5, -3],
        "match_over": True,
        "ranks": [1, 3, 1, 3],
        "winners": [0, 2],
    }
    doubled = GAME.answer_vector(
        "score",
        {
            "scores": [20] * 4,
            "winner": 1,
            "form": "sets_runs",
            "joker_discard": False,
            "indicator": "R3",
        },
        GAME.options({"colour_double": True}),
    )
    assert doubled["scores"] == [16, 20, 16, 16] and doubled["winners"] == []
    hand = GAME.answer_vector(
        "hand",
        {
            "indicator": "K2",
            "tiles": C1.replace("a", "").replace("b", ""),
            "final_discard": "B5",
            "winner": 2,
        },
        GAME.options({"players": 3}),
    )
    assert hand["deltas"] == [-2, -2, 0] and hand["jokers"] == []


def test_okey_vector_input_errors_are_named() -> None:
    import pytest

    from meldhall.core.errors import ParseError

    bad = [
        ("hand", {"indicator": "K2", "tiles": "R1 R2"}, "14 tiles"),
        ("hand", {"indicator": "J", "tiles": C1}, "numbered"),
        ("hand", {"indicator": "K2", "tiles": C1.replace("R1a", "R1*")}, "real joker"),
        ("hand", {"indicator": "K2", "tiles": C1, "extra": 1}, "unknown input"),
        ("score", {"scores": [1, 2], "winner": None}, "'scores'"),
        ("meld", {}, "kind"),
    ]
    for kind, data, message in bad:
        with pytest.raises(ParseError, match=message):
            GAME.answer_vector(kind, data, GAME.options())
    with pytest.raises(ParseError, match="colour_double"):
        GAME.answer_vector(
            "score",
            {"scores": [20] * 4, "winner": 1, "form": "sets_runs", "joker_discard": False},
            GAME.options({"colour_double": True}),
        )


def test_okey_a_win_scores_its_more_valuable_reading() -> None:
    # okey.md 6.4: seven pairs and four runs at once (B10 is the okey); with 5/10/4 the
    # sets-and-runs reading is worth 5, seven pairs only 4.
    both = "R1a R1b R2a R2b R3a R3b Y5a Y5b Y6a Y6b Y7a Y7b B10a B10b"
    raw = explicit_options("B9a", {0: both + " K4a"})
    state, result = win_first(raw, "K4a", win_points="5/10/4")
    assert result["form"] == "sets_runs" and result["points"] == 5
    assert state.scores == [20, 15, 15, 15]
    _, classic = win_first(raw, "K4a")
    assert classic["form"] == "seven_pairs" and classic["points"] == 4

"""The tile-rummy match engine: options, the deal (3), turn flow, variants, the match (12)."""

from __future__ import annotations

import json
import random

import pytest

from meldhall.core.errors import IllegalAction, OptionsError, ParseError
from meldhall.core.rng import seed_from_text
from meldhall.games.tile_rummy import GAME
from meldhall.games.tile_rummy.actions import (
    DRAW,
    END_ROUND,
    TIMEOUT,
    Add,
    Discard,
    Meld,
    TakeDiscard,
)
from meldhall.games.tile_rummy.pieces import TOKENS, parse_tile
from meldhall.games.tile_rummy.position import build_position
from meldhall.games.tile_rummy.state import TileRummyState
from meldhall.testing.conformance import check_observations, check_replay, play_random


def ids(text: str) -> tuple[int, ...]:
    return tuple(parse_tile(t) for t in text.split())


def play_out(state: TileRummyState, seed: int = 0) -> None:
    """Play to the end with the first listed action but placements first (deterministic)."""
    rng = random.Random(seed)
    steps = 0
    while state.outcome() is None:
        (seat,) = state.to_act()
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
        state.check_invariants()
        steps += 1
        assert steps < 20_000


# ------------------------------------------------------------------ options


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ({"tile_value": "face"}, "tile_value"),
        ({"tile_values": "faces"}, "tile_values"),
        ({"smiley_value": 20}, "smiley_value"),
        ({"players": 5}, "players"),
        ({"hand_size": 13}, "hand_size"),
        ({"run_wrap": True}, "run_wrap"),
        ({"initial_meld_minimum": -1}, "initial_meld_minimum"),
        ({"losers_subtract_rack": "yes"}, "losers_subtract_rack"),
        ({"wall": ["R1a"]}, "wall"),
        ({"players": 2, "first_player": 3}, "first_player"),
    ],
)
def test_bad_options_name_the_option(raw: dict[str, object], name: str) -> None:
    with pytest.raises(OptionsError, match=name):
        GAME.options(raw)


def test_default_options_are_the_seeds_house_rules() -> None:
    opts = GAME.options()
    assert (opts.hand_size, opts.tile_values, opts.smiley_value) == (14, "writer", 10)
    assert (opts.run_wrap, opts.stock_exhausted, opts.match_mode) == (
        "one_end",
        "end_round",
        "round_wins",
    )
    assert not opts.losers_subtract_rack and opts.discard_take_any_depth
    assert opts.initial_meld_minimum == 0 and not opts.feed_requires_own_meld


def test_players_must_match_the_seats() -> None:
    with pytest.raises(OptionsError, match="players"):
        GAME.new_state(GAME.options({"players": 3}), 4, b"s")
    with pytest.raises(OptionsError):
        GAME.new_state(GAME.options(), 5, b"s")


# ------------------------------------------------------------------ the deal


def _wall() -> list[str]:
    order = [t for t in TOKENS if not t.startswith("S")] + ["Sa", "Sb"]
    return order


@pytest.mark.parametrize(("seats", "stock"), [(2, 77), (3, 63), (4, 49)])
def test_explicit_wall_deals_two_stacks_in_play_order(seats: int, stock: int) -> None:
    wall = _wall()
    state = GAME.new_state(GAME.options({"wall": wall, "first_player": 1}), seats, b"w")
    obs = state.observation(None)
    assert obs["pile"] == [wall[0]] and obs["stock_count"] == stock
    assert obs["turn"] == 1 and obs["phase"] == "draw"
    rest = wall[1:]
    stacks = [rest[7 * j : 7 * j + 7] for j in range(15)]
    for k in range(seats):
        seat = (1 + k) % seats
        expected = sorted(stacks[k] + stacks[seats + k], key=parse_tile)
        assert state.observation(seat)["hand"] == expected
    events = state.apply(1, DRAW)
    assert events[0].private == {"tile": rest[7 * 2 * seats]}


def test_hand_size_seven_deals_one_stack() -> None:
    state = GAME.new_state(GAME.options({"hand_size": 7}), 3, b"x")
    assert state.observation(0)["rack_counts"] == [7, 7, 7]
    assert state.observation(0)["stock_count"] == 105 - 21


def test_seeded_deals_start_with_a_number_tile_and_rotate_the_first_player() -> None:
    for k in range(40):
        state = GAME.new_state(GAME.options(), 3, seed_from_text(f"deal-{k}"))
        assert not state.observation(None)["pile"][0].startswith("S")
    state = GAME.new_state(GAME.options(), 3, seed_from_text("rotate"))
    first = state.first
    state.stock = []
    state.apply(first, END_ROUND)
    assert state.first == (first + 1) % 3 and state.turn == state.first


def test_a_smiley_first_tile_is_reshuffled_away() -> None:
    wall = _wall()
    with pytest.raises(OptionsError, match="Smiley"):
        GAME.options({"wall": [wall[-1], *wall[:-1]]})


# ------------------------------------------------------------------ turn flow


def test_nothing_before_the_draw_and_only_the_turn_player_acts() -> None:
    state = build_position(racks=["R1a R2a R3a K9a", "B1a"], phase="draw")
    before = state.snapshot()
    wrong: list[tuple[Meld | Discard, str]] = [
        (Meld("run", ids("R1a R2a R3a")), "WRONG_PHASE"),
        (Discard(parse_tile("K9a")), "WRONG_PHASE"),
    ]
    for action, code in wrong:
        with pytest.raises(IllegalAction) as info:
            state.apply(0, action)
        assert info.value.code == code
    with pytest.raises(IllegalAction) as info:
        state.apply(1, DRAW)
    assert info.value.code == "NOT_YOUR_TURN"
    assert state.legal_actions(1) == ()
    with pytest.raises(IllegalAction) as info:
        state.apply(0, END_ROUND)
    assert info.value.code == "STOCK_NOT_EMPTY"
    assert state.snapshot() == before


def test_discard_passes_the_turn_and_any_tile_may_be_discarded() -> None:
    state = build_position(racks=["Sa K9a", "B1a"])
    assert Discard(parse_tile("Sa")) in state.legal_actions(0)
    state.apply(0, Discard(parse_tile("Sa")))
    obs = state.observation(1)
    assert obs["turn"] == 1 and obs["phase"] == "draw" and obs["pile"][-1] == "Sa"


def test_taking_the_whole_pile_leaves_it_empty_and_the_next_player_draws() -> None:
    state = build_position(racks=["K5a K6a Y1a", "B1a B2a"], pile="K7a R3a", phase="draw")
    state.apply(0, TakeDiscard(1, Meld("run", ids("K5a K6a K7a"))))
    assert state.pile == [] and state.observation(0)["hand"] == ["R3a", "Y1a"]
    state.apply(0, Discard(parse_tile("Y1a")))
    assert state.legal_actions(1)[0] == DRAW


def test_going_out_by_taking_from_the_pile() -> None:
    state = build_position(racks=["K5a K6a", "B1a B2a"], pile="K7a", phase="draw")
    events = state.apply(0, TakeDiscard(1, Meld("run", ids("K5a K6a K7a"))))
    result = next(e.public for e in events if e.kind == "hand_over")
    assert result["went_out"] == 0 and result["scores"] == [18 + 3, 0]


def test_a_discard_taken_must_be_the_top_with_the_depth_option_off() -> None:
    opts = GAME.options({"discard_take_any_depth": False})
    state = build_position(racks=["K5a K6a Y8a", "B1a"], pile="K7a Y9a", phase="draw", options=opts)
    take = TakeDiscard(1, Meld("run", ids("K5a K6a K7a")))
    assert take not in state.legal_actions(0)
    with pytest.raises(IllegalAction) as info:
        state.apply(0, take)
    assert info.value.code == "BAD_PILE_INDEX"


def test_discard_target_use_own_forbids_feeding_the_target() -> None:
    opts = GAME.options({"discard_target_use": "own"})
    state = build_position(
        racks=["K1a Y8a", "B8a"],
        melds=[(1, "run", "R4a R5a R6a")],
        pile="R3a",
        phase="draw",
        options=opts,
    )
    take = TakeDiscard(1, Add(parse_tile("R3a"), 1, "low"))
    assert take not in state.legal_actions(0)
    with pytest.raises(IllegalAction) as info:
        state.apply(0, take)
    assert info.value.code == "TARGET_NOT_OWN"


def test_feed_requires_own_meld() -> None:
    opts = GAME.options({"feed_requires_own_meld": True})
    state = build_position(
        racks=["R3a Y8a K1a K2a K3a", "B8a"], melds=[(1, "run", "R4a R5a R6a")], options=opts
    )
    feed = Add(parse_tile("R3a"), 1, "low")
    assert feed not in state.legal_actions(0)
    with pytest.raises(IllegalAction) as info:
        state.apply(0, feed)
    assert info.value.code == "NO_OWN_MELD"
    state.apply(0, Meld("run", ids("K1a K2a K3a")))
    assert feed in state.legal_actions(0)


def test_initial_meld_minimum() -> None:
    opts = GAME.options({"initial_meld_minimum": 30})
    state = build_position(
        racks=["R1a R2a R3a R10a R11a R12a Y4a", "B8a"],
        melds=[(1, "run", "Y5a Y6a Y7a")],
        options=opts,
    )
    small = Meld("run", ids("R1a R2a R3a"))
    feed = Add(parse_tile("Y4a"), 1, "low")
    legal = state.legal_actions(0)
    assert small not in legal and feed not in legal
    closed: list[tuple[Meld | Add, str]] = [(small, "OPENING_TOO_LOW"), (feed, "NOT_OPENED")]
    for action, code in closed:
        with pytest.raises(IllegalAction) as info:
            state.apply(0, action)
        assert info.value.code == code
    state.apply(0, Meld("run", ids("R10a R11a R12a")))
    assert small in state.legal_actions(0) and feed in state.legal_actions(0)


def test_run_wrap_none() -> None:
    opts = GAME.options({"run_wrap": "none"})
    state = build_position(racks=["R12a R13a R1a K2a", "B8a"], options=opts)
    with pytest.raises(IllegalAction) as info:
        state.apply(0, Meld("run", ids("R12a R13a R1a")))
    assert info.value.code == "INVALID_MELD"
    assert not [a for a in state.legal_actions(0) if isinstance(a, Meld)]


def test_stock_reshuffle_option_rebuilds_once() -> None:
    opts = GAME.options({"stock_exhausted": "reshuffle"})
    state = build_position(
        racks=["K2a K9a", "K13a B2a"],
        pile="R1a R2a R3a Y5a",
        rest="pile",
        phase="draw",
        options=opts,
    )
    pile_before = list(state.pile)
    assert state.legal_actions(0)[0] == DRAW
    events = state.apply(0, DRAW)
    assert [e.kind for e in events] == ["stock_rebuilt", "draw"]
    assert state.pile == [pile_before[-1]]
    assert len(state.stock) == len(pile_before) - 2
    state.stock = []
    state.apply(0, Discard(parse_tile("K2a")))
    assert state.legal_actions(1)[0] == END_ROUND


def test_turn_timer_completes_the_turn_and_skips_the_next() -> None:
    state = build_position(
        racks=["K2a K9a", "B3a B4a", "Y1a Y2a"],
        stock="R5a R6a R7a",
        phase="draw",
        options=GAME.options({"turn_timer": 60}),
    )
    events = state.apply(0, TIMEOUT)
    assert [e.kind for e in events] == ["timeout", "draw", "discard"]
    assert events[2].public["tile"] == "K9a"
    assert state.turn == 1 and state.skip == [True, False, False]
    state.apply(1, DRAW)
    state.apply(1, Discard(parse_tile("B3a")))
    state.apply(2, DRAW)
    events = state.apply(2, Discard(parse_tile("Y1a")))
    assert [e.kind for e in events] == ["discard", "turn_skipped"]
    assert state.turn == 1


def test_timeout_needs_the_timer_option() -> None:
    state = build_position(racks=["K2a K9a", "B3a"], phase="draw")
    with pytest.raises(IllegalAction) as info:
        state.apply(0, TIMEOUT)
    assert info.value.code == "TIMER_OFF"
    assert TIMEOUT not in state.legal_actions(0)


# ------------------------------------------------------------------ scoring and the match


def test_losers_subtract_rack_in_a_blocked_round() -> None:
    opts = GAME.options({"losers_subtract_rack": True})
    state = build_position(
        racks=["K2a K9a", "K13a B2a"],
        melds=[(0, "set", "K5a Y5a B5a")],
        rest="pile",
        phase="draw",
        options=opts,
    )
    events = state.apply(0, END_ROUND)
    result = next(e.public for e in events if e.kind == "hand_over")
    assert result["scores"] == [15 - 11, -12] and result["round_winners"] == [0]


def test_match_ends_at_three_round_wins() -> None:
    state = GAME.new_state(GAME.options(), 2, seed_from_text("match"))
    play_out(state)
    outcome = state.outcome()
    assert outcome is not None
    assert max(state.round_wins) == 3 and outcome.winners == {state.round_wins.index(3)}
    assert sum(state.round_wins) + state.void_rounds == state.round
    obs = state.observation(0)
    assert (
        obs["over"] and obs["to_act"] == [] and obs["outcome"]["winners"] == list(outcome.winners)
    )


def test_points_match_ends_at_500() -> None:
    state = GAME.new_state(GAME.options({"match_mode": "points"}), 3, seed_from_text("pts"))
    play_out(state, 3)
    totals = state.totals
    assert max(totals) >= 500 and totals.count(max(totals)) == 1
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == tuple(totals)


def test_observation_hides_other_racks_and_the_stock() -> None:
    state = GAME.new_state(GAME.options(), 4, seed_from_text("obs"))
    for _ in range(30):
        (seat,) = state.to_act()
        state.apply(seat, state.legal_actions(seat)[0])
    for viewer in (None, 0, 1, 2, 3):
        text = json.dumps(state.observation(viewer))
        hidden = [t for s, rack in enumerate(state.racks) if s != viewer for t in rack]
        hidden += state.stock
        assert hidden and not [t for t in hidden if f'"{TOKENS[t]}"' in text]
        if viewer is not None:
            own = state.observation(viewer)["hand"]
            assert own == [TOKENS[t] for t in state.racks[viewer]]
    assert "wall" not in state.observation(0)["rules"]


def test_parse_errors_name_the_input() -> None:
    for text, named in [
        ("meld run R1 R2 R3", "'R1'"),
        ("add R1a x", "add R1a x"),
        ("take x meld run", "take x meld run"),
        ("fly", "fly"),
        ("discard Sc", "'Sc'"),
    ]:
        with pytest.raises(ParseError) as info:
            GAME.parse_action(text)
        assert named in str(info.value)
    with pytest.raises(ParseError):
        GAME.action_from_json({"type": "add", "tile": "R1a", "meld": True})


@pytest.mark.parametrize(
    "raw",
    [
        {"hand_size": 7, "tile_values": "face", "smiley_value": 30},
        {"losers_subtract_rack": True, "tie_rule": "all"},
        {"discard_target_use": "own", "discard_take_any_depth": False},
        {"initial_meld_minimum": 30, "feed_requires_own_meld": True},
        {"run_wrap": "none", "tie_rule": "void"},
        {"stock_exhausted": "reshuffle"},
        {"match_mode": "points"},
    ],
)
def test_random_matches_under_the_options(raw: dict[str, object]) -> None:
    game = GAME
    opts = game.options(raw)
    played = play_random(game, f"options-{sorted(raw)}", seats=3, options=opts, probe_every=11)
    assert isinstance(played.state, TileRummyState)
    assert played.state.round >= 3 or played.state.outcome() is not None
    check_replay(game, played)
    check_observations(game, played.state, random.Random(1))


def test_a_take_whose_only_use_is_rearranging_own_melds_is_listed() -> None:
    # R5b fits no end of R3..R7 and makes no meld with the rack: splitting the run is its
    # only use (sections 7 and 8); apply accepts that take, so the list names it too.
    state = build_position(
        racks=["Y1 B9 K12", "Y2 Y3 Y4"],
        melds=[(0, "run", "R3 R4 R5 R6 R7")],
        pile="K1 R5",
        phase="draw",
    )
    take = GAME.parse_action("take 2 rearrange 1 | run R3a R4a R5a | run R5b R6a R7a")
    assert take in state.legal_actions(0)
    events = state.apply(0, take)
    assert [e.kind for e in events] == ["take_discard", "rearrange"]
    state.check_invariants()

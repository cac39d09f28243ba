"""Sichuan options, actions, visibility, settlement and every variant of sichuan.md 14,
through the engine protocol."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldhall.core.errors import OptionsError, ParseError
from meldhall.core.replay import replay
from meldhall.core.rng import seed_from_text
from meldhall.games.sichuan import GAME
from meldhall.games.sichuan.actions import PASS, Exchange, action_from_json, parse_action
from meldhall.games.sichuan.scoring import POT, SeatAtEnd, exhaustion_settlement
from meldhall.games.sichuan.state import SichuanState
from meldhall.testing.conformance import check_observations
from tests.games.test_sichuan_helpers import act, deal, discard, pass_all, tsumogiri


def _random_game(options: dict[str, Any], seed: str, *, greedy_wins: bool = True) -> SichuanState:
    """Play a whole match with random choices (always winning when offered)."""
    state = GAME.new_state(GAME.options(options), 4, seed_from_text(seed))
    rng = random.Random(seed)
    steps = 0
    while state.outcome() is None:
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        wins = [a for a in legal if str(a) == "win"]
        action = wins[0] if wins and greedy_wins else legal[rng.randrange(len(legal))]
        state.apply(seat, action)
        state.check_invariants()
        steps += 1
        assert steps < 5000
    return state


# ---------------------------------------------------------------- options


def test_default_options_are_the_spec_game() -> None:
    opts = GAME.options()
    assert (opts.fan_cap, opts.pig_penalty(), opts.dealer, opts.deals) == (5, 32, "random", 1)
    assert opts.multiple_winners and opts.postponed_kong_pays and not opts.passed_win_lock


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"fan_cap": 0}, "'fan_cap'"),
        ({"fan_cap": "big"}, "'fan_cap'"),
        ({"dealer": "east"}, "'dealer'"),
        ({"kong_after_pung": "yes"}, "'kong_after_pung'"),
        ({"chow": True}, "unknown option 'chow'"),
        ({"fan_cap": "none"}, "'flower_pig_penalty'"),
        (
            {"fan_cap": "none", "flower_pig_penalty": 16, "heavenly_earthly_hand": True},
            "needs a fan_cap",
        ),
        ({"dealer": "rotation"}, "'deals'"),
        ({"wall": "1m 2m"}, "108"),
        ({"wall": "1m 1m 1m 1m 1m"}, "'wall'"),
    ],
)
def test_bad_options_are_rejected_by_name(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        GAME.options(raw)


def test_seat_count_is_four() -> None:
    with pytest.raises(OptionsError):
        GAME.new_state(GAME.options(), 3, b"x")


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize(
    "text",
    [
        "win",
        "pung",
        "kong",
        "pass",
        "discard 5p#2",
        "concealed_kong 9s",
        "added_kong 1m",
        "declare m",
        "exchange 1m#0 2m#1 3m#2",
    ],
)
def test_actions_round_trip(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action


@pytest.mark.parametrize(
    "bad", ["chow", "discard 5p", "discard 5x#1", "declare z", "exchange 1m#0 1m#0 2m#0", ""]
)
def test_bad_action_text_is_a_parse_error(bad: str) -> None:
    with pytest.raises(ParseError):
        parse_action(bad)


def test_bad_action_json_is_a_parse_error() -> None:
    for bad in [
        {"type": "discard"},
        {"type": "win", "x": 1},
        ["win"],
        {"type": "declare", "suit": 1},
    ]:
        with pytest.raises(ParseError):
            action_from_json(bad)


# ---------------------------------------------------------------- visibility


def test_declarations_are_hidden_until_all_four_have_chosen() -> None:
    state = GAME.new_state(GAME.options({"dealer": "seat0"}), 4, b"hide")
    act(state, 2, "declare p")
    obs = state.observation(1)
    assert obs["missing"] == [None] * 4 and obs["declared"] == [False, False, True, False]
    assert obs["my_declaration"] is None
    assert state.observation(2)["my_declaration"] == "p"
    for seat, suit in ((0, "m"), (1, "s"), (3, "m")):
        act(state, seat, f"declare {suit}")
    assert state.observation(None)["missing"] == ["m", "s", "p", "m"]
    assert "hand" not in state.observation(None)


def test_observation_hides_other_hands_and_the_wall() -> None:
    state = GAME.new_state(GAME.options(), 4, b"obs")
    for seat in range(4):
        act(state, seat, "declare s")
    for viewer in (0, 1, None):
        obs = state.observation(viewer)
        assert obs["tiles"] == [len(h) for h in state.hands]
        own = len(state.hands[viewer]) if viewer is not None else 0
        assert json.dumps(obs).count("#") == own  # no tile of another hand or the wall
        assert isinstance(obs["wall"], int)
    check_observations(GAME, state, random.Random(1))


def test_claim_answers_stay_secret_until_the_window_closes() -> None:
    state = deal(
        [
            "5p 6p 7p 8p 1s 1s 2s 2s 3s 3s 4s 4s 6s 6s",
            "1m 1m 3m 3m 5m 5m 7m 7m 2p 2p 4p 4p 5p",
            "5p 5p 1p 1p 6p 7p 8p 5s 5s 7s 7s 8s 9s",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 3p 4p 9p 9p",
        ],
        miss="msms",
    )
    discard(state, 0, "5p")
    events = act(state, 2, "pung")
    assert events[0].for_viewer(1) == {"kind": "answered", "seat": 2}
    assert events[0].for_viewer(2)["answer"] == "pung"
    obs = state.observation(1)
    assert obs["window"] is not None and obs["window"]["waiting"] == [1, 3]
    assert obs["my_answer"] is None and state.observation(2)["my_answer"] == "pung"
    check_observations(GAME, state, random.Random(2))


def test_end_of_hand_reveals_every_hand_and_concealed_kong() -> None:
    state = _random_game({}, "reveal")
    result = state.last_result
    assert result is not None and state.observation(1)["last_result"] == result
    for seat_view in result["hands"]:
        for meld in seat_view["melds"]:
            assert meld["kind"] is not None and len(meld["tiles"]) in (3, 4)
    total = sum(len(h["hand"]) + sum(len(m["tiles"]) for m in h["melds"]) for h in result["hands"])
    total += len({w["tile"] for w in result["winners"]})
    assert total + state.wall_count + sum(len(row) for row in state.discards) == 108
    assert sum(result["scores"]) == 0
    check_observations(GAME, state, random.Random(3))


# ---------------------------------------------------------------- settlement


def test_exhaustion_settlement_variants() -> None:
    seats = [
        SeatAtEnd(won=True),
        SeatAtEnd(False, ready=True, value=8),
        SeatAtEnd(False),
        SeatAtEnd(False, pig=True),
    ]
    kong = [(1, 2, 2), (0, 2, 2), (3, 2, 2)]
    default = exhaustion_settlement(seats, kong)
    assert default.refund == ((2, 0, 2), (2, 1, 2), (2, 3, 2))
    assert default.pig == ((3, 0, 32), (3, 1, 32), (3, 2, 32))
    assert default.ready == ((2, 1, 8),)
    active = exhaustion_settlement(
        seats, kong, pig_penalty=8, pig_payees="active_non_pigs", refund_recipients="active_payers"
    )
    assert active.refund == ((2, 1, 2), (2, 3, 2))
    assert active.pig == ((3, 1, 8), (3, 2, 8))
    pot = exhaustion_settlement(seats, kong, pig_penalty=48, pig_payees="pot")
    assert pot.pig == ((3, POT, 48),)


def test_exhaustion_ends_with_a_settlement_in_play() -> None:
    for i in range(40):
        state = _random_game({}, f"exhaust-{i}", greedy_wins=False)
        assert state.last_result is not None
        if state.last_result["termination"] == "exhaustion":
            assert state.last_result["settlement"] is not None
            statuses = {h["status"] for h in state.last_result["hands"]}
            assert statuses <= {"won", "pig", "ready", "not_ready"}
            return
    raise AssertionError("no exhausted hand in 40 random games")


# ---------------------------------------------------------------- variants


VARIANTS: list[dict[str, Any]] = [
    {"fan_cap": 3},
    {"fan_cap": "none", "flower_pig_penalty": 48, "flower_pig_payees": "pot"},
    {"flower_pig_payees": "active_non_pigs", "refund_recipients": "active_payers"},
    {"settle_on_three_winners": True},
    {"exchange_three": True},
    {"dealer": "rotation", "deals": 4},
    {"dealer": "seat0", "deals": 2},
    {"self_draw_bonus": "fan"},
    {"self_draw_bonus": "none"},
    {"kong_after_pung": True, "postponed_kong_pays": False},
    {"gang_shang_pao": "fan_and_transfer"},
    {"gang_shang_pao": "transfer"},
    {"passed_win_lock": True},
    {"multiple_winners": False},
    {"missing_suit_strictness": "relaxed"},
    {"heavenly_earthly_hand": True},
    {"ready_check_visible_tiles": "exclude"},
]


@pytest.mark.parametrize("options", VARIANTS, ids=[json.dumps(v) for v in VARIANTS])
def test_every_variant_plays_whole_matches(options: dict[str, Any]) -> None:
    for i in range(6):
        state = _random_game(options, f"variant-{json.dumps(options)}-{i}", greedy_wins=i % 2 == 0)
        outcome = state.outcome()
        assert outcome is not None
        pot_variant = options.get("flower_pig_payees") == "pot"
        assert pot_variant or sum(outcome.scores) == 0
        hands = [e for e in [state.last_result] if e]
        assert hands and hands[0]["hand_number"] == state.opts.deals


def test_exchange_three_passes_tiles_in_one_direction() -> None:
    state = GAME.new_state(GAME.options({"exchange_three": True, "dealer": "seat0"}), 4, b"ex")
    assert state.phase == "exchange"
    before = [sorted(h) for h in state.hands]
    chosen = []
    for seat in range(4):
        action = state.legal_actions(seat)[0]
        assert isinstance(action, Exchange)
        chosen.append(set(action.tiles))
        act(state, seat, str(action))
    assert state.phase == "declare"
    moved = [set(before[s]) - set(state.hands[s]) for s in range(4)]
    assert moved == chosen
    step = next(d for d in (1, 2, 3) if chosen[0] <= set(state.hands[d]))
    for s in range(4):
        assert chosen[s] <= set(state.hands[(s + step) % 4])


def test_multiple_winners_off_takes_the_first_in_seat_order() -> None:
    state = deal(
        [
            "6p 1s 1s 2s 2s 3s 3s 4s 4s 5s 5s 6s 6s 7s",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 4p 5p 9p 9p",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 7p 8p 2p 2p",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 7p 3p 3p",
        ],
        miss="msss",
        options={"multiple_winners": False},
    )
    discard(state, 0, "6p")
    for seat in (3, 2, 1):
        act(state, seat, "win")
    assert [w.seat for w in state.winners] == [1]
    assert state.scores == [-1, 1, 0, 0] and state.turn == 2


def test_heavenly_hand_scores_as_capped() -> None:
    state = deal(
        [
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 5p 5p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 1p 1p 9p 9p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 6p 6p 7p 7p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 8p 8p 6p 7p",
        ],
        miss="smmm",
        options={"heavenly_earthly_hand": True},
    )
    act(state, 0, "win")
    assert state.winners[0].score.points == 32 and state.scores == [99, -33, -33, -33]


def test_gang_shang_pao_variants() -> None:
    hands = [
        "8s 8s 8s 1p 2p 6p 7p 2s 3s 5s 6s 7s 1s 9s",
        "1p 2p 6p 7p 8p 2s 3s 4s 5s 6s 7s 9s 9s",
        "1m 2m 3m 4m 5m 6m 7m 8m 9m 3p 5p 9p 9p",
        "8s 1p 2p 6p 7p 8p 1s 2s 3s 4s 4s 5s 7p",
    ]
    results = {}
    for variant in ("fan", "transfer"):
        state = deal(
            hands, front="1m 6s 9p", back="4p", miss="mmsm", options={"gang_shang_pao": variant}
        )
        discard(state, 0, "1p")
        pass_all(state)
        tsumogiri(state, 2)
        discard(state, 3, "8s")
        pass_all(state, but=(0,))
        act(state, 0, "kong")
        discard(state, 0, "4p")
        pass_all(state, but=(2,))
        act(state, 2, "win")
        results[variant] = (dict(state.winners[0].score.fans), list(state.scores))
    assert results["fan"] == ({"gang_shang_pao": 1}, [0, 0, 2, -2])
    assert results["transfer"] == ({}, [-1, 0, 3, -2])


# ---------------------------------------------------------------- properties


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9))
def test_random_matches_balance_and_replay(seed: int) -> None:
    game_seed = seed_from_text(f"prop-{seed}")
    state = GAME.new_state(GAME.options(), 4, game_seed)
    rng = random.Random(seed)
    log = []
    while state.outcome() is None:
        seat = sorted(state.to_act())[rng.randrange(len(state.to_act()))]
        legal = state.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        state.apply(seat, action)
        log.append((seat, action))
    state.check_invariants()
    outcome = state.outcome()
    assert outcome is not None and sum(outcome.scores) == 0
    again = replay(GAME, GAME.options(), 4, game_seed, log)
    assert again.snapshot() == state.snapshot()
    assert state.legal_actions(0) == () and PASS not in state.legal_actions(1)


def test_reshuffled_worlds_play_on_consistently() -> None:
    """A world with the viewer's hidden tiles permuted is a legal state: play goes on."""
    rng = random.Random(11)
    for i in range(12):
        state = GAME.new_state(GAME.options(), 4, seed_from_text(f"world-{i}"))
        for _ in range(rng.randrange(5, 160)):
            if state.outcome() is not None:
                break
            seat = min(state.to_act())
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
        viewer = rng.choice([0, 1, 2, 3, None])
        world = state.shuffled_hidden(viewer, rng)
        world.check_invariants()
        assert world.observation(viewer) == state.observation(viewer)
        while world.outcome() is None:
            seat = min(world.to_act())
            legal = world.legal_actions(seat)
            world.apply(seat, legal[rng.randrange(len(legal))])
            world.check_invariants()


@pytest.mark.parametrize(("cap", "points"), [(3, 8), (5, 32), ("none", 64)])
def test_fan_cap_bounds_the_base_points(cap: object, points: int) -> None:
    # T10's 6-fan self-draw: base 2^min(fan, fan_cap) (section 14, option fan_cap).
    hand = {
        "miss": "p",
        "concealed": "1m 2m 3m 1m 2m 3m 7m 8m 9m 9m 9m 9m 1m",
        "win_tile": "1m",
        "win_by": "self_draw",
    }
    options = GAME.options({"fan_cap": cap, "flower_pig_penalty": 32})
    answer = GAME.answer_vector("hand", hand, options)
    assert (answer["fan"], answer["points"]) == (6, points)


T35_EXHAUSTION = [
    {"won": True},
    {
        "miss": "s",
        "concealed": "2m 2m 2m 5m 5m 5m 8p 8p 8p 5p",
        "melds": [{"type": "P", "tiles": "2p 2p 2p"}],
    },
    {
        "miss": "m",
        "concealed": "1s 4s 7s 9s 2p 5p 8p",
        "melds": [{"type": "K", "tiles": "3s 3s 3s 3s"}, {"type": "C", "tiles": "6p 6p 6p 6p"}],
    },
    {"miss": "p", "concealed": "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 2s 4p"},
]
"""T35: seat 0 has won, 1 is ready, 2 is not ready with kong income 8, 3 is a pig."""


@pytest.mark.parametrize(
    ("options", "refund", "pig"),
    [
        ({}, [2, 4, -8, 2], [32, 32, 32, -96]),
        ({"flower_pig_penalty": 48}, [2, 4, -8, 2], [48, 48, 48, -144]),
        ({"flower_pig_payees": "active_non_pigs"}, [2, 4, -8, 2], [0, 32, 32, -64]),
        ({"flower_pig_payees": "pot"}, [2, 4, -8, 2], [0, 0, 0, -32]),
        ({"refund_recipients": "active_payers"}, [0, 4, -6, 2], [32, 32, 32, -96]),
    ],
)
def test_exhaustion_settlement_options(
    options: dict[str, Any], refund: list[int], pig: list[int]
) -> None:
    # Section 14: the pig penalty, who the pig pays (the winner is not active), and who the
    # non-ready kong earner refunds.
    data = {"seats": T35_EXHAUSTION, "kong_payments": [[1, 2, 2], [0, 2, 2], [1, 2, 2], [3, 2, 2]]}
    answer = GAME.answer_vector("score", data, GAME.options(options))
    assert (answer["refund"], answer["pig"]) == (refund, pig)

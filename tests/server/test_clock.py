"""The move a timed-out seat plays: pass in a claim window, else draw from the wall and discard
the tile drawn, unless the game's spec defines its own (remi's expiry action)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from meldhall.games.registry import find_game
from meldhall.tables.clock import default_action, table_settings
from meldhall.tables.online import OnlineTable


@pytest.mark.parametrize("game_id", ["okey", "okey-ladder", "tile-rummy"])
def test_a_timed_out_turn_draws_from_the_wall_then_discards_the_drawn_tile(game_id: str) -> None:
    game = find_game(game_id)
    rng = random.Random(0)
    for n in range(20):
        state = game.new_state(game.options({}), game.default_seats, bytes([n]) * 32)
        # play on until a seat is to draw
        while True:
            (seat,) = state.to_act()
            if any(a.to_json()["type"] == "draw" for a in state.legal_actions(seat)):
                break
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        draw = default_action(game_id, state, seat, rng)
        assert draw.to_json() == {"type": "draw"}
        drawn = game.timeout.drawn_piece(state.apply(seat, draw), seat)
        assert drawn is not None
        if state.to_act() != {seat}:
            continue  # the draw ended the hand (an empty wall)
        discard = default_action(game_id, state, seat, rng, drawn).to_json()
        assert discard == {"type": "discard", "tile": drawn}


def test_a_claim_window_is_passed() -> None:
    game = find_game("sichuan")
    state = game.new_state(game.options({}), 4, b"\x01" * 32)
    rng = random.Random(1)

    def passing() -> list[int]:
        return [
            s
            for s in state.to_act()
            if any(a.to_json()["type"] == "pass" for a in state.legal_actions(s))
        ]

    while not passing():
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    for seat in passing():
        assert default_action("sichuan", state, seat, rng).to_json() == {"type": "pass"}


def test_remi_plays_its_specs_expiry_action() -> None:
    game = find_game("remi")
    state = game.new_state(game.options({"turn_timer": 30}), 4, b"\x02" * 32)
    rng = random.Random(2)
    for _ in range(30):
        (seat,) = state.to_act()
        expected = state.expiry_action(seat)  # type: ignore[attr-defined]
        assert expected is not None
        assert default_action("remi", state, seat, rng) == expected
        state.apply(seat, expected)


def test_tile_rummy_with_its_turn_timer_plays_the_specs_timeout() -> None:
    game = find_game("tile-rummy")
    timed = game.new_state(game.options({"turn_timer": 60}), 4, b"\x03" * 32)
    (seat,) = timed.to_act()
    assert default_action("tile-rummy", timed, seat, random.Random(3)).to_json() == {
        "type": "timeout"
    }
    untimed = game.new_state(game.options({}), 4, b"\x03" * 32)
    assert default_action("tile-rummy", untimed, seat, random.Random(3)).to_json() == {
        "type": "draw"
    }


@pytest.mark.parametrize(
    ("game_id", "options", "seconds"),
    [
        ("remi", {"turn_timer": 45}, 45.0),
        ("remi", {}, 30.0),
        ("tile-rummy", {"turn_timer": 60}, 60.0),
    ],
)
def test_a_games_turn_timer_sets_the_tables_turn_clock(
    game_id: str, options: dict[str, int], seconds: float
) -> None:
    game = find_game(game_id)
    state = game.new_state(game.options(options), 2, b"\x04" * 32)
    table = SimpleNamespace(
        over=False,
        paused=False,
        state=state,
        game=game,
        settings=table_settings({"turn_seconds": 30}),
        _live=lambda: {0, 1},
    )
    assert OnlineTable._clock_seconds(table)[0] == seconds  # type: ignore[arg-type]

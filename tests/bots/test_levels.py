"""Levels: easy / normal / hard name a bot in every game, and easy slips only sometimes."""

from __future__ import annotations

import random

import pytest

from meldhall.bots.base import make_bot, strongest_bot_name
from meldhall.bots.levels import LEVELS, EasyBot, level_bot
from meldhall.core.errors import MeldhallError
from meldhall.games.registry import find_game, game_ids
from meldhall.simulate import play_match


@pytest.mark.parametrize("game_id", game_ids())
def test_levels_name_the_strongest_the_greedy_and_the_easy_bot(game_id: str) -> None:
    strongest = make_bot(game_id, strongest_bot_name(game_id))
    assert type(level_bot(game_id, "hard")) is type(strongest)
    assert type(level_bot(game_id, "normal")) is type(make_bot(game_id, "greedy"))
    assert isinstance(level_bot(game_id, "easy"), EasyBot)


@pytest.mark.parametrize("game_id", ["okey", "sichuan", "okey-cards"])
def test_easy_and_normal_play_a_whole_match(game_id: str) -> None:
    game = find_game(game_id)
    bots = [level_bot(game_id, LEVELS[i % 2]) for i in range(game.default_seats)]
    assert play_match(game, bots, b"levels", check=True).outcome is not None


def test_easy_mostly_plays_the_greedy_move() -> None:
    game = find_game("sichuan")
    state = game.new_state(game.options({"dealer": "seat0"}), 4, b"easy")
    greedy, easy = make_bot("sichuan", "greedy"), level_bot("sichuan", "easy")
    obs, legal = state.observation(0), state.legal_actions(0)
    want = greedy.choose(obs, legal, random.Random(0))
    same = sum(easy.choose(obs, legal, random.Random(i)) == want for i in range(200))
    assert 120 <= same < 200


def test_an_unknown_level_is_named() -> None:
    with pytest.raises(MeldhallError, match="no level 'expert'"):
        level_bot("okey", "expert")


def test_tile_rummys_easy_bot_slips_more_often() -> None:
    game = find_game("tile-rummy")
    state = game.new_state(game.options(), 4, b"easy-rummy")
    seat = min(state.to_act())
    obs, legal = state.observation(seat), state.legal_actions(seat)
    assert len(legal) > 1
    easy = level_bot("tile-rummy", "easy")
    assert isinstance(easy, EasyBot) and easy.slips == 2
    assert level_bot("sichuan", "easy").slips == 4  # type: ignore[attr-defined]
    assert obs and easy.choose(obs, legal, random.Random(0)) in legal

"""Remi bots: they choose listed actions from observations alone, open and lay off when they
can, and greedy beats random."""

from __future__ import annotations

import json
import random

import pytest

from meldhall.bots.base import make_bot
from meldhall.bots.remi import BOTS, GreedyRemiBot, RandomRemiBot
from meldhall.core.rng import derive
from meldhall.games.remi import GAME
from meldhall.games.remi.actions import Discard, LayOff, Open
from meldhall.simulate import play_match
from tests.games.test_remi_helpers import deal, play, position


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_play_whole_matches_with_listed_actions(name: str) -> None:
    bots = [make_bot("remi", name) for _ in range(3)]
    run = play_match(GAME, bots, derive(b"remi-bots", name), check=True)
    assert run.outcome is not None and run.hands >= 1


@pytest.mark.parametrize("bot", [RandomRemiBot(), GreedyRemiBot()])
def test_bots_need_only_the_json_observation(bot: RandomRemiBot | GreedyRemiBot) -> None:
    state = GAME.new_state(GAME.options(), 4, b"remi-json")
    rng = random.Random(1)
    for _ in range(300):
        if state.outcome() is not None:
            break
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        seen = json.loads(json.dumps(state.observation(seat)))
        action = bot.choose(seen, legal, rng)
        assert action in legal
        state.apply(seat, action)


@pytest.mark.parametrize("bot", [RandomRemiBot(), GreedyRemiBot()])
def test_bots_open_and_lay_off_when_they_can(bot: RandomRemiBot | GreedyRemiBot) -> None:
    state = deal(["KC KD KS 5H 6H 7H 8H", ""])
    play(state, 0, "DRAW_STOCK")
    rng = random.Random(2)
    choice = bot.choose(state.observation(0), state.legal_actions(0), rng)
    assert isinstance(choice, Open) and len(choice.melds) == 2
    state.apply(0, choice)
    lay = position(hands=["9S 2D", "3C"], discard="4H", melds=[("10S JS QS", 1)], phase="play")
    lay.opened[0] = True
    choice = bot.choose(lay.observation(0), lay.legal_actions(0), rng)
    assert isinstance(choice, LayOff) and str(choice) == "LAY_OFF 9S#1 m0 low"


def test_greedy_keeps_jokers_and_melded_cards() -> None:
    state = deal(["JK 7C 7D 7S KH", ""], stock="2S#2", opening_minimum=51)
    play(state, 0, "DRAW_STOCK")
    legal = state.legal_actions(0)
    assert not any(isinstance(a, Open) for a in legal)
    choice = GreedyRemiBot().choose(state.observation(0), legal, random.Random(3))
    assert isinstance(choice, Discard)
    assert str(choice)[8:10] not in ("JK", "7C", "7D", "7S")


def test_greedy_beats_random() -> None:
    wins = {"greedy": 0, "random": 0}
    for i in range(8):
        names = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        bots = [make_bot("remi", n) for n in names]
        run = play_match(GAME, bots, derive(b"remi-duel", i))
        assert run.outcome is not None
        for seat in run.outcome.winners:
            wins[names[seat]] += 1
    assert wins["greedy"] > wins["random"], wins

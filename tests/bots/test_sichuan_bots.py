"""Sichuan bots: legal choices from observations only, wins taken, sensible defence, and
greedy beating random over seeded matches."""

from __future__ import annotations

import random
from typing import Any

from meldhall.bots.base import make_bot
from meldhall.bots.sichuan import BOTS, GreedyBot, RandomBot
from meldhall.core.engine import Action
from meldhall.core.rng import derive
from meldhall.games.sichuan import GAME
from meldhall.games.sichuan.actions import DISCARDS, PASS, WIN, Declare, Discard, Pung
from meldhall.games.sichuan.pieces import TOKEN
from meldhall.simulate import run_many
from tests.games.test_sichuan_helpers import deal, discard


def _obs(state: Any, seat: int) -> dict[str, Any]:
    obs: dict[str, Any] = state.observation(seat)
    return obs


def test_bots_are_registered_and_choose_listed_actions() -> None:
    assert set(BOTS) >= {"random", "greedy"}
    for name in BOTS:
        bot = make_bot("sichuan", name)
        state = GAME.new_state(GAME.options(), 4, b"bots")
        rng = random.Random(1)
        for _ in range(300):
            if state.outcome() is not None:
                break
            seat = min(state.to_act())
            legal = state.legal_actions(seat)
            obs = state.observation(seat) if bot.needs_observation else {}
            action = bot.choose(obs, legal, rng)
            assert action in legal
            state.apply(seat, action)


def test_both_bots_take_a_win() -> None:
    legal: tuple[Action, ...] = (WIN, *DISCARDS[:3])
    assert RandomBot().choose({}, legal, random.Random(0)) is WIN
    state = deal(
        [
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 5p 5p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 1p 1p 9p 9p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 6p 6p 7p 7p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 8p 8p 6p 7p",
        ],
        miss="smmm",
    )
    assert GreedyBot().choose(_obs(state, 0), state.legal_actions(0), random.Random(0)) is WIN


def test_greedy_declares_its_shortest_suit() -> None:
    state = GAME.new_state(GAME.options({"dealer": "seat0"}), 4, b"declare")
    counts = [sum(1 for t in state.hands[1] if t // 36 == s) for s in range(3)]
    action = GreedyBot().choose(_obs(state, 1), state.legal_actions(1), random.Random(0))
    assert isinstance(action, Declare) and counts[action.suit] == min(counts)


def test_greedy_keeps_its_shape_and_pungs_only_when_it_helps() -> None:
    state = deal(
        [
            "5p 6p 7p 8p 1s 1s 2s 2s 3s 3s 4s 4s 6s 6s",
            "1m 1m 3m 3m 5m 5m 7m 7m 2p 2p 4p 4p 9p",
            "5p 5p 1p 1p 6p 7p 8p 5s 5s 7s 7s 8s 9s",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 3p 4p 9p 9p",
        ],
        miss="msms",
    )
    discard(state, 0, "5p")
    choice = GreedyBot().choose(_obs(state, 2), state.legal_actions(2), random.Random(0))
    assert isinstance(choice, Pung) or choice is PASS
    state2 = deal(
        [
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 9s 5p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 1p 1p 9p 9p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 6p 6p 7p 7p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 8p 8p 6p 7p",
        ],
        miss="smmm",
    )
    choice = GreedyBot().choose(_obs(state2, 0), state2.legal_actions(0), random.Random(0))
    assert isinstance(choice, Discard) and choice.tile // 4 == 26  # the 9s: missing suit


def test_greedy_defends_with_an_opponents_missing_suit() -> None:
    tiles = (0, 8, 12, 16, 20, 24, 32, 36, 44, 48, 52, 56, 60, 68)  # 1m 3m 4m 5m 6m 7m 9m, 1p ...
    pung = {"type": "P", "from": 3}
    obs = {
        "seat": 0,
        "hand": [TOKEN[t] for t in tiles],
        "missing": ["s", "m", "m", "m"],
        "my_declaration": "s",
        "melds": [
            [],
            [{**pung, "kind": "2s", "tiles": ["2s#0", "2s#1", "2s#2"]}],
            [{**pung, "kind": "4s", "tiles": ["4s#0", "4s#1", "4s#2"]}],
            [],
        ],
        "discards": [[], ["9s#1"], ["8s#1"], ["7s#1"]],
        "winners": [],
        "active": [True, True, True, True],
        "wall": 10,
        "window": None,
    }
    legal = tuple(DISCARDS[t] for t in tiles)
    choice = GreedyBot().choose(obs, legal, random.Random(0))
    assert isinstance(choice, Discard) and choice.tile // 36 == 0  # m: every opponent lacks it
    obs["wall"] = 50
    obs["melds"] = [[], [], [], []]
    attack = GreedyBot().choose(obs, legal, random.Random(0))
    assert isinstance(attack, Discard)


def test_greedy_beats_random() -> None:
    factories = [BOTS["greedy"], BOTS["random"], BOTS["greedy"], BOTS["random"]]
    runs, _ = run_many(GAME, factories, 40, "greedy-vs-random")
    greedy = sum(r.outcome.scores[0] + r.outcome.scores[2] for r in runs if r.outcome)
    assert greedy > 0


def test_seeded_bot_matches_are_reproducible() -> None:
    from meldhall.simulate import play_match

    bots = [make_bot("sichuan", "greedy") for _ in range(4)]
    a = play_match(GAME, bots, derive(b"s", "1"), check=True)
    b = play_match(GAME, [make_bot("sichuan", "greedy") for _ in range(4)], derive(b"s", "1"))
    assert a.outcome == b.outcome and a.actions == b.actions

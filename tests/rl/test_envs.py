"""The RL environments pass PettingZoo's and Gymnasium's own checkers for every game."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from meldhall.core.errors import MeldhallError
from meldhall.rl import aec_env, single_agent_env
from meldhall.rl.match import Match
from meldhall.rl.specs import SPECS

GAMES = sorted(SPECS)


@pytest.mark.parametrize("game_id", GAMES)
def test_aec_env_passes_the_pettingzoo_api_test(game_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(aec_env(game_id, max_steps=150), num_cycles=150)


@pytest.mark.parametrize("game_id", GAMES)
def test_single_agent_env_passes_the_gymnasium_checker(game_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(single_agent_env(game_id, max_steps=100), skip_render_check=True)


def _random_episode(game_id: str, seed: int, steps: int) -> list[tuple[str, float]]:
    env = aec_env(game_id, max_steps=steps)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, float(obs["observation"].sum())))
        env.step(action)
    return trace


def test_reset_seed_fixes_the_match() -> None:
    assert _random_episode("sichuan", 7, 120) == _random_episode("sichuan", 7, 120)
    assert _random_episode("sichuan", 7, 120) != _random_episode("sichuan", 8, 120)


def test_a_masked_out_id_is_refused_and_changes_nothing() -> None:
    env = aec_env("okey", illegal="raise")
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.observe(agent)
    wrong = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action id {wrong}"):
        env.step(wrong)
    after = env.observe(agent)
    assert env.agent_selection == agent
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])


def test_a_penalized_id_pays_the_illegal_reward() -> None:
    env = single_agent_env("okey-cards")
    obs, info = env.reset(seed=3)
    wrong = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(wrong)
    assert reward == -1.0 and not terminated and not truncated
    assert "continues no legal action" in info2["illegal"]
    assert np.array_equal(obs, obs2)


def test_a_whole_okey_cards_episode_pays_its_final_score() -> None:
    env = single_agent_env("okey-cards")
    _, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, done, _, info = env.step(action)
        total += reward
    score = env.match.state.observation(0)["score"]
    assert total == pytest.approx(score / 100.0)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_action_of_a_long_random_match_has_a_spelling(game_id: str) -> None:
    match = Match(game_id)
    match.reset(b"spell")
    rng = random.Random(game_id)
    for _ in range(1500):
        if match.over():
            break
        seat = min(match.to_act())
        decision = match.decision_of(seat)  # spells every legal action, or raises
        assert decision.options()
        legal = match.state.legal_actions(seat)
        match.apply(seat, legal[rng.randrange(len(legal))])


def test_bad_arguments_are_refused_with_the_reason() -> None:
    with pytest.raises(MeldhallError, match="4 to 4 seats, not 3"):
        aec_env("sichuan", seats=3)
    with pytest.raises(MeldhallError, match="no_such_option"):
        single_agent_env("remi", no_such_option=1)
    with pytest.raises(MeldhallError, match="has no bot 'nobody'"):
        single_agent_env("okey", opponents="nobody")
    with pytest.raises(ValueError, match="illegal must be"):
        aec_env("okey", illegal="ignore")

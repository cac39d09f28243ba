"""Reinforcement-learning environments of every meldhall game (the ``rl`` extra: numpy,
gymnasium, pettingzoo). docs/rl.md documents the action ids, observation layouts and rewards.

- ``aec_env(game_id, **options)``: a PettingZoo AEC environment, every seat an agent.
- ``single_agent_env(game_id, opponents="greedy", **options)``: a Gymnasium environment in
  which the project's bots play the other seats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meldhall.rl.aec import MeldEnv
    from meldhall.rl.single import SingleAgentEnv


def aec_env(game_id: str, **options: Any) -> MeldEnv:
    """Return a PettingZoo AEC environment of ``game_id``; ``options`` are the env's keywords
    (``seats``, ``max_steps``, ``illegal``, ``render_mode``) and the game's rule options."""
    from meldhall.rl.aec import MeldEnv

    return MeldEnv(game_id, **options)


def single_agent_env(game_id: str, opponents: str = "greedy", **options: Any) -> SingleAgentEnv:
    """Return a Gymnasium environment of ``game_id`` in which seat ``seat`` (default 0) is
    the agent and the bot named ``opponents`` plays every other seat."""
    from meldhall.rl.single import SingleAgentEnv

    return SingleAgentEnv(game_id, opponents=opponents, **options)

"""``single_agent_env(game_id)``: a Gymnasium environment of one seat against the bots.

The agent plays seat ``seat``; the bot named ``opponents`` (``meldhall.bots.base.make_bot``)
plays every other seat, drawing its choices from the environment's seeded generator, so
``reset(seed=...)`` fixes the whole episode for a fixed policy. The observation is the
float32 array of ``meldhall.rl.observe`` (filled by ``meldhall.rl.direct``);
``info["action_mask"]`` marks the legal token ids, ``info["observation"]`` is the engine's
JSON observation (left out with ``json_infos=False``, which spares building it). An id
outside the mask changes nothing and pays ``illegal_reward`` (``illegal="raise"`` raises instead).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from meldhall.bots.base import make_bot
from meldhall.core.engine import Bot
from meldhall.rl.aec import seed_bytes
from meldhall.rl.match import IllegalActionId, Match
from meldhall.terminal.board import board_text


class SingleAgentEnv(gym.Env[np.ndarray, int]):
    """A Gymnasium environment of one seat of a game (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(
        self,
        game_id: str,
        *,
        opponents: str = "greedy",
        seat: int = 0,
        seats: int | None = None,
        max_steps: int | None = None,
        illegal: str = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        json_infos: bool = True,
        **options: Any,
    ):
        if illegal not in ("penalize", "raise"):
            raise ValueError(f"illegal must be 'penalize' or 'raise', not {illegal!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.match = Match(game_id, seats, **options)
        if not 0 <= seat < self.match.seats:
            raise ValueError(f"seat must be 0..{self.match.seats - 1}, not {seat}")
        self.seat = seat
        self.bots: dict[int, Bot] = {
            s: make_bot(game_id, opponents) for s in range(self.match.seats) if s != seat
        }
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.json_infos = json_infos
        self.observation_space = spaces.Box(-np.inf, np.inf, (self.match.obs_size,), np.float32)
        self.action_space = spaces.Discrete(len(self.match.vocab))  # type: ignore[assignment]
        self._bot_rng = random.Random(0)
        self.steps = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new match and let the bots play up to the agent's first decision; return
        the observation and the info."""
        super().reset(seed=seed)
        self.match.reset(seed_bytes(self.np_random))
        self._bot_rng = random.Random(int(self.np_random.integers(0, 2**62)))
        self.steps = 0
        self._play_bots()
        return self.match.observe(self.seat), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Choose token ``action``; once an action is spelled whole it is applied and the
        bots play until the agent's next decision. Return (observation, reward,
        terminated, truncated, info)."""
        try:
            paid = self.match.step(self.seat, int(action))
        except IllegalActionId as exc:
            if self.illegal == "raise":
                raise
            info = {**self._info(), "illegal": str(exc)}
            return self.match.observe(self.seat), self.illegal_reward, False, False, info
        reward = paid[self.seat] + self._play_bots()
        self.steps += 1
        terminated = self.match.over()
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        if self.render_mode == "human":
            print(self.render())
        return self.match.observe(self.seat), reward, terminated, truncated, self._info()

    def _play_bots(self) -> float:
        reward = 0.0
        match = self.match
        while not match.over() and self.seat not in match.to_act():
            seat = min(match.to_act())
            bot = self.bots[seat]
            legal = match.state.legal_actions(seat)
            obs = match.state.observation(seat) if bot.needs_observation else {}
            reward += match.apply(seat, bot.choose(obs, legal, self._bot_rng))[self.seat]
        return reward

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.match.mask(self.seat)}
        if self.json_infos:
            info["observation"] = self.match.json_observation(self.seat)
        return info

    def render(self) -> str | None:
        """Return the table as text, from the agent's seat."""
        return board_text(self.match.game.id, self.match.state.observation(self.seat))

"""``aec_env(game_id)``: a PettingZoo AEC environment of one meldhall game.

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers). The agent to act is the lowest
seat that may act now (in a Sichuan claim window each responder answers in seat order).
An action is one token id (``meldhall.rl.actions``); the observation of an agent is
``{"observation": float32 array, "action_mask": int8 array}``. ``infos`` of the agent to
act hold the engine's JSON observation (``"observation"``, shared with the environment:
copy it before changing it) unless ``json_infos=False`` (then infos are empty dicts and no
JSON is built: the fast setting). The observation's arrays are fresh at every read unless
``fresh_arrays=False``: then they are read-only arrays the environment keeps and changes at
its next step (no copy a read; copy them to keep them). ``action_texts(agent)`` lists
the text of every legal action the agent's choices so far still allow.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from meldhall.rl.match import IllegalActionId, Match
from meldhall.terminal.board import board_text


def seed_bytes(rng: np.random.Generator) -> bytes:
    """Return a 32-byte match seed drawn from ``rng``."""
    return bytes(rng.integers(0, 256, size=32, dtype=np.uint8).tolist())


class MeldEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """A PettingZoo AEC environment of one game (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }
    agent_selection: str

    def __init__(
        self,
        game_id: str,
        *,
        seats: int | None = None,
        max_steps: int | None = None,
        illegal: str = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        json_infos: bool = True,
        fresh_arrays: bool = True,
        **options: Any,
    ):
        super().__init__()
        if illegal not in ("penalize", "raise"):
            raise ValueError(f"illegal must be 'penalize' or 'raise', not {illegal!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.match = Match(game_id, seats, **options)
        self.metadata = {**self.metadata, "name": f"meldhall_{game_id.replace('-', '_')}_v0"}  # type: ignore[misc]
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.json_infos = json_infos
        self.fresh_arrays = fresh_arrays
        self.possible_agents = [f"player_{s}" for s in range(self.match.seats)]
        self.agents = list(self.possible_agents)
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self._paid = True
        """Whether ``rewards`` may hold a non-zero value (else it is reused as it is)."""
        self._clean_infos = False
        """Whether ``infos`` holds nothing but empty dicts (else it is made anew)."""
        self._ended = False
        """Whether every agent is terminated or truncated (the match over, or cut)."""
        n = len(self.match.vocab)
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.match.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self._act_space = spaces.Discrete(n)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._np_random, _ = seeding.np_random(None)
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Return the observation space (the same for every agent)."""
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Return the action space: one id per vocabulary token."""
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match; ``seed`` fixes the deal (and so the whole match)."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self.match.reset(seed_bytes(self._np_random))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.steps = 0
        self._paid = False
        self._clean_infos = False
        self._ended = False
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Return the observation array and the action mask of ``agent``."""
        array, mask = self.match.read(self._seat_of[agent], self.fresh_arrays)
        return {"observation": array, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Return the observation (None unless ``observe``), cumulative reward, termination,
        truncation and info of the agent to act (PettingZoo's ``last``, one call less)."""
        agent = self.agent_selection
        observation: dict[str, np.ndarray] | None = None
        if observe:
            array, mask = self.match.read(self._seat_of[agent], self.fresh_arrays)
            observation = {"observation": array, "action_mask": mask}
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        """Choose token ``action`` for the agent to act (None for a finished agent)."""
        agent = self.agent_selection
        if self._ended:
            self._was_dead_step(action)
            return
        seat = self._seat_of[agent]
        self._cumulative_rewards[agent] = 0.0
        if self._paid:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._paid = False
        match = self.match
        try:
            paid = match.step(seat, int(action if action is not None else -1))
        except IllegalActionId as exc:
            if self.illegal == "raise":
                raise
            self.rewards[agent] = self.illegal_reward
            self._paid = True
            self.infos[agent] = {**self.infos[agent], "illegal": str(exc)}
            self._clean_infos = False
            self._accumulate_rewards()
            return
        if paid is not match.no_rewards and any(paid):
            for s, r in enumerate(paid):
                self.rewards[self.possible_agents[s]] = r
            self._paid = True
            self._accumulate_rewards()
        self.steps += 1
        if match.state.outcome() is not None:
            self.terminations = dict.fromkeys(self.agents, True)
            self._ended = True
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
            self._ended = True
        to_act = match.state.to_act()
        if to_act and self._clean_infos and not (self._ended or self.json_infos):
            self.agent_selection = self.possible_agents[min(to_act)]  # _select's common case
        else:
            self._select()
        if self.render_mode == "human":
            print(self.render())

    def _select(self) -> None:
        if not self._clean_infos:
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self._clean_infos = True
        to_act = self.match.state.to_act()
        if self._ended or not to_act:
            self.agent_selection = next(
                (a for a in self.agents if self.terminations[a] or self.truncations[a]),
                self.agents[0],
            )
            return
        seat = min(to_act)
        self.agent_selection = self.possible_agents[seat]
        if self.json_infos:
            self.infos[self.agent_selection] = {"observation": self.match.view(seat)}
            self._clean_infos = False

    def action_texts(self, agent: str) -> list[str]:
        """Return the text form of every legal action of ``agent`` that its tokens chosen so
        far still allow (empty when it may not act)."""
        seat = self._seat_of[agent]
        if seat not in self.match.to_act():
            return []
        return self.match.decision_of(seat).texts()

    def render(self) -> str | None:
        """Return the table as text, from the view of the agent to act."""
        seat = self.possible_agents.index(self.agent_selection) if self.agents else 0
        return board_text(self.match.game.id, self.match.view(seat))

    def close(self) -> None:
        """Release nothing (the environment holds no outside resource)."""

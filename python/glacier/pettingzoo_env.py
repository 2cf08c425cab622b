"""PettingZoo AEC environments over glacier's batched API (optional extra ``gym``: ``pip install glacier-games[gym]``).

Agents are ``player_0`` .. ``player_{n-1}``; each observes a dictionary with the engine's
``observation`` tensor (from the point of view of the player to move) and its
``action_mask``; rewards are the final returns, given when the game ends.

>>> from glacier.pettingzoo_env import env
>>> game = env("kuba")
>>> game.reset(seed=0)
>>> game.agent_selection
'player_0'
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import glacier

from .batch import VectorEnv
from .gymnasium_env import _masks, observation_space

__all__ = ["GlacierAECEnv", "env", "raw_env"]


class GlacierAECEnv(AECEnv):  # type: ignore[misc]
    """A glacier game as a turn-based multi-agent environment."""

    metadata = {"render_modes": ["ansi"], "name": "glacier", "is_parallelizable": False}  # noqa: RUF012  (the frameworks declare it this way)

    def __init__(self, game: str, render_mode: Optional[str] = None, **params: Any) -> None:
        super().__init__()
        self.game, self.params, self.render_mode = game, params, render_mode
        self.metadata = {**self.metadata, "name": f"glacier_{game}"}
        self._size = glacier.new_game(game).num_distinct_actions
        self._env = VectorEnv(game, 1, auto_reset=False, seed=0, **params)
        players = self._env.num_players
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._space = observation_space(game)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._space)
        self.action_spaces = {a: spaces.Discrete(self._size) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        mask = _masks(self._env, self._size)[0]
        if agent != self.agent_selection:
            mask = np.zeros_like(mask)
        return {"observation": self._env.observations()[0], "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        self._env.reset()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[int(self._env.current_players()[0])]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        result = self._env.step(np.array([action], dtype=np.int64))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if result.terminated[0]:
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(result.returns[0][i])
                self.terminations[a] = True
        else:
            self.agent_selection = self.agents[int(self._env.current_players()[0])]
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return self._env.texts()[0]
        return None

    def close(self) -> None:
        pass


def raw_env(game: str, render_mode: Optional[str] = None, **params: Any) -> GlacierAECEnv:
    return GlacierAECEnv(game, render_mode=render_mode, **params)


def env(game: str, render_mode: Optional[str] = None, **params: Any) -> Any:
    """The environment with PettingZoo's standard safety wrappers."""
    wrapped = wrappers.OrderEnforcingWrapper(raw_env(game, render_mode=render_mode, **params))
    return wrapped

"""PettingZoo AEC environments for every glacier game (optional extra ``gym``: ``pip install glacier-games[gym]``).

Agents are ``player_0`` .. ``player_{n-1}`` (E: 2 to 6 of them, by its ``players``
parameter). ``observe(agent)`` is a dictionary with the game's ``observation`` tensor from
that agent's point of view and its ``action_mask`` (all zeros when it is not that agent's
turn), over the game's fixed action numbers. Where a move takes several actions (a jump
chain, a drop order), the same agent acts again until the move is made. Rewards are the
final returns, given when the game ends; the ply limit ends a game as a truncation, every
other end as a termination.

An action outside the mask is handled as in PettingZoo's classic games (``env(...)`` wraps
the environment in ``TerminateIllegalWrapper``): the offender gets -1, the others 0, and the
game ends. ``env(game, illegal_action="raise")`` raises ``IllegalMoveError`` instead.
``render_mode`` is ``"ansi"`` (the board as text) or ``"rgb_array"`` (its picture, with the
extra ``render``); ``metadata["render_modes"]`` lists only the modes that can render here,
as :data:`glacier.gymnasium_env.RENDER_MODES` says.

>>> from glacier.pettingzoo_env import env
>>> game = env("kuba")
>>> game.reset(seed=0)
>>> game.agent_selection
'player_0'
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as err:  # a missing extra: one line that says what to install
    raise ModuleNotFoundError(
        'glacier.pettingzoo_env needs PettingZoo and Gymnasium: pip install "glacier-games[gym]"', name=err.name
    ) from err

import glacier

from .gymnasium_env import RENDER_FPS, RENDER_MODES, check_render_mode, observation_space, rgb_array

__all__ = ["GlacierAECEnv", "env", "raw_env"]


class GlacierAECEnv(AECEnv):  # type: ignore[misc]
    """A glacier game as a turn-based multi-agent environment."""

    metadata = {  # noqa: RUF012  (the frameworks declare it this way)
        "render_modes": list(RENDER_MODES),
        "name": "glacier",
        "is_parallelizable": False,
        "render_fps": RENDER_FPS,
    }

    def __init__(self, game: str, render_mode: Optional[str] = None, **params: Any) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.game, self.params, self.render_mode = game, params, render_mode
        self.metadata = {**self.metadata, "name": f"glacier_{game}"}
        self._state = glacier.new_game(game, **params)
        self.possible_agents = [f"player_{i}" for i in range(self._state.num_players)]
        space = observation_space(game, **params)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(self._state.num_distinct_actions) for a in self.possible_agents}

    @property
    def state(self) -> Any:
        """The glacier state of the game."""
        return self._state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        player = self.possible_agents.index(agent)
        if agent == self.agent_selection:
            mask = self._state.legal_action_mask().astype(np.int8)
        else:
            mask = np.zeros(self._state.num_distinct_actions, dtype=np.int8)
        return {"observation": self._state.observation(player), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        self._state = glacier.new_game(self.game, **self.params)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self._state.current_player]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._state.apply_action(int(action))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        state = self._state
        if state.is_terminal():
            cut = bool(state.ended_by_ply_limit())
            for a, value in zip(self.agents, state.returns()):
                self.rewards[a] = float(value)
                self.terminations[a], self.truncations[a] = not cut, cut
        else:
            self.agent_selection = self.agents[state.current_player]
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return str(self._state) + "\n"
        if self.render_mode == "rgb_array":
            return rgb_array(self._state)
        return None

    def close(self) -> None:
        pass


def raw_env(game: str, render_mode: Optional[str] = None, **params: Any) -> GlacierAECEnv:
    return GlacierAECEnv(game, render_mode=render_mode, **params)


def env(game: str, render_mode: Optional[str] = None, illegal_action: str = "lose", **params: Any) -> Any:
    """The environment with PettingZoo's standard wrappers: by default an illegal action
    ends the game with -1 for its player (``illegal_action="raise"`` raises instead)."""
    if illegal_action not in ("lose", "raise"):
        raise glacier.InvalidParameterError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
    wrapped: Any = raw_env(game, render_mode=render_mode, **params)
    if illegal_action == "lose":
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)

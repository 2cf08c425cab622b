"""Gymnasium environments over glacier's batched API (optional extra ``gym``: ``pip install glacier-games[gym]``).

Both environments are self-play: every move is chosen by the agent, whichever player is
to move (``info["current_player"]`` says who). Observations are dictionaries with the
engine's ``observation`` tensor (values in [0, 1], from the point of view of the player
to move) and an ``action_mask`` over ``Discrete(num_distinct_actions)``. The reward of a
step is the final return of the player who made the move when that move ends the game,
and 0 otherwise; ``info["returns"]`` has every player's returns. Games end by their own
rules (ply limits included), so episodes terminate and are never truncated.

:class:`GlacierEnv` follows the convention of PettingZoo's classic games for an action
outside the mask: by default (``illegal_action="lose"``) the episode ends with reward -1
and ``info["illegal_action"] = True``; ``illegal_action="raise"`` raises
``IllegalMoveError`` instead. The vector environment always raises.

>>> from glacier.gymnasium_env import GlacierEnv
>>> env = GlacierEnv("kuba")
>>> obs, info = env.reset(seed=0)
>>> obs["observation"].shape, int(obs["action_mask"].sum()), info["current_player"]
((7, 7, 7), 8, 0)
"""

from __future__ import annotations

from typing import Any, Optional

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import glacier

from .batch import VectorEnv

__all__ = ["GlacierEnv", "GlacierVectorEnv", "observation_space"]


def observation_space(game: str) -> spaces.Dict:
    """The observation space of one environment of ``game``."""
    probe = glacier.new_game(game)
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, tuple(probe.observation_shape), np.float32),
            "action_mask": spaces.Box(0, 1, (probe.num_distinct_actions,), np.int8),
        }
    )


def _masks(env: VectorEnv, size: int) -> npt.NDArray[np.int8]:
    if env.num_actions is not None:
        return env.legal_mask().astype(np.int8)
    counts = env.legal_counts()
    return (np.arange(size)[None, :] < counts[:, None]).astype(np.int8)


class GlacierVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[misc]
    """``num_envs`` games stepped together in Rust; finished games restart in the same step
    (``metadata["autoreset_mode"]`` is ``SAME_STEP``), their returns in ``info``."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012  (the frameworks declare it this way)

    def __init__(self, game: str, num_envs: int, **params: Any) -> None:
        self.game, self.params = game, params
        self.num_envs = num_envs
        self._size = glacier.new_game(game).num_distinct_actions
        self.single_observation_space = observation_space(game)
        self.single_action_space = spaces.Discrete(self._size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._env = VectorEnv(game, num_envs, auto_reset=True, seed=0, **params)

    def _observe(self) -> dict[str, Any]:
        return {"observation": self._env.observations(), "action_mask": _masks(self._env, self._size)}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self._env = VectorEnv(self.game, self.num_envs, auto_reset=True, seed=seed, **self.params)
        return self._observe(), {"current_player": self._env.current_players()}

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        result = self._env.step(actions)
        info = {
            "current_player": self._env.current_players(),
            "returns": result.returns,
            "episode_length": result.episode_lengths,
        }
        truncated = np.zeros(self.num_envs, dtype=bool)
        return self._observe(), result.rewards, result.terminated, truncated, info


class GlacierEnv(gymnasium.Env):  # type: ignore[misc]
    """One game of ``game`` as a Gymnasium environment (a one-game batched env underneath)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  (the frameworks declare it this way)

    def __init__(
        self, game: str, render_mode: Optional[str] = None, illegal_action: str = "lose", **params: Any
    ) -> None:
        if illegal_action not in ("lose", "raise"):
            raise glacier.InvalidParameterError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        self.game, self.params, self.render_mode = game, params, render_mode
        self.illegal_action = illegal_action
        self._size = glacier.new_game(game).num_distinct_actions
        self.observation_space = observation_space(game)
        self.action_space = spaces.Discrete(self._size)
        self._env = VectorEnv(game, 1, auto_reset=False, seed=0, **params)
        self._lost_by_illegal_action = False

    def _observe(self) -> dict[str, Any]:
        return {"observation": self._env.observations()[0], "action_mask": _masks(self._env, self._size)[0]}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self._env.reset()
        self._lost_by_illegal_action = False
        return self._observe(), {"current_player": int(self._env.current_players()[0])}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._lost_by_illegal_action:
            raise glacier.IllegalMoveError("the episode has ended; call reset()")
        try:
            result = self._env.step(np.array([action], dtype=np.int64))
        except glacier.IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            self._lost_by_illegal_action = True
            player = int(self._env.current_players()[0])
            return self._observe(), -1.0, True, False, {"current_player": player, "illegal_action": True}
        info = {"current_player": int(self._env.current_players()[0]), "returns": result.returns[0].tolist()}
        return self._observe(), float(result.rewards[0]), bool(result.terminated[0]), False, info

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return self._env.texts()[0]
        return None

"""Batch APIs: work on many games per call, so Python pays per batch, not per move.

- :func:`playouts` plays ``n`` seeded random games in Rust, on several threads, and returns
  numpy arrays of game lengths and results. Game ``i`` of a batch always plays the same
  moves, whatever the thread count.
- :class:`VectorEnv` steps many games at once for learning programs: actions in, returns,
  terminal flags, legal-move masks or counts and observations out, all numpy arrays.

Action encodings (``VectorEnv.num_actions``):

- A game with a fixed action space numbers every move; ``legal_mask()`` gives the legal
  actions. Kuba: ``from * 4 + dir`` for a push (squares ``rank * 7 + file`` from a1 = 0;
  dir 0 towards rank 7, 1 towards file g, 2 towards rank 1, 3 towards file a), 196 for
  ``pass``. Each game's rules page (docs/rules/) documents its encoding.
- A game without one (``num_actions is None``) numbers the legal moves ``0..count`` in the
  engine's generation order; ``legal_counts()`` gives the counts and
  ``legal_actions(i)`` the move texts in action order.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

import numpy as np
import numpy.typing as npt

from . import _native
from .errors import InvalidParameterError

__all__ = ["Playouts", "StepResult", "VectorEnv", "playouts"]


class Playouts(NamedTuple):
    """Per-game results of :func:`playouts`, one entry per game."""

    length: npt.NDArray[np.uint32]
    """Plies played."""
    winner: npt.NDArray[np.int8]
    """The winning player, or -1 for a draw or a game cut off before its end."""
    finished: npt.NDArray[np.bool_]
    """Whether the game reached its end (rather than the ``cutoff``)."""
    returns: npt.NDArray[np.float64]
    """Returns, games x players (zeros for draws and unfinished games)."""
    legal_moves: npt.NDArray[np.uint64]
    """Legal-move counts summed over the game's plies (``/ length`` = mean branching factor)."""


def playouts(
    game: str,
    n: int,
    *,
    seed: int = 0,
    threads: int = 0,
    position: Optional[str] = None,
    cutoff: Optional[int] = None,
    **params: Any,
) -> Playouts:
    """Plays ``n`` games of uniformly random legal moves in Rust (GIL released).

    ``threads=0`` uses every core; results do not depend on it. ``position`` starts from a
    position text instead of the start; ``cutoff`` stops each game after that many plies.
    """
    raw = _native.playouts_native(game, n, seed, threads, position, cutoff, **params)
    return Playouts(**raw)


class StepResult(NamedTuple):
    """What :meth:`VectorEnv.step` reports, one row per environment."""

    rewards: npt.NDArray[np.float64]
    """The return of the player who made this step's move, when the move ended its game; else 0."""
    returns: npt.NDArray[np.float64]
    """Every player's return for episodes that ended on this step (envs x players); else zeros."""
    terminated: npt.NDArray[np.bool_]
    """Whether the episode ended on this step (with ``auto_reset`` the env has already restarted)."""
    episode_lengths: npt.NDArray[np.uint32]
    """Plies of the episodes that ended on this step; 0 elsewhere."""


class VectorEnv:
    """``num_envs`` games of ``game`` stepped together, with numpy arrays in and out.

    ``seed`` seeds :meth:`sample_actions` (environment ``i`` draws from its own stream);
    ``threads`` > 1 (0 = every core) splits large batches over threads, with results that
    do not depend on the thread count; ``position`` starts every game from a position text.

    >>> env = VectorEnv("kuba", num_envs=4, seed=0)
    >>> env.num_actions, env.legal_mask().shape, env.observations().shape
    (197, (4, 197), (4, 7, 7, 7))
    >>> result = env.step(env.sample_actions())
    >>> result.terminated.tolist()
    [False, False, False, False]
    """

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        auto_reset: bool = True,
        position: Optional[str] = None,
        seed: Optional[int] = None,
        threads: int = 1,
        **params: Any,
    ) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self._env = _native.NativeVectorEnv(game, num_envs, auto_reset, position, seed, threads, **params)

    @property
    def game(self) -> str:
        return self._env.game  # type: ignore[no-any-return]

    @property
    def num_envs(self) -> int:
        return self._env.num_envs  # type: ignore[no-any-return]

    @property
    def num_players(self) -> int:
        return self._env.num_players  # type: ignore[no-any-return]

    @property
    def num_actions(self) -> Optional[int]:
        """The size of the fixed action space, or None when actions index the legal moves."""
        return self._env.num_actions  # type: ignore[no-any-return]

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return tuple(self._env.observation_shape)

    def reset(self) -> None:
        """Puts every environment back at the start."""
        self._env.reset()

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Plays one action per environment. An illegal action raises ``IllegalMoveError``
        naming the environment, and then nothing is played."""
        movers = self._env.current_players()
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (self.num_envs,):
            raise InvalidParameterError(f"expected {self.num_envs} actions, got an array of shape {actions.shape}")
        returns, terminated, lengths = self._env.step(actions)
        rewards = returns[np.arange(self.num_envs), movers]
        return StepResult(rewards, returns, terminated, lengths)

    def legal_counts(self) -> npt.NDArray[np.uint32]:
        """The number of legal moves in each environment."""
        return self._env.legal_counts()  # type: ignore[no-any-return]

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """Legal actions, envs x num_actions (games with a fixed action space only)."""
        return self._env.legal_mask()  # type: ignore[no-any-return]

    def observations(self) -> npt.NDArray[np.float32]:
        """Each environment's state from the point of view of its player to move."""
        return self._env.observations()  # type: ignore[no-any-return]

    def current_players(self) -> npt.NDArray[np.int32]:
        return self._env.current_players()  # type: ignore[no-any-return]

    def texts(self) -> list[str]:
        """Each environment's position text."""
        return self._env.texts()  # type: ignore[no-any-return]

    def legal_actions(self, env: int) -> list[tuple[int, str]]:
        """``(action, move text)`` for every legal move of environment ``env``."""
        return self._env.legal_actions(env)  # type: ignore[no-any-return]

    def sample_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action for every environment (-1 where an episode has
        ended), drawn in Rust from the environment's seeded generator."""
        return self._env.random_actions()  # type: ignore[no-any-return]

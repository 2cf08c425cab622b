"""Batch APIs: work on many games per call, so Python pays per batch, not per move.

- :func:`playouts` plays ``n`` seeded random games in Rust, on several threads, and returns
  numpy arrays of game lengths and results. Game ``i`` of a batch always plays the same
  moves, whatever the thread count.
- :class:`VectorEnv` steps many games at once for learning programs: actions in; rewards,
  returns, terminated and truncated flags, legal-action masks and observations out, all
  numpy arrays.

Every game numbers its actions the same way in every position (``VectorEnv.num_actions`` of
them; each game's rules page, docs/rules/, documents its encoding). Kuba, for example:
``from * 4 + dir`` for a push (squares ``rank * 7 + file`` from a1 = 0; dir 0 towards rank
7, 1 towards file g, 2 towards rank 1, 3 towards file a), 196 for ``pass``. Where a whole
move is too rich to number, a move takes a few actions by the same player (King's Court:
each jump of a chain; Ice Cube Checkers: the slot, then each piece dropped): the states in
between have the same player to move, their own masks and observations, and reward 0.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

import numpy as np
import numpy.typing as npt

from . import _native
from .errors import IllegalMoveError, InvalidParameterError

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
    """The return of the player who took this step's action (or of the agent, against the
    built-in opponent), when the episode ended on this step; else 0."""
    returns: npt.NDArray[np.float64]
    """Every player's return for episodes that ended on this step (envs x players); else zeros."""
    terminated: npt.NDArray[np.bool_]
    """Whether the episode reached an end of the game on this step (other than the ply limit);
    with ``auto_reset`` the env has already restarted."""
    truncated: npt.NDArray[np.bool_]
    """Whether the episode ended on this step only because it reached the ply limit."""
    episode_lengths: npt.NDArray[np.uint32]
    """Plies of the episodes that ended on this step; 0 elsewhere."""


class _KeptBuffers:
    """The arrays (two at most) that the engine keeps track of for one kind of output: for
    each, the engine remembers what every environment's row holds, and writes only what
    changed. An array is known by identity; a new one takes the place of the one used
    least recently, and is written whole the first time."""

    def __init__(self) -> None:
        self._arrays: list[Optional[np.ndarray[Any, Any]]] = [None, None]
        self._last = 1

    def view(self, array: np.ndarray[Any, Any]) -> tuple[int, bool]:
        """The engine's number for ``array``, and whether it must be written whole."""
        for view, kept in enumerate(self._arrays):
            if kept is array:
                self._last = view
                return view, False
        view = 1 - self._last
        self._arrays[view], self._last = array, view
        return view, True

    def forget(self, array: Optional[np.ndarray[Any, Any]] = None) -> None:
        """Forgets ``array`` (or every array): its next write is whole."""
        self._arrays = [None if array is None or kept is array else kept for kept in self._arrays]


class VectorEnv:
    """``num_envs`` games of ``game`` stepped together, with numpy arrays in and out.

    ``seed`` seeds :meth:`sample_actions` and the built-in opponent (environment ``i`` draws
    from its own stream); batches of 128 environments or more are split over ``threads``
    threads (0, the default: every core), with results that do not depend on the thread
    count (its helper threads wait awake for up to 2 ms after each call, for the next step:
    see the guide); ``position`` starts every game from a position text. Without
    ``auto_reset`` a finished environment waits, taking the action -1, until :meth:`reset`
    puts it (or all) back at the start.

    ``agent`` makes every other seat a built-in opponent that plays uniformly random moves
    in Rust, within :meth:`step` and :meth:`reset`: the agent then only ever sees its own
    turns. By default (``None``) every seat is the agent's (self-play).

    >>> env = VectorEnv("kings_court", num_envs=4, seed=0)
    >>> env.num_actions, env.legal_mask().shape, env.observations().shape
    (513, (4, 513), (4, 9, 8, 8))
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
        threads: int = 0,
        agent: Optional[int] = None,
        **params: Any,
    ) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self._agent = agent
        self._kept_masks = _KeptBuffers()
        self._kept_observations = _KeptBuffers()
        self._env = _native.NativeVectorEnv(game, num_envs, auto_reset, position, seed, threads, agent=agent, **params)

    @property
    def game(self) -> str:
        return self._env.game

    @property
    def num_envs(self) -> int:
        return self._env.num_envs

    @property
    def num_players(self) -> int:
        return self._env.num_players

    @property
    def num_actions(self) -> int:
        """The number of action numbers (every game has a fixed action space)."""
        return self._env.num_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return tuple(self._env.observation_shape)

    @property
    def agent(self) -> Optional[int]:
        """The agent's seat against the built-in opponent, or None for self-play."""
        return self._agent

    def reset(self, mask: Optional[npt.ArrayLike] = None) -> None:
        """Puts every environment back at the start, or only those where ``mask`` (one bool
        per environment) is True."""
        if mask is None:
            self._env.reset()
            return
        which = np.ascontiguousarray(mask, dtype=np.bool_)
        if which.shape != (self.num_envs,):
            raise InvalidParameterError(f"expected a mask of {self.num_envs} environments, got shape {which.shape}")
        self._env.reset_some(which)

    def step(
        self,
        actions: npt.ArrayLike,
        *,
        observations_out: Optional[npt.NDArray[np.float32]] = None,
        masks_out: Optional[npt.NDArray[np.bool_]] = None,
        player: Optional[int] = None,
    ) -> StepResult:
        """Takes one action per environment; an environment given -1 takes none this step
        (one whose game is over must be given -1). An illegal action raises
        ``IllegalMoveError`` naming the environment, and then nothing is played.

        ``observations_out`` and ``masks_out`` have the step write the new observations
        (as ``observations(player, out=..., changes_only=True)``) and masks (as
        ``legal_mask(out=..., changes_only=True)``) in the same call into Rust, only the
        changes: give the same arrays every step (or two of each, in turn), left as the
        last step that wrote them left them."""
        given = np.asarray(actions)
        if given.shape != (self.num_envs,):
            raise InvalidParameterError(f"expected {self.num_envs} actions, got an array of shape {given.shape}")
        # Floats (NaN among them) and bools are not action numbers: refused, not truncated.
        if given.dtype.kind not in "iu" or (given.dtype.kind == "u" and given.size and given.max() > 2**63 - 1):
            raise IllegalMoveError(f"actions must be integers (int64), got an array of {given.dtype}")
        actions = np.ascontiguousarray(given, dtype=np.int64)
        return StepResult(*self._step(actions, observations_out, masks_out, player)[:5])

    def _step(
        self,
        actions: npt.NDArray[np.int64],
        observations_out: Optional[npt.NDArray[np.float32]],
        masks_out: Optional[npt.NDArray[np.bool_]],
        player: Optional[int],
    ) -> tuple[Any, ...]:
        """:meth:`step` of checked int64 actions, as the engine answers: the five arrays of
        :class:`StepResult`, each environment's player to move, and how many episodes
        ended."""
        masks_view, fresh_masks = (0, False) if masks_out is None else self._kept_masks.view(masks_out)
        observations_view, fresh_observations = (
            (0, False) if observations_out is None else self._kept_observations.view(observations_out)
        )
        return self._env.step(
            actions, observations_out, masks_out, player, masks_view, fresh_masks, observations_view, fresh_observations
        )

    def legal_mask(
        self,
        env: Optional[int] = None,
        *,
        out: Optional[npt.NDArray[np.bool_]] = None,
        changes_only: bool = False,
    ) -> npt.NDArray[np.bool_]:
        """Legal actions, envs x num_actions (or one environment's row). With ``out`` (a
        C-contiguous bool array of that shape), the masks are written into it and it is
        returned: no new array per step. With ``changes_only`` as well, only the actions
        set by the last such write into the same array are cleared (``out`` must be left
        as that write left it; an array not written so before is written whole; two arrays
        used in turn are each kept track of), and the legal actions found are kept, so
        that the next :meth:`step` finds its moves without generating them again."""
        if out is None:
            return self._env.legal_mask(env)
        if env is not None:
            raise InvalidParameterError("out= takes the masks of every environment, not of one")
        if changes_only:
            self._env.update_legal_mask(out, *self._kept_masks.view(out))
        else:
            self._env.write_legal_mask(out)
            self._kept_masks.forget(out)
        return out

    def reset_masks(self) -> None:
        """Forgets the arrays that :meth:`legal_mask`'s ``changes_only`` writes kept track
        of: the next such write is whole."""
        self._kept_masks.forget()

    def observations(
        self,
        player: Optional[int] = None,
        env: Optional[int] = None,
        *,
        out: Optional[npt.NDArray[np.float32]] = None,
        changes_only: bool = False,
    ) -> npt.NDArray[np.float32]:
        """Each environment's state, from the point of view of ``player`` (by default each
        environment's player to move); one environment's alone when ``env`` is given. With
        ``out`` (a C-contiguous float32 array of envs x shape) they are written into it.
        With ``changes_only`` as well, each row is brought up to date from what the last
        such write into the same array left in it (``out`` must be left as that write left
        it; an array not written so before is written whole; two arrays used in turn are
        each kept track of): in Ice Age Chess and E only the cells that changed are
        written, and seen by one player two plies apart few do. An observation is mostly
        zeros, and in some games tens of kilobytes."""
        if out is None:
            return self._env.observations(player, env)
        if env is not None:
            raise InvalidParameterError("out= takes the observations of every environment, not of one")
        if changes_only:
            self._env.update_observations(out, player, *self._kept_observations.view(out))
        else:
            self._env.write_observations(out, player)
            self._kept_observations.forget(out)
        return out

    def current_players(self) -> npt.NDArray[np.int32]:
        return self._env.current_players()

    def texts(self) -> list[str]:
        """Each environment's position text (in the middle of a move, the position before it)."""
        return self._env.texts()

    def pending_actions(self, env: int) -> list[int]:
        """The actions chosen so far in environment ``env``'s move being made."""
        return self._env.pending_actions(env)

    def legal_actions(self, env: int) -> list[tuple[int, str]]:
        """``(action, name)`` for every legal action of environment ``env``, ascending."""
        return self._env.legal_actions(env)

    def play_move(self, env: int, move: str) -> tuple[npt.NDArray[np.float64], bool, bool, int]:
        """Plays the whole move ``move`` (in the game's notation) in environment ``env``,
        between moves; returns ``(returns, terminated, truncated, episode_length)``."""
        return self._env.play_move(env, move)

    def sample_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action for every environment (-1 where an episode has
        ended), drawn in Rust from the environment's seeded generator."""
        return self._env.random_actions()

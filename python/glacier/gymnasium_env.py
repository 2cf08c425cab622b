"""Gymnasium environments for every glacier game (optional extra ``gym``: ``pip install glacier-games[gym]``).

Importing this module registers ``glacier/<Game>-v0`` for every game, each with a vector
entry point (``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`` gives the
batched :class:`GlacierVectorEnv`):

>>> import gymnasium
>>> import glacier.gymnasium_env
>>> env = gymnasium.make("glacier/Kuba-v0", max_plies=100)
>>> obs, info = env.reset(seed=0)
>>> obs["observation"].shape, int(obs["action_mask"].sum()), info["current_player"]
((10, 7, 7), 8, 0)

The installed package needs no import at all: Gymnasium 1.x no longer loads environment
plugins from package entry points, so the wheel installs a start-up hook
(``glacier_games_gymnasium.pth``) that imports this module right after Gymnasium is
imported. Where ``.pth`` files are not read (``python -S``, an editable install),
``gymnasium.make("glacier.gymnasium_env:glacier/Kuba-v0")`` imports it on the way.

Observations are dictionaries: the game's ``observation`` tensor (values in [0, 1]) from the
point of view of the player whose turn it is (against a built-in opponent: always the
agent's), and an ``action_mask`` over ``Discrete(num_distinct_actions)``, the game's fixed
action numbers. Where a move takes several actions (a jump chain, a drop order), the same
player acts again, with reward 0, until the move is made.

The reward of a step is the final return of the player who acted (against an opponent: of
the agent) when the game ends, else 0; ``info["returns"]`` has every player's returns. The
ply limit ends an episode as ``truncated``; every other end of the game is ``terminated``.

By default every move is the agent's (self-play, ``info["current_player"]`` says whose turn
it is). ``opponent="random"``, or any object with ``choose(state) -> str`` that returns a
legal move for a glacier state (such as :class:`glacier.players.MonteCarloPlayer`), plays
every seat but ``agent`` instead, inside ``reset`` and ``step``.

:class:`GlacierEnv` follows the convention of PettingZoo's classic games for an action
outside the mask: by default (``illegal_action="lose"``) the episode ends with reward -1
and ``info["illegal_action"] = True``; ``illegal_action="raise"`` raises
``IllegalMoveError`` instead. The vector environment always raises.

``render_mode="ansi"`` gives the board as text, ``"rgb_array"`` the picture
(``glacier.svg``) as an RGB array, rasterised by CairoSVG with Pillow (the extra ``render``:
``pip install glacier-games[render]``). ``metadata["render_modes"]`` lists only the modes
that can render where the environment runs (:data:`RENDER_MODES`): ``rgb_array`` only with
that extra installed, so that Gymnasium's ``check_env``, which renders every listed mode,
passes on a plain install too. Asking for ``rgb_array`` without it raises
``gymnasium.error.DependencyNotInstalled``, saying what to install.
"""

from __future__ import annotations

import importlib.util
import io
import random
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
except ImportError as err:  # a missing extra: one line that says what to install
    raise ModuleNotFoundError(
        'glacier.gymnasium_env needs Gymnasium: pip install "glacier-games[gym]"', name=err.name
    ) from err
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import glacier

from .batch import VectorEnv
from .players import RandomPlayer

__all__ = ["ENV_IDS", "RENDER_MODES", "GlacierEnv", "GlacierVectorEnv", "observation_space", "rgb_array"]

#: The frames per second a viewer shows (for recorders such as ``RecordVideo``).
RENDER_FPS = 2

#: What ``render_mode="rgb_array"`` needs, and the line that says how to get it.
_RASTERISERS = ("cairosvg", "PIL")
_RENDER_EXTRA = 'render_mode="rgb_array" needs CairoSVG and Pillow: pip install "glacier-games[render]"'


def _installed(module: str) -> bool:
    """Whether ``module`` can be found, without importing it (CairoSVG takes a second)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


#: The render modes that can render here: ``ansi`` always, ``rgb_array`` where CairoSVG and
#: Pillow are installed (the extra ``render``).
RENDER_MODES: tuple[str, ...] = ("ansi", "rgb_array") if all(map(_installed, _RASTERISERS)) else ("ansi",)

Opponent = Union[None, str, Any]

#: ``glacier/<Game>-v0`` for every game, by game name.
ENV_IDS: dict[str, str] = {
    name: "glacier/" + "".join(word.title() for word in name.split("_")) + "-v0" for name in glacier.GAMES
}


def observation_space(game: str, **params: Any) -> spaces.Dict:
    """The observation space of one environment of ``game``."""
    probe = glacier.new_game(game, **params)
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, tuple(probe.observation_shape), np.float32),
            "action_mask": spaces.Box(0, 1, (probe.num_distinct_actions,), np.int8),
        }
    )


def rgb_array(state: Any) -> npt.NDArray[np.uint8]:
    """The picture of ``state`` as an RGB array (height x width x 3), rasterised from its SVG."""
    try:
        import cairosvg
        from PIL import Image
    except ImportError as err:
        raise gymnasium.error.DependencyNotInstalled(_RENDER_EXTRA) from err
    except OSError as err:  # CairoSVG is there, the Cairo library it loads is not
        raise gymnasium.error.DependencyNotInstalled(
            f"CairoSVG cannot load the Cairo library ({err}): install Cairo (Debian: apt install libcairo2)"
        ) from err
    from .svg import render

    png = cairosvg.svg2png(bytestring=render(state).encode())
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


def check_render_mode(render_mode: Optional[str]) -> None:
    """Refuses a render mode glacier has not, or one it cannot render here (a missing extra)."""
    if render_mode not in (None, "ansi", "rgb_array"):
        raise glacier.InvalidParameterError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise gymnasium.error.DependencyNotInstalled(_RENDER_EXTRA)


def _opponent(opponent: Opponent, seed: Optional[int]) -> Any:
    """The player object behind ``opponent``."""
    if opponent == "random":
        return RandomPlayer(seed)
    if not callable(getattr(opponent, "choose", None)):
        raise glacier.InvalidParameterError(
            f"opponent must be None, 'random' or an object with choose(state) -> str, got {opponent!r}"
        )
    return opponent


def _check_agent(game: str, agent: int, params: dict[str, Any]) -> None:
    players = glacier.new_game(game, **params).num_players
    if isinstance(agent, bool) or not isinstance(agent, int) or not 0 <= agent < players:
        raise glacier.InvalidParameterError(f"agent must be a seat from 0 to {players - 1}, got {agent!r}")


class GlacierEnv(gymnasium.Env):  # type: ignore[misc]
    """One game of ``game`` as a Gymnasium environment (see the module's description)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}  # noqa: RUF012  (the frameworks declare it this way)

    def __init__(
        self,
        game: str,
        render_mode: Optional[str] = None,
        illegal_action: str = "lose",
        opponent: Opponent = None,
        agent: int = 0,
        **params: Any,
    ) -> None:
        if illegal_action not in ("lose", "raise"):
            raise glacier.InvalidParameterError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        check_render_mode(render_mode)
        self.game, self.params, self.render_mode = game, params, render_mode
        self.illegal_action = illegal_action
        self._state = glacier.new_game(game, **params)
        if opponent is not None:
            _check_agent(game, agent, params)
            _opponent(opponent, 0)
        self._opponent_spec, self._opponent, self.agent = opponent, None, agent
        self.observation_space = observation_space(game, **params)
        self.action_space = spaces.Discrete(self._state.num_distinct_actions)
        self._over = False

    @property
    def state(self) -> Any:
        """The glacier state of the episode."""
        return self._state

    def _viewer(self) -> int:
        if self._opponent_spec is not None:
            return self.agent
        return int(self._state.current_player)

    def _observe(self) -> dict[str, Any]:
        state = self._state
        return {
            "observation": state.observation(self._viewer()),
            "action_mask": state.legal_action_mask().view(np.int8),
        }

    def _info(self) -> dict[str, Any]:
        return {"current_player": int(self._state.current_player), "returns": list(self._state.returns())}

    def _opponents_move(self) -> None:
        state = self._state
        while self._opponent is not None and not state.is_terminal() and state.current_player != self.agent:
            state.play(self._opponent.choose(state.copy()))

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self._state = glacier.new_game(self.game, **self.params)
        self._over = False
        if self._opponent_spec is not None:
            self._opponent = _opponent(self._opponent_spec, int(self.np_random.integers(2**63)))
            self._opponents_move()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise glacier.IllegalMoveError("the episode has ended; call reset()")
        state = self._state
        actor = self._viewer()
        try:
            state.apply_action(int(action))
        except glacier.IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            self._over = True
            return self._observe(), -1.0, True, False, {**self._info(), "illegal_action": True}
        self._opponents_move()
        if not state.is_terminal():
            return self._observe(), 0.0, False, False, self._info()
        self._over = True
        truncated = bool(state.ended_by_ply_limit())
        reward = float(state.returns()[actor])
        return self._observe(), reward, not truncated, truncated, self._info()

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return str(self._state) + "\n"
        if self.render_mode == "rgb_array":
            return rgb_array(self._state)
        return None


#: Gymnasium's autoreset modes, by their values written any way ("NextStep", "next_step").
_MODES = {mode.value.lower(): mode for mode in AutoresetMode}


class GlacierVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[misc]
    """``num_envs`` games stepped together in Rust (see the module's description).

    ``autoreset_mode`` is one of Gymnasium's (``metadata["autoreset_mode"]`` declares it):
    ``NEXT_STEP`` (the default: the step after an episode ends resets that environment and
    ignores its action), ``SAME_STEP`` (it restarts within the step that ends it, the last
    observation and info in ``info["final_obs"]`` and ``info["final_info"]``) or
    ``DISABLED`` (``reset(options={"reset_mask": mask})`` restarts the environments of the
    mask). ``opponent="random"`` plays every seat but ``agent`` in Rust; an object with
    ``choose(state) -> str`` plays them from Python. The observations and masks are written
    into two pairs of arrays kept from step to step and used in turn, each brought up to
    date with what changed since it was last written: in self-play of two players, the
    same player's view two plies earlier, in which little changed. With ``copy=True`` (the
    default, as in Gymnasium's own vector environments) every step returns copies of them;
    with ``copy=False`` the arrays themselves, read-only, which the step after next
    overwrites. Batches of 128 environments or more are split over ``threads`` threads (0,
    the default: every core), as :class:`glacier.VectorEnv` does.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": list(RENDER_MODES)}  # noqa: RUF012  (the frameworks declare it this way)

    def __init__(
        self,
        game: str,
        num_envs: int,
        autoreset_mode: Union[str, AutoresetMode] = AutoresetMode.NEXT_STEP,
        opponent: Opponent = None,
        agent: int = 0,
        threads: int = 0,
        render_mode: Optional[str] = None,
        copy: bool = True,
        **params: Any,
    ) -> None:
        key = autoreset_mode.value if isinstance(autoreset_mode, AutoresetMode) else str(autoreset_mode)
        mode = _MODES.get(key.replace("_", "").lower())
        if mode is None:
            raise glacier.InvalidParameterError(
                f"autoreset_mode must be one of {', '.join(m.value for m in AutoresetMode)}, got {autoreset_mode!r}"
            )
        check_render_mode(render_mode)
        if opponent is not None:
            _check_agent(game, agent, params)
            if opponent != "random":
                _opponent(opponent, 0)
        self.game, self.params, self.num_envs = game, params, num_envs
        self.autoreset_mode, self.render_mode, self.threads, self.copy = mode, render_mode, threads, copy
        self.agent = agent if opponent is not None else None
        self._opponent = opponent
        self.metadata = {**self.metadata, "autoreset_mode": mode, "render_fps": RENDER_FPS}
        self.single_observation_space = observation_space(game, **params)
        self.single_action_space = spaces.Discrete(glacier.num_distinct_actions(game, **params))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        shape = glacier.observation_shape(game, **params)
        # Two pairs of buffers, written in turn (see the class's description).
        self._buffers = [
            (
                np.zeros((num_envs, *shape), dtype=np.float32),
                np.zeros((num_envs, self.single_action_space.n), dtype=np.bool_),
            )
            for _ in range(2)
        ]
        self._turn = 0
        # Read-only views of each pair, as copy=False lends them (made once).
        self._lent = [self._read_only(observations, masks) for observations, masks in self._buffers]
        self._make(0)

    @staticmethod
    def _read_only(observations: Any, masks: Any) -> dict[str, Any]:
        observations, masks = observations.view(), masks.view(np.int8)
        observations.flags.writeable = masks.flags.writeable = False
        return {"observation": observations, "action_mask": masks}

    @property
    def _observations(self) -> Any:
        return self._buffers[self._turn][0]

    @property
    def _masks(self) -> Any:
        return self._buffers[self._turn][1]

    def _next_buffers(self) -> None:
        """Turns to the other pair of buffers, which the next write brings up to date."""
        self._turn = 1 - self._turn

    def _make(self, seed: Optional[int]) -> None:
        native_agent = self.agent if self._opponent == "random" else None
        self._env = VectorEnv(
            self.game,
            self.num_envs,
            auto_reset=False,
            seed=seed,
            threads=self.threads,
            agent=native_agent,
            **self.params,
        )
        # Which environments ended last step (no array is made for a step where none did).
        self._no_envs = np.zeros(self.num_envs, dtype=np.bool_)
        self._no_envs.flags.writeable = False
        self._done, self._any_done = self._no_envs, False
        self._rng = random.Random(seed)

    def _viewer(self) -> Optional[int]:
        return self.agent

    def _write(self) -> None:
        """Brings the current pair of buffers up to date (``copy=False`` hands out read-only
        views of both), keeping the legal actions found for the next step."""
        self._env.observations(self._viewer(), out=self._observations, changes_only=True)
        self._env.legal_mask(out=self._masks, changes_only=True)

    def _lend(self) -> dict[str, Any]:
        """The buffers as an observation: copies, or read-only views with ``copy=False``."""
        lent = self._lent[self._turn]
        if self.copy:
            return {key: array.copy() for key, array in lent.items()}
        return dict(lent)

    def _observe(self) -> dict[str, Any]:
        self._next_buffers()
        self._write()
        return self._lend()

    def _python_opponents(self, envs: Any, rewards: Any, returns: Any, terminated: Any, truncated: Any) -> None:
        """Lets a Python opponent move in environments ``envs`` until the agent is to move."""
        if self._opponent is None or self._opponent == "random":
            return
        player_object: Any = self._opponent
        for env in envs:
            while True:
                player, text = int(self._env.current_players()[env]), self._env.texts()[env]
                state = glacier.from_text(self.game, text, **self.params)
                if state.is_terminal() or player == self.agent:
                    break
                ret, term, trunc, _ = self._env.play_move(env, player_object.choose(state))
                if term or trunc:
                    returns[env], terminated[env], truncated[env] = ret, term, trunc
                    rewards[env] = ret[self.agent]

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        mask = (options or {}).get("reset_mask")
        if mask is None:
            if seed is not None:
                self._make(seed)
            else:
                self._env.reset()
            which = np.ones(self.num_envs, dtype=np.bool_)
            self._done, self._any_done = self._no_envs, False
        else:
            which = np.asarray(mask)
            if which.shape != (self.num_envs,) or which.dtype != np.bool_:
                raise glacier.InvalidParameterError(
                    f"options['reset_mask'] must be a bool array of shape ({self.num_envs},)"
                )
            self._env.reset(which)
            self._done = self._done & ~which
            self._any_done = bool(self._done.any())
        scratch = np.zeros((self.num_envs, self._env.num_players))
        flags = np.zeros(self.num_envs, dtype=np.bool_)
        self._python_opponents(np.flatnonzero(which), np.zeros(self.num_envs), scratch, flags, flags.copy())
        return self._observe(), {"current_player": self._env.current_players()}

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        actions = np.array(actions, dtype=np.int64)
        if actions.shape != (self.num_envs,):
            raise glacier.InvalidParameterError(f"expected {self.num_envs} actions, got shape {actions.shape}")
        python_opponents = self._opponent is not None and self._opponent != "random"
        if self.autoreset_mode == AutoresetMode.NEXT_STEP and self._any_done:
            # The environments that ended last step restart now and ignore their action.
            restart = self._done
            self._env.reset(restart)
            actions[restart] = -1
            if python_opponents:
                scratch = np.zeros((self.num_envs, self._env.num_players))
                flags = np.zeros(self.num_envs, dtype=np.bool_)
                self._python_opponents(np.flatnonzero(restart), scratch[:, 0], scratch, flags, flags.copy())
        # One call into Rust steps every environment and writes the masks and observations.
        self._next_buffers()
        rewards, returns, terminated, truncated, lengths, players, ended = self._env._step(
            actions, self._observations, self._masks, self._viewer()
        )
        stale = False
        if python_opponents:
            rewards, returns = rewards.copy(), returns.copy()
            terminated, truncated = terminated.copy(), truncated.copy()
            self._python_opponents(np.flatnonzero(actions >= 0), rewards, returns, terminated, truncated)
            stale = True
            ended = int((terminated | truncated).sum())
        info: dict[str, Any] = {"returns": returns, "episode_length": lengths}
        done = terminated | truncated if ended else self._no_envs
        if self.autoreset_mode == AutoresetMode.SAME_STEP and ended:
            if stale:
                self._write()
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_info = np.full(self.num_envs, None, dtype=object)
            movers = self._env.current_players()
            for env in np.flatnonzero(done):
                final_obs[env] = {
                    "observation": self._observations[env].copy(),
                    "action_mask": self._masks[env].view(np.int8).copy(),
                }
                final_info[env] = {"returns": returns[env], "current_player": int(movers[env])}
            info.update(final_obs=final_obs, _final_obs=done, final_info=final_info, _final_info=done)
            self._env.reset(done)
            if python_opponents:
                scratch = np.zeros((self.num_envs, self._env.num_players))
                self._python_opponents(np.flatnonzero(done), scratch[:, 0], scratch, done.copy(), done.copy())
            stale = True
            self._done, self._any_done = self._no_envs, False
        else:
            self._done, self._any_done = done, bool(ended)
        info["current_player"] = self._env.current_players() if stale else players
        if stale:
            self._write()
        return self._lend(), rewards, terminated, truncated, info

    def render(self) -> Optional[tuple[Any, ...]]:
        if self.render_mode is None:
            return None
        states = [glacier.from_text(self.game, text, **self.params) for text in self._env.texts()]
        if self.render_mode == "ansi":
            return tuple(str(state) + "\n" for state in states)
        return tuple(rgb_array(state) for state in states)


def register_envs() -> list[str]:
    """Registers ``glacier/<Game>-v0`` for every game with Gymnasium (idempotent)."""
    for name, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="glacier.gymnasium_env:GlacierEnv",
                vector_entry_point="glacier.gymnasium_env:GlacierVectorEnv",
                kwargs={"game": name},
            )
    return list(ENV_IDS.values())


register_envs()

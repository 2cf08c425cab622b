"""glacier games as OpenSpiel games, so OpenSpiel's algorithms (MCTS, alpha-beta, CFR-free
search, evaluation tools) run on them.

>>> import pyspiel
>>> import glacier.openspiel  # registers glacier_<name> for every built game
>>> game = pyspiel.load_game("glacier_kuba(max_plies=200)")
>>> state = game.new_initial_state()
>>> [state.action_to_string(a) for a in state.legal_actions()][:3]
['f1f2', 'g1g2', 'g1f1']

Each game is registered as ``glacier_<name>`` with the glacier parameters as OpenSpiel
parameters (a parameter whose glacier value may be ``None``, such as E's ``stack_limit``,
takes 0 for ``None``); the games, their titles and parameters come from
``glacier.game_spec``. Actions are the state's ``legal_actions()`` numbers: fixed move
numbers where the game has a fixed action space, else indices of the legal moves in the
engine's generation order (``num_distinct_actions`` is then a proven bound on the number
of legal moves). Observations are the engine's observation tensor, drawn from the point
of view of the player to move; ``str(state)`` is the position text.

Requires the optional extra ``openspiel`` (``pip install glacier-games[openspiel]``).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import pyspiel

import glacier

__all__ = ["game_type", "register_all"]


def _defaults(name: str) -> dict[str, int]:
    """The default parameters, with 0 for None (OpenSpiel has no None)."""
    return {p.name: (0 if p.default is None else p.default) for p in glacier.game_spec(name).params}


def _to_glacier(name: str, params: dict[str, Any]) -> dict[str, Optional[int]]:
    optional = {p.name for p in glacier.game_spec(name).params if p.optional}
    return {k: (None if k in optional and v == 0 else int(v)) for k, v in params.items()}


def _player_range(name: str) -> tuple[int, int]:
    """The fewest and most players: the range of a ``players`` parameter, else 2."""
    for p in glacier.game_spec(name).params:
        if p.name == "players":
            return p.min, p.max
    return 2, 2


def game_type(name: str) -> pyspiel.GameType:
    """The OpenSpiel game type of the glacier game ``name``."""
    low, high = _player_range(name)
    probe = glacier.new_game(name)
    return pyspiel.GameType(
        short_name=f"glacier_{name}",
        long_name=f"glacier {glacier.game_spec(name).title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=bool(probe.observation_shape),
        parameter_specification=_defaults(name),
    )


class _Observer:
    """The PyObserver interface over the engine's observation tensor."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.tensor = np.zeros(int(np.prod(shape)) if shape else 0, np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)} if shape else {}

    def set_from(self, state: Any, player: int) -> None:
        if self.tensor.size:
            self.tensor[:] = state.native.observation().reshape(-1)

    def string_from(self, state: Any, player: int) -> str:
        return str(state.native.text())


class GlacierState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state backed by a native glacier state."""

    def __init__(self, game: Any, native: Any) -> None:
        super().__init__(game)
        self.native = native

    def current_player(self) -> int:
        if self.native.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.native.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.native.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.native.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.native.action_to_move(action))

    def is_terminal(self) -> bool:
        return bool(self.native.is_terminal())

    def returns(self) -> list[float]:
        return list(self.native.returns())

    def information_state_string(self, player: Optional[int] = None) -> str:
        return " ".join(self.native.moves) + " | " + str(self.native.text())

    def observation_string(self, player: Optional[int] = None) -> str:
        return str(self.native.text())

    def __str__(self) -> str:
        return str(self.native.text())


def _game_class(name: str) -> type:
    spec = _defaults(name)
    gtype = game_type(name)

    class GlacierGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
            merged = dict(spec)
            merged.update(params or {})
            self.glacier_params = _to_glacier(name, merged)
            probe = glacier.new_game(name, **self.glacier_params)
            self.observation_shape = tuple(probe.observation_shape)
            info = pyspiel.GameInfo(
                num_distinct_actions=probe.num_distinct_actions,
                max_chance_outcomes=0,
                num_players=probe.num_players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=max(1, int(merged["max_plies"])),
            )
            super().__init__(gtype, info, merged)

        def new_initial_state(self) -> GlacierState:
            return GlacierState(self, glacier.new_game(name, **self.glacier_params))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            return _Observer(self.observation_shape)

    GlacierGame.__name__ = GlacierGame.__qualname__ = "Glacier" + "".join(w.title() for w in name.split("_")) + "Game"
    return GlacierGame


_REGISTERED: set[str] = set()


def register_all() -> list[str]:
    """Registers every glacier game with OpenSpiel (idempotent); returns their names."""
    for name in glacier.GAMES:
        if name not in _REGISTERED:
            pyspiel.register_game(game_type(name), _game_class(name))
            _REGISTERED.add(name)
    return [f"glacier_{name}" for name in sorted(_REGISTERED)]


register_all()

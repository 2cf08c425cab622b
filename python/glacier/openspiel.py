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
takes 0 for ``None``). Actions are the state's ``legal_actions()`` numbers: fixed move
numbers where the game has a fixed action space, else indices of the legal moves in the
engine's generation order (``num_distinct_actions`` is then a proven bound on the number
of legal moves). Observations are the engine's observation tensor, drawn from the point
of view of the player to move; ``str(state)`` is the position text.

Requires the optional extra ``glacier[openspiel]``.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import pyspiel

import glacier

__all__ = ["game_type", "register_all"]

_TITLES = {
    "ice_age_chess": "Ice Age Chess",
    "ice_cube_checkers": "Ice Cube Checkers",
    "kings_court": "King's Court",
    "kuba": "Kuba",
    "martian_chinese_checkers": "E (Martian Chinese Checkers)",
}
#: Parameters whose glacier value may be None; OpenSpiel has no None, so 0 stands for it.
_NULLABLE = {"stack_limit"}
#: Player counts per game.
_PLAYERS = {"martian_chinese_checkers": (2, 6)}


def _defaults(name: str) -> dict[str, int]:
    return {k: (0 if v is None else v) for k, v in glacier.new_game(name).params.items()}


def _to_glacier(params: dict[str, Any]) -> dict[str, Optional[int]]:
    return {k: (None if k in _NULLABLE and v == 0 else int(v)) for k, v in params.items()}


def game_type(name: str) -> pyspiel.GameType:
    """The OpenSpiel game type of the glacier game ``name``."""
    low, high = _PLAYERS.get(name, (2, 2))
    cls = glacier.native_class(name)
    return pyspiel.GameType(
        short_name=f"glacier_{name}",
        long_name=f"glacier {_TITLES[name]}",
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
        provides_observation_tensor=bool(cls.observation_shape),
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
    cls = glacier.native_class(name)

    class GlacierGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
            merged = dict(spec)
            merged.update(params or {})
            self.glacier_params = _to_glacier(merged)
            probe = glacier.new_game(name, **self.glacier_params)
            info = pyspiel.GameInfo(
                num_distinct_actions=cls.num_distinct_actions,
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
            return _Observer(tuple(cls.observation_shape))

    GlacierGame.__name__ = GlacierGame.__qualname__ = f"Glacier{cls.__name__.removesuffix('State')}Game"
    return GlacierGame


_REGISTERED: set[str] = set()


def register_all() -> list[str]:
    """Registers every built glacier game with OpenSpiel (idempotent); returns their names."""
    for name in glacier.GAMES:
        try:
            cls = glacier.native_class(name)
        except glacier.UnknownGameError:
            continue
        if cls.num_distinct_actions == 0:
            continue  # OpenSpiel needs a bound on the action numbers
        if name not in _REGISTERED:
            pyspiel.register_game(game_type(name), _game_class(name))
            _REGISTERED.add(name)
    return [f"glacier_{name}" for name in sorted(_REGISTERED)]


register_all()

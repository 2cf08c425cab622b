"""glacier games as OpenSpiel games, so OpenSpiel's algorithms (MCTS, AlphaZero, evaluation
tools) run on them.

>>> import pyspiel
>>> import glacier.openspiel  # registers glacier_<name> for every built game
>>> game = pyspiel.load_game("glacier_kuba(max_plies=200)")
>>> game.num_distinct_actions(), game.max_game_length()
(197, 200)
>>> state = game.new_initial_state()
>>> [state.action_to_string(a) for a in state.legal_actions()][:3]
['f1f2', 'g1g2', 'g1f1']

Each game is registered as ``glacier_<name>`` with the glacier parameters as OpenSpiel
parameters (a parameter whose glacier value may be ``None``, such as E's ``stack_limit``,
takes 0 for ``None``); the games, their titles and parameters come from
``glacier.game_spec``. Actions are glacier's fixed action numbers
(``num_distinct_actions``), the same in every position; where a move takes several actions
(a King's Court jump chain, an Ice Cube Checkers drop order, an E move with an exchange), the
same player stays to move between them, as in OpenSpiel's own checkers.
``max_game_length`` counts actions. ``observation_tensor(player)`` is glacier's observation
from that player's point of view; ``str(state)`` is the position text (with the actions taken
in a move being made, if any).

``state.serialize()`` is the action history, one action per line, as OpenSpiel's own games
write it, and ``game.deserialize_state(text)`` replays it; ``state.undo_action(player,
action)`` takes the last action back, and ``history()``, ``history_str()`` and
``move_number()`` follow it. (OpenSpiel's C++ side keeps a history of its own for games
written in Python, which an undo cannot shorten: after an undo, ``full_history()`` and C++
code such as ``pyspiel.serialize_game_and_state`` still list the undone action.)

Games and states pickle as pyspiel's own do: a game by its class (``GlacierKubaGame``...,
named in this module) and parameters, a state by its game and its actions (those of a move
being made included). So OpenSpiel's multi-process tools, such as its AlphaZero runner
(``open_spiel.python.algorithms.alpha_zero``), which sends the game to processes it
spawns, run on glacier's games: unpickling a game there imports this module, which
registers the games.

Requires the optional extra ``openspiel`` (``pip install glacier-games[openspiel]``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Optional

import numpy as np

try:
    import pyspiel
except ImportError as err:  # a missing extra: one line that says what to install
    raise ModuleNotFoundError(
        'glacier.openspiel needs OpenSpiel: pip install "glacier-games[openspiel]"', name=err.name
    ) from err

import glacier

__all__ = ["GAME_CLASSES", "GlacierGame", "GlacierState", "game_type", "register_all"]


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
        provides_observation_tensor=True,
        parameter_specification=_defaults(name),
    )


def _describe(native: Any) -> str:
    """The position text, with the actions taken in the move being made."""
    pending = native.pending_actions
    text = str(native.text())
    return f"{text} [{' '.join(map(str, pending))}]" if pending else text


class _Observer:
    """The PyObserver interface over glacier's observation tensor."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: Any, player: int) -> None:
        self.tensor[:] = state.native.observation(player).reshape(-1)

    def string_from(self, state: Any, player: int) -> str:
        return _describe(state.native)


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
        return str(self.native.action_to_string(action))

    def is_terminal(self) -> bool:
        return bool(self.native.is_terminal())

    def returns(self) -> list[float]:
        return list(self.native.returns())

    def undo_action(self, player: int, action: int) -> None:
        """Takes back ``action``, the last action taken (by ``player``)."""
        history = self.native.action_history()
        if not history or history[-1] != action:
            raise pyspiel.SpielError(f"undo_action: the last action is not {action}")
        self.native.undo_action()
        if int(self.native.current_player) != player:
            self.native.apply_action(action)
            raise pyspiel.SpielError(f"undo_action: action {action} was not player {player}'s")

    def history(self) -> list[int]:
        return list(self.native.action_history())

    def history_str(self) -> str:
        return ", ".join(map(str, self.history()))

    def move_number(self) -> int:
        return len(self.native.action_history())

    def __reduce__(self) -> tuple[Any, ...]:
        # As pyspiel's own states pickle: by the game and the actions that led here (the
        # actions of a move being made included).
        return _restore_state, (self.get_game(), self.history())

    def serialize(self) -> str:
        """The action history, one action per line (as OpenSpiel's own games write it)."""
        return "\n".join(map(str, self.native.action_history())) + "\n"

    def information_state_string(self, player: Optional[int] = None) -> str:
        return " ".join(map(str, self.native.action_history())) + " | " + _describe(self.native)

    def observation_string(self, player: Optional[int] = None) -> str:
        return _describe(self.native)

    def __str__(self) -> str:
        return _describe(self.native)


class GlacierGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game backed by glacier; one subclass per game (``GlacierKubaGame``...),
    named in this module so that games and states pickle (OpenSpiel's multi-process tools,
    such as its AlphaZero, send them to processes of their own)."""

    glacier_name: ClassVar[str]
    """The glacier game (a class attribute of each subclass)."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        name = self.glacier_name
        merged = _defaults(name)
        merged.update(params or {})
        self.spiel_params = merged
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
            max_game_length=max(1, probe.max_game_length),
        )
        super().__init__(game_type(name), info, merged)

    def __reduce__(self) -> tuple[Any, ...]:
        # As pyspiel's own games pickle: by the game and its parameters.
        return type(self), (dict(self.spiel_params),)

    def new_initial_state(self) -> GlacierState:
        return GlacierState(self, glacier.new_game(self.glacier_name, **self.glacier_params))

    def deserialize_state(self, text: str) -> GlacierState:
        """The state after the actions of ``text``, one per line (``state.serialize()``)."""
        state = self.new_initial_state()
        for line in text.splitlines():
            if line.strip():
                state.apply_action(int(line))
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self.observation_shape)


def _restore_state(game: GlacierGame, actions: list[int]) -> GlacierState:
    """The state of ``game`` after ``actions`` (what a pickled state becomes)."""
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def _class_name(name: str) -> str:
    return "Glacier" + "".join(w.title() for w in name.split("_")) + "Game"


#: The game class of each built glacier game, also a module attribute by its class name.
GAME_CLASSES: dict[str, type[GlacierGame]] = {
    name: type(_class_name(name), (GlacierGame,), {"glacier_name": name, "__module__": __name__})
    for name in glacier.GAMES
}
globals().update({cls.__name__: cls for cls in GAME_CLASSES.values()})


_REGISTERED: set[str] = set()


def register_all() -> list[str]:
    """Registers every glacier game with OpenSpiel (idempotent); returns their names."""
    for name in glacier.GAMES:
        if name not in _REGISTERED:
            pyspiel.register_game(game_type(name), GAME_CLASSES[name])
            _REGISTERED.add(name)
    return [f"glacier_{name}" for name in sorted(_REGISTERED)]


register_all()

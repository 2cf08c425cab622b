"""glacier: a fast engine, written in Rust, for five abstract board games.

>>> import glacier
>>> state = glacier.new_game("kuba")
>>> state.legal_moves()
['a6b6', 'a7a6', 'a7b7', 'b7b6', 'f1f2', 'g1f1', 'g1g2', 'g2f2']
>>> state.perft(5)
70844
>>> state.play("f1f2")
>>> state.current_player
1

``glacier.reference`` holds a pure-Python twin of every game with the same methods, and
``glacier.testing`` checks that the two agree.
"""

from __future__ import annotations

from typing import Any, Union

from . import _native
from ._native import (
    IceAgeChessState,
    IceCubeCheckersState,
    KingsCourtState,
    KubaState,
    MartianChineseCheckersState,
)
from .batch import Playouts, StepResult, VectorEnv, playouts
from .errors import (
    GlacierError,
    IllegalMoveError,
    InvalidParameterError,
    InvalidPositionError,
    UnknownGameError,
)

__version__: str = _native.__version__

__all__ = [
    "GAMES",
    "GlacierError",
    "IceAgeChessState",
    "IceCubeCheckersState",
    "IllegalMoveError",
    "InvalidParameterError",
    "InvalidPositionError",
    "KingsCourtState",
    "KubaState",
    "MartianChineseCheckersState",
    "Playouts",
    "State",
    "StepResult",
    "UnknownGameError",
    "VectorEnv",
    "__version__",
    "from_text",
    "native_class",
    "new_game",
    "playouts",
]

#: Every game glacier knows, by the name the API takes.
GAMES: tuple[str, ...] = (
    "ice_age_chess",
    "ice_cube_checkers",
    "kings_court",
    "kuba",
    "martian_chinese_checkers",
)

_CLASS_NAMES = {
    "ice_age_chess": "IceAgeChessState",
    "ice_cube_checkers": "IceCubeCheckersState",
    "kings_court": "KingsCourtState",
    "kuba": "KubaState",
    "martian_chinese_checkers": "MartianChineseCheckersState",
}

#: Any native game state.
State = Union[IceAgeChessState, IceCubeCheckersState, KingsCourtState, KubaState, MartianChineseCheckersState]


def native_class(name: str) -> type[State]:
    """The native state class of the game called ``name``."""
    if name not in _CLASS_NAMES:
        raise UnknownGameError(f"unknown game {name!r}; glacier has: {', '.join(GAMES)}")
    cls = getattr(_native, _CLASS_NAMES[name], None)
    if cls is None:
        raise UnknownGameError(f"game {name!r} is not built into this version of glacier yet")
    return cls  # type: ignore[no-any-return]


def new_game(name: str, **params: Any) -> State:
    """The start position of ``name``, with its parameters (e.g. ``max_plies=200``)."""
    return native_class(name)(**params)


def from_text(name: str, text: str, **params: Any) -> State:
    """The position of ``name`` written as ``text`` (the notation of the game's rules page)."""
    return native_class(name).from_text(text, **params)


def _restore(name: str, params: dict[str, Any], text: str, moves: list[str]) -> State:
    """Rebuilds a pickled state: its start text, parameters and the moves played since."""
    state = from_text(name, text, **params)
    for move in moves:
        state.play(move)
    return state

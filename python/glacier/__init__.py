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
>>> glacier.game_spec("kuba").title
'Kuba'

``glacier.reference`` holds a pure-Python twin of every game with the same methods, and
``glacier.testing`` checks that the two agree.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

from . import _native
from ._native import GameState
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
    "GameSpec",
    "GameState",
    "GlacierError",
    "IllegalMoveError",
    "InvalidParameterError",
    "InvalidPositionError",
    "ParamSpec",
    "Playouts",
    "State",
    "StepResult",
    "UnknownGameError",
    "VectorEnv",
    "__version__",
    "from_text",
    "game_spec",
    "max_game_length",
    "new_game",
    "num_distinct_actions",
    "observation_shape",
    "playouts",
]


class ParamSpec(NamedTuple):
    """One parameter a game accepts."""

    name: str
    default: Optional[int]
    min: int
    max: int
    optional: bool
    """Whether ``None`` is accepted (meaning "no limit")."""


class GameSpec(NamedTuple):
    """What the engine's registry says of a game: its name, title and parameters."""

    name: str
    title: str
    params: tuple[ParamSpec, ...]


_SPECS: dict[str, GameSpec] = {
    game["name"]: GameSpec(game["name"], game["title"], tuple(ParamSpec(**p) for p in game["params"]))
    for game in _native.games()
}

#: Every game glacier knows, by the name the API takes (the engine's registry order).
GAMES: tuple[str, ...] = tuple(_SPECS)

#: A game state of any game (one class serves them all; ``state.game`` says which).
State = GameState


def _check(name: str) -> None:
    if name not in _SPECS:
        raise UnknownGameError(f"unknown game {name!r}; glacier has: {', '.join(GAMES)}")


def game_spec(name: str) -> GameSpec:
    """The name, title and parameter specs of the game called ``name``."""
    _check(name)
    return _SPECS[name]


#: The start positions a game offers besides its own, by name: the position text and the
#: parameters the start implies (parameters given to :func:`new_game` win). The reference
#: offers the same (``glacier.reference.new_game``).
_STARTS: dict[str, dict[str, tuple[str, dict[str, int]]]] = {
    # Standard chess: the usual array without ice, and no Ice Age to bring any.
    "ice_age_chess": {"standard": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"ice_age_period": 0})},
}


def _named_start(name: str, start: object) -> tuple[str, dict[str, int]]:
    starts = _STARTS.get(name, {})
    if isinstance(start, str) and start in starts:
        return starts[start]
    offered = f"its starts are: {', '.join(map(repr, starts))}" if starts else "it has only its own start"
    raise InvalidParameterError(f"{name} has no start {start!r} ({offered})")


def new_game(name: str, **params: Any) -> State:
    """The start position of ``name``, with its parameters (e.g. ``max_plies=200``).

    ``start`` names another start the game offers: ``new_game("ice_age_chess",
    start="standard")`` is standard chess (no ice, ``ice_age_period=0``).

    >>> [new_game("ice_age_chess", start="standard").perft(d) for d in (1, 2, 3)]
    [20, 400, 8902]
    """
    _check(name)
    start = params.pop("start", None)
    if start is None:
        return _native.new_game(name, **params)
    text, implied = _named_start(name, start)
    return _native.from_text(name, text, **{**implied, **params})


def from_text(name: str, text: str, **params: Any) -> State:
    """The position of ``name`` written as ``text`` (the notation of the game's rules page)."""
    _check(name)
    return _native.from_text(name, text, **params)


def num_distinct_actions(name: str, **params: Any) -> int:
    """The number of action numbers of ``name`` with these parameters: every action is below
    it, and means the same in every position."""
    return new_game(name, **params).num_distinct_actions


def max_game_length(name: str, **params: Any) -> int:
    """The most actions a game of ``name`` with these parameters can take (its ply limit
    times the most actions one move takes)."""
    return new_game(name, **params).max_game_length


def observation_shape(name: str, **params: Any) -> tuple[int, ...]:
    """The shape of the observation tensor of ``name``."""
    return tuple(new_game(name, **params).observation_shape)


def _draw(state: State) -> str:
    """The SVG picture behind ``GameState._repr_svg_`` (the drawing is loaded on first use)."""
    from .svg import render

    return render(state)


_native._set_svg_renderer(_draw)

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

from typing import Any, NamedTuple, Optional, Union

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
    "BenchDepths",
    "GameSpec",
    "GameState",
    "GlacierError",
    "IllegalMoveError",
    "InvalidParameterError",
    "InvalidPositionError",
    "ParamSpec",
    "PerftCase",
    "Picture",
    "Playouts",
    "State",
    "StepResult",
    "UnknownGameError",
    "VectorEnv",
    "__version__",
    "arena",
    "from_text",
    "game_spec",
    "kin",
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


class BenchDepths(NamedTuple):
    """Workloads of the benchmarks, chosen so that each takes about as long in every game."""

    perft: tuple[int, int]
    """``glacier bench``: perft depth in the engine, and in the reference."""
    playouts: int
    """``glacier bench``: random games played for the playout figure."""
    perft_bench: tuple[int, int, int]
    """benches/bench_perft.py: perft depth inside Rust, through the per-move API, in the reference."""
    hashed_perft: Optional[tuple[int, int]]
    """benches/bench_perft.py: a depth for perft with a transposition table, and its count."""


class PerftCase(NamedTuple):
    """A perft check: the position (None: the start) with its parameters, to a depth."""

    text: Optional[str]
    params: dict[str, int]
    depth: int


class Picture(NamedTuple):
    """A picture of the gallery (docs/pictures): a position (None: the start) and its view."""

    name: str
    caption: str
    text: Optional[str]
    params: dict[str, int]
    last_move: Optional[str]
    arrows: tuple[Union[str, tuple[str, str]], ...]
    """Moves in the game's notation, or (from, to) pairs of cell names."""
    perspective: Optional[int]
    flipped: bool
    cell_names: bool
    """Every cell's name written in it (a picture of the board's names)."""


class GameSpec(NamedTuple):
    """What the engine's registry says of a game: its name, title and parameters, then the
    facts the tools around the engine read (each game declares them in its own module)."""

    name: str
    title: str
    params: tuple[ParamSpec, ...]
    seats: dict[int, tuple[str, ...]]
    """The name of each seat (``White``, ``Black``), by number of players."""
    mcts_player: dict[str, Union[int, str]]
    """The options of the computer player used when none is named (MCTS, over its defaults)."""
    net_player: dict[str, Union[int, float, str]]
    """The search options of a player that searches with a trained net (over MCTS's
    defaults, the net as the evaluator): how a net is best used in this game."""
    levels: dict[int, tuple[tuple[str, str], ...]]
    """The levels a person chooses among (``glacier play``, ``glacier serve``), weakest
    first, by number of players: each a name and a player spec
    (:func:`glacier.players.from_spec`), ordered by the game's rating ladder."""
    playout_plies: int
    """The plies after which the flat Monte Carlo player cuts its playouts (0: whole games)."""
    bench: BenchDepths
    table_checks: tuple[PerftCase, ...]
    """Perft counts the transposition table must leave unchanged."""
    starts: dict[str, tuple[str, dict[str, int]]]
    """The starts offered besides the game's own, by name: the position text and the
    parameters it implies (those given to :func:`new_game` win)."""
    kin: dict[str, Optional[str]]
    """Games of other programs this one is measured beside or whose records it writes
    (``"chess"``), each with the named start that plays it (None: the game's own)."""
    pictures: tuple[Picture, ...]
    variants: tuple[dict[str, int], ...]
    """Parameter sets that between them exercise every variant of the rules."""


def _spec(game: dict[str, Any]) -> GameSpec:
    return GameSpec(
        game["name"],
        game["title"],
        tuple(ParamSpec(**p) for p in game["params"]),
        game["seats"],
        game["mcts_player"],
        game["net_player"],
        game["levels"],
        game["playout_plies"],
        BenchDepths(**game["bench"]),
        tuple(PerftCase(*case) for case in game["table_checks"]),
        game["starts"],
        game["kin"],
        tuple(Picture(**p) for p in game["pictures"]),
        tuple(game["variants"]),
    )


_SPECS: dict[str, GameSpec] = {game["name"]: _spec(game) for game in _native.games()}

#: Every game glacier knows, by the name the API takes (the engine's registry order).
GAMES: tuple[str, ...] = tuple(_SPECS)

#: A game state of any game (one class serves them all; ``state.game`` says which).
State = GameState


def _check(name: str) -> None:
    if name not in _SPECS:
        raise UnknownGameError(f"unknown game {name!r}; glacier has: {', '.join(GAMES)}")


def game_spec(name: str) -> GameSpec:
    """What the engine's registry says of the game called ``name``: its name, title and
    parameter specs, then its facts (seat names, default player, named starts, ...)."""
    _check(name)
    return _SPECS[name]


def kin(outside: str) -> tuple[str, Optional[str]]:
    """The game that plays ``outside``, a game of other programs (``"chess"``), with the named
    start it plays it from (None: its own start), as the games declare (``GameSpec.kin``).

    >>> kin("chess")
    ('ice_age_chess', 'standard')
    """
    for spec in _SPECS.values():
        if outside in spec.kin:
            return spec.name, spec.kin[outside]
    raise UnknownGameError(f"no game of glacier plays {outside!r}")


def _named_start(name: str, start: object) -> tuple[str, dict[str, int]]:
    starts = _SPECS[name].starts
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

# Matches between players (search and players import only the engine, not this module).
from .arena import arena  # noqa: E402

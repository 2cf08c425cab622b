"""The pure-Python reference implementation of every glacier game.

It exists for differential testing: written for clarity, it must agree exactly with the
native engine on legal moves, notation, hashes, outcomes and perft counts. The states it
returns have the same methods as the native ones. It imports nothing of the engine.

>>> from glacier import reference
>>> reference.new_game("kuba").perft(2)
64
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Optional

from ..errors import GlacierError, IllegalMoveError, InvalidParameterError, UnknownGameError
from ._base import Position, perft, take_text_params

__all__ = ["GAMES", "State", "from_text", "game_module", "new_game"]

#: The registry: every game, by the name the API takes, in the engine's order. Game
#: ``name`` lives in the module ``glacier.reference.<name>``.
GAMES: tuple[str, ...] = (
    "ice_age_chess",
    "ice_cube_checkers",
    "kings_court",
    "kuba",
    "martian_chinese_checkers",
)


def game_module(name: str) -> ModuleType:
    """The reference module of the game called ``name``."""
    if name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r}; glacier has: {', '.join(GAMES)}")
    return importlib.import_module(f"{__name__}.{name}")


#: The start positions a game offers besides its own (the twin of the engine's table).
_STARTS: dict[str, dict[str, tuple[str, dict[str, int]]]] = {
    "ice_age_chess": {"standard": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"ice_age_period": 0})},
}


def _named_start(name: str, start: object) -> tuple[str, dict[str, int]]:
    starts = _STARTS.get(name, {})
    if isinstance(start, str) and start in starts:
        return starts[start]
    offered = f"its starts are: {', '.join(map(repr, starts))}" if starts else "it has only its own start"
    raise InvalidParameterError(f"{name} has no start {start!r} ({offered})")


def new_game(name: str, **params: Any) -> State:
    """The start position of ``name``; ``start="standard"`` in Ice Age Chess is standard
    chess (no ice, ``ice_age_period=0``), as in the engine."""
    module = game_module(name)
    start = params.pop("start", None)
    if start is None:
        return State(module, module.start(module.resolve(params)))
    text, implied = _named_start(name, start)
    return from_text(name, text, **{**implied, **params})


def from_text(name: str, text: str, **params: Any) -> State:
    """The position of ``name`` written as ``text``; parameters the text states for itself
    (E's number of players) need not be given."""
    module = game_module(name)
    stated = module.text_params(text) if hasattr(module, "text_params") else {}
    return State(module, module.parse(text, take_text_params(module.resolve(params), params, stated)))


def _restore(name: str, params: dict[str, Any], text: str, moves: list[str]) -> State:
    """Rebuilds a pickled state: its start text, parameters and the moves played since."""
    state = from_text(name, text, **params)
    for move in moves:
        state.play(move)
    return state


class State:
    """A reference game state with its history: the same API as the native classes."""

    def __init__(self, module: ModuleType, position: Position, initial_text: Optional[str] = None) -> None:
        self._module = module
        self._position = position
        self._history: list[tuple[Position, str]] = []
        self._initial_text = position.text() if initial_text is None else initial_text

    @property
    def game(self) -> str:
        return self._module.NAME  # type: ignore[no-any-return]

    @property
    def params(self) -> dict[str, Optional[int]]:
        return dict(self._position.params)

    @property
    def position(self) -> Position:
        return self._position

    def legal_moves(self) -> list[str]:
        return sorted(self._position.successors())

    def play(self, move: str) -> None:
        if not isinstance(move, str):
            raise IllegalMoveError(f"a move must be a str, got {type(move).__name__}")
        if self._position.outcome is not None:
            raise IllegalMoveError(f"cannot play '{move}': the game is over")
        child = self._position.successors().get(move)
        if child is None:
            raise IllegalMoveError(self._position.explain_illegal(move))
        self._history.append((self._position, move))
        self._position = child

    def undo(self) -> str:
        if not self._history:
            raise GlacierError("no move to undo")
        self._position, move = self._history.pop()
        return move

    @property
    def moves(self) -> list[str]:
        return [move for _, move in self._history]

    def copy(self) -> State:
        twin = State(self._module, self._position, self._initial_text)
        twin._history = list(self._history)
        return twin

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.copy()

    def text(self) -> str:
        return self._position.text()

    def hash(self) -> int:
        return self._position.hash()

    @property
    def current_player(self) -> int:
        return self._position.current_player

    @property
    def num_players(self) -> int:
        return self._position.num_players

    def is_terminal(self) -> bool:
        return self._position.outcome is not None

    def returns(self) -> list[float]:
        return self._position.returns()

    def perft(self, depth: int, bulk: bool = True) -> int:
        if isinstance(depth, bool) or not isinstance(depth, int):
            raise TypeError(f"perft depth must be an int, got {type(depth).__name__}")
        if depth < 0:
            raise InvalidParameterError(f"perft depth must be >= 0, got {depth}")
        return perft(self._position, depth, bulk)

    def perft_divide(self, depth: int) -> dict[str, int]:
        """Perft below each legal move, as ``{move: leaves}`` in move order."""
        self.perft(depth)  # validates depth
        if depth == 0:
            return {}
        successors = self._position.successors()
        return {move: perft(successors[move], depth - 1) for move in sorted(successors)}

    def __str__(self) -> str:
        return self._position.board_string()

    def __repr__(self) -> str:
        return f"<reference {self.game} {self.text()!r}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.game == other.game and self.params == other.params and self.text() == other.text()

    __hash__ = None  # type: ignore[assignment]  # mutable; use .hash() for the Zobrist hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self.game, self.params, self._initial_text, self.moves))

"""The pure-Python reference implementation of every glacier game.

It exists for differential testing: written for clarity, it must agree exactly with the
native engine on legal moves, notation, hashes, outcomes, perft counts, action numbers and
observations. The states it returns have the same methods as the native ones. It imports
nothing of the engine.

>>> from glacier import reference
>>> reference.new_game("kuba").perft(2)
64
"""

from __future__ import annotations

import importlib
from collections import deque
from math import prod
from types import ModuleType
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

from ..errors import GlacierError, HistoryNotKeptError, IllegalMoveError, InvalidParameterError, UnknownGameError
from . import _checks
from ._actions import Partial, chosen_actions, move_lists
from ._base import Position, perft, take_text_params
from ._checks import quoted

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


def _named_start(name: str, start: object) -> tuple[str, dict[str, int]]:
    """The text and implied parameters of a start the game offers by name (its ``FACTS``)."""
    starts: dict[str, tuple[str, dict[str, int]]] = game_module(name).FACTS.starts
    if isinstance(start, str) and start in starts:
        return starts[start]
    offered = f"its starts are: {', '.join(map(repr, starts))}" if starts else "it has only its own start"
    raise InvalidParameterError(f"{name} has no start {start!r} ({offered})")


def new_game(name: str, **params: Any) -> State:
    """The start position of ``name``; ``start`` names another start the game offers (its
    ``FACTS.starts``), as in the engine."""
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
    text = _checks.position_text(text)
    stated = module.text_params(text) if hasattr(module, "text_params") else {}
    return State(module, module.parse(text, take_text_params(module.resolve(params), params, stated)))


def _restore(name: str, params: dict[str, Any], text: str, moves: list[str], pending: tuple[int, ...] = ()) -> State:
    """Rebuilds a pickled state: its start text, parameters, the moves played since and the
    actions taken in the move being made."""
    state = from_text(name, text, **params)
    for move in moves:
        state.play(move)
    for action in pending:
        state.apply_action(action)
    return state


class State:
    """A reference game state with its history: the same API as the native classes."""

    def __init__(self, module: ModuleType, position: Position, initial_text: Optional[str] = None) -> None:
        self._module = module
        self._position = position
        # The earlier positions kept, each with the move played from it, oldest first.
        self._history: deque[tuple[Position, str]] = deque()
        self._history_limit: Optional[int] = None
        # Whether plies before the oldest kept one were dropped (by the limit or a copy).
        self._dropped = False
        self._initial_text = position.text() if initial_text is None else initial_text
        self._partial = Partial()

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
        """The legal moves; in the middle of a move, those that begin with the actions taken."""
        moves = self._position.successors()
        if self._partial.path:
            return sorted(m for m in moves if self._partial.allows(self._module, self._position, m))
        return sorted(moves)

    def play(self, move: str) -> None:
        move = _checks.move_text(move)
        if self._position.outcome is not None:
            raise IllegalMoveError(f"cannot play {quoted(move)}: the game is over")
        child = self._position.successors().get(move)
        if child is None:
            raise IllegalMoveError(self._position.explain_illegal(move))
        if not self._partial.allows(self._module, self._position, move):
            taken = ", ".join(map(str, self.pending_actions))
            raise IllegalMoveError(
                f"{quoted(move)} does not begin with the actions already taken in this move ({taken})"
            )
        self._play(move, child)

    def _play(self, move: str, child: Position) -> None:
        self._history.append((self._position, move))
        self._trim_history()
        self._position = child
        self._partial = Partial()

    @property
    def history_limit(self) -> Optional[int]:
        """The most plies kept for ``undo()`` (``None``: every one)."""
        return self._history_limit

    @history_limit.setter
    def history_limit(self, limit: Optional[int]) -> None:
        if limit is not None:
            if isinstance(limit, bool) or not isinstance(limit, int):
                raise TypeError(f"history_limit must be None or an int, got {type(limit).__name__}")
            if limit < 0:
                raise InvalidParameterError(f"history_limit must be None or >= 0, got {limit}")
        self._history_limit = limit
        self._trim_history()

    def _trim_history(self) -> None:
        if self._history_limit is not None:
            while len(self._history) > self._history_limit:
                self._history.popleft()
                self._dropped = True

    def _nothing_kept(self) -> GlacierError:
        if not self._dropped:
            return GlacierError("no move to undo")
        limit = self._history_limit
        if limit is not None:
            return HistoryNotKeptError(
                f"cannot undo further: this state keeps only its last {limit} plies "
                f"(history_limit={limit}), or was copied without the plies before"
            )
        return HistoryNotKeptError(
            "cannot undo further: this state was copied without the plies before (copy(history=True) keeps them)"
        )

    @property
    def _initial(self) -> str:
        """The text of the position the kept history starts from."""
        if self._dropped:
            return (self._history[0][0] if self._history else self._position).text()
        return self._initial_text

    def undo(self) -> str:
        if self._partial.path:
            taken = ", ".join(map(str, self.pending_actions))
            raise IllegalMoveError(f"a move is being made (actions {taken} taken): undo_action() takes them back")
        if not self._history:
            raise self._nothing_kept()
        self._position, move = self._history.pop()
        return move

    # --- actions (a move is one action or a short sequence of them) ----------------------

    @property
    def num_distinct_actions(self) -> int:
        return self._module.NUM_DISTINCT_ACTIONS  # type: ignore[no-any-return]

    @property
    def fixed_action_space(self) -> bool:
        """Always True: every game numbers its actions the same way in every position."""
        return True

    @property
    def max_game_length(self) -> int:
        return int(self.params.get("max_plies") or 0) * int(self._module.MAX_CHOSEN_ACTIONS)

    @property
    def observation_shape(self) -> list[int]:
        return list(self._module.OBSERVATION_SHAPE)

    def legal_actions(self) -> list[int]:
        return self._partial.legal_actions(self._module, self._position)

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        mask = np.zeros(self.num_distinct_actions, dtype=np.bool_)
        mask[self.legal_actions()] = True
        return mask

    def _take(self, action: int) -> Any:
        action = _checks.action(action, IllegalMoveError)
        after = self._partial.take(self._module, self._position, action)
        if after is None:
            shown = _checks.shown_int(action)
            if self._position.outcome is not None:
                raise IllegalMoveError(f"cannot take action {shown}: the game is over")
            legal = self.legal_actions()
            listed = ", ".join(map(str, legal[:12])) + (", ..." if len(legal) > 12 else "")
            raise IllegalMoveError(f"action {shown} is not legal here (legal: {listed})")
        return after

    def apply_action(self, action: int) -> None:
        after = self._take(action)
        if isinstance(after, Partial):
            self._partial = after
        else:
            self._play(after, self._position.successors()[after])

    def action_to_move(self, action: int) -> Optional[str]:
        after = self._take(action)
        return None if isinstance(after, Partial) else after  # type: ignore[no-any-return]

    def action_to_string(self, action: int) -> str:
        action = _checks.action(action, InvalidParameterError)
        text = self._module.action_text(action) if 0 <= action < self.num_distinct_actions else None
        if text is None:
            raise InvalidParameterError(
                f"{_checks.shown_int(action)} is not an action of {self.game} (its actions are numbered "
                f"0..{self.num_distinct_actions}, and some numbers are never legal)"
            )
        return text  # type: ignore[no-any-return]

    def observation(self, player: Optional[int] = None) -> npt.NDArray[np.float32]:
        if player is None:
            player = self.current_player
        else:
            player = _checks.integer(player, "player", 0, self.num_players - 1, InvalidParameterError)
        shape = tuple(self._module.OBSERVATION_SHAPE)
        values = self._module.observation(self._position, self._partial.path, player)
        assert len(values) == prod(shape)
        return np.array(values, dtype=np.float32).reshape(shape)

    def move_to_actions(self, move: str) -> list[int]:
        """The actions to take to play the legal move ``move`` from here (in the middle of a
        move, the rest of them; forced actions, which come by themselves, left out)."""
        move = _checks.move_text(move)
        if self._position.outcome is not None:
            raise IllegalMoveError(f"cannot play {quoted(move)}: the game is over")
        if move not in self._position.successors():
            raise IllegalMoveError(self._position.explain_illegal(move))
        if not self._partial.allows(self._module, self._position, move):
            taken = ", ".join(map(str, self.pending_actions))
            raise IllegalMoveError(
                f"{quoted(move)} does not begin with the actions already taken in this move ({taken})"
            )
        actions = move_lists(self._module, self._position)[move]
        partial, out = self._partial, []
        while True:
            action = actions[len(partial.path)]
            out.append(action)
            after = partial.take(self._module, self._position, action)
            if not isinstance(after, Partial):
                return out
            partial = after

    def undo_action(self) -> int:
        chosen = self._partial.chosen_actions()
        if not chosen:
            if not self._history:
                raise self._nothing_kept()
            self._position, move = self._history.pop()
            chosen = chosen_actions(self._module, self._position, move)
        last = chosen.pop()
        self._partial = Partial()
        for action in chosen:
            self._partial = self._take(action)
        return last

    @property
    def pending_actions(self) -> list[int]:
        return self._partial.chosen_actions()

    def action_history(self) -> list[int]:
        out = [a for position, move in self._history for a in chosen_actions(self._module, position, move)]
        return out + self.pending_actions

    @property
    def moves(self) -> list[str]:
        return [move for _, move in self._history]

    def copy(self, history: Optional[Union[bool, int]] = None) -> State:
        """A copy of the position; ``history=True`` copies every kept ply too, a number that
        many of the last ones (the default keeps none: a copy costs the same at every ply)."""
        if history is None or history is False:
            plies = 0
        elif history is True:
            plies = len(self._history)
        elif isinstance(history, int):
            if history < 0:
                raise InvalidParameterError(f"history must be True, False or a number of plies >= 0, got {history}")
            plies = min(history, len(self._history))
        else:
            raise TypeError(f"history must be True, False or a number of plies, got {type(history).__name__}")
        skip = len(self._history) - plies
        twin = State(self._module, self._position, self._initial_text)
        twin._history = deque(self._history[i] for i in range(skip, len(self._history)))
        twin._history_limit = self._history_limit
        twin._dropped = self._dropped or skip > 0
        twin._partial = self._partial
        return twin

    def __copy__(self) -> State:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.copy(history=True)

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

    def ended_by_ply_limit(self) -> bool:
        """Whether the game is over only because it reached its ply limit."""
        return self._position.outcome is not None and bool(self._module.ended_by_ply_limit(self._position))

    def returns(self) -> list[float]:
        return self._position.returns()

    def perft(self, depth: int, bulk: bool = True) -> int:
        depth = _checks.integer(depth, "perft depth", 0, _checks.MAX_PERFT_DEPTH, InvalidParameterError)
        return perft(self._position, depth, bulk)

    def perft_divide(self, depth: int) -> dict[str, int]:
        """Perft below each legal move, as ``{move: leaves}`` in move order."""
        depth = _checks.integer(depth, "perft depth", 0, _checks.MAX_PERFT_DEPTH, InvalidParameterError)
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
        return (
            self.game == other.game
            and self.params == other.params
            and self.text() == other.text()
            and self.pending_actions == other.pending_actions
        )

    __hash__ = None  # type: ignore[assignment]  # mutable; use .hash() for the Zobrist hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self.game, self.params, self._initial, self.moves, tuple(self.pending_actions)))

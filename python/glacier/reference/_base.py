"""What every reference game module shares: parameters, notation helpers, the position, perft.

A game module defines a :class:`Position` subclass (an immutable position that knows its
successors) plus ``NAME``, ``TITLE``, ``PARAMS``, ``resolve(params)``, ``start(params)`` and
``parse(text, params)``. The package's ``State`` wraps any of them in the same API as the
native states.

What a person is shown of a game (``glacier.play``, the terminal game and the web app, which
read a position of either implementation into the reference's and ask its module) is said by
the module too, the play hooks:

- ``end_reason(position) -> str``: why the finished ``position`` ended, in words
  (``checkmate``, ``seven Reds captured``, ``the ply limit``);
- ``seat_notes(position) -> list[str]``: a short line per seat of what the position says
  about it (captures, pieces in the Court, cups held), ``""`` when there is nothing to say;
- ``gesture(action) -> tuple[str, ...]``: how a person makes the action whose text
  (``action_text``) is ``action`` on the board: ``("move", from, to)`` between two cells,
  ``("cell", cell)`` a click on one, or ``("choice",)`` a button; cells are named as in the
  game's notation, as the pictures' ``data-cell`` name them;

and, where the game has them (absent: nothing of the kind):

- ``goals(num_players) -> tuple[str, ...]``: what each seat must reach, as a territory name;
- ``legend(num_players) -> str``: a line explaining the symbols of ``board_string``;
- ``piece_label(position, frm, to) -> str``: which piece a move from cell ``frm`` to ``to``
  moves, when one cell may hold several pieces the player can move;
- ``read_move(position, text) -> Optional[str]``: the legal move a person means by ``text``
  written in a shorter way than the move itself, or None;
- ``choice_label(pending, action) -> tuple[str, tuple[str, ...]]``: what a button
  does, in words, and the cells it acts on (the page marks them): ``action`` is the text of a
  ``("choice",)`` action, or of one of several actions made by the same gesture (a
  promotion's piece); ``pending`` the texts of the unfinished move's actions before it.
  Absent: the button reads the action's text;
- ``first_move_number(text) -> int``: the number a game record gives the first move of a
  game from the position ``text`` (1 where absent).

The game that plays chess (its ``FACTS.kin`` names ``"chess"``) has the hooks of its game
records, which are PGN (:mod:`glacier.records`): ``san(position, move)`` and
``parse_san(position, text)`` (a move in SAN, both ways), and ``is_plain_chess(params,
text)`` (whether a game from that position is standard chess, whose record any chess
program reads).
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Union

from ..errors import InvalidParameterError, InvalidPositionError
from ._checks import quoted, shown_int

#: A position's outcome: ``None`` while the game goes on, ``"draw"``, or the winner's number.
Outcome = Union[None, str, int]

U32_MAX = 2**32 - 1


@dataclass(frozen=True)
class Param:
    """One parameter a game accepts (the twin of the engine's ``ParamSpec``)."""

    name: str
    default: Optional[int]
    min: int
    max: int
    optional: bool = False


def max_plies(default: int) -> Param:
    return Param("max_plies", default, 0, U32_MAX)


def resolve_params(game: str, specs: tuple[Param, ...], given: dict[str, Any]) -> dict[str, Optional[int]]:
    """Checks keyword parameters against ``specs``; returns every parameter, defaults filled in."""
    values: dict[str, Optional[int]] = {s.name: s.default for s in specs}
    by_name = {s.name: s for s in specs}
    for name, value in given.items():
        spec = by_name.get(name)
        if spec is None:
            known = ", ".join(s.name for s in specs)
            raise InvalidParameterError(f"unknown parameter {quoted(name)} for {game} (it takes: {known})")
        if value is None:
            if not spec.optional:
                raise InvalidParameterError(f"parameter {quoted(name)} of {game} must be an integer, not None")
        elif isinstance(value, bool) or not isinstance(value, int):
            raise InvalidParameterError(
                f"parameter {quoted(name)} must be an integer or None, got {type(value).__name__}"
            )
        elif not spec.min <= value <= spec.max:
            raise InvalidParameterError(
                f"parameter {quoted(name)} of {game} must be between {spec.min} and {spec.max}, got {shown_int(value)}"
            )
        values[name] = value
    return values


def take_text_params(
    resolved: dict[str, Optional[int]], given: dict[str, Any], stated: dict[str, int]
) -> dict[str, Optional[int]]:
    """``resolved`` (the caller's parameters, checked, defaults filled in) with the parameters
    a position text states for itself: each fills in one the caller left out, and one the
    caller gave must agree with the text (the twin of the engine's ``resolve_for_text``)."""
    values = dict(resolved)
    for name, value in stated.items():
        if name not in values:
            continue
        if name in given:
            if given[name] != value:
                raise text_disagrees(name, value, given[name])
        else:
            values[name] = value
    return values


def text_disagrees(name: str, stated: Optional[int], value: Optional[int]) -> InvalidParameterError:
    """The error for a parameter that is ``value`` in the parameters but ``stated`` in the text."""
    return InvalidParameterError(
        f"the position text has {name}={stated}, but {name}={value} was given "
        f"(leave {name} out to take it from the text)"
    )


def parse_count(text: str) -> Optional[int]:
    """A canonical non-negative decimal that fits a u32 (no sign, no leading zeros), or None:
    the twin of the engine's ``notation::parse_count``."""
    # A u32 has at most 10 digits; a longer one is out of range before int() is asked (which
    # refuses strings of over 4300 digits).
    if text and len(text) <= 10 and text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0")):
        value = int(text)
        return value if value <= U32_MAX else None
    return None


def parse_placement(text: str, size: int, letters: str, what: str, hint: str = "") -> list[str]:
    """Reads a FEN-style placement of a ``size`` x ``size`` board: ``size`` ranks separated by
    '/', the top rank first, each a run of piece letters and digits ``1..size`` counting empty
    squares, never two digits in a row. Returns the letter on each square
    ``rank * size + file``, "." where it is empty (the twin of the engine's
    ``notation::parse_placement``, with the same messages)."""
    ranks = text.split("/")
    if len(ranks) != size:
        raise InvalidPositionError(f"{what} needs {size} ranks separated by '/', got {len(ranks)}")
    digits = "123456789"[:size]
    board = ["."] * (size * size)
    for i, rank_text in enumerate(ranks):
        rank = size - 1 - i
        file = 0
        last_was_digit = False
        for c in rank_text:
            if c in digits:
                if last_was_digit:
                    raise InvalidPositionError(f"rank {rank + 1} has two digits in a row: {quoted(rank_text)}")
                file += int(c)
                last_was_digit = True
                continue
            if c not in letters:
                suffix = f" ({hint})" if hint else ""
                raise InvalidPositionError(f"unexpected '{c}' in rank {rank + 1}: {quoted(rank_text)}{suffix}")
            if file < size:
                board[rank * size + file] = c
            file += 1
            last_was_digit = False
        if file != size:
            raise InvalidPositionError(f"rank {rank + 1} covers {file} squares, not {size}: {quoted(rank_text)}")
    return board


def write_placement(board: Sequence[str], size: int) -> str:
    """Writes a FEN-style placement from the letter on each square ("." where empty)."""
    ranks = []
    for rank in range(size - 1, -1, -1):
        out, empty = "", 0
        for c in board[rank * size : rank * size + size]:
            if c == ".":
                empty += 1
                continue
            if empty:
                out += str(empty)
                empty = 0
            out += c
        ranks.append(out + (str(empty) if empty else ""))
    return "/".join(ranks)


class Position(abc.ABC):
    """An immutable position. Subclasses set ``params``, ``current_player``, ``num_players``
    and ``outcome``, and implement the abstract methods."""

    params: dict[str, Optional[int]]
    current_player: int
    num_players: int
    outcome: Outcome

    _successors: Optional[dict[str, Position]] = None

    @abc.abstractmethod
    def _generate(self) -> dict[str, Position]:
        """Every legal move's text mapped to the position it leads to (empty when terminal)."""

    @abc.abstractmethod
    def text(self) -> str: ...

    @abc.abstractmethod
    def hash(self) -> int: ...

    @abc.abstractmethod
    def board_string(self) -> str: ...

    def successors(self) -> dict[str, Position]:
        if self._successors is None:
            self._successors = self._generate()
        return self._successors

    def explain_illegal(self, move: str) -> str:
        """Why ``move`` is not legal here; games override this to say more."""
        return f"{quoted(move)} is not a legal move here"

    def returns(self) -> list[float]:
        n = self.num_players
        if isinstance(self.outcome, int):
            return [1.0 if p == self.outcome else -1.0 / (n - 1) for p in range(n)]
        return [0.0] * n


def perft(position: Position, depth: int, bulk: bool = True) -> int:
    """Leaf count of the legal-move tree; with ``bulk`` the last ply is counted, not played.

    (The reference builds every successor position either way, so ``bulk`` changes little.)
    """
    if depth == 0:
        return 1
    # Not cached below the root: a cached tree would keep every visited position alive.
    successors = position._successors if position._successors is not None else position._generate()
    if depth == 1 and bulk:
        return len(successors)
    return sum(perft(child, depth - 1, bulk) for child in successors.values())


def require_str(text: object, what: str = "position text") -> str:
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, got {type(text).__name__}")
    return text


__all__ = [
    "InvalidPositionError",
    "Outcome",
    "Param",
    "Position",
    "max_plies",
    "parse_count",
    "parse_placement",
    "perft",
    "require_str",
    "resolve_params",
    "write_placement",
]

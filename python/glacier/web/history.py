"""A game's moves in the web app: the line played (with the moves undone, for redo), the
position shown somewhere along it, each move's notation and mover, and the record."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from glacier import play, records
from glacier.errors import IllegalMoveError, InvalidParameterError

__all__ = ["Line"]


class Line:
    """The moves of one game from ``start``: :attr:`moves` in the engine's notation,
    :attr:`written` as records write them, :attr:`movers` who made each, and :attr:`state`,
    the position shown after the first :attr:`cursor` of them (with the actions of an
    unfinished move, if any)."""

    def __init__(self, start: Any, moves: Sequence[str] = (), cursor: Optional[int] = None) -> None:
        self.game: str = start.game
        self.start = start.copy()
        self.state = start.copy(history=True)
        self.state.history_limit = None
        self.moves: list[str] = []
        self.written: list[str] = []
        self.movers: list[int] = []
        for move in moves:
            self._extend(move)
        self.goto(len(self.moves) if cursor is None else cursor)

    @property
    def cursor(self) -> int:
        """How many moves of the line the position shown has had."""
        return len(self.state.moves)

    @property
    def at_end(self) -> bool:
        return self.cursor == len(self.moves)

    def _extend(self, move: str) -> None:
        """Plays ``move`` at the end of the line (the state being there)."""
        self.written.append(play.notation(self.state, move))
        self.movers.append(self.state.current_player)
        self.state.play(move)
        self.moves.append(move)

    def clear_pending(self) -> bool:
        """Takes back the actions of an unfinished move; whether there were any."""
        had = bool(self.state.pending_actions)
        while self.state.pending_actions:
            self.state.undo_action()
        return had

    def goto(self, ply: Any) -> None:
        """Shows the position after ``ply`` moves of the line."""
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= len(self.moves):
            raise InvalidParameterError(f"ply must be a whole number from 0 to {len(self.moves)}, got {ply!r}")
        self.clear_pending()
        while self.cursor > ply:
            self.state.undo()
        while self.cursor < ply:
            self.state.play(self.moves[self.cursor])

    def replaces(self, move: str) -> int:
        """How many moves of the line playing ``move`` at the cursor would drop: none when it
        is the line's next move or the line ends here."""
        if self.at_end or self.moves[self.cursor] == move:
            return 0
        return len(self.moves) - self.cursor

    def completed(self) -> None:
        """The state has just completed a move at the cursor: the line follows it (the
        same move as the line's next one keeps the rest; another one replaces it)."""
        move = self.state.moves[-1]
        self.state.undo()
        if not self.at_end and self.moves[self.cursor] == move:
            self.state.play(move)
            return
        del self.moves[self.cursor :], self.written[self.cursor :], self.movers[self.cursor :]
        self._extend(move)

    def play(self, move: str) -> None:
        """Plays the whole ``move`` at the cursor (legal there, as the engine writes it)."""
        self.clear_pending()
        self.state.play(move)
        self.completed()

    def mover_at(self, ply: int) -> int:
        """The player to move after ``ply`` moves of the line."""
        return self.movers[ply] if ply < len(self.movers) else self.state_at(ply).current_player

    def state_at(self, ply: int) -> Any:
        state = self.start.copy()
        for move in self.moves[:ply]:
            state.play(move)
        return state

    def back_target(self, human: Sequence[bool]) -> int:
        """Where Undo goes: one move back, and past the computers' moves to a person's turn
        (``human[p]``: whether a person plays seat ``p``)."""
        if self.cursor == 0:
            raise IllegalMoveError("there is no move to undo")
        target = self.cursor - 1
        while target > 0 and not all(human) and not human[self.mover_at(target)]:
            target -= 1
        return target

    def forward_target(self, human: Sequence[bool]) -> int:
        """Where Redo goes: one move on, and past the computers' moves to a person's turn."""
        if self.at_end:
            raise IllegalMoveError("there is no move to redo")
        target = self.cursor + 1
        while target < len(self.moves) and not all(human) and not human[self.mover_at(target)]:
            target += 1
        return target

    def record(self, players: Sequence[str]) -> str:
        """The record of the whole line (the moves undone included)."""
        state = self.state_at(len(self.moves))
        return records.Record.of(state, list(players), Event="glacier serve").text()

    def numbers(self) -> list[Optional[str]]:
        """The move number before each move, as records number them: a number begins each
        round of the first player's moves (a chess game's from its start's move number);
        another player's first move shows ``n...``."""
        number = int(self.start.text().split(" ")[-1]) if self.game == records.CHESS else 1
        out: list[Optional[str]] = []
        last: Optional[int] = None
        for mover in self.movers:
            if mover == 0 and last not in (None, 0):
                number += 1
            if mover == 0 and last != 0:
                out.append(f"{number}.")
            elif mover != 0 and last is None:
                out.append(f"{number}...")
            else:
                out.append(None)
            last = mover
        return out

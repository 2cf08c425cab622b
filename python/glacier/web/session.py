"""The games the web app keeps in memory: one :class:`Session` per game, with its moves (and
the moves undone, for redo), the position shown, the seats (a person or a computer level),
the computer's turn in a worker thread and the analysis of the position shown.

The page knows no rules: :meth:`Session.view` gives it, for the position shown, what can be
clicked. Every legal action of the action API (``legal_actions``) becomes a gesture on the
board by its text (``action_to_string``): a move from one cell to another (a chess move, a
push, a step or jump, an E movement), a click on one cell (an Ice Cube Checkers slot), or a
button (a drop, a level, an exchange, ``stop``, ``no exchange``, ``pass``); actions that
share a gesture (the promotions of one pawn move) become buttons once it is made.

Everything that changes a session runs on the server's event loop; the worker threads (the
computer's search, the analysis) only read copies of states and report back.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

import anyio.to_thread

import glacier
from glacier import play, records, reference
from glacier.errors import GlacierError, IllegalMoveError, InvalidParameterError
from glacier.svg import View, render_position

__all__ = ["HUMAN", "Analysis", "Session", "gesture"]

#: The seat of a person (every other seat is a computer level of :data:`glacier.play.LEVELS`).
HUMAN = "human"

#: How many moves an analysis lists (and draws as arrows).
TOP_MOVES = 4
#: An analysis stops by itself after this long.
ANALYSIS_SECONDS = 120.0
#: The computers of a game nobody has looked at for this long stop (a page that was closed
#: polls no more); they go on when it is shown again.
UNWATCHED_SECONDS = 30.0


def gesture(game: str, text: str) -> tuple[str, ...]:
    """How a person makes the action named ``text``: ``("move", from, to)``, ``("cell",
    cell)`` or ``("choice",)`` (a button), as the game's reference module says (its
    ``gesture`` hook)."""
    return tuple(str(part) for part in reference.game_module(game).gesture(text))


@dataclass
class Analysis:
    """The engine's search of one position, run in slices in a worker thread."""

    ply: int
    generation: int
    running: bool = True
    simulations: int = 0
    seconds: float = 0.0
    values: list[float] = field(default_factory=list)
    top: list[dict[str, Any]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    error: Optional[str] = None
    updates: int = 0
    """Written by the worker thread alone (the session's own counter is the event loop's)."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    """Held while the worker writes, so that a view never sees "stopped" with the old count of
    updates (the page redraws only when the count changes)."""

    def snapshot(self, names: Sequence[str]) -> tuple[int, dict[str, Any]]:
        """The count of updates and what the page shows, read at one moment."""
        with self.lock:
            return self.updates, {
                "ply": self.ply,
                "running": self.running,
                "simulations": self.simulations,
                "seconds": round(self.seconds, 1),
                "values": [{"seat": name, "value": round(v, 3)} for name, v in zip(names, self.values)],
                "top": list(self.top),
                "error": self.error,
            }


class Session:
    """One game in the web app."""

    def __init__(
        self, start: Any, seats: Sequence[str], line: Sequence[str] = (), cursor: Optional[int] = None, seed: int = 0
    ) -> None:
        if len(seats) != start.num_players:
            raise InvalidParameterError(f"{start.game} has {start.num_players} seats, got {len(seats)} players")
        for seat in seats:
            if seat != HUMAN and seat not in play.LEVELS:
                raise InvalidParameterError(f"unknown player {seat!r}: {HUMAN} or a level ({', '.join(play.LEVELS)})")
        self.id = secrets.token_hex(8)
        self.game: str = start.game
        self.start = start.copy()
        self.seats = list(seats)
        self.names = list(play.seat_names(self.game, start.num_players))
        self.computers = {i: play.computer(s, self.game, seed + i) for i, s in enumerate(seats) if s != HUMAN}
        self.state = start.copy(history=True)
        self.state.history_limit = None
        self.line: list[str] = []
        self.written: list[str] = []  # the moves in the game's notation
        self.movers: list[int] = []
        for move in line:
            self._extend(move)
        self._goto(len(self.line) if cursor is None else cursor)
        humans = [i for i, s in enumerate(seats) if s == HUMAN]
        self.perspective: Optional[int] = humans[0] if len(humans) == 1 else None
        self.flipped = False
        self.version = 0
        self.generation = 0  # bumped whenever the moves or the position shown change
        self.closed = False
        self.thinking: Optional[asyncio.Task[None]] = None
        self.computer_error: Optional[str] = None
        self.analysis: Optional[Analysis] = None
        self._analysis_task: Optional[asyncio.Task[None]] = None
        self.touched = time.monotonic()
        self.seen = time.monotonic()  # when the game was last shown

    # --- moving along the line ------------------------------------------------------------

    @property
    def cursor(self) -> int:
        return len(self.state.moves)

    def _extend(self, move: str) -> None:
        """Plays ``move`` at the end of the line (the state being there)."""
        self.written.append(play.notation(self.state, move))
        self.movers.append(self.state.current_player)
        self.state.play(move)
        self.line.append(move)

    def _clear_pending(self) -> None:
        while self.state.pending_actions:
            self.state.undo_action()

    def _goto(self, ply: int) -> None:
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= len(self.line):
            raise InvalidParameterError(f"ply must be a whole number from 0 to {len(self.line)}, got {ply!r}")
        self._clear_pending()
        while self.cursor > ply:
            self.state.undo()
        while self.cursor < ply:
            self.state.play(self.line[self.cursor])

    def _changed(self) -> None:
        """The moves or the position shown changed: an analysis of the old one stops."""
        self.version += 1
        self.generation += 1
        self.touched = time.monotonic()
        if self.analysis is not None and self.analysis.running:
            self.stop_analysis()
        self._maybe_think()

    def _human_to_move(self) -> bool:
        return not self.state.is_terminal() and self.seats[self.state.current_player] == HUMAN

    def _move_done(self) -> None:
        """The state has just completed a move at the cursor: it replaces the line from there."""
        move = self.state.moves[-1]
        self.state.undo()
        del self.line[self.cursor :], self.written[self.cursor :], self.movers[self.cursor :]
        self._extend(move)

    def act(self, action: Any) -> None:
        """A person's action (an integer of the action API) at the position shown."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalMoveError(f"an action is a whole number, got {action!r}")
        self._check_human_turn()
        if action not in self.state.legal_actions():
            raise IllegalMoveError(f"action {action} is not legal here; legal: {self.state.legal_actions()}")
        played = self.cursor
        self.state.apply_action(action)
        if self.cursor > played:
            self._move_done()
        self._changed()

    def move(self, text: Any) -> None:
        """A person's whole move, as the game's notation (or SAN in chess) writes it."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move is a text, got {type(text).__name__}")
        self._check_human_turn()
        trial = self.state.copy(history=True)
        while trial.pending_actions:
            trial.undo_action()
        trial.play(play.read_move(trial, text))
        self.state = trial
        self.state.history_limit = None
        self._move_done()
        self._changed()

    def _check_human_turn(self) -> None:
        if self.state.is_terminal():
            raise IllegalMoveError("the game is over")
        if self.seats[self.state.current_player] != HUMAN:
            raise IllegalMoveError(f"{self.names[self.state.current_player]} is played by the computer")

    def cancel(self) -> None:
        """Takes back the actions of an unfinished move."""
        if self.state.pending_actions:
            self._clear_pending()
            self.version += 1

    def undo(self) -> None:
        """An unfinished move is taken back; else one ply, and past the computers' moves to
        a person's turn."""
        if self.state.pending_actions:
            self.cancel()
            return
        if self.cursor == 0:
            raise IllegalMoveError("there is no move to undo")
        target = self.cursor - 1
        while target > 0 and self.computers and self.seats[self._mover_at(target)] != HUMAN:
            target -= 1
        self._goto(target)
        self._changed()

    def redo(self) -> None:
        if self.cursor >= len(self.line):
            raise IllegalMoveError("there is no move to redo")
        target = self.cursor + 1
        while target < len(self.line) and self.computers and self.seats[self._mover_at(target)] != HUMAN:
            target += 1
        self._goto(target)
        self._changed()

    def goto(self, ply: Any) -> None:
        self._goto(ply)
        self._changed()

    def _mover_at(self, ply: int) -> int:
        """The player to move after ``ply`` plies of the line."""
        return self.movers[ply] if ply < len(self.movers) else self._state_at(ply).current_player

    def _state_at(self, ply: int) -> Any:
        state = self.start.copy()
        for move in self.line[:ply]:
            state.play(move)
        return state

    def flip(self) -> None:
        self.flipped = not self.flipped
        self.version += 1

    # --- the computer -----------------------------------------------------------------------

    def _maybe_think(self) -> None:
        if self.closed or self.thinking is not None or self.cursor != len(self.line) or self.state.is_terminal():
            return
        if time.monotonic() - self.seen > UNWATCHED_SECONDS:
            return
        if self.seats[self.state.current_player] == HUMAN:
            return
        try:
            self.thinking = asyncio.get_running_loop().create_task(self._think())
        except RuntimeError:  # no event loop (a session used outside the server)
            self.thinking = None

    async def _think(self) -> None:
        try:
            while not self.closed and self.cursor == len(self.line) and not self.state.is_terminal():
                player = self.state.current_player
                if self.seats[player] == HUMAN:
                    break
                generation = self.generation
                position = self.state.copy()
                computer = self.computers[player]

                def stop(generation: int = generation) -> bool:
                    unwatched = time.monotonic() - self.seen > UNWATCHED_SECONDS
                    return self.closed or self.generation != generation or unwatched

                try:
                    move = await anyio.to_thread.run_sync(computer.choose, position, stop)
                except play.Cancelled:
                    break
                if stop():
                    break
                self._clear_pending()
                self.state.play(move)
                self._move_done()
                self.version += 1
                self.generation += 1
                if self.analysis is not None and self.analysis.running:
                    self.stop_analysis()
        except (GlacierError, RuntimeError) as err:
            self.computer_error = f"the computer player failed: {err}"
            self.version += 1
        finally:
            self.thinking = None
        if not self.closed and self.cursor == len(self.line):
            self._maybe_think()  # a change made while the last search ran

    # --- analysis ---------------------------------------------------------------------------

    async def analyse(self) -> None:
        """Starts the engine's search of the position shown (whole moves: an unfinished
        move is left aside), updating :attr:`analysis` as it goes."""
        self.stop_analysis()
        position = self.state.copy()
        while position.pending_actions:
            position.undo_action()
        if position.is_terminal():
            raise IllegalMoveError("the game is over: there is nothing to analyse")
        analysis = Analysis(self.cursor, self.generation)
        self.analysis = analysis
        self.version += 1
        self._analysis_task = asyncio.get_running_loop().create_task(
            anyio.to_thread.run_sync(self._analyse, analysis, position)
        )

    def _analyse(self, analysis: Analysis, position: Any) -> None:
        searcher = play.default_search(self.game, seed=1)
        start = time.monotonic()
        try:
            while not (analysis.stop.is_set() or self.closed) and analysis.seconds < ANALYSIS_SECONDS:
                result = searcher.search(position, simulations=None, seconds=play.SLICE_SECONDS)
                total = sum(result.visits.values()) or 1
                top = []
                for move, visits in list(result.visits.items())[:TOP_MOVES]:
                    top.append(
                        {
                            "move": move,
                            "notation": play.notation(position, move),
                            "visits": visits,
                            "share": round(visits / total, 3),
                        }
                    )
                with analysis.lock:
                    analysis.simulations += result.simulations
                    analysis.values = list(result.values)
                    analysis.top = top
                    analysis.seconds = time.monotonic() - start
                    analysis.updates += 1
        except GlacierError as err:  # reported with the analysis, not lost in a worker thread
            with analysis.lock:
                analysis.error = str(err)
        finally:
            with analysis.lock:
                analysis.running = False
                analysis.updates += 1

    def stop_analysis(self) -> None:
        if self.analysis is not None:
            self.analysis.stop.set()
            self.version += 1

    def close(self) -> None:
        self.closed = True
        self.stop_analysis()

    # --- what the page shows ----------------------------------------------------------------

    def record(self) -> str:
        """The record of the whole game (the moves undone included, up to the last one)."""
        state = self._state_at(len(self.line))
        players = ["you" if s == HUMAN else f"glacier {s}" for s in self.seats]
        return records.Record.of(state, players, Event="glacier serve").text()

    def _clickable(self) -> dict[str, Any]:
        empty: dict[str, Any] = {"moves": {}, "cells": {}, "choices": [], "selected": None, "partial": []}
        if not self._human_to_move() or self.thinking is not None:
            return empty
        moves: dict[str, dict[str, list[dict[str, Any]]]] = {}
        cells: dict[str, int] = {}
        choices = []
        pieces = _pieces(self.state)
        for action in self.state.legal_actions():
            text = self.state.action_to_string(action)
            shape = gesture(self.game, text)
            if shape[0] == "move":
                entry: dict[str, Any] = {"action": action, "text": text}
                if pieces is not None:
                    entry["piece"] = pieces(shape[1], shape[2])
                moves.setdefault(shape[1], {}).setdefault(shape[2], []).append(entry)
            elif shape[0] == "cell":
                cells[shape[1]] = action
            else:
                choices.append({"action": action, "text": text})
        # The cells of an unfinished move (an action's name is the same in every position).
        partial: list[str] = []
        pending = self.state.pending_actions
        for action in pending:
            shape = gesture(self.game, self.state.action_to_string(action))
            partial += [c for c in shape[1:] if not partial or partial[-1] != c]
        # In the middle of a chain every jump starts from the latest landing: it stays selected.
        selected = next(iter(moves)) if pending and len(moves) == 1 else None
        return {"moves": moves, "cells": cells, "choices": choices, "selected": selected, "partial": partial}

    def _seat_views(self) -> list[dict[str, Any]]:
        goals = play.goals(self.state)
        notes = play.seat_notes(self.state)
        out = []
        for i, name in enumerate(self.names):
            out.append(
                {
                    "name": name,
                    "player": self.seats[i],
                    "goal": goals[i] if goals else None,
                    "note": notes[i],
                    "to_move": not self.state.is_terminal() and self.state.current_player == i,
                }
            )
        return out

    def view(self) -> dict[str, Any]:
        self.seen = time.monotonic()
        self._maybe_think()  # computers that stopped while nobody watched go on
        state = self.state
        arrows: tuple[Any, ...] = ()
        analysis = None
        updates = 0
        if self.analysis is not None:
            updates, analysis = self.analysis.snapshot(self.names)
            if self.analysis.ply == self.cursor and self.analysis.generation == self.generation:
                arrows = tuple(entry["move"] for entry in analysis["top"])
            else:
                analysis = None
        clickable = self._clickable()
        if len(clickable["partial"]) > 1:  # the way an unfinished move has gone so far
            arrows += (tuple(clickable["partial"]),)
        last = self.line[self.cursor - 1] if self.cursor else None
        view = View(last, arrows, self.perspective, self.flipped, True)
        svg = render_position(self.game, state.text(), state.params, view)
        numbers = _numbers(self.movers, self.game, self.start)
        moves = [
            {"ply": ply, "move": move, "text": text, "number": number, "seat": self.names[mover]}
            for ply, (move, text, number, mover) in enumerate(
                zip(self.line, self.written, numbers, self.movers), start=1
            )
        ]
        terminal = state.is_terminal()
        thinking = self.thinking is not None
        return {
            "id": self.id,
            "game": self.game,
            "title": glacier.game_spec(self.game).title,
            "params": state.params,
            # The page redraws when this changes: the session's changes and the analysis's.
            "version": f"{self.version}.{updates}",
            "ply": self.cursor,
            "plies": len(self.line),
            "moves": moves,
            "text": state.text(),
            "pending": [state.action_to_string(a) for a in state.pending_actions],
            "seats": self._seat_views(),
            "to_move": None if terminal else state.current_player,
            "status": play.result_text(state),
            "result": records.result_of(state),
            "reason": play.end_reason(state),
            "thinking": thinking,
            "error": self.computer_error,
            "can_undo": self.cursor > 0 or bool(state.pending_actions),
            "can_redo": self.cursor < len(self.line),
            "flipped": self.flipped,
            "clickable": clickable,
            "analysis": analysis,
            "svg": svg,
        }


def _pieces(state: Any) -> Optional[Callable[[str, str], str]]:
    """Where one cell may hold several pieces its player can move (E's stacks): which piece a
    move from one cell to another moves, as ``large, level 1`` (the game's ``piece_label``
    hook); None in the other games."""
    module = reference.game_module(state.game)
    if not hasattr(module, "piece_label"):
        return None
    position = reference.from_text(state.game, state.text(), **state.params).position
    return lambda frm, to: str(module.piece_label(position, frm, to))


def _numbers(movers: Sequence[int], game: str, start: Any) -> list[Optional[str]]:
    """The move number before each move, as records number them: a number begins each round
    of the first player's moves (a chess game's from its start's move number); another
    player's first move shows ``n...``."""
    number = int(start.text().split(" ")[-1]) if game == records.CHESS else 1
    out: list[Optional[str]] = []
    last: Optional[int] = None
    for mover in movers:
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

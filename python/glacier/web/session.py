"""The games the web app keeps in memory: one :class:`Session` per game, made of its line of
moves (:mod:`glacier.web.history`), its computer players (:mod:`glacier.web.computers`),
its analysis (:mod:`glacier.web.analysis`) and what the page is sent of it
(:mod:`glacier.web.view`).

Everything that changes a session runs on the server's event loop; the worker threads (the
computers' searches, the analysis's slices) only read copies of states and hand back what
they found. Every change bumps :attr:`Session.version` and wakes the pages that listen
(:meth:`Session.listen`: the app's event stream).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
import zlib
from typing import Any, Optional, Sequence

from glacier import play
from glacier.errors import GlacierError, IllegalMoveError, InvalidParameterError

from . import view as views
from .analysis import Analyst
from .computers import Computers
from .history import Line
from .view import gesture

__all__ = ["HUMAN", "LIVE", "UNWATCHED_SECONDS", "Session", "gesture"]

#: The seat of a person (every other seat is a computer level of :data:`glacier.play.LEVELS`).
HUMAN = "human"

#: The keys of the view that an event stream sends (see :meth:`Session.live`).
LIVE = ("id", "version", "position", "thinking", "error", "analysing", "analysis", "arrows")

#: The computers and the analysis of a game no page has shown for this long stop (a page
#: that was closed listens no more); the computers go on when it is shown again.
UNWATCHED_SECONDS = 30.0


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
        self.seats = list(seats)
        self.seed = seed
        self.names = list(play.seat_names(self.game, start.num_players))
        self.humans = [seat == HUMAN for seat in seats]
        self.computers = Computers(self.game, [None if s == HUMAN else s for s in seats], seed)
        self.line = Line(start, line, cursor)
        humans = [i for i, s in enumerate(seats) if s == HUMAN]
        self.perspective: Optional[int] = humans[0] if len(humans) == 1 else None
        self.flipped = False
        self.version = 0
        self.generation = 0  # bumped whenever the moves or the position shown change
        self.closed = False
        self.thinking: Optional[asyncio.Task[None]] = None
        self.computer_error: Optional[str] = None
        self.analyst = Analyst(self.game, self._analysis_changed, self.watched)
        self.created = time.monotonic()
        self.seen = self.created  # when a page (or a GET) last showed the game
        self.shown_by_page = False
        self.watchers = 0  # pages listening to the game's events now
        self._listeners: set[asyncio.Event] = set()
        self._view_cache: Optional[tuple[tuple[Any, ...], dict[str, Any]]] = None

    @property
    def state(self) -> Any:
        """The position shown (with the actions of an unfinished move, if any)."""
        return self.line.state

    @property
    def cursor(self) -> int:
        return self.line.cursor

    @property
    def start(self) -> Any:
        return self.line.start

    # --- who is watching --------------------------------------------------------------------

    def watched(self) -> bool:
        """Whether a page shows the game now or did within :data:`UNWATCHED_SECONDS`."""
        return self.watchers > 0 or time.monotonic() - self.seen <= UNWATCHED_SECONDS

    def last_shown(self) -> float:
        """When the game was last shown (now, while a page listens)."""
        return time.monotonic() if self.watchers else self.seen

    def shown(self) -> None:
        """A page (or a program's GET) shows the game: computers that stopped for want of a
        watcher go on."""
        self.seen = time.monotonic()
        self.shown_by_page = True
        self._maybe_think()

    def listen(self) -> asyncio.Event:
        """An event set at every change, for a page's stream (:meth:`unlisten` it after)."""
        event = asyncio.Event()
        self._listeners.add(event)
        self.watchers += 1
        self.shown()
        return event

    def unlisten(self, event: asyncio.Event) -> None:
        self._listeners.discard(event)
        self.watchers -= 1
        self.seen = time.monotonic()

    def _notify(self) -> None:
        self.version += 1
        for event in self._listeners:
            event.set()

    # --- moving along the line ------------------------------------------------------------

    def _moved(self) -> None:
        """The moves or the position shown changed: the analysis goes on with the new one,
        a computer to move starts thinking."""
        self.generation += 1
        self._notify()
        if self.analyst.on:
            self.analyst.follow(self._whole_position(), self.cursor, self.generation)
        self._maybe_think()

    def _whole_position(self) -> Any:
        """The position shown without the actions of an unfinished move."""
        position = self.state.copy()
        while position.pending_actions:
            position.undo_action()
        return position

    def _check_human_turn(self) -> None:
        if self.state.is_terminal():
            raise IllegalMoveError("the game is over")
        if not self.humans[self.state.current_player]:
            raise IllegalMoveError(f"{self.names[self.state.current_player]} is played by the computer")

    def act(self, action: Any) -> None:
        """A person's action (an integer of the action API) at the position shown."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalMoveError(f"an action is a whole number, got {action!r}")
        self._check_human_turn()
        legal = self.state.legal_actions()
        if action not in legal:
            raise IllegalMoveError(f"action {action} is not legal here; legal: {legal}")
        played = self.cursor
        self.state.apply_action(action)
        if self.cursor > played:
            self.line.completed()
            self._moved()
        else:
            self._notify()  # a step of an unfinished move: the position of whole moves is the same

    def move(self, text: Any) -> None:
        """A person's whole move, as the game's notation (or SAN in chess) writes it."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move is a text, got {type(text).__name__}")
        self._check_human_turn()
        self.line.play(play.read_move(self._whole_position(), text))
        self._moved()

    def cancel(self) -> None:
        """Takes back the actions of an unfinished move."""
        if self.line.clear_pending():
            self._notify()

    def undo(self) -> None:
        """An unfinished move is taken back; else one ply, and past the computers' moves to
        a person's turn."""
        if self.state.pending_actions:
            self.cancel()
            return
        self.line.goto(self.line.back_target(self.humans))
        self._moved()

    def redo(self) -> None:
        self.line.goto(self.line.forward_target(self.humans))
        self._moved()

    def goto(self, ply: Any) -> None:
        self.line.goto(ply)
        self._moved()

    def flip(self) -> None:
        self.flipped = not self.flipped
        self._notify()

    # --- the computers ----------------------------------------------------------------------

    def _maybe_think(self) -> None:
        if self.closed or self.thinking is not None or not self.line.at_end or self.state.is_terminal():
            return
        if not self.watched() or not self.computers.plays(self.state.current_player):
            return
        try:
            self.thinking = asyncio.get_running_loop().create_task(self._think())
        except RuntimeError:  # no event loop (a session used outside the server)
            self.thinking = None
            return
        self._notify()

    async def _think(self) -> None:
        told = False  # whether the page has been told that the thinking ended
        try:
            while not self.closed and self.line.at_end and not self.state.is_terminal():
                player = self.state.current_player
                if not self.computers.plays(player):
                    break
                generation = self.generation

                def stop(generation: int = generation) -> bool:
                    return self.closed or self.generation != generation or not self.watched()

                try:
                    move = await self.computers.choose(player, self._whole_position(), stop)
                except play.Cancelled:
                    break
                if stop():
                    break
                self.line.play(move)
                if self.state.is_terminal() or not self.computers.plays(self.state.current_player):
                    self.thinking = None  # the move and the end of the thinking in one change
                    told = True
                self._moved_by_computer()
        except (GlacierError, RuntimeError) as err:
            self.computer_error = f"the computer player failed: {err}"
            told = False
        finally:
            self.thinking = None
            if not self.closed and not told:
                self._notify()
        if not self.closed and self.line.at_end:
            self._maybe_think()  # a change made while the last search ran

    def _moved_by_computer(self) -> None:
        self.generation += 1
        self._notify()
        if self.analyst.on:
            self.analyst.follow(self._whole_position(), self.cursor, self.generation)

    # --- analysis ---------------------------------------------------------------------------

    def analyse(self) -> None:
        """Turns the analysis on: the engine searches the position shown (whole moves: an
        unfinished move is left aside), and each position shown after it, until stopped."""
        position = self._whole_position()
        if position.is_terminal():
            raise IllegalMoveError("the game is over: there is nothing to analyse")
        self.analyst.start(position, self.cursor, self.generation)
        self._notify()

    def stop_analysis(self) -> None:
        self.analyst.stop()
        self._notify()

    def _analysis_changed(self) -> None:
        if not self.closed:
            self._notify()

    def close(self) -> None:
        self.closed = True
        self.analyst.close()
        for event in self._listeners:
            event.set()

    # --- what the page shows ----------------------------------------------------------------

    def record(self) -> str:
        """The record of the whole game (the moves undone included, up to the last one)."""
        return self.line.record(["you" if s == HUMAN else f"glacier {s}" for s in self.seats])

    def rematch_seats(self) -> list[str]:
        """The seats of a rematch: each player moves one seat on (two players swap)."""
        return self.seats[-1:] + self.seats[:-1]

    def _human_to_move(self) -> bool:
        return not self.state.is_terminal() and self.humans[self.state.current_player]

    def _position_view(self) -> dict[str, Any]:
        """The parts of the view that only change with the moves, the position shown and
        the turn of the board (kept until one of those changes)."""
        state = self.state
        line = self.line
        key = (self.generation, tuple(state.pending_actions), self.flipped, self.thinking is not None, len(line.moves))
        if self._view_cache is not None and self._view_cache[0] == key:
            return self._view_cache[1]
        params = tuple(sorted(state.params.items()))
        if self._human_to_move() and self.thinking is None:
            continuing = None
            if not line.at_end:
                continuing = list(self._whole_position().move_to_actions(line.moves[self.cursor]))
            clickable = views.clickable(state, continuing)
        else:
            clickable = views.EMPTY
        last = line.moves[self.cursor - 1] if self.cursor else None
        svg = views.board_markup(
            self.game, state.text(), params, last, tuple(clickable["partial"]), self.perspective, self.flipped
        )
        numbers = line.numbers()
        moves = [
            {"ply": ply, "move": move, "text": text, "number": number, "seat": self.names[mover], "mover": mover}
            for ply, (move, text, number, mover) in enumerate(
                zip(line.moves, line.written, numbers, line.movers), start=1
            )
        ]
        terminal = state.is_terminal()
        part = {
            "params": state.params,
            "ply": self.cursor,
            "plies": len(line.moves),
            "moves": moves,
            "text": state.text(),
            "pending": [state.action_to_string(a) for a in state.pending_actions],
            "seats": views.seat_views(state, self.names, self.seats),
            "to_move": None if terminal else state.current_player,
            **views.result_of(state),
            "over": terminal,
            "can_undo": self.cursor > 0 or bool(state.pending_actions),
            "can_redo": not line.at_end,
            "flipped": self.flipped,
            "clickable": clickable,
            "svg": svg,
        }
        part["position"] = f"{self.id}.{zlib.crc32(json.dumps(part, sort_keys=True).encode()):08x}"
        self._view_cache = (key, part)
        return part

    def live(self) -> dict[str, Any]:
        """What a page's event stream sends at every change: the parts of the view that
        change by themselves (the thinking, the analysis), and ``position``, which names the
        rest (a page whose ``position`` differs asks for the whole view)."""
        view = self.view()
        return {key: view[key] for key in LIVE}

    def view(self) -> dict[str, Any]:
        """Everything the page shows of the game, as JSON."""
        part = self._position_view()
        analysis = None
        arrows = ""
        current = self.analyst.current
        if current is not None and current.ply == self.cursor and current.generation == self.generation:
            analysis = {**current.shown(self.names), "on": self.analyst.on}
            moves = tuple(entry["move"] for entry in current.top)
            params = tuple(sorted(self.state.params.items()))
            arrows = views.arrows_markup(
                self.game, self._whole_position().text(), params, moves, self.perspective, self.flipped
            )
        return {
            "id": self.id,
            "game": self.game,
            "title": views.title(self.game),
            # Every change bumps it: the page shows a view only if it is newer than its own.
            "version": self.version,
            **part,
            "thinking": self.thinking is not None,
            "error": self.computer_error,
            "analysing": self.analyst.on,
            "analysis": analysis,
            "arrows": arrows,
        }

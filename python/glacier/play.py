"""Playing a game against the computer: what the terminal game (``glacier play``) and the web
app (``glacier serve``) both show a person, and the computer players they both use.

- :func:`levels`, :func:`computer`: the computer players a person chooses by name
  (``easy``, ``medium``, ``hard``, ``strongest``): each game's facts say which player each
  level is, chosen and ordered by the game's rating ladder, whose ratings they show;
- :func:`seat_names`, :func:`goals`: who plays which side, and in E which territory each
  seat must fill;
- :func:`end_reason`, :func:`result_text`: why a finished game ended, derived from the state;
- :func:`notation`, :func:`read_move`: moves as a person writes them (SAN in chess, an E
  movement without its level when only one piece can make it);
- :func:`run`: the terminal game itself.

What is particular to a game (its end reasons, seat notes, goals, shorter ways of writing a
move) each game's reference module says, through the play hooks that
:mod:`glacier.reference._base` lists; this module asks them for every game alike.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, Optional

from . import _native, ratings, records, reference, search
from .errors import GlacierError, IllegalMoveError, InvalidParameterError
from .players import LEVELS, MCTS_DEFAULTS, STRONGEST, LevelPlayer, from_spec, level_spec
from .players import SLICE_SECONDS as SLICE
from .players import levels as players_levels

__all__ = [
    "DEFAULT_LEVEL",
    "LEVEL_NAMES",
    "Cancelled",
    "Computer",
    "Level",
    "PlayerComputer",
    "computer",
    "default_search",
    "describe",
    "end_reason",
    "goals",
    "levels",
    "notation",
    "read_move",
    "result_text",
    "run",
    "seat_names",
    "seat_notes",
    "seat_number",
]

#: Moves from square to square, as the game that plays chess (records.CHESS) also reads them.
_UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")


class Cancelled(Exception):
    """A computer's search was stopped before it chose a move (its game was closed)."""


class Computer:
    """A computer player: ``choose(state, stop)`` returns a legal move of ``state`` (left
    unchanged), asking ``stop()`` now and then and raising :class:`Cancelled` when it says
    so; ``summary()`` says what the latest search did."""

    name = "computer"

    def choose(self, state: Any, stop: Callable[[], bool] = lambda: False) -> str:
        raise NotImplementedError

    def summary(self) -> str:
        return ""


def default_search(game: str, seed: int = 0) -> search.MCTS:
    """The game's default MCTS searcher (:data:`glacier.players.MCTS_DEFAULTS`: the evaluation
    that measured strongest), as the levels and the web app's analysis use it."""
    return search.MCTS(game, seed=seed, **MCTS_DEFAULTS.get(game, {}))


#: The analysis of the web app searches in slices of at most this long, so that a closed
#: game stops it soon.
SLICE_SECONDS = SLICE


def describe(spec: str) -> str:
    """A player spec (:func:`glacier.players.from_spec`) in words: ``mcts:0.2s`` is "tree
    search, 0.2 s a move"."""
    kind, _, rest = spec.partition(":")
    parts = rest.split(":") if rest else []
    budget = ""
    if parts and kind in ("mcts", "alphabeta", "baseline"):
        b = parts.pop(0)
        budget = f", {b[:-1]} s a move" if b.endswith("s") else f", {int(b):,} simulations a move"
        if kind == "alphabeta" and not b.endswith("s"):
            budget = f" to depth {b}"
    if kind == "mcts":
        evaluation = {"rollout": " with random playouts", "heuristic": " with the game's heuristic"}
        words = "tree search" + "".join(evaluation.get(p, "") for p in parts)
    elif kind == "alphabeta":
        net = any(p.startswith("net=") for p in parts)
        words = "alpha-beta" + (" with the learned evaluation glacier ships" if net else "")
    elif kind == "baseline":
        words = "tree search with the net glacier ships"
    elif kind == "flat":
        return f"flat Monte Carlo, {int(parts[0]):,} playouts a move"
    elif kind == "random":
        return "uniformly random moves"
    else:
        return spec
    return words + budget


@dataclass(frozen=True)
class Level:
    """A level a person may choose in a game: its name, the player it is (a spec of
    :func:`glacier.players.from_spec`, the strongest one resolved), that player in words, and
    its rating in the game's shipped ladder (None where it has none)."""

    name: str
    spec: str
    summary: str
    rating: Optional[ratings.Rating]

    def describe(self) -> str:
        """The level in a line: ``hard: alpha-beta, 0.2 s a move (Elo +1450 ± 60)``."""
        if self.rating is None:
            return f"{self.name}: {self.summary}"
        half = (self.rating.high - self.rating.low) / 2
        return f"{self.name}: {self.summary} (Elo {self.rating.elo:+.0f} ± {half:.0f})"


#: Every level name some game has, weakest first (what each is depends on the game).
LEVEL_NAMES: tuple[str, ...] = tuple(
    dict.fromkeys(name for table in LEVELS.values() for named in table.values() for name, _ in named)
)

#: The level played when none is chosen.
DEFAULT_LEVEL = "medium"


def levels(game: str, num_players: int = 2) -> list[Level]:
    """The levels of ``game`` played by ``num_players``, weakest first, each with what it is
    and its rating: the game's facts name them (``glacier.game_spec(game).levels``) and its
    rating ladder orders them (docs/strength.md)."""
    shipped = ratings.shipped(game, num_players)
    rated = {} if shipped is None else shipped[1]
    found = []
    for name, _ in players_levels(game, num_players):
        spec = level_spec(game, num_players, name)
        summary = describe(spec)
        if name == STRONGEST:
            summary = f"the highest-rated player: {summary}"
        found.append(Level(name, spec, summary, rated.get(spec)))
    return found


def computer(level: str, game: str, seed: Optional[int] = None, num_players: int = 2) -> Computer:
    """The computer player of ``level`` (one of :func:`levels`) for ``game`` played by
    ``num_players``."""
    spec = level_spec(game, num_players, level)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    return PlayerComputer(from_spec(spec, seed), name=level)


# --- who plays what ---------------------------------------------------------------------------


def seat_names(game: str, num_players: int = 2) -> tuple[str, ...]:
    """Each seat's name: White and Black, Red and Green, E's territory colours."""
    return records.seat_names(game, num_players)


def _twin(state: Any) -> tuple[ModuleType, Any]:
    """The reference module of ``state``'s game, which holds its play hooks, and ``state``'s
    position read into it."""
    module = reference.game_module(state.game)
    return module, reference.from_text(state.game, state.text(), **state.params).position


def goals(state: Any) -> Optional[list[str]]:
    """In E, the colour of the territory each seat must fill (None in games without goals)."""
    hook = getattr(reference.game_module(state.game), "goals", None)
    return None if hook is None else [str(goal) for goal in hook(state.num_players)]


def seat_notes(state: Any) -> list[str]:
    """A short line per seat of what the position says about it: captures in Kuba, pieces
    in the Court in King's Court, cups controlled in Ice Cube Checkers, the goal in E."""
    module, position = _twin(state)
    return [str(note) for note in module.seat_notes(position)]


# --- why a game ended -------------------------------------------------------------------------


def end_reason(state: Any) -> Optional[str]:
    """Why the finished game of ``state`` ended (None while it goes on), judged from its
    position as the rules page of the game orders the checks: ``checkmate``, ``seven Reds
    captured``, ``no Green piece left in the Court``, ``every pyramid home``, ``the ply
    limit``, ..."""
    if not state.is_terminal():
        return None
    module, position = _twin(state)
    return str(module.end_reason(position))


def result_text(state: Any) -> str:
    """The result in words with its reason (``White wins: checkmate``), or who is to move."""
    names = seat_names(state.game, state.num_players)
    if not state.is_terminal():
        return f"{names[state.current_player]} to move"
    returns = state.returns()
    winner = next((p for p, r in enumerate(returns) if r > 0), None)
    head = "draw" if winner is None else f"{names[winner]} wins"
    return f"{head}: {end_reason(state)}"


# --- moves as people write them ---------------------------------------------------------------


def notation(state: Any, move: str) -> str:
    """``move`` (legal in ``state``) as records write it: SAN in chess, else as played."""
    if state.game == records.CHESS:
        return _native.chess_san(state.text(), move, **state.params)
    return move


def read_move(state: Any, text: str) -> str:
    """The legal move of ``state`` that a person means by ``text``: the move itself; in chess
    also SAN (``Nf3``, ``O-O``, ``e8=Q``); in E also a movement written without its level
    (``i6-g6``, ``i6-g6xg6/1=h5/1``): the pieces of a stack its player may move differ in
    size, so only one of them can make it. Raises
    :class:`glacier.errors.IllegalMoveError` saying why otherwise."""
    text = text.strip()
    legal: list[str] = state.legal_moves()
    if text in legal:
        return text
    if state.game == records.CHESS:
        try:
            return _native.chess_uci(state.text(), text, **state.params)
        except GlacierError as err:
            if not _UCI.fullmatch(text):
                raise IllegalMoveError(f"{err} (moves are written in SAN, like Nf3, or from-to, like g1f3)") from None
    if hasattr(reference.game_module(state.game), "read_move"):
        module, position = _twin(state)
        meant = module.read_move(position, text)
        if meant is not None:
            return str(meant)
    state.play(text)  # raises the engine's own explanation
    state.undo()
    return text


# --- the terminal game ------------------------------------------------------------------------


class PlayerComputer(Computer):
    """A player of :mod:`glacier.players` (anything with ``choose(state)`` and ``name``) as a
    :class:`Computer`, named ``name`` (the player's own name by default). A move chosen
    after ``stop()`` turned true is not played: :class:`Cancelled` is raised instead."""

    def __init__(self, player: Any, name: Optional[str] = None) -> None:
        self.player = player
        self.name = name or str(getattr(player, "name", "computer"))

    def choose(self, state: Any, stop: Callable[[], bool] = lambda: False) -> str:
        player = self.player.player_for(state) if isinstance(self.player, LevelPlayer) else self.player
        seconds = getattr(player, "seconds", None)
        until = getattr(player, "choose_until", None)
        if callable(until) and seconds:
            # A search for a time is made in slices, so that stop() is heard soon.
            found = until(state, seconds, stop)
            if found is None:
                raise Cancelled
            return str(found)
        move = str(player.choose(state))
        if stop():
            raise Cancelled
        return move

    def summary(self) -> str:
        last = getattr(self.player, "last", None)
        if last is None:
            return ""
        if hasattr(last, "simulations"):
            return f"{last.simulations:,} simulations in {last.seconds:.1f} s"
        mate = f", mate in {last.mate} plies" if last.mate else ""
        return f"depth {last.depth} in {last.seconds:.1f} s, score {last.score:+.2f}{mate}"


def seat_number(game: str, num_players: int, seat: str) -> int:
    """The player number of ``seat``: a number, or a seat name (``Black``, ``green``)."""
    names = [n.lower() for n in seat_names(game, num_players)]
    if seat.isdigit() and int(seat) < num_players:
        return int(seat)
    if seat.lower() in names:
        return names.index(seat.lower())
    raise InvalidParameterError(
        f"{seat!r} is no seat of {game} with {num_players} players: {', '.join(seat_names(game, num_players))} "
        f"or 0..{num_players - 1}"
    )


def _introduce(state: Any, seat: int, computers: dict[int, Computer], echo: Callable[[str], None]) -> None:
    names = seat_names(state.game, state.num_players)
    targets = goals(state)
    you = f"You are {names[seat]}" + (f" (player {seat})" if state.num_players > 2 else "")
    echo(you + (f"; your goal: fill the {targets[seat]} territory." if targets else "."))
    for player, computer_player in sorted(computers.items()):
        goal = f", goal: the {targets[player]} territory" if targets else ""
        echo(f"{names[player]} (player {player}) is the computer ({computer_player.name}){goal}.")


def _board(state: Any, last: Optional[tuple[int, str]], echo: Callable[[str], None]) -> None:
    echo("")
    echo(str(state))
    legend = getattr(reference.game_module(state.game), "legend", None)
    if legend is not None:
        echo(str(legend(state.num_players)))
    if last is not None:
        mover, written = last
        echo(f"last move: {seat_names(state.game, state.num_players)[mover]} {written}")


def run(
    state: Any,
    seat: int,
    computers: dict[int, Computer],
    save: Callable[[Any], None],
    prompt: Callable[[str], str],
    echo: Callable[[str], None] = print,
) -> Any:
    """Plays ``state`` in the terminal: the person at ``seat`` types moves at ``prompt``, the
    ``computers`` play the other seats. At the end, or when the person leaves (``quit``,
    Ctrl-C, the end of the input), ``save(state)`` is offered the game if any move was
    played. Returns the state."""
    names = seat_names(state.game, state.num_players)
    _introduce(state, seat, computers, echo)
    last: Optional[tuple[int, str]] = None
    try:
        while not state.is_terminal():
            _board(state, last, echo)
            mover = state.current_player
            if mover != seat:
                echo(f"{names[mover]} ({computers[mover].name}) is thinking...")
                move = computers[mover].choose(state)
                written = notation(state, move)
                summary = computers[mover].summary()
                shown = written if written == move else f"{written} ({move})"
                echo(f"{names[mover]} plays {shown}" + (f" ({summary})" if summary else ""))
                state.play(move)
                last = (mover, written)
                continue
            entry = prompt(f"your move, {names[seat]}").strip()
            if entry in ("quit", "exit"):
                break
            if entry in ("moves", "?", "help"):
                echo("legal moves: " + " ".join(state.legal_moves()))
                echo("type a move, 'moves', 'undo' (takes back your last move) or 'quit'")
                continue
            if entry == "undo":
                if not state.moves:
                    echo("nothing to undo")
                    continue
                state.undo()
                while state.moves and state.current_player != seat:
                    state.undo()
                last = None
                continue
            try:
                entry.encode("utf-8")
                state.play(read_move(state, entry))
                last = None
            except UnicodeEncodeError:
                # Bytes that are not UTF-8 (kept as surrogates by the terminal's decoding) as \xNN.
                shown = entry.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
                echo(f"'{shown}' is not UTF-8 text\nlegal moves: " + " ".join(state.legal_moves()))
            except IllegalMoveError as err:
                echo(f"{err}\nlegal moves: " + " ".join(state.legal_moves()))
    except (KeyboardInterrupt, EOFError) as err:
        echo("")
        echo("interrupted." if isinstance(err, KeyboardInterrupt) else "the input ended.")
        if state.moves:
            save(state)
        return state
    if state.is_terminal():
        _board(state, last, echo)
        returns = state.returns()
        verdict = "you win" if returns[seat] > 0 else "you lose" if any(r > 0 for r in returns) else "a draw"
        echo(f"{result_text(state)} ({verdict})")
    if state.moves:
        save(state)
    return state

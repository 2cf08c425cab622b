"""Rating ladders: a round-robin among a game's players, and ratings fitted to its results.

A ladder seats every *table* of its players (every set of as many players as the game has
seats: every pair in a two-player game) for ``games`` games, rotating the seats from one game
to the next, each game from a few random opening plies. Its results are one line per game
in a JSON-lines file, so that a ladder stopped (by ``minutes``, Ctrl-C or a crash) goes on
where it stopped when run again, and a ladder given more players plays only the new tables.

Ratings come from the Luce choice model, which says that a player ``i`` at a table ``T``
wins with probability ``g_i / sum(g_j for j in T)``: this is exactly what one game says
(every game of glacier has one winner or none), for two players it is Bradley-Terry, the
model behind Elo, and its maximum-likelihood fit works for E's tables of 3 to 6 as for
pairs. A drawn game counts as a fraction of a win for each player at the table. Ratings are
Elo points, ``400 * log10(g_i)``, with the anchor (``random`` by default) at 0, and 95%
intervals from the fit's Fisher information. As BayesElo does, every two players who met
also share one virtual draw, so that a player who won every game gets a finite rating
(the interval then says how little is known above it).

>>> from glacier import ladder
>>> ratings = ladder.fit([ladder.Outcome(("a", "random"), "a")] * 3, anchor="random")
>>> round(ratings["a"].elo)
338
"""

from __future__ import annotations

import json
import math
import os
import random
import tempfile
import threading
import time
import zlib
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence, Union

import numpy as np

from . import _native
from .errors import InvalidParameterError, LadderResultsError

__all__ = [
    "FORMAT",
    "LadderGame",
    "LadderResults",
    "Outcome",
    "Rating",
    "Settings",
    "default_players",
    "fit",
    "read",
    "run",
    "schedule",
    "table",
]

#: The version of the results file's format (its first line says it).
FORMAT = 1
#: z for a two-sided 95% interval.
Z95 = 1.959963984540054
#: Elo points per natural-log unit of strength.
ELO_PER_NAT = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Outcome:
    """One game for the fit: the players at the table and the winner (None: nobody won)."""

    players: tuple[str, ...]
    winner: Optional[str]


@dataclass(frozen=True)
class Rating:
    """A player's fitted rating, in Elo points above the anchor, with its 95% interval."""

    player: str
    elo: float
    low: float
    high: float
    games: int
    """The games it played (virtual draws not counted)."""
    score: float
    """Its mean score against each other player at its tables (1 a win, 0.5 when neither of
    the two won, 0 a loss), game by game."""


def fit(games: Iterable[Outcome], anchor: str = "random", prior_draws: float = 1.0) -> dict[str, Rating]:
    """The Luce-model ratings of the players of ``games`` (see the module's docs), with
    ``anchor`` at 0 and ``prior_draws`` virtual draws between every two players who met.
    A player with no path of games to the anchor cannot be rated and is left out."""
    outcomes = list(games)
    names = sorted({p for g in outcomes for p in g.players})
    if anchor not in names:
        raise InvalidParameterError(f"the anchor {anchor!r} played no game")
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    # Group the games by table: a table's wins per player (draws shared) and its game count.
    tables: dict[tuple[int, ...], np.ndarray] = {}
    played = np.zeros(n)
    pair_score = np.zeros((n, n))
    pair_games = np.zeros((n, n))
    for g in outcomes:
        if len(set(g.players)) != len(g.players) or len(g.players) < 2:
            raise InvalidParameterError(f"a game needs two or more distinct players, got {g.players}")
        if g.winner is not None and g.winner not in g.players:
            raise InvalidParameterError(f"the winner {g.winner!r} is not among {g.players}")
        seats = tuple(sorted(index[p] for p in g.players))
        wins = tables.setdefault(seats, np.zeros(n + 1))
        wins[n] += 1.0
        if g.winner is None:
            wins[list(seats)] += 1.0 / len(seats)
        else:
            wins[index[g.winner]] += 1.0
        for i in seats:
            played[i] += 1
            for j in seats:
                if i != j:
                    pair_games[i, j] += 1
                    pair_score[i, j] += 1.0 if g.winner == names[i] else 0.0 if g.winner == names[j] else 0.5
    for i, j in combinations(range(n), 2):
        if pair_games[i, j] and prior_draws > 0:
            wins = tables.setdefault((i, j), np.zeros(n + 1))
            wins[[i, j]] += prior_draws / 2
            wins[n] += prior_draws
    connected = _component(n, list(tables), index[anchor])
    members = sorted(connected)
    local = {g: k for k, g in enumerate(members)}
    rows = [
        ([local[i] for i in seats], wins[list(seats)], wins[n])
        for seats, wins in tables.items()
        if seats[0] in connected
    ]
    theta = _maximise(len(members), rows, local[index[anchor]])
    covariance = _covariance(len(members), rows, theta, local[index[anchor]])
    ratings = {}
    for name, i in index.items():
        if i not in connected:
            continue
        k = local[i]
        elo = ELO_PER_NAT * theta[k]
        half = Z95 * ELO_PER_NAT * math.sqrt(max(covariance[k, k], 0.0))
        opponents = pair_games[i].sum()
        score = float(pair_score[i].sum() / opponents) if opponents else 0.5
        ratings[name] = Rating(name, float(elo), float(elo - half), float(elo + half), int(played[i]), score)
    return ratings


def _component(n: int, tables: Sequence[tuple[int, ...]], start: int) -> set[int]:
    neighbours: list[set[int]] = [set() for _ in range(n)]
    for seats in tables:
        for i in seats:
            neighbours[i].update(seats)
    seen, todo = {start}, [start]
    while todo:
        for j in neighbours[todo.pop()] - seen:
            seen.add(j)
            todo.append(j)
    return seen


Rows = list[tuple[list[int], np.ndarray, float]]


def _maximise(n: int, rows: Rows, anchor: int) -> np.ndarray:
    """The maximum-likelihood log-strengths (the anchor's 0): Hunter's MM iterations, which
    always climb, then Newton's steps to polish."""
    wins = np.zeros(n)
    for seats, w, _ in rows:
        wins[seats] += w
    strength = np.ones(n)
    for _ in range(10_000):
        denominator = np.zeros(n)
        for seats, _, count in rows:
            denominator[seats] += count / strength[seats].sum()
        updated = wins / denominator
        updated /= updated[anchor]
        done = np.max(np.abs(np.log(updated) - np.log(strength))) < 1e-10
        strength = updated
        if done:
            break
    theta: np.ndarray = np.log(strength)
    for _ in range(50):
        gradient, hessian = _derivatives(n, rows, theta)
        keep = [i for i in range(n) if i != anchor]
        step = np.linalg.solve(-hessian[np.ix_(keep, keep)], gradient[keep])
        theta[keep] += step
        if np.max(np.abs(step)) < 1e-12:
            break
    return theta


def _derivatives(n: int, rows: Rows, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    gradient = np.zeros(n)
    hessian = np.zeros((n, n))
    for seats, w, count in rows:
        e = np.exp(theta[seats] - theta[seats].max())
        p = e / e.sum()
        gradient[seats] += w - count * p
        hessian[np.ix_(seats, seats)] -= count * (np.diag(p) - np.outer(p, p))
    return gradient, hessian


def _covariance(n: int, rows: Rows, theta: np.ndarray, anchor: int) -> np.ndarray:
    _, hessian = _derivatives(n, rows, theta)
    keep = [i for i in range(n) if i != anchor]
    covariance = np.zeros((n, n))
    if keep:
        covariance[np.ix_(keep, keep)] = np.linalg.inv(-hessian[np.ix_(keep, keep)])
    return covariance


@dataclass(frozen=True)
class Settings:
    """What makes two ladders' games comparable: a results file holds games of one setting."""

    game: str
    params: dict[str, Any] = field(default_factory=dict)
    seconds_per_move: float = 0.2
    opening_plies: int = 2
    seed: int = 0

    def header(self) -> dict[str, Any]:
        return {
            "ladder": FORMAT,
            "game": self.game,
            "params": self.params,
            "seconds_per_move": self.seconds_per_move,
            "opening_plies": self.opening_plies,
            "seed": self.seed,
        }


@dataclass(frozen=True)
class LadderGame:
    """A game of a ladder, as its results file keeps it."""

    table: tuple[str, ...]
    """The players at its table, in roster order."""
    number: int
    """Its number among the table's games: it rotated the seats by ``number``."""
    seats: tuple[str, ...]
    """The player in each seat (seat 0 moves first)."""
    winner: Optional[str]
    plies: int

    def outcome(self) -> Outcome:
        return Outcome(self.table, self.winner)


class LadderResults:
    """A ladder's results file: its settings and its games. :meth:`add` rewrites the whole
    file (a temporary file renamed over it), so it never holds half a line."""

    def __init__(self, path: Union[str, os.PathLike[str]], settings: Settings) -> None:
        self.path = Path(path)
        self.settings = settings
        self.games: list[LadderGame] = []
        if self.path.exists():
            found, self.games = read(self.path)
            if found != settings:
                raise LadderResultsError(
                    f"{self.path} holds a ladder of other settings ({_describe(found)}), not {_describe(settings)}"
                )

    def done(self) -> set[tuple[tuple[str, ...], int]]:
        return {(g.table, g.number) for g in self.games}

    def add(self, game: LadderGame) -> None:
        self.games.append(game)
        self.save()

    def save(self) -> None:
        lines = [json.dumps(self.settings.header())]
        lines += [
            json.dumps({"table": g.table, "game": g.number, "seats": g.seats, "winner": g.winner, "plies": g.plies})
            for g in self.games
        ]
        directory = self.path.parent
        directory.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write("\n".join(lines) + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


def _describe(settings: Settings) -> str:
    params = "".join(f" {k}={v}" for k, v in sorted(settings.params.items()))
    return (
        f"{settings.game}{params}, {settings.seconds_per_move:g} s a move, "
        f"{settings.opening_plies} opening plies, seed {settings.seed}"
    )


def read(path: Union[str, os.PathLike[str]]) -> tuple[Settings, list[LadderGame]]:
    """The settings and games of a results file."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        header = json.loads(lines[0]) if lines else None
    except (UnicodeDecodeError, json.JSONDecodeError):
        header = None
    if not isinstance(header, dict) or header.get("ladder") != FORMAT:
        raise LadderResultsError(f"{path} is not a glacier ladder's results file (format {FORMAT})")
    try:
        settings = Settings(
            str(header["game"]),
            dict(header["params"]),
            float(header["seconds_per_move"]),
            int(header["opening_plies"]),
            int(header["seed"]),
        )
        games = []
        for number, line in enumerate(lines[1:], start=2):
            row = json.loads(line)
            game = LadderGame(
                tuple(map(str, row["table"])),
                int(row["game"]),
                tuple(map(str, row["seats"])),
                None if row["winner"] is None else str(row["winner"]),
                int(row["plies"]),
            )
            if sorted(game.seats) != sorted(game.table) or (game.winner is not None and game.winner not in game.table):
                raise LadderResultsError(f"{path}, line {number}: the seats or the winner are not the table's players")
            games.append(game)
    except LadderResultsError:
        raise
    except (ValueError, KeyError, TypeError, IndexError) as err:
        problem = f"{type(err).__name__}: {err}"
        raise LadderResultsError(f"{path} is not a readable ladder results file ({problem})") from None
    return settings, games


def schedule(players: Sequence[str], seats: int, games: int) -> list[tuple[tuple[str, ...], int]]:
    """The ladder's games as (table, number): every set of ``seats`` players ``games``
    times, round by round (every table's game 0, then every table's game 1, ...), so that a
    ladder stopped early has played its tables evenly."""
    if len(set(players)) != len(players):
        raise InvalidParameterError("a ladder's players must differ")
    if len(players) < seats:
        raise InvalidParameterError(f"a ladder of a {seats}-seat game needs at least {seats} players")
    tables = list(combinations(players, seats))
    return [(t, number) for number in range(games) for t in tables]


def _budget(seconds: float) -> str:
    return f"{seconds:g}s"


def default_players(game: str, seconds_per_move: float = 0.2, **params: Any) -> list[str]:
    """The players of a ladder of ``game`` unless it is given others: ``random`` (the
    anchor), flat Monte Carlo, MCTS at 100 simulations and at ``seconds_per_move`` with each
    evaluation, alpha-beta (two-player games) and the shipped net (where glacier ships one),
    each at ``seconds_per_move``."""
    from .nets import baseline_path
    from .players import MCTS_DEFAULTS

    state = _native.new_game(game, **params)
    budget = _budget(seconds_per_move)
    default = str(MCTS_DEFAULTS.get(game, {}).get("evaluator", ""))
    players = ["random", "flat:1000", "mcts:100", f"mcts:{budget}"]
    players += [f"mcts:{budget}:{evaluator}" for evaluator in ("rollout", "heuristic") if evaluator != default]
    if state.num_players == 2:
        players.append(f"alphabeta:{budget}")
    if baseline_path(game, **params).exists():
        players.append(f"baseline:{budget}")
    return players


def _mix(seed: int, *parts: int) -> int:
    """A 63-bit seed from ``seed`` and ``parts`` (the SplitMix64 finaliser)."""
    z = seed & (2**64 - 1)
    for part in parts:
        z = (z + (part + 1) * 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        z ^= z >> 31
    return z >> 1


def _table_key(table: Sequence[str]) -> int:
    # From the players' names, not their places in the roster, so that a ladder given more
    # players plays the old tables' games as before.
    return zlib.crc32("\n".join(table).encode("utf-8"))


class Interrupted(Exception):
    """A game was stopped before its end (the ladder is stopping)."""


def play_game(
    start: Any,
    seated: Sequence[Any],
    opening_plies: int,
    opening_seed: int,
    stop: Callable[[], bool] = lambda: False,
) -> Any:
    """Plays one game from ``start`` (left unchanged) between the players ``seated`` (one
    per seat) after ``opening_plies`` uniformly random plies drawn from ``opening_seed``,
    and returns the final state. ``stop()`` is asked before every move."""
    state = start.copy()
    rng = random.Random(opening_seed)
    for _ in range(opening_plies):
        if state.is_terminal():
            break
        state.play(rng.choice(state.legal_moves()))
    while not state.is_terminal():
        if stop():
            raise Interrupted
        state.play(seated[state.current_player].choose(state))
    return state


def _one(settings: Settings, start: Any, table: tuple[str, ...], number: int, stop: Callable[[], bool]) -> LadderGame:
    from .players import from_spec

    n = len(table)
    seats = tuple(table[(seat + number) % n] for seat in range(n))
    key = _table_key(table)
    seated = [from_spec(spec, _mix(settings.seed, key, number, seat)) for seat, spec in enumerate(seats)]
    # The games of one rotation of the seats share their opening: each is played from every seat.
    opening = _mix(settings.seed, key, number // n, n)
    state = play_game(start, seated, settings.opening_plies, opening, stop)
    returns = state.returns()
    winner = next((seats[s] for s, r in enumerate(returns) if r > 0), None)
    return LadderGame(table, number, seats, winner, len(state.moves))


def run(
    game: str,
    players: Sequence[str],
    results: Union[str, os.PathLike[str]],
    /,
    *,
    games: int = 10,
    seconds_per_move: float = 0.2,
    opening_plies: int = 2,
    seed: int = 0,
    minutes: Optional[float] = None,
    threads: int = 1,
    anchor: str = "random",
    progress: Optional[Callable[[Optional[LadderGame], int, int], None]] = None,
    **params: Any,
) -> dict[str, Rating]:
    """Plays the ladder of ``game`` (with ``params``) among ``players`` (specs, see
    :func:`glacier.players.from_spec`), ``games`` games per table, recording every game in
    the file ``results`` (and skipping the games it already holds), then fits the ratings
    of every game in the file. ``minutes`` stops starting games after that long;
    ``threads`` games are played at once (0: one per core). ``progress(game, done, total)`` is called after
    every game (and once before the first, with ``None``). ``seconds_per_move`` is the
    time the players' specs are written for: it is part of the ladder's settings, which the
    results file must share."""
    if games < 1:
        raise InvalidParameterError(f"games must be >= 1, got {games}")
    if minutes is not None and not minutes > 0:
        raise InvalidParameterError(f"minutes must be > 0, got {minutes}")
    if not seconds_per_move > 0:
        raise InvalidParameterError(f"seconds_per_move must be > 0, got {seconds_per_move}")
    if opening_plies < 0:
        raise InvalidParameterError(f"opening_plies must be >= 0, got {opening_plies}")
    if threads < 0:
        raise InvalidParameterError(f"threads must be >= 0 (0 = one per core), got {threads}")
    if anchor not in players:
        raise InvalidParameterError(f"the anchor {anchor!r} must be one of the players")
    start = _native.new_game(game, **params)
    from .players import from_spec

    for spec in players:
        from_spec(spec, 0)  # a bad spec fails here, before any game is played
    from .search import thread_count

    threads = thread_count(threads)
    planned = schedule(players, start.num_players, games)
    settings = Settings(game, dict(start.params), float(seconds_per_move), opening_plies, seed)
    record = LadderResults(results, settings)
    done = record.done()
    todo = [entry for entry in planned if entry not in done]
    total = len(todo)
    deadline = None if minutes is None else time.monotonic() + 60.0 * minutes
    stopping = threading.Event()
    finished = 0
    if progress:
        progress(None, 0, total)
    with ThreadPoolExecutor(max_workers=threads) as pool:
        running: set[Future[LadderGame]] = set()
        queue = iter(todo)
        try:
            while True:
                while len(running) < threads and not stopping.is_set():
                    if deadline is not None and time.monotonic() >= deadline:
                        break
                    entry = next(queue, None)
                    if entry is None:
                        break
                    running.add(pool.submit(_one, settings, start, entry[0], entry[1], stopping.is_set))
                if not running:
                    break
                ended, running = wait(running, timeout=0.25, return_when=FIRST_COMPLETED)
                for future in ended:
                    result = future.result()
                    record.add(result)
                    finished += 1
                    if progress:
                        progress(result, finished, total)
        except BaseException:
            stopping.set()
            for future in running:
                future.cancel()
            raise
    if not record.games:
        return {}
    return fit([g.outcome() for g in record.games], anchor=anchor)


def table(ratings: dict[str, Rating]) -> str:
    """The ratings as a Markdown table, strongest first."""
    lines = ["| player | Elo | 95% interval | games | score |", "|---|---:|---|---:|---:|"]
    for r in sorted(ratings.values(), key=lambda r: -r.elo):
        lines.append(f"| `{r.player}` | {_elo(r.elo)} | {_elo(r.low)} to {_elo(r.high)} | {r.games} | {r.score:.2f} |")
    return "\n".join(lines)


def _elo(value: float) -> str:
    rounded = round(value)
    return f"{rounded:+d}" if rounded else "0"

"""Ratings of players from their games, and the results files that keep a ladder's games.

The fit is the Luce choice model, which says that a player ``i`` at a table ``T`` wins with
probability ``g_i / sum(g_j for j in T)``: this is exactly what one game says (every game of
glacier has one winner or none), for two players it is Bradley-Terry, the model behind Elo,
and its maximum-likelihood fit works for E's tables of 3 to 6 as for pairs. A drawn game
counts as a fraction of a win for each player at the table. Ratings are Elo points,
``400 * log10(g_i)``, with the anchor (``random`` by default) at 0, and 95% intervals from
the fit's Fisher information. As BayesElo does, every two players who met also share one
virtual draw, so that a player who won every game gets a finite rating (the interval then
says how little is known above it).

:func:`shipped` fits the ladder glacier ships for a game (``glacier/ladders/``), which orders
the levels of ``glacier play`` and names the ``strongest`` player. This module knows no
player: :mod:`glacier.ladder` plays the games, :mod:`glacier.players` reads the ratings.

>>> from glacier import ratings
>>> fitted = ratings.fit([ratings.Outcome(("a", "random"), "a")] * 3, anchor="random")
>>> round(fitted["a"].elo)
338
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence, Union

import numpy as np

from .errors import InvalidParameterError, LadderResultsError

__all__ = [
    "FORMAT",
    "LadderGame",
    "LadderResults",
    "Outcome",
    "Rating",
    "Settings",
    "Gap",
    "fit",
    "gaps",
    "read",
    "shipped",
    "shipped_path",
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


@dataclass(frozen=True)
class Gap:
    """How far ``upper`` is rated above ``lower``, in Elo points, with the 95% interval of
    that difference."""

    lower: str
    upper: str
    elo: float
    low: float
    high: float


def fit(games: Iterable[Outcome], anchor: str = "random", prior_draws: float = 1.0) -> dict[str, Rating]:
    """The Luce-model ratings of the players of ``games`` (see the module's docs), with
    ``anchor`` at 0 and ``prior_draws`` virtual draws between every two players who met.
    A player with no path of games to the anchor cannot be rated and is left out."""
    return _fit(list(games), anchor, prior_draws)[0]


def gaps(
    games: Iterable[Outcome], players: Sequence[str], anchor: str = "random", prior_draws: float = 1.0
) -> list[Gap]:
    """The gap between each two neighbours of ``players`` (listed weakest first) in the fit
    of ``games``, with its 95% interval from the fit's covariance. Each rating's own
    interval is measured from the anchor and so carries how uncertain the anchor's place
    is (with ``random`` as the anchor, which loses every game, mostly that), which two
    players share: their gap is known more closely than their intervals say."""
    ratings, local, covariance = _fit(list(games), anchor, prior_draws)
    found = []
    for lower, upper in zip(players, players[1:]):
        if lower not in ratings or upper not in ratings:
            raise InvalidParameterError(f"{lower if lower not in ratings else upper!r} is not rated by these games")
        i, j = local[lower], local[upper]
        spread = covariance[i, i] + covariance[j, j] - 2 * covariance[i, j]
        half = Z95 * ELO_PER_NAT * math.sqrt(max(spread, 0.0))
        elo = ratings[upper].elo - ratings[lower].elo
        found.append(Gap(lower, upper, elo, elo - half, elo + half))
    return found


def _fit(
    outcomes: list[Outcome], anchor: str, prior_draws: float
) -> tuple[dict[str, Rating], dict[str, int], np.ndarray]:
    """The ratings, each rated player's index in the covariance, and the covariance of the
    log-strengths (the anchor's row and column 0)."""
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
    return ratings, {name: local[i] for name, i in index.items() if i in connected}, covariance


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


#: Where the ladders glacier ships lie: ``<game>.jsonl``, ``<game>-<n>p.jsonl`` for a game of
#: more than two seats played by ``n``.
SHIPPED = Path(__file__).parent / "ladders"


def shipped_path(game: str, num_players: int = 2) -> Path:
    """The shipped results file of ``game`` played by ``num_players`` (it may not exist)."""
    suffix = "" if num_players == 2 else f"-{num_players}p"
    return SHIPPED / f"{game}{suffix}.jsonl"


@cache
def shipped(game: str, num_players: int = 2) -> Optional[tuple[Settings, dict[str, Rating]]]:
    """The settings and fitted ratings of the ladder glacier ships for ``game`` played by
    ``num_players`` (None where it ships none)."""
    path = shipped_path(game, num_players)
    if not path.exists():
        return None
    settings, games = read(path)
    return settings, fit([g.outcome() for g in games])

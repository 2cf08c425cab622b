"""Rating ladders: a round-robin among a game's players, rated by :mod:`glacier.ratings`.

A ladder seats every *table* of its players (every set of as many players as the game has
seats: every pair in a two-player game) for ``games`` games, rotating the seats from one game
to the next, each game from a few random opening plies. Its results are one line per game
in a JSON-lines file, so that a ladder stopped (by ``minutes``, Ctrl-C or a crash) goes on
where it stopped when run again, and a ladder given more players plays only the new tables.
The fit (the Luce choice model: Bradley-Terry for two players, any table size alike) and the
results file are :mod:`glacier.ratings`'s, whose names this module re-exports.

>>> from glacier import ladder
>>> ratings = ladder.fit([ladder.Outcome(("a", "random"), "a")] * 3, anchor="random")
>>> round(ratings["a"].elo)
338
"""

from __future__ import annotations

import os
import random
import threading
import time
import zlib
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from itertools import combinations
from typing import Any, Callable, Optional, Sequence, Union

from . import _native
from .errors import InvalidParameterError
from .ratings import FORMAT, LadderGame, LadderResults, Outcome, Rating, Settings, fit, read

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
    evaluation, alpha-beta (two-player games) with the heuristic and with the shipped
    evaluation net (where glacier ships one), the shipped policy-value net (likewise), each
    at ``seconds_per_move``, and the game's levels that are none of these."""
    from .nets import baseline_path, evaluation_path
    from .players import LEVELS, MCTS_DEFAULTS, STRONGEST

    state = _native.new_game(game, **params)
    budget = _budget(seconds_per_move)
    default = str(MCTS_DEFAULTS.get(game, {}).get("evaluator", ""))
    players = ["random", "flat:1000", "mcts:100", f"mcts:{budget}"]
    players += [f"mcts:{budget}:{evaluator}" for evaluator in ("rollout", "heuristic") if evaluator != default]
    if state.num_players == 2:
        players.append(f"alphabeta:{budget}")
        if evaluation_path(game).exists():
            players.append(f"alphabeta:{budget}:net=shipped")
    if baseline_path(game, **params).exists():
        players.append(f"baseline:{budget}")
    levels = LEVELS.get(game, {}).get(state.num_players, ())
    players += [spec for _, spec in levels if spec != STRONGEST and spec not in players]
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

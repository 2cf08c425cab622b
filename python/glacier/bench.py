"""Throughput measurements behind ``glacier bench`` and the README table.

Every figure says how it was counted: inside Rust or through Python, per call or batched,
bulk-counted at perft's last ply or not. Measurements repeat until a minimum time has
passed and report the best rate (the least disturbed run). :func:`measure_game` measures
any game; the comparisons with other programs are :mod:`glacier.comparisons`, registered by
the games of other programs that a game plays.
"""

from __future__ import annotations

import importlib
import random
import time
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, Optional

import glacier
from glacier import reference

__all__ = [
    "DEPTHS",
    "Measurement",
    "format_table",
    "measure_game",
    "optional_module",
    "python_action_steps",
    "python_api_steps",
]

#: Per game: perft depth inside Rust (a tenth of a second or more, so thread start-up does
#: not swamp the parallel figure), and for the (much slower) reference; each game declares
#: them (``glacier.game_spec(name).bench``).
DEPTHS: dict[str, tuple[int, int]] = {game: glacier.game_spec(game).bench.perft for game in glacier.GAMES}
#: Random playouts per call (E's random games run to the 2000-ply limit).
PLAYOUT_GAMES: dict[str, int] = {game: glacier.game_spec(game).bench.playouts for game in glacier.GAMES}


@dataclass
class Measurement:
    game: str
    what: str
    how: str
    rate: float
    unit: str


def best_rate(work: Callable[[], int], min_time: float = 0.3, max_rounds: int = 5) -> float:
    """Runs ``work`` (which returns a count) until ``min_time`` passes; the best count/s."""
    best = 0.0
    spent = 0.0
    rounds = 0
    while rounds < max_rounds and (rounds == 0 or spent < min_time):
        start = time.perf_counter()
        count = work()
        elapsed = time.perf_counter() - start
        spent += elapsed
        rounds += 1
        best = max(best, count / elapsed if elapsed > 0 else 0.0)
    return best


def interleaved_best_rates(works: list[Callable[[], int]], rounds: int = 5) -> list[float]:
    """Runs each of ``works`` (each returns a count) once per round, in turn, for ``rounds``
    rounds; the best count/s of each. Interleaved, a load that comes and goes during the
    measurement weighs on every work alike, so their ratios stay fair."""
    best = [0.0] * len(works)
    for _ in range(rounds):
        for i, work in enumerate(works):
            start = time.perf_counter()
            count = work()
            elapsed = time.perf_counter() - start
            best[i] = max(best[i], count / elapsed if elapsed > 0 else 0.0)
    return best


def python_api_steps(make: Callable[[], Any], steps: int, seed: int = 0) -> int:
    """Random games through the per-move API (``legal_moves()`` then ``play()`` each ply)."""
    rng = random.Random(seed)
    done = 0
    while done < steps:
        state = make()
        while done < steps:
            moves = state.legal_moves()
            if not moves:
                break
            state.play(moves[int(rng.random() * len(moves))])
            done += 1
    return done


def python_action_steps(make: Callable[[], Any], steps: int, seed: int = 0) -> int:
    """Random games through the action API (``legal_actions()`` then ``apply_action()``
    each action, as OpenSpiel is driven); every action counts as a step."""
    rng = random.Random(seed)
    done = 0
    while done < steps:
        state = make()
        while done < steps:
            actions = state.legal_actions()
            if not actions:
                break
            state.apply_action(actions[int(rng.random() * len(actions))])
            done += 1
    return done


def spiel_random_plies(spiel_game: Any, plies: int, seed: int = 0) -> int:
    """``plies`` plies of random games of an OpenSpiel game through pyspiel, one
    ``legal_actions()`` and one ``apply_action()`` per ply; returns the plies played."""
    rng = random.Random(seed)
    done = 0
    while done < plies:
        state = spiel_game.new_initial_state()
        while not state.is_terminal() and done < plies:
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
            done += 1
    return done


def env_steps(game: str, num_envs: int, steps: int, **params: Any) -> int:
    env = glacier.VectorEnv(game, num_envs=num_envs, seed=0, threads=1, **params)
    for _ in range(steps):
        env.step(env.sample_actions())
    return num_envs * steps


def measure_game(
    game: str, *, threads: int = 0, quick: bool = False, params: Optional[dict[str, Any]] = None
) -> list[Measurement]:
    """Every throughput figure for one game."""
    params = params or {}
    depth, ref_depth = DEPTHS[game]
    if quick:
        depth, ref_depth = depth - 1, ref_depth - 1
    state = glacier.new_game(game, **params)
    out: list[Measurement] = []

    def add(what: str, how: str, rate: float, unit: str) -> None:
        out.append(Measurement(game, what, how, rate, unit))

    add(
        f"perft({depth})",
        "inside Rust, 1 thread, last ply bulk-counted",
        best_rate(lambda: state.perft(depth)),
        "leaves/s",
    )
    add(
        f"perft({depth})",
        "inside Rust, 1 thread, every leaf played",
        best_rate(lambda: state.perft(depth, bulk=False)),
        "leaves/s",
    )
    add(
        f"perft({depth})",
        f"inside Rust, {threads or 'all'} threads, bulk-counted",
        best_rate(lambda: state.perft(depth, threads=threads)),
        "leaves/s",
    )
    games = PLAYOUT_GAMES[game] // (10 if quick else 1)

    def playout_plies(t: int) -> Callable[[], int]:
        return lambda: int(glacier.playouts(game, games, seed=1, threads=t, **params).length.sum())

    add("random playouts", "inside Rust, 1 thread", best_rate(playout_plies(1)), "plies/s")
    add("random playouts", f"inside Rust, {threads or 'all'} threads", best_rate(playout_plies(threads)), "plies/s")
    add(
        "batched env",
        "VectorEnv, 256 envs, 1 thread, sample_actions + step per batch",
        best_rate(lambda: env_steps(game, 256, 5 if quick else 40, **params)),
        "steps/s",
    )
    steps = 2000 if quick else 20000
    add(
        "Python API",
        "legal_moves() + play() per ply, random games",
        best_rate(lambda: python_api_steps(lambda: glacier.new_game(game, **params), steps)),
        "steps/s",
    )
    add(
        f"perft({ref_depth})",
        "pure-Python reference, bulk-counted",
        best_rate(lambda: reference.new_game(game, **params).perft(ref_depth), max_rounds=2),
        "leaves/s",
    )
    add(
        "Python API",
        "pure-Python reference, legal_moves() + play() per ply",
        best_rate(lambda: python_api_steps(lambda: reference.new_game(game, **params), steps // 10), max_rounds=2),
        "steps/s",
    )
    return out


def optional_module(name: str) -> Optional[ModuleType]:
    """The module ``name`` if it is installed, else None (the comparisons with other
    programs leave out a row whose library is missing)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def format_table(rows: list[Measurement]) -> str:
    header = ("game", "what", "how it was counted", "rate")
    lines = [(m.game, m.what, m.how, f"{m.rate:,.0f} {m.unit}") for m in rows]
    widths = (
        [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(header)]
        if lines
        else [len(h) for h in header]
    )
    fmt = "  ".join(f"{{:<{w}}}" for w in widths[:-1]) + "  {:>" + str(widths[-1]) + "}"
    rule = "  ".join("-" * w for w in widths)
    return "\n".join([fmt.format(*header), rule, *(fmt.format(*line) for line in lines)])

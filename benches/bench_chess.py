"""Ice Age Chess against python-chess and OpenSpiel chess, in the same run, on the same positions.

python-chess (the ``chess`` package, a dev dependency) is the usual pure-Python chess
library. With ``ice_age_period=0`` and no ice, Ice Age Chess is standard chess, so
glacier's perft of the standard start position is compared with python-chess's perft of
the same position at the same depth, both with the last ply bulk-counted, and per move
through each library's Python API (python-chess ``push``/``pop`` against glacier
``play``/``undo``).

python-chess cannot play Ice Age Chess (it knows no ice). For the start position with
ice, glacier's engine is timed beside glacier's own pure-Python reference at the same
depth (group "ice start perft(3)"), the nearest pure-Python yardstick that knows ice.

Random games driven from Python, one ply at a time, are compared with OpenSpiel's chess
(``open_spiel``, a dev dependency) in the group "chess random games per move".

Run with ``make bench``; under a plain ``pytest`` run each benchmark executes once as a
test and checks its node count. Every result records ``nodes`` and how they were counted
in ``extra_info``; nodes per second is ``nodes / mean time``.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest

import glacier
from glacier.bench import python_action_steps, python_api_steps

chess = pytest.importorskip("chess")

#: The game that plays chess (Ice Age Chess) and its start that is standard chess.
GAME, STANDARD = glacier.kin("chess")
CHESS_START = glacier.new_game(GAME, start=STANDARD).text()
#: The published standard-chess perft counts of the start position.
CHESS_COUNTS = {3: 8902, 4: 197281, 6: 119060324}
#: The Ice Age Chess start's counts (docs/rules/ice_age_chess.md, tests/data/perft.txt).
ICE_COUNTS = {3: 6264, 4: 121094, 6: 52147830}

BULK_DEPTH = 4  # both libraries, last ply bulk-counted
API_DEPTH = 3  # both libraries, every move played through the Python API
NATIVE_DEPTH = 6  # glacier alone, inside Rust


def run(benchmark: Any, group: str, counting: str, fn: Callable[[], int], expected: int) -> None:
    benchmark.group = group
    benchmark.extra_info["counting"] = counting
    nodes = benchmark.pedantic(fn, rounds=3, iterations=1, warmup_rounds=0)
    benchmark.extra_info["nodes"] = nodes
    if benchmark.stats is not None:  # None when benchmarks are disabled
        benchmark.extra_info["nodes_per_second"] = round(nodes / benchmark.stats.stats.mean)
    assert nodes == expected


def python_chess_perft(board: Any, depth: int) -> int:
    """python-chess perft, the last ply counted with ``legal_moves.count()``."""
    if depth == 1:
        return board.legal_moves.count()  # type: ignore[no-any-return]
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += python_chess_perft(board, depth - 1)
        board.pop()
    return nodes


def python_chess_perft_played(board: Any, depth: int) -> int:
    """python-chess perft with every move pushed and popped."""
    if depth == 0:
        return 1
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += python_chess_perft_played(board, depth - 1)
        board.pop()
    return nodes


def glacier_api_perft(state: Any, depth: int) -> int:
    """glacier perft through the public per-move API: legal_moves() per node, play/undo per move."""
    if depth == 0:
        return 1
    nodes = 0
    for move in state.legal_moves():
        state.play(move)
        nodes += glacier_api_perft(state, depth - 1)
        state.undo()
    return nodes


def chess_start() -> Any:
    return glacier.new_game(GAME, start=STANDARD)


# --- the standard start: glacier and python-chess side by side ------------------------


def test_python_chess_bulk(benchmark: Any) -> None:
    board = chess.Board(CHESS_START)
    run(
        benchmark,
        f"chess start perft({BULK_DEPTH})",
        "python-chess, last ply bulk-counted (legal_moves.count())",
        lambda: python_chess_perft(board, BULK_DEPTH),
        CHESS_COUNTS[BULK_DEPTH],
    )


def test_glacier_bulk(benchmark: Any) -> None:
    state = chess_start()
    run(
        benchmark,
        f"chess start perft({BULK_DEPTH})",
        "glacier inside Rust, one call, last ply bulk-counted",
        lambda: state.perft(BULK_DEPTH),
        CHESS_COUNTS[BULK_DEPTH],
    )


def test_python_chess_per_move(benchmark: Any) -> None:
    board = chess.Board(CHESS_START)
    run(
        benchmark,
        f"chess start perft({API_DEPTH}) per move",
        "python-chess, push()/pop() per move",
        lambda: python_chess_perft_played(board, API_DEPTH),
        CHESS_COUNTS[API_DEPTH],
    )


def test_glacier_per_move(benchmark: Any) -> None:
    state = chess_start()
    run(
        benchmark,
        f"chess start perft({API_DEPTH}) per move",
        "glacier through the Python API: legal_moves() per node, play()/undo() per move",
        lambda: glacier_api_perft(state, API_DEPTH),
        CHESS_COUNTS[API_DEPTH],
    )


def test_glacier_deep(benchmark: Any) -> None:
    state = chess_start()
    run(
        benchmark,
        f"chess start perft({NATIVE_DEPTH})",
        "glacier inside Rust, one call, last ply bulk-counted",
        lambda: state.perft(NATIVE_DEPTH),
        CHESS_COUNTS[NATIVE_DEPTH],
    )


# --- the start with ice: glacier alone (python-chess has no ice) ----------------------


@pytest.mark.parametrize("depth", [BULK_DEPTH, NATIVE_DEPTH])
def test_glacier_ice_start_bulk(benchmark: Any, depth: int) -> None:
    state = glacier.new_game(GAME)
    run(
        benchmark,
        f"ice start perft({depth}), glacier only",
        "glacier inside Rust, one call, last ply bulk-counted",
        lambda: state.perft(depth),
        ICE_COUNTS[depth],
    )


def test_glacier_ice_start_per_move(benchmark: Any) -> None:
    state = glacier.new_game(GAME)
    run(
        benchmark,
        f"ice start perft({API_DEPTH}) per move, glacier only",
        "glacier through the Python API: legal_moves() per node, play()/undo() per move",
        lambda: glacier_api_perft(state, API_DEPTH),
        ICE_COUNTS[API_DEPTH],
    )


# --- random games through the per-move Python API: glacier and OpenSpiel chess --------

RANDOM_PLIES = 20_000


def openspiel_random_plies(game: Any, plies: int, seed: int = 0) -> int:
    """OpenSpiel chess from Python: legal_actions() then apply_action() each ply."""
    rng = random.Random(seed)
    done = 0
    while done < plies:
        state = game.new_initial_state()
        while not state.is_terminal() and done < plies:
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
            done += 1
    return done


def test_openspiel_chess_random_games(benchmark: Any) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("chess")
    run(
        benchmark,
        "chess random games per move",
        "OpenSpiel chess through Python: legal_actions() + apply_action() per ply",
        lambda: openspiel_random_plies(game, RANDOM_PLIES),
        RANDOM_PLIES,
    )


def test_glacier_chess_random_games(benchmark: Any) -> None:
    run(
        benchmark,
        "chess random games per move",
        "glacier standard chess through Python: legal_moves() + play() per ply",
        lambda: python_api_steps(chess_start, RANDOM_PLIES),
        RANDOM_PLIES,
    )


def test_glacier_chess_random_games_actions(benchmark: Any) -> None:
    def plies() -> int:
        return python_action_steps(chess_start, RANDOM_PLIES, seed=0)

    run(
        benchmark,
        "chess random games per move",
        "glacier standard chess through Python: legal_actions() + apply_action() per ply",
        plies,
        RANDOM_PLIES,
    )


def test_ice_start_engine_vs_reference_engine(benchmark: Any) -> None:
    state = glacier.new_game(GAME)
    run(
        benchmark,
        "ice start perft(3)",
        "glacier inside Rust, one call, last ply bulk-counted",
        lambda: state.perft(3),
        ICE_COUNTS[3],
    )


def test_ice_start_engine_vs_reference_reference(benchmark: Any) -> None:
    from glacier import reference

    run(
        benchmark,
        "ice start perft(3)",
        "glacier's pure-Python reference, last ply bulk-counted",
        lambda: reference.new_game(GAME).perft(3),
        ICE_COUNTS[3],
    )

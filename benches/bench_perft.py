"""Perft throughput: the engine inside Rust (bulk and not), the engine through the per-move
Python API, and the pure-Python reference, for every built game.

Run with ``make bench`` (``pytest benches --benchmark-enable``). Under a plain ``pytest``
run each benchmark executes once as a test and checks its node count. Every result
records ``nodes`` and how they were counted in ``extra_info``; nodes per second is
``nodes / mean time``.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import glacier
from glacier import reference

#: Per game: (depth in Rust, depth through the Python API, depth of the reference), as each
#: game declares them (``glacier.game_spec(game).bench.perft_bench``).
DEPTHS: dict[str, tuple[int, int, int]] = {game: glacier.game_spec(game).bench.perft_bench for game in glacier.GAMES}

GAMES = list(DEPTHS)

#: Per game: a depth for perft with a transposition table, and its count (pinned: in
#: ``tests/data/perft.txt`` or ``docs/perft.md``, Ice Cube Checkers' counted by both perfts).
HASHED: dict[str, tuple[int, int]] = {
    game: hashed for game in glacier.GAMES if (hashed := glacier.game_spec(game).bench.hashed_perft) is not None
}


def python_api_perft(state: Any, depth: int) -> int:
    """Perft through the public per-move API: one legal_moves() per node, play/undo per move."""
    if depth == 0:
        return 1
    nodes = 0
    for move in state.legal_moves():
        state.play(move)
        nodes += python_api_perft(state, depth - 1)
        state.undo()
    return nodes


def run(benchmark: Any, group: str, counting: str, fn: Callable[[], int], expected: int) -> None:
    benchmark.group = group
    benchmark.extra_info["counting"] = counting
    nodes = benchmark.pedantic(fn, rounds=3, iterations=1, warmup_rounds=0)
    benchmark.extra_info["nodes"] = nodes
    if benchmark.stats is not None:  # None when benchmarks are disabled
        benchmark.extra_info["nodes_per_second"] = round(nodes / benchmark.stats.stats.mean)
    assert nodes == expected


@pytest.mark.parametrize("game", GAMES)
def test_native_perft_bulk(benchmark: Any, game: str) -> None:
    depth = DEPTHS[game][0]
    state = glacier.new_game(game)
    expected = state.perft(depth)
    run(
        benchmark,
        f"{game} perft({depth})",
        "inside Rust, one call, GIL released, last ply bulk-counted",
        lambda: state.perft(depth),
        expected,
    )


@pytest.mark.parametrize("game", GAMES)
def test_native_perft_no_bulk(benchmark: Any, game: str) -> None:
    depth = DEPTHS[game][0]
    state = glacier.new_game(game)
    expected = state.perft(depth)
    run(
        benchmark,
        f"{game} perft({depth})",
        "inside Rust, one call, every leaf move played (no bulk counting)",
        lambda: state.perft(depth, bulk=False),
        expected,
    )


@pytest.mark.parametrize("game", GAMES)
def test_native_python_api(benchmark: Any, game: str) -> None:
    depth = DEPTHS[game][1]
    state = glacier.new_game(game)
    expected = state.perft(depth)
    run(
        benchmark,
        f"{game} perft({depth}) per move",
        "native engine through the Python API: legal_moves() per node, play()/undo() per move",
        lambda: python_api_perft(state, depth),
        expected,
    )


@pytest.mark.parametrize("game", GAMES)
def test_reference_perft(benchmark: Any, game: str) -> None:
    depth = DEPTHS[game][2]
    expected = glacier.new_game(game).perft(depth)
    run(
        benchmark,
        f"{game} perft({depth}) reference",
        "pure-Python reference, last ply bulk-counted",
        lambda: reference.new_game(game).perft(depth),
        expected,
    )


@pytest.mark.parametrize("game", [g for g in HASHED if g in glacier.GAMES])
def test_native_perft_hashed(benchmark: Any, game: str) -> None:
    depth, expected = HASHED[game]
    state = glacier.new_game(game)
    run(
        benchmark,
        f"{game} perft({depth}) table",
        "inside Rust, one call, a 64 MiB transposition table (the first round allocates it,"
        " later rounds reuse it), last ply bulk-counted",
        lambda: state.perft(depth, hash_mb=64),
        expected,
    )


@pytest.mark.parametrize("game", [g for g in HASHED if g in glacier.GAMES])
def test_native_perft_beside_hashed(benchmark: Any, game: str) -> None:
    depth, expected = HASHED[game]
    state = glacier.new_game(game)
    run(
        benchmark,
        f"{game} perft({depth}) table",
        "inside Rust, one call, no table, last ply bulk-counted",
        lambda: state.perft(depth),
        expected,
    )

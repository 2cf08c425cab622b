"""Batch throughput: random playouts in Rust (one thread and every core) and the batched
environment, for every built game. Rates are plies (or environment steps) per second:
``extra_info["plies"] / mean time``."""

from __future__ import annotations

from typing import Any

import pytest

import glacier

GAMES_PER_CALL = 200


def record(benchmark: Any, group: str, how: str, work: int) -> None:
    benchmark.group = group
    benchmark.extra_info["counting"] = how
    benchmark.extra_info["plies"] = work
    if benchmark.stats is not None:
        benchmark.extra_info["plies_per_second"] = round(work / benchmark.stats.stats.mean)


@pytest.mark.parametrize("threads", [1, 0], ids=["1-thread", "all-threads"])
@pytest.mark.parametrize("game", glacier.GAMES)
def test_playouts(benchmark: Any, game: str, threads: int) -> None:
    result = benchmark.pedantic(
        lambda: glacier.playouts(game, GAMES_PER_CALL, seed=1, threads=threads), rounds=3, iterations=1
    )
    assert result.finished.all()
    record(
        benchmark,
        f"{game} playouts",
        f"{GAMES_PER_CALL} random games in Rust per call, threads={threads or 'all'}",
        int(result.length.sum()),
    )


@pytest.mark.parametrize("game", glacier.GAMES)
def test_vector_env(benchmark: Any, game: str) -> None:
    env = glacier.VectorEnv(game, num_envs=256, seed=0)
    steps = 20

    def run() -> int:
        for _ in range(steps):
            env.step(env.sample_actions())
        return steps * env.num_envs

    work = benchmark.pedantic(run, rounds=3, iterations=1)
    record(benchmark, f"{game} batched env", "VectorEnv with 256 games: sample_actions() + step() per batch", work)

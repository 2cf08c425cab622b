"""Perft on Ray (``glacier.distributed.perft``) with 1 and 2 worker CPUs against the engine's
threaded perft on 2 threads, on the same machine in the same run.

Every Ray task counts its unit with the native perft on one thread; the Ray time is the whole
call: the split on the driver, the tasks, the results (Ray's start-up is outside it, in the
fixture). ``extra_info`` records the split's share of the time, the overhead per task
(CPU-seconds not spent counting, per task) and the CPU time each side got, which tells how
much of the 2 cores other work on the machine took. Under a plain ``pytest`` run
(benchmarks disabled) each case runs once at a small depth and checks its count.
"""

from __future__ import annotations

import logging
import resource
from collections.abc import Iterator
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'glacier[ray]'): Ray benchmarks skipped")

import glacier  # noqa: E402
from glacier import distributed  # noqa: E402

#: The game, from its own start: the one that plays chess (Ice Age Chess, with its ice), as
#: in bench_chess.py.
GAME = glacier.kin("chess")[0]
#: The depth measured (the threaded perft takes about a minute on 2 cores), the depth of a
#: plain test run, and the split: at ply 3, 6264 move sequences reach 3870 distinct
#: positions, so Ray counts fewer leaves than the threaded perft for the same answer;
#: ``leaves_counted_per_second`` is the rate of the work actually done.
DEPTH, QUICK_DEPTH, SPLIT = 8, 5, 3
#: The counts of GAME's start (docs/perft.md).
COUNTS = {5: 2_514_718, 8: 25_403_177_072}


@pytest.fixture(params=["threads", "ray-1-cpu", "ray-2-cpus"])
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    name: str = request.param
    if name == "threads":
        yield name
        return
    assert not ray.is_initialized(), "another Ray connection is open in this process"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_USAGE_STATS_ENABLED", "0")
        ray.init(
            address="local",
            num_cpus=int(name.split("-")[1]),
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.WARNING,
        )
        try:
            yield name
        finally:
            ray.shutdown()


def test_perft_on_ray_against_threads(benchmark: Any, engine: str) -> None:
    depth = QUICK_DEPTH if benchmark.disabled else DEPTH
    state = glacier.new_game(GAME)
    benchmark.group = f"{GAME} perft({depth}) on 2 cores: Ray against threads"
    results: list[distributed.PerftResult] = []
    cpu: list[float] = []

    def count() -> int:
        if engine == "threads":
            before = resource.getrusage(resource.RUSAGE_SELF)
            nodes = state.perft(depth, threads=2)
            after = resource.getrusage(resource.RUSAGE_SELF)
            cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            return nodes
        results.append(distributed.perft(state, depth, split_depth=SPLIT, progress=False))
        return results[-1].nodes

    nodes = benchmark.pedantic(count, rounds=1, iterations=1, warmup_rounds=0)
    benchmark.extra_info["nodes"] = nodes
    if engine == "threads":
        benchmark.extra_info["counting"] = "inside Rust, 2 threads, last ply bulk-counted"
        benchmark.extra_info["cpu_seconds"] = cpu[-1]
    else:
        result = results[-1]
        benchmark.extra_info["counting"] = (
            f"Ray, {result.cpus} CPU(s), {result.units} tasks, native perft on 1 thread per task, bulk-counted"
        )
        benchmark.extra_info["split_share"] = result.split_seconds / result.seconds
        benchmark.extra_info["overhead_per_task_s"] = result.overhead_per_task
        benchmark.extra_info["positions"] = result.positions
        benchmark.extra_info["paths"] = result.paths
        benchmark.extra_info["task_seconds"] = result.task_seconds
        benchmark.extra_info["cpu_seconds"] = result.task_cpu_seconds
        benchmark.extra_info["leaves_counted"] = result.leaves_counted
    if benchmark.stats is not None:
        benchmark.extra_info["nodes_per_second"] = round(nodes / benchmark.stats.stats.mean)
        counted = results[-1].leaves_counted if results else nodes
        benchmark.extra_info["leaves_counted_per_second"] = round(counted / benchmark.stats.stats.mean)
        # The share of 2 cores the count got: below 1 when other work shared the machine.
        benchmark.extra_info["cpu_share"] = benchmark.extra_info["cpu_seconds"] / (2 * benchmark.stats.stats.mean)
    assert nodes == COUNTS[depth]

"""Search speed beside its peers, in the same run (the figures of docs/search.md).

- Group "chess MCTS, random rollouts": glacier's MCTS with one full random rollout per
  simulation on standard chess (Ice Age Chess with ``ice_age_period=0``), on one and two
  threads, against OpenSpiel's C++ ``pyspiel.MCTSBot`` with ``RandomRolloutEvaluator(1)`` on
  OpenSpiel's chess: 200 simulations per move, 6 moves from the start.
- Group "batched MCTS": ``glacier.search.mcts_batch`` over 256 chess games with a trivial
  numpy evaluator against mctx's ``gumbel_muzero_policy`` (JAX on the CPU, a trivial
  recurrent function): 256 x 32 simulations, 4288 actions; mctx's compilation left out.

Every result records ``simulations`` and ``simulations_per_second`` in ``extra_info``. Run
with ``make bench``; under a plain ``pytest`` run each executes once, smaller, as a test.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

from glacier import search_bench


def run(benchmark: Any, group: str, how: str, fn: Callable[[bool], float], work: Callable[[bool], int]) -> None:
    """Times ``fn(full)`` (which returns its own simulations per second; ``full`` is False
    when benchmarks are disabled and the run is a quick test)."""
    full = not benchmark.disabled
    benchmark.group = group
    benchmark.extra_info["how"] = how
    rate = benchmark.pedantic(lambda: fn(full), rounds=2 if full else 1, iterations=1, warmup_rounds=0)
    benchmark.extra_info["simulations"] = work(full)
    benchmark.extra_info["simulations_per_second"] = round(rate)
    assert rate > 0


@pytest.mark.parametrize("threads", [1, 2])
def test_glacier_mcts_chess(benchmark: Any, threads: int) -> None:
    run(
        benchmark,
        "chess MCTS, random rollouts",
        f"glacier MCTS, {threads} thread(s), tree-parallel, 200 simulations per move, 6 moves",
        lambda full: search_bench.glacier_mcts_rate(200 if full else 50, 6 if full else 1, threads),
        lambda full: (200 if full else 50) * (6 if full else 1),
    )


def test_openspiel_mcts_chess(benchmark: Any) -> None:
    pytest.importorskip("pyspiel")

    def rate(full: bool) -> float:
        result = search_bench.openspiel_mcts_rate(200 if full else 20, 6 if full else 1)
        assert result is not None
        return result

    run(
        benchmark,
        "chess MCTS, random rollouts",
        "OpenSpiel MCTSBot, RandomRolloutEvaluator(1), UCT c=2, 200 simulations per move, 6 moves",
        rate,
        lambda full: (200 if full else 20) * (6 if full else 1),
    )


def test_glacier_mcts_batch(benchmark: Any) -> None:
    run(
        benchmark,
        "batched MCTS",
        "glacier mcts_batch, 256 games x 32 simulations, trivial numpy evaluator",
        lambda full: search_bench.glacier_batch_rate(256 if full else 8, 32, 3 if full else 1),
        lambda full: (256 if full else 8) * 32,
    )


def test_mctx_batch(benchmark: Any) -> None:
    pytest.importorskip("mctx")

    def rate(full: bool) -> float:
        result = search_bench.mctx_rate(256 if full else 8, 32, calls=3 if full else 1)
        assert result is not None
        return result

    run(
        benchmark,
        "batched MCTS",
        "mctx gumbel_muzero_policy, JAX CPU, 256 roots x 32 simulations, 4288 actions, trivial recurrent function",
        rate,
        lambda full: (256 if full else 8) * 32,
    )

"""glacier's batched ``GlacierVectorEnv`` against Gymnasium's ``SyncVectorEnv`` over glacier's
single ``GlacierEnv``, the two taking turns in blocks of ``--block`` steps, so that a change
of load on a shared machine moves both sides alike (``benches/bench_batch.py`` times all of
one side's steps, then all of the other's). Each side: one ``step()`` of ``num_envs``
environments with legal-action masks and observations, NextStep autoreset, ``copy=False``,
the actions chosen beforehand from the masks the last step returned, exactly as in
``bench_batch.py``. The batched env runs twice, on one thread and on ``--threads`` (every
core by default), each taking its turn. Prints the median time per step of each side and
the ratios to ``SyncVectorEnv``.

Within a block each side steps as it would in a training loop, its actions chosen between
its own steps. The first ``--warmup`` steps of each block are not timed: they come right
after the other sides' blocks, whose environments have filled the caches with their own
data, a cold start that neither side meets in its own loop (measured: a 256-environment
chess step of the batched env took 0.122 ms alone, 0.18 ms as the median of blocks of 10
with every step timed, 0.153 ms with the first 5 of blocks of 20 left out). With
``--block 1 --warmup 0`` every step is timed from a cold cache.

    python benches/vector_env_vs_sync.py [--games kuba,e] [--envs 256,4096] [--rounds 8]
        [--block 20] [--warmup 5] [--threads 0]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

# numpy's OpenBLAS starts a thread per core that spins for a while when woken; none of the
# work here uses it, and on a small machine it would take a core from the batched env's
# threads. Set before numpy is imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import gymnasium
import numpy as np

import glacier
from glacier.gymnasium_env import GlacierEnv, GlacierVectorEnv


def _first_choice(masks: Any, weights: Any) -> Any:
    """The legal action of highest weight in each environment (as ``bench_batch.py``)."""
    return (masks * weights).argmax(axis=1)


class Side:
    """One implementation, stepped one step at a time with its own seeded choices."""

    def __init__(self, envs: Any) -> None:
        self.envs = envs
        self.obs = envs.reset(seed=0)[0]
        self.rng = np.random.default_rng(0)
        self.times: list[float] = []

    def step(self, timed: bool = True) -> None:
        masks = self.obs["action_mask"]
        actions = _first_choice(masks, self.rng.random(masks.shape[1], dtype=np.float32))
        start = time.perf_counter()
        self.obs = self.envs.step(actions)[0]
        if timed:
            self.times.append(time.perf_counter() - start)


def compare(game: str, num_envs: int, rounds: int, block: int, warmup: int, threads: int) -> list[float]:
    """The median step of the batched env on one thread, on ``threads``, and of SyncVectorEnv."""
    params = {"max_plies": 200}
    one = Side(GlacierVectorEnv(game, num_envs, copy=False, threads=1, **params))
    many = Side(GlacierVectorEnv(game, num_envs, copy=False, threads=threads, **params))
    single = [lambda: GlacierEnv(game, **params) for _ in range(num_envs)]
    sync = Side(gymnasium.vector.SyncVectorEnv(single, copy=False))
    sides = (one, many, sync)
    for side in sides:  # one warm-up step each, not timed
        side.step()
        side.times.clear()
    for _ in range(rounds):
        for side in sides:
            for step in range(block):
                side.step(timed=step >= warmup)
    return [statistics.median(side.times) for side in sides]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="", help="comma-separated game names (default: all)")
    parser.add_argument("--envs", default="256,4096")
    parser.add_argument("--rounds", type=int, default=8, help="blocks of each side")
    parser.add_argument("--block", type=int, default=20, help="steps of one side in a row")
    parser.add_argument("--warmup", type=int, default=5, help="steps of each block not timed")
    parser.add_argument("--threads", type=int, default=0, help="threads of the second batched run (0: every core)")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g] or list(glacier.GAMES)
    many = f"{args.threads or os.cpu_count()} threads"
    print(f"{'game':26} {'envs':>5} {'1 thread ms':>12} {many + ' ms':>13} {'sync ms':>9} {'ratios':>15}")
    for game in games:
        for num_envs in (int(n) for n in args.envs.split(",")):
            one, more, sync = compare(game, num_envs, args.rounds, args.block, args.warmup, args.threads)
            print(
                f"{game:26} {num_envs:5} {one * 1e3:12.3f} {more * 1e3:13.3f} {sync * 1e3:9.2f}"
                f" {sync / one:6.1f}x {sync / more:6.1f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()

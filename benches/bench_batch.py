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


def _first_choice(masks: Any, weights: Any) -> Any:
    """One legal action per environment, the same way for every implementation: the legal
    action of highest weight (a fresh random weight per action each step); 0 where nothing
    is legal (an environment about to restart, whose action is ignored)."""
    return (masks * weights).argmax(axis=1)


@pytest.mark.parametrize("num_envs", [256, 4096])
@pytest.mark.parametrize("implementation", ["glacier", "gymnasium-sync"])
@pytest.mark.parametrize("game", glacier.GAMES)
def test_vector_env_against_sync_vector_env(benchmark: Any, game: str, implementation: str, num_envs: int) -> None:
    """One Gymnasium ``step()`` of ``num_envs`` environments with legal-action masks and
    observations: glacier's batched ``GlacierVectorEnv`` against Gymnasium's own
    ``SyncVectorEnv`` over glacier's single ``GlacierEnv`` (both NextStep autoreset, both with
    ``copy=False``: the arrays a step returns are the next step's buffers). Only
    ``step()`` is timed; the actions are chosen beforehand from the masks it returned."""
    gymnasium = pytest.importorskip("gymnasium")
    np = pytest.importorskip("numpy")
    from glacier.gymnasium_env import GlacierEnv, GlacierVectorEnv

    params = {"max_plies": 200}
    if implementation == "glacier":
        envs: Any = GlacierVectorEnv(game, num_envs, copy=False, **params)
    else:
        envs = gymnasium.vector.SyncVectorEnv([lambda: GlacierEnv(game, **params) for _ in range(num_envs)], copy=False)
    obs, _ = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    size = obs["action_mask"].shape[1]
    last = {"obs": obs}

    def choose() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (_first_choice(last["obs"]["action_mask"], rng.random(size, dtype=np.float32)),), {}

    def step(actions: Any) -> None:
        last["obs"] = envs.step(actions)[0]

    rounds = 30 if num_envs <= 256 else 8
    benchmark.pedantic(step, setup=choose, rounds=rounds, iterations=1, warmup_rounds=1)
    assert last["obs"]["observation"].shape == (num_envs, *glacier.observation_shape(game))
    benchmark.group = f"{game} vector env, {num_envs} envs"
    benchmark.extra_info["counting"] = (
        f"{implementation}: one step() of {num_envs} environments (actions, rewards, masks and observations)"
    )
    benchmark.extra_info["env_steps"] = num_envs
    if benchmark.stats is not None:
        benchmark.extra_info["steps_per_second"] = round(num_envs / benchmark.stats.stats.mean)

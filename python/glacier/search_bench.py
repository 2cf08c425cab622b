"""Search speed beside its peers, in the same run (``glacier bench``, benches/bench_search.py,
docs/search.md):

- MCTS with one random rollout per simulation on standard chess (the start of the game
  that plays chess, ``glacier.kin("chess")``: Ice Age Chess with ``ice_age_period=0``)
  against OpenSpiel's C++ ``pyspiel.MCTSBot`` with ``RandomRolloutEvaluator(1)``: the same
  simulations per move, a few moves played from the standard start by each searcher,
  simulations per second over those moves.
- ``mcts_batch`` over many games with a trivial numpy evaluator against mctx's
  ``gumbel_muzero_policy`` under JAX on the CPU with a trivial recurrent function: the same
  batch, simulations and number of actions (chess's 4288), simulations (batch x simulations)
  per second of a warm call (mctx's compilation left out).

OpenSpiel and mctx are optional here: a row is left out when its library is not installed.
"""

from __future__ import annotations

import time
from typing import Any, Optional

import numpy as np

import glacier

from . import search
from .bench import Measurement, optional_module

__all__ = [
    "CHESS_START",
    "glacier_batch_rate",
    "glacier_mcts_rate",
    "mctx_rate",
    "openspiel_mcts_rate",
    "search_comparisons",
]

#: The game that plays chess, and the start it plays it from.
_CHESS_GAME, _CHESS_START_NAME = glacier.kin("chess")
#: The standard chess start.
CHESS_START = glacier.new_game(_CHESS_GAME, start=_CHESS_START_NAME).text()


def _chess() -> Any:
    return glacier.new_game(_CHESS_GAME, start=_CHESS_START_NAME)


def glacier_mcts_rate(
    simulations: int = 200, moves: int = 6, threads: int = 1, parallel: str = "tree", seed: int = 0
) -> float:
    """Simulations per second of glacier's MCTS with full random rollouts, ``moves`` moves
    from the standard chess start, a fresh search of ``simulations`` for each."""
    state = _chess()
    done, spent = 0, 0.0
    for move in range(moves):
        start = time.perf_counter()
        result = search.mcts(
            state, simulations=simulations, evaluator="rollout", threads=threads, parallel=parallel, seed=seed + move
        )
        spent += time.perf_counter() - start
        done += result.simulations
        state.play(result.move)
    return done / spent


def openspiel_mcts_rate(simulations: int = 200, moves: int = 6, seed: int = 42) -> Optional[float]:
    """The same for OpenSpiel's ``MCTSBot`` (UCT c = 2, ``RandomRolloutEvaluator(1)``) on
    OpenSpiel's chess; None without OpenSpiel."""
    pyspiel = optional_module("pyspiel")
    if pyspiel is None:
        return None
    game = pyspiel.load_game("chess")
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, simulations, 1000, False, seed, False)
    state = game.new_initial_state()
    spent = 0.0
    for _ in range(moves):
        start = time.perf_counter()
        action = bot.step(state)
        spent += time.perf_counter() - start
        state.apply_action(action)
    return simulations * moves / spent


def trivial_evaluator(players: int = 2, seed: int = 0) -> search.Evaluator:
    """A trivial numpy evaluator: uniform logits, random values (what mctx's trivial
    recurrent function returns)."""
    rng = np.random.default_rng(seed)

    def evaluate(observations: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits = np.zeros(legal.shape, np.float32)
        values = rng.uniform(-1.0, 1.0, (legal.shape[0], players)).astype(np.float32)
        return logits, values

    return evaluate


def glacier_batch_rate(batch: int = 256, simulations: int = 32, calls: int = 3) -> float:
    """Simulations per second of ``mcts_batch`` over ``batch`` standard chess games (from
    the start) with :func:`trivial_evaluator`, best of ``calls``."""
    states = [_chess() for _ in range(batch)]
    evaluator = trivial_evaluator()
    best = 0.0
    for _ in range(calls):
        start = time.perf_counter()
        results = search.mcts_batch(states, evaluator, simulations=simulations)
        elapsed = time.perf_counter() - start
        best = max(best, sum(r.simulations for r in results) / elapsed)
    return best


def mctx_rate(batch: int = 256, simulations: int = 32, actions: int = 4288, calls: int = 3) -> Optional[float]:
    """Simulations per second of mctx's ``gumbel_muzero_policy`` (JAX, CPU), ``batch`` roots,
    ``actions`` actions, a recurrent function returning the given logits and random values,
    best of ``calls`` warm calls; None without mctx."""
    mctx, jax = optional_module("mctx"), optional_module("jax")
    if mctx is None or jax is None:
        return None
    jnp = jax.numpy

    def recurrent_fn(params: Any, rng: Any, action: Any, embedding: Any) -> Any:
        value = jax.random.uniform(rng, (batch,)) * 2 - 1
        out = mctx.RecurrentFnOutput(
            reward=jnp.zeros(batch), discount=-jnp.ones(batch), prior_logits=params, value=value
        )
        return out, embedding + 1

    @jax.jit  # type: ignore[misc,untyped-decorator]
    def run(rng: Any, logits: Any) -> Any:
        root = mctx.RootFnOutput(prior_logits=logits, value=jnp.zeros(batch), embedding=jnp.zeros(batch))
        out = mctx.gumbel_muzero_policy(
            params=logits,
            rng_key=rng,
            root=root,
            recurrent_fn=recurrent_fn,
            num_simulations=simulations,
            max_num_considered_actions=16,
        )
        return out.action, out.action_weights

    # Logits are an argument: constant logits would be folded at compile time.
    logits = jax.random.normal(jax.random.PRNGKey(0), (batch, actions))
    jax.block_until_ready(run(jax.random.PRNGKey(0), logits))  # compiles
    best = 0.0
    for i in range(calls):
        start = time.perf_counter()
        jax.block_until_ready(run(jax.random.PRNGKey(i + 1), logits))
        best = max(best, batch * simulations / (time.perf_counter() - start))
    return best


def search_comparisons(*, quick: bool = False) -> list[Measurement]:
    """The rows of ``glacier bench`` for the searches."""
    rows = []
    game = "standard chess"
    moves = 2 if quick else 6
    sims = 200
    how = f"{sims} simulations per move, full random rollouts, {moves} moves from the start"
    rows.append(Measurement(game, "MCTS", f"glacier, 1 thread; {how}", glacier_mcts_rate(sims, moves), "sims/s"))
    rows.append(
        Measurement(
            game, "MCTS", f"glacier, 2 threads (tree-parallel); {how}", glacier_mcts_rate(sims, moves, 2), "sims/s"
        )
    )
    rows.append(
        Measurement(
            game,
            "MCTS",
            f"glacier, 2 threads (root-parallel); {how}",
            glacier_mcts_rate(sims, moves, 2, parallel="root"),
            "sims/s",
        )
    )
    spiel = openspiel_mcts_rate(sims, moves)
    if spiel is not None:
        rows.append(Measurement(game, "MCTS", f"OpenSpiel MCTSBot + RandomRolloutEvaluator(1); {how}", spiel, "sims/s"))
    batch = 64 if quick else 256
    how = f"{batch} games x 32 simulations, 4288 actions, trivial evaluator"
    rows.append(
        Measurement(game, "batched MCTS", f"glacier mcts_batch; {how}", glacier_batch_rate(batch, 32), "sims/s")
    )
    rate = mctx_rate(batch, 32)
    if rate is not None:
        rows.append(Measurement(game, "batched MCTS", f"mctx gumbel_muzero_policy, JAX CPU; {how}", rate, "sims/s"))
    return rows

"""The speed of learning (docs/learning.md, "Speed"), measured side by side in one run:

- **Inference in the engine**: MCTS simulations per second on one thread with a net of the
  game's default size (the shipped one where there is one) against the same search with the
  engine's heuristic (``evaluator="heuristic"``), from a few positions of each game.
- **Self-play**: positions per second of ``glacier train``'s self-play
  (:func:`glacier.learn.play_games`, the net in the engine), of a plain user loop over
  ``search.mcts_batch`` with a numpy MLP of the same size and simulations (the loop a
  researcher writes: observations, a numpy forward per batch, the move played), and of
  OpenSpiel's own AlphaZero on the same game through ``glacier.openspiel`` (its actors'
  positions, counted from its learner's log), when OpenSpiel is installed.

    python benches/learn_speed.py [--games ice_cube_checkers,kuba] [--parts inference,selfplay,openspiel]
        [--simulations 64] [--search-simulations 20000] [--seconds 20] [--threads 1] [--net PATH]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import numpy as np

import glacier
from glacier import learn, search
from glacier.learn import netfile

GAMES = list(glacier.GAMES)

#: Nets given on the command line (``--net``), by game: measured instead of the shipped ones.
GIVEN: dict[str, learn.Net] = {}


def net_for(game: str, hidden: tuple[int, ...] | None = None) -> learn.Net:
    """The net given for ``game``, its shipped net, or a random one of its default size."""
    if hidden is None and game in GIVEN:
        return GIVEN[game]
    if hidden is None:
        try:
            return learn.baseline(game)
        except glacier.GlacierError:
            hidden = learn.DEFAULT_HIDDEN
    spec = learn.spec_for(game, hidden)
    rng = np.random.default_rng(0)
    tensors = {k: (rng.standard_normal(s) * 0.1).astype(np.float32) for k, s in netfile.tensor_shapes(spec).items()}
    return learn.Net(spec, tensors)


def positions(game: str, count: int = 4, seed: int = 0) -> list[Any]:
    rng = random.Random(seed)
    out = []
    for k in range(count):
        state = glacier.new_game(game)
        for _ in range(4 * k):
            moves = state.legal_moves()
            state.play(rng.choice(moves))
            if state.is_terminal():
                state.undo()
                break
        out.append(state)
    return out


def search_rate(game: str, evaluator: Any, simulations: int) -> float:
    done = spent = 0.0
    for state in positions(game):
        result = search.mcts(state, evaluator=evaluator, simulations=simulations, threads=1)
        done += result.simulations
        spent += result.seconds
    return done / spent


def inference(games: list[str], simulations: int, rounds: int = 7) -> None:
    print(f"MCTS on one thread, simulations per second (4 positions each; median of {rounds} rounds in turn)")
    for game in games:
        net = net_for(game)
        heuristic, with_net = [], []
        # The two searches take turns, so that a change in the machine's load hits both.
        for _ in range(rounds):
            heuristic.append(search_rate(game, "heuristic", simulations))
            with_net.append(search_rate(game, net, simulations))
        ratios = sorted(n / h for n, h in zip(with_net, heuristic))
        print(
            f"  {game}: net {list(net.spec.hidden)} {statistics.median(with_net):,.0f}, "
            f"heuristic {statistics.median(heuristic):,.0f}, ratio {statistics.median(ratios):.2f} "
            f"(rounds {ratios[0]:.2f} to {ratios[-1]:.2f})",
            flush=True,
        )


class NumpyMLP:
    """The researcher's evaluator: the same MLP in numpy, one call per batch of leaves."""

    def __init__(self, net: learn.Net) -> None:
        self.net = net

    def __call__(self, observations: np.ndarray, legal: np.ndarray, to_play: np.ndarray) -> Any:
        logits, values = self.net.forward(observations, to_play)
        return logits, values[:, 0]  # the mover's value


def user_loop(game: str, net: learn.Net, games: int, simulations: int, seconds: float) -> float:
    """Positions per second of a plain loop: mcts_batch over every game, the move played."""
    evaluator = NumpyMLP(net)
    rng = random.Random(0)
    states = [glacier.new_game(game) for _ in range(games)]
    rows: list[Any] = []
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        results = search.mcts_batch(states, evaluator, simulations=simulations, dirichlet_fraction=0.25)
        for i, (state, result) in enumerate(zip(states, results)):
            rows.append((state.observation(), state.legal_action_mask(), result.action_policy(net.spec.num_actions)))
            moves = list(result.visits)
            state.play(rng.choices(moves, weights=[result.visits[m] for m in moves])[0])
            count += 1
            if state.is_terminal():
                states[i] = glacier.new_game(game)
    return count / (time.perf_counter() - start)


def glacier_selfplay(game: str, net: learn.Net, games: int, simulations: int, seconds: float, threads: int) -> float:
    settings = learn.SelfPlaySettings(simulations=simulations)
    count = 0
    start = time.perf_counter()
    index = 0
    while time.perf_counter() - start < seconds:
        data = learn.play_games(game, net.params, index, index + games, 1, net, settings, threads=threads)
        count += int(np.count_nonzero(data["searched"]))
        index += games
    return count / (time.perf_counter() - start)


#: Runs OpenSpiel's AlphaZero (its ``alpha_zero.alpha_zero`` entry) in a process of its own.
OPENSPIEL_RUNNER = """
import json, sys
from open_spiel.python.algorithms.alpha_zero import alpha_zero
import glacier.openspiel
alpha_zero.alpha_zero(alpha_zero.Config(**json.loads(sys.argv[1])))
"""


def openspiel_alphazero(game: str, net: learn.Net, simulations: int, steps: int = 3) -> float | None:
    """States per second of OpenSpiel's own AlphaZero on ``game`` through glacier.openspiel:
    two actors, an MLP of the net's widths, ``simulations`` a move; its learner's count of
    states over its run (None without OpenSpiel)."""
    import json
    import os
    import subprocess
    import sys
    import tempfile

    try:
        import open_spiel  # noqa: F401
    except ImportError:
        return None
    with tempfile.TemporaryDirectory() as path:
        config = {
            "game": f"glacier_{game}",
            "path": path,
            "learning_rate": 0.001,
            "weight_decay": 1e-4,
            "decouple_weight_decay": False,
            "train_batch_size": 64,
            "replay_buffer_size": 256,
            "replay_buffer_reuse": 1,
            "max_steps": steps,
            "checkpoint_freq": 1,
            "actors": 2,
            "evaluators": 0,
            "evaluation_window": 10,
            "eval_levels": 2,
            "uct_c": 2.0,
            "max_simulations": simulations,
            "policy_alpha": 1.0,
            "policy_epsilon": 0.25,
            "temperature": 1.0,
            "temperature_drop": 10,
            "nn_model": "mlp",
            "nn_width": net.spec.hidden[0],
            "nn_depth": len(net.spec.hidden),
            "observation_shape": None,
            "output_size": None,
            "verbose": False,
            "quiet": True,
            "nn_api_version": "linen",
        }
        env = {**os.environ, "JAX_PLATFORMS": "cpu"}
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", OPENSPIEL_RUNNER, json.dumps(config)], capture_output=True, text=True, env=env
        )
        elapsed = time.perf_counter() - start
        if done.returncode != 0:
            print(done.stderr[-2000:])
            return None
        with open(os.path.join(path, "learner.jsonl")) as log:
            steps_logged = [json.loads(line) for line in log]
        return float(steps_logged[-1]["total_states"]) / elapsed


def selfplay(games: list[str], simulations: int, seconds: float, threads: int, rounds: int = 3) -> None:
    print(
        f"self-play, positions per second ({simulations} simulations a move, 256 games: glacier train's "
        f"self-play {learn.GAMES_PER_THREAD_IN_ENGINE} at a time per thread, the user loop all at once; "
        f"median of {rounds} rounds in turn)"
    )
    for game in games:
        net = net_for(game)
        ours, theirs = [], []
        # The two loops take turns, so that a change in the machine's load hits both.
        for _ in range(rounds):
            ours.append(glacier_selfplay(game, net, 256, simulations, seconds, threads))
            theirs.append(user_loop(game, net, 256, simulations, seconds))
        ratios = sorted(o / t for o, t in zip(ours, theirs))
        print(
            f"  {game}: glacier train's self-play {statistics.median(ours):,.0f} (threads={threads}), "
            f"user loop with a numpy MLP {statistics.median(theirs):,.0f}, ratio {statistics.median(ratios):.2f} "
            f"(rounds {ratios[0]:.2f} to {ratios[-1]:.2f})",
            flush=True,
        )


def openspiel(games: list[str], simulations: int, seconds: float, threads: int) -> None:
    """OpenSpiel's own AlphaZero beside one round of glacier's self-play (a run of minutes)."""
    for game in games:
        net = net_for(game)
        spiel = openspiel_alphazero(game, net, simulations)
        if spiel is None:
            print(f"  {game}: OpenSpiel's AlphaZero did not run (is open_spiel installed?)")
            continue
        ours = glacier_selfplay(game, net, 256, simulations, seconds, threads)
        print(f"  {game}: OpenSpiel's AlphaZero, 2 actors: {spiel:,.1f} (glacier {ours:,.0f})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--parts", default="inference,selfplay,openspiel")
    parser.add_argument("--simulations", type=int, default=64, help="a move, in self-play")
    parser.add_argument("--search-simulations", type=int, default=20000, help="from each position, in inference")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--net", help="a net file instead of the game's baseline (one game)")
    args = parser.parse_args()
    games = args.games.split(",")
    if args.net:
        net = learn.load(args.net)
        if games != [net.spec.game]:
            parser.error(f"--net {args.net} is a net of {net.spec.game}: give --games {net.spec.game}")
        GIVEN[net.spec.game] = net
    parts = args.parts.split(",")
    if "inference" in parts:
        inference(games, args.search_simulations)
    if "selfplay" in parts:
        selfplay(games, args.simulations, args.seconds, args.threads)
    if "openspiel" in parts:
        openspiel(games, args.simulations, args.seconds, args.threads)


if __name__ == "__main__":
    main()

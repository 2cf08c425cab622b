"""Two builds of glacier side by side: the same measurements, same seeds, taking turns.

    python benches/compare_engines.py OLD_PYTHON [NEW_PYTHON]

runs each measurement in both interpreters (each with its own glacier installed, e.g. a
venv built from an older commit and this one), alternately, ``--rounds`` times, and prints
the best rate of each and their ratio. Measured: random playouts (1 thread, seed 1, the
same games where the rules did not change), bulk perft (1 thread), perft and playouts on 2
threads, the batched environment (steps of sampled actions with kept observation and mask
buffers, 1 and 2 threads), MCTS simulations per second (the engine's rollouts and heuristic
on one thread, tree- and root-parallel on 2 threads, and a batched numpy evaluator through
``mcts_batch``), ``copy()`` of a state at ply 0 and at ply 1000 (or its end), random games
driven from Python (one ``legal_moves()`` and one ``play()`` a ply), AlphaZero self-play on
one thread (``glacier.selfplay.play_games``, 8 games of 60 moves at most, 32 simulations a
move, the leaves evaluated by the game's own evaluation and by its shipped net) and, for
the new build only, perft with and without a transposition table. Every game is measured, on
the workloads it declares for benchmarks (``glacier.game_spec(game).bench``, read from the
new build). ``--clock cpu`` times by the process's CPU time instead of the wall clock: on a
machine others share, a burst of their work then slows neither build's figures much. Not a
test (pytest does not collect it): it needs two builds.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

#: Run inside each interpreter: prints one JSON object of rates. Its workloads (argv[2],
#: JSON) are the new build's: each game's declared bench depths and playout counts
#: (``glacier.game_spec(game).bench``), so that an old build that does not declare them is
#: measured on the same work.
PROBE = r"""
import json, random, sys, time, glacier
which = sys.argv[1]
work = json.loads(sys.argv[2])
clock = time.process_time if sys.argv[3] == "cpu" else time.perf_counter
def best(work, rounds=3, least=0.25):
    # Each round repeats the work for at least `least` seconds: a process's CPU time may
    # be counted in scheduler ticks of several milliseconds.
    rate = 0.0
    for _ in range(rounds):
        count, start = 0, clock()
        while True:
            count += work(); elapsed = clock() - start
            if elapsed >= least:
                break
        rate = max(rate, count / elapsed)
    return rate
out = {}
if which == "workloads":
    for game in glacier.GAMES:
        bench = glacier.game_spec(game).bench
        out[game] = {"playouts": bench.playouts, "perft": bench.perft[0],
                     "hashed": bench.hashed_perft[0] if bench.hashed_perft else None}
elif which == "playouts":
    for game, w in work.items():
        out[game] = best(lambda: int(glacier.playouts(game, w["playouts"], seed=1, threads=1).length.sum()))
elif which == "perft":
    for game, w in work.items():
        state = glacier.new_game(game)
        out[game] = best(lambda: state.perft(w["perft"]))
elif which == "threads":
    for game, w in work.items():
        state = glacier.new_game(game)
        out[f"perft {game}"] = best(lambda: state.perft(w["perft"], threads=2))
    for game, w in work.items():
        out[f"playouts {game}"] = best(
            lambda: int(glacier.playouts(game, 2 * w["playouts"], seed=1, threads=2).length.sum()))
elif which == "env":
    import numpy as np
    from glacier.batch import VectorEnv
    for game in work:
        for envs, threads in [(256, 1), (256, 2)]:
            env = VectorEnv(game, envs, seed=1, threads=threads)
            obs = np.zeros((envs, *env.observation_shape), np.float32)
            masks = np.zeros((envs, env.num_actions), np.bool_)
            def steps(env=env, obs=obs, masks=masks, envs=envs):
                for _ in range(200):
                    env.step(env.sample_actions(), observations_out=obs, masks_out=masks)
                return 200 * envs
            out[f"{game} x{envs} {threads}t"] = best(steps)
elif which == "mcts":
    import numpy as np
    from glacier import search
    for game, w in work.items():
        state = glacier.new_game(game)
        for evaluator in ("rollout", "heuristic"):
            sims = 20000 if evaluator == "heuristic" else 600
            out[f"{game} {evaluator}"] = best(
                lambda: search.mcts(state, simulations=sims, evaluator=evaluator, seed=1).simulations)
        # Full rollouts on two threads, fewer in the games whose playouts are long.
        sims = 2 * w["playouts"]
        for parallel in ("tree", "root"):
            out[f"{game} rollout 2t {parallel}"] = best(lambda: search.mcts(
                state, simulations=sims, seed=1, threads=2, parallel=parallel).simulations)
elif which == "mcts_batch":
    import numpy as np
    from glacier import search
    for game in work:
        states = [glacier.new_game(game) for _ in range(64)]
        players = states[0].num_players
        def evaluator(observations, legal, players=players):
            return np.zeros(legal.shape, np.float32), np.zeros((legal.shape[0], players), np.float32)
        out[game] = best(lambda: sum(r.simulations for r in search.mcts_batch(
            states, evaluator, simulations=400, batch_size=2, seed=1)))
elif which == "copy":
    for game in work:
        state = glacier.new_game(game, max_plies=5000)
        rng = random.Random(0)
        for ply in range(1001):
            if ply == 0 or ply == 1000 or state.is_terminal():
                out[f"{game} ply {ply}"] = best(lambda: sum(1 for _ in range(20000) if state.copy()))
            if state.is_terminal():
                break
            state.play(rng.choice(state.legal_moves()))
elif which == "api":
    for game in work:
        def games(game=game):
            rng, plies = random.Random(1), 0
            for _ in range(20):
                state = glacier.new_game(game, max_plies=200)
                while not state.is_terminal():
                    state.play(rng.choice(state.legal_moves()))
                    plies += 1
            return plies
        out[game] = best(games)
elif which == "selfplay":
    from glacier import nets, selfplay
    for game in work:
        for evaluator in ("engine", "net"):
            settings = selfplay.SelfPlaySettings(simulations=32, evaluator=evaluator, max_moves=60)
            net = nets.baseline(game) if evaluator == "net" else None
            out[f"{game} {evaluator}"] = best(lambda: len(
                selfplay.play_games(game, {}, 0, 8, 1, net, settings, threads=1)["game"]))
elif which == "hash":
    for game, w in work.items():
        if w["hashed"] is None:
            continue
        depth = w["hashed"]
        state = glacier.new_game(game)
        plain = best(lambda: state.perft(depth), 2)
        start = time.perf_counter(); state.perft(depth, hash_mb=64); first = time.perf_counter() - start
        hashed = best(lambda: state.perft(depth, hash_mb=64), 2)
        out[f"{game} perft({depth})"] = [plain, state.perft(depth) / first, hashed]
print(json.dumps(out))
"""


def measure(python: str, which: str, work: object = None, clock: str = "wall") -> dict[str, object]:
    argv = [python, "-c", PROBE, which, json.dumps(work), clock]
    done = subprocess.run(argv, capture_output=True, text=True, check=True, cwd="/")
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new", nargs="?", default=sys.executable)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", help="comma-separated measurements (playouts, perft, threads, env, mcts, ...)")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time by the wall clock, or by the process's CPU time (steadier on a shared machine; "
        "the rates of work on 2 threads are then per CPU-second)",
    )
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    work = measure(args.new, "workloads")
    for which, unit in (
        ("playouts", "plies/s"),
        ("perft", "leaves/s"),
        ("threads", "leaves/s, plies/s"),
        ("env", "environment steps/s"),
        ("mcts", "simulations/s"),
        ("mcts_batch", "simulations/s, 64 trees"),
        ("copy", "copies/s"),
        ("api", "plies/s of legal_moves() and play() from Python"),
        ("selfplay", "rows/s, 8 games of 32 simulations a move"),
    ):
        if only is not None and which not in only:
            continue
        best: dict[str, dict[str, float]] = {"old": {}, "new": {}}
        for _ in range(args.rounds):
            for side, python in (("old", args.old), ("new", args.new)):
                for key, rate in measure(python, which, work, args.clock).items():
                    best[side][key] = max(best[side].get(key, 0.0), float(rate))  # type: ignore[arg-type]
        clock = "CPU time" if args.clock == "cpu" else "wall clock"
        print(f"\n{which} ({unit}, {clock}, best of {args.rounds} x 3, the builds taking turns)")
        for key, new in best["new"].items():
            old = best["old"].get(key, 0.0)
            print(f"  {key:<28} old {old:>14,.0f}  new {new:>14,.0f}  {new / old if old else float('nan'):6.2f}x")
    if only is not None and "hash" not in only:
        return
    print("\nperft with a 64 MiB table, new build (leaves/s: none, first call, table reused; ratios)")
    for key, rates in measure(args.new, "hash", work, args.clock).items():
        plain, first, hashed = (float(rate) for rate in rates)  # type: ignore[attr-defined]
        figures = f"{plain:>14,.0f} {first:>14,.0f} {hashed:>14,.0f}"
        print(f"  {key:<28} {figures}  {first / plain:5.2f}x {hashed / plain:5.2f}x")


if __name__ == "__main__":
    main()

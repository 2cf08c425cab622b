"""glacier train in small: a run of seconds per game that checks the shards' shapes, that the
loss falls, gating, resuming, and the bad inputs of the loop and the command."""

from __future__ import annotations

import dataclasses
import json
import math
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import glacier
from glacier import distributed, learn
from glacier.cli import main
from glacier.errors import EvaluatorError, InvalidNetError, InvalidParameterError

pytest.importorskip("jax")
pytest.importorskip("optax")

#: Games picked by what they are, not by name: the smallest observations first, and a game
#: of several player counts.
BY_SIZE = sorted(glacier.GAMES, key=lambda g: math.prod(glacier.observation_shape(g)))
SMALL, OTHER = BY_SIZE[0], BY_SIZE[1]
MULTI = next(g for g in glacier.GAMES if len(glacier.game_spec(g).seats) > 1)


#: Each game with a short ply limit, so that games of an untrained net end in seconds.
GAMES = [
    *[(game, {"max_plies": 30}) for game in glacier.GAMES],
    (MULTI, {"players": 3, "max_plies": 30}),
]


def tiny(game: str, params: dict[str, int], **changes: object) -> learn.TrainConfig:
    config = learn.TrainConfig(
        game,
        params=params,
        hidden=(16,),
        games_per_iteration=6,
        concurrent_games=3,
        selfplay=learn.SelfPlaySettings(simulations=4),
        batch_size=32,
        replay_ratio=30.0,
        learning_rate=3e-3,
        gate_games=2,
        evaluate_every=1,
        evaluate_games=1,
        evaluate_opponents=("random",),
    )
    return dataclasses.replace(config, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(("game", "params"), GAMES, ids=lambda v: v if isinstance(v, str) else str(v))
def test_a_tiny_run_of_every_game(tmp_path: Path, game: str, params: dict[str, int]) -> None:
    out = tmp_path / "run"
    result = learn.train(tiny(game, params), out, iterations=2)
    assert (result.iterations, result.stopped) == (2, "iterations")
    state = glacier.new_game(game, **params)
    shape, actions, players = tuple(state.observation_shape), state.num_distinct_actions, state.num_players
    data = distributed.load_selfplay(out / "selfplay" / "iter-00001")
    rows = len(data["game"])
    assert sorted(set(data["game"].tolist())) == list(range(6))
    assert data["observation"].shape == (rows, *shape)
    assert data["legal_mask"].shape == data["policy"].shape == (rows, actions)
    assert data["returns"].shape == data["root_values"].shape == (rows, players)
    searched = data["searched"]
    assert np.allclose(data["policy"][searched].sum(axis=1), 1.0)
    assert not (data["policy"] * ~data["legal_mask"]).any()  # visits only on legal actions
    assert (data["legal_count"] == data["legal_mask"].sum(axis=1)).all()
    # The actions replay the games, and each game's returns are its end's.
    for g in range(6):
        replay = glacier.new_game(game, **params)
        for action in data["action"][data["game"] == g].tolist():
            replay.apply_action(action)
        assert replay.is_terminal()
        assert np.allclose(data["returns"][data["game"] == g], replay.returns())
    iterations = [e for e in result.log if e["event"] == "iteration"]
    assert len(iterations) == 2
    assert all(e["loss_last"] < e["loss_first"] for e in iterations)
    assert all(math.isfinite(e["policy_loss"]) and math.isfinite(e["value_loss"]) for e in iterations)
    events = [e["event"] for e in result.log]
    assert events.count("evaluation") == 2 and events[-1] == "final evaluation"
    net = learn.load(out / "best.safetensors", game, **params)
    assert net.spec.num_players == players
    assert (out / "train.log").read_text().count("iteration") >= 2


def test_gating_keeps_the_best_unless_beaten(tmp_path: Path) -> None:
    params = {"max_plies": 40}
    always = learn.train(tiny(OTHER, params, gate_threshold=1e-9), tmp_path / "a", iterations=2)
    assert [e["accepted"] for e in always.log if e["event"] == "iteration"] == [True, True]
    assert always.best_iteration == 2
    assert learn.load(tmp_path / "a" / "best.safetensors").training["iteration"] == 2
    # A threshold no score reaches (more than a whole point) keeps the first net.
    never = learn.train(tiny(OTHER, params, gate_threshold=1.0, gate_games=2), tmp_path / "b", iterations=2)
    gates = [e for e in never.log if e["event"] == "iteration"]
    for e in gates:
        assert e["accepted"] == (e["gate"]["score"] >= 1.0)
    best = learn.load(tmp_path / "b" / "best.safetensors")
    assert best.training["iteration"] == never.best_iteration


def test_evaluations_can_be_left_out(tmp_path: Path) -> None:
    """evaluate_every=0 evaluates nothing during the run; final_evaluation=False nothing at
    its end (an evaluation of E against random can take longer than the run)."""
    none = learn.train(
        tiny(OTHER, {"max_plies": 40}, evaluate_every=0, final_evaluation=False), tmp_path / "a", iterations=2
    )
    assert [e["event"] for e in none.log] == ["iteration", "iteration"]
    end = learn.train(tiny(OTHER, {"max_plies": 40}, evaluate_every=0), tmp_path / "b", iterations=2)
    assert [e["event"] for e in end.log] == ["iteration", "iteration", "final evaluation"]
    every = learn.train(
        tiny(OTHER, {"max_plies": 40}, evaluate_every=2, final_evaluation=False), tmp_path / "c", iterations=2
    )
    assert [e["event"] for e in every.log] == ["iteration", "iteration", "evaluation"]
    for bad in (-1, 1.5):
        with pytest.raises(InvalidParameterError, match="evaluate_every must be an integer >= 0"):
            learn.train(tiny(OTHER, {}, evaluate_every=bad), tmp_path / "bad", iterations=1)
    assert not (tmp_path / "bad").exists()


def test_a_warm_start_plays_its_first_iterations_as_the_games_computer_player(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = learn.train(tiny(SMALL, {"max_plies": 40}, warm_start=1), out, iterations=2)
    assert result.iterations == 2
    manifests = [json.loads((out / "selfplay" / f"iter-{i:05d}" / "manifest.json").read_text()) for i in (1, 2)]
    assert [m["player_options"]["evaluator"] for m in manifests] == ["engine", "net"]
    # The warm start's net is the best without a match; later ones pass the gate.
    first_iteration, second = (e for e in result.log if e["event"] == "iteration")
    assert first_iteration["gate"] is None and first_iteration["accepted"]
    assert second["gate"] is not None
    # The first iteration's games are those of the search of the game's computer player.
    first = manifests[0]
    options = {k: v for k, v in first["player_options"].items() if k != "net_digest"}
    size = first["shard_size"]
    expected = learn.play_games(
        SMALL, first["params"], 0, size, first["seed"], None, learn.SelfPlaySettings.of(options)
    )
    data = distributed.load_selfplay(out / "selfplay" / "iter-00001")
    ours = data["game"] < size
    assert data["action"][ours].tolist() == expected["action"].tolist()
    assert np.allclose(data["policy"][ours], expected["policy"])
    with pytest.raises(InvalidParameterError, match="warm_start"):
        learn.train(tiny(SMALL, {}, warm_start=-1), tmp_path / "bad", iterations=1)


def test_a_selfplay_game_depends_on_its_number_alone() -> None:
    params = {"max_plies": 40}
    net = learn.baseline(SMALL)
    settings = learn.SelfPlaySettings(simulations=12, leaves_per_tree=2)
    rounds: list[int] = []
    run = learn.play_games(SMALL, params, 2, 8, 5, net, settings, concurrent=3, on_move=rounds.append)
    assert sorted(set(run["game"].tolist())) == list(range(2, 8))
    assert sum(rounds) == int(run["searched"].sum()) and max(rounds) == 3
    # Other company, other threads: the same games.
    wider = learn.play_games(SMALL, params, 2, 8, 5, net, settings, concurrent=6, threads=2)
    assert all(np.array_equal(run[c], wider[c]) for c in learn.AZ_COLUMNS)
    alone = learn.play_games(SMALL, params, 4, 5, 5, net, settings)
    assert np.array_equal(alone["action"], run["action"][run["game"] == 4])

    # The same net called from Python: the same games.
    def in_python(observations: np.ndarray, legal: np.ndarray, to_play: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return net(observations, legal, to_play)  # type: ignore[no-any-return]

    called = learn.play_games(SMALL, params, 2, 8, 5, in_python, settings, concurrent=3)
    assert all(np.array_equal(run[c], called[c]) for c in learn.AZ_COLUMNS)

    # An evaluator's exception is an EvaluatorError; a progress callback's comes as it is.
    def failing(observations: np.ndarray, legal: np.ndarray) -> None:
        raise ZeroDivisionError("the evaluator failed")

    with pytest.raises(EvaluatorError, match="ZeroDivisionError: the evaluator failed"):
        learn.play_games(SMALL, params, 0, 2, 5, failing, settings)

    def stop(moves: int) -> None:
        raise LookupError("enough")

    with pytest.raises(LookupError, match="enough"):
        learn.play_games(SMALL, params, 0, 2, 5, net, settings, on_move=stop)
    with pytest.raises(InvalidParameterError, match="the net is for"):
        learn.play_games(OTHER, {}, 0, 2, 5, net, settings)
    for bad in ({"temperature_moves": -1}, {"max_moves": 0}):
        with pytest.raises(InvalidParameterError, match="temperature_moves >= 0 and max_moves >= 1"):
            learn.play_games(SMALL, params, 0, 2, 5, net, dataclasses.replace(settings, **bad))
    with pytest.raises(InvalidParameterError, match="'net' or 'engine'"):
        learn.SelfPlaySettings(evaluator="rollout").check()


def test_selfplay_mixes_the_heuristic_into_its_searches_values() -> None:
    params = {"max_plies": 40}
    net = learn.baseline(SMALL)
    # The same net with other values: a constant lead for the first player.
    tensors = dict(net.tensors)
    tensors["value.weight"] = np.zeros_like(tensors["value.weight"])
    tensors["value.bias"] = np.linspace(0.9, -0.9, len(tensors["value.bias"])).astype(tensors["value.bias"].dtype)
    other = learn.Net(net.spec, tensors)
    full = learn.SelfPlaySettings(simulations=12, heuristic_mix=1.0)
    # At full weight the net's values play no part: the same games, the same targets.
    ours, theirs = (learn.play_games(SMALL, params, 0, 4, 5, n, full) for n in (net, other))
    assert all(np.array_equal(ours[c], theirs[c]) for c in learn.AZ_COLUMNS)
    # Below it they do, and the root values differ.
    half = dataclasses.replace(full, heuristic_mix=0.5)
    ours, theirs = (learn.play_games(SMALL, params, 0, 4, 5, n, half) for n in (net, other))
    n = min(len(ours["root_values"]), len(theirs["root_values"]))
    assert not np.array_equal(ours["root_values"][:n], theirs["root_values"][:n])
    for bad in (-0.1, 1.5, math.nan):
        with pytest.raises(InvalidParameterError, match="heuristic_mix"):
            learn.play_games(SMALL, params, 0, 2, 5, net, dataclasses.replace(full, heuristic_mix=bad))


def test_a_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    # No net passes the gate, so every iteration plays with the same net.
    config = tiny(SMALL, {"max_plies": 40}, gate_threshold=1.0 + 1e-9)
    out = tmp_path / "run"
    learn.train(config, out, iterations=1)
    first = json.loads((out / "state.json").read_text())
    assert first["iteration"] == 1
    # A shard lost mid-iteration (as after Ctrl-C) is played again, the others are kept.
    second = learn.train(config, out, iterations=1, resume=True)
    assert second.iterations == 2
    state = json.loads((out / "state.json").read_text())
    assert state["iteration"] == 2 and state["positions"] > first["positions"]
    assert learn.load(out / "latest.safetensors").training["iteration"] == 2
    iteration = out / "selfplay" / "iter-00002"
    shards = sorted(p.name for p in iteration.iterdir())
    kept = (iteration / shards[0]).read_bytes()
    (iteration / shards[-1]).unlink()
    (out / "state.json").write_text(json.dumps({**state, "iteration": 1}))
    third = learn.train(config, out, iterations=1, resume=True)
    assert third.iterations == 2
    assert sorted(p.name for p in iteration.iterdir()) == shards
    assert (iteration / shards[0]).read_bytes() == kept
    assert not list(out.rglob("*.partial"))


def test_bad_runs_are_refused(tmp_path: Path) -> None:
    config = tiny(SMALL, {"max_plies": 40})
    out = tmp_path / "run"
    learn.train(config, out, iterations=1)
    with pytest.raises(InvalidParameterError, match="not empty"):
        learn.train(config, out, iterations=1)
    with pytest.raises(InvalidNetError, match=f"trains {SMALL}"):
        learn.train(tiny(OTHER, {}), out, iterations=1, resume=True)
    with pytest.raises(InvalidNetError, match="hidden"):
        learn.train(tiny(SMALL, {"max_plies": 40}, hidden=(8,)), out, iterations=1, resume=True)
    with pytest.raises(InvalidNetError, match=r"no config\.json"):
        learn.train(config, tmp_path / "empty", iterations=1, resume=True)
    with pytest.raises(InvalidParameterError, match="minutes"):
        learn.train(config, tmp_path / "zero", minutes=0)
    with pytest.raises(InvalidParameterError, match="integers >= 1"):
        learn.train(tiny(OTHER, {}, gate_games=0), tmp_path / "bad", iterations=1)
    for discount in (0.0, 1.5):
        with pytest.raises(InvalidParameterError, match="value_discount"):
            learn.train(tiny(OTHER, {}, value_discount=discount), tmp_path / "bad", iterations=1)
    with pytest.raises(glacier.GlacierError):
        learn.train(tiny(OTHER, {"max_plies": -1}), tmp_path / "bad2", iterations=1)


def test_the_train_command(tmp_path: Path) -> None:
    runner = CliRunner()
    zero = runner.invoke(main, ["train", OTHER, "--out", str(tmp_path / "z"), "--minutes", "0"])
    assert zero.exit_code == 2 and "Traceback" not in zero.output
    assert "--minutes" in zero.output
    assert not (tmp_path / "z").exists()
    args = ["train", SMALL, "--out", str(tmp_path / "run"), "--iterations", "1", "-q"]
    # Few plies: the run ends with games at equal time (0.05 s a move).
    args += ["--simulations", "4", "--games", "4", "--hidden", "8", "-p", "max_plies=8", "--value-discount", "0.9"]
    args += ["--heuristic-mix", "0.25"]
    run = runner.invoke(main, args)
    assert run.exit_code == 0, run.output
    assert "iteration 1:" in run.output and "best.safetensors" in run.output
    again = runner.invoke(main, args)
    assert again.exit_code == 1 and "not empty" in again.output and "Traceback" not in again.output
    other = runner.invoke(main, ["train", OTHER, "--out", str(tmp_path / "run"), "--resume", "--iterations", "1"])
    assert other.exit_code == 1 and f"trains {SMALL}" in other.output
    other = runner.invoke(main, ["train", MULTI, "--out", str(tmp_path / "run"), "--resume", "-p", "players=3"])
    assert other.exit_code == 1 and f"trains {SMALL}" in other.output
    # A resumed run keeps the options it is not given: its net, parameters and self-play.
    first = learn.run_config(tmp_path / "run")
    resumed = runner.invoke(main, ["train", SMALL, "--out", str(tmp_path / "run"), "--resume", "--iterations", "1"])
    assert resumed.exit_code == 0, resumed.output
    assert "iteration 2:" in resumed.output
    assert learn.run_config(tmp_path / "run") == first
    assert (first.hidden, first.params["max_plies"], first.selfplay.simulations) == ((8,), 8, 4)
    assert (first.games_per_iteration, first.value_discount, first.selfplay.heuristic_mix) == (4, 0.9, 0.25)
    assert (first.evaluate_every, first.final_evaluation) == (5, True)
    # Evaluations left out, and a resume that keeps them out.
    out = str(tmp_path / "quiet")
    quiet = ["train", SMALL, "--out", out, "--iterations", "1", "-q", "--simulations", "4", "--games", "4"]
    quiet += ["--hidden", "8", "-p", "max_plies=8", "--evaluate-every", "0", "--no-final-evaluation"]
    plain = runner.invoke(main, quiet)
    assert plain.exit_code == 0 and "evaluation" not in plain.output, plain.output
    kept = runner.invoke(main, ["train", SMALL, "--out", out, "--resume", "--iterations", "1", "-q"])
    assert kept.exit_code == 0 and "iteration 2:" in kept.output and "evaluation" not in kept.output
    quiet_run = learn.run_config(out)
    assert (quiet_run.evaluate_every, quiet_run.final_evaluation) == (0, False)
    every = runner.invoke(main, [*args[:4], "--evaluate-every", "-1"])
    assert every.exit_code == 2 and "--evaluate-every" in every.output
    hidden = runner.invoke(main, [*args[:4], "--hidden", "8,x"])
    assert hidden.exit_code == 2 and "--hidden" in hidden.output
    for bad in ("0", "1.5"):
        discount = runner.invoke(main, [*args[:4], "--value-discount", bad])
        assert discount.exit_code == 2 and "--value-discount" in discount.output
    mix = runner.invoke(main, [*args[:4], "--heuristic-mix", "1.5"])
    assert mix.exit_code == 2 and "--heuristic-mix" in mix.output


def test_selfplay_on_ray_writes_the_same_shards(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    spec = learn.spec_for(OTHER, (8,), max_plies=20)
    from glacier.learn import model

    net = learn.Net(spec, model.to_numpy(model.init(spec, 0)))
    learn.save(tmp_path / "net.safetensors", net)
    loaded = learn.load(tmp_path / "net.safetensors")
    settings = learn.SelfPlaySettings(simulations=4)
    here = learn.selfplay(loaded, 4, out=tmp_path / "here", seed=7, settings=settings, shard_size=2)
    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True)
    try:
        there = learn.selfplay(
            loaded, 4, out=tmp_path / "there", seed=7, settings=settings, shard_size=2, address="auto"
        )
    finally:
        ray.shutdown()
    assert (here.shards, there.shards) == (2, 2)
    a = distributed.load_selfplay(tmp_path / "here")
    b = distributed.load_selfplay(tmp_path / "there")
    for column in ("game", "action", "policy", "searched", "returns"):
        assert np.array_equal(a[column], b[column]), column


def test_ctrl_c_stops_training_within_a_second_and_leaves_it_resumable(tmp_path: Path) -> None:
    out = tmp_path / "run"
    command = [sys.executable, "-m", "glacier.cli", "train", OTHER, "--out", str(out), "--minutes", "10", "-q"]
    command += ["--simulations", "16", "--games", "64", "--hidden", "16"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # Wait until the first self-play has begun, then press Ctrl-C while it plays.
        deadline = time.monotonic() + 120
        while not (out / "selfplay" / "iter-00001" / "manifest.json").exists() and time.monotonic() < deadline:
            assert child.poll() is None, child.communicate()
            time.sleep(0.05)
        time.sleep(1.0)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=30)
        waited = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    assert waited < 1.5, f"stopped {waited:.2f} s after Ctrl-C"
    assert not list(out.rglob("*.partial"))
    # The run goes on from what is on disk (a short gate and no closing evaluation, to be quick).
    config = learn.TrainConfig.from_json(json.loads((out / "config.json").read_text()))
    config = dataclasses.replace(config, gate_games=2, final_evaluation=False)
    result = learn.train(config, out, iterations=1, resume=True)
    assert result.iterations == 1


def test_evaluation_at_equal_simulations_and_at_equal_time() -> None:
    spec = learn.spec_for(OTHER, (8,), max_plies=30)
    rng = np.random.default_rng(0)
    shapes = learn.netfile.tensor_shapes(spec)
    net = learn.Net(spec, {k: (rng.standard_normal(s) * 0.1).astype(np.float32) for k, s in shapes.items()})
    results = learn.evaluate(
        net, OTHER, ("random", "mcts:{n}"), games=2, simulations=8, seed=1, params={"max_plies": 30}, seconds=0.01
    )
    assert list(results) == ["random", "mcts:8", "mcts:0.01s at 0.01s"]
    for name, result in results.items():
        assert len(result.games) == 2, name
        assert result.players[0].wins + result.players[0].draws + result.players[0].losses == 2

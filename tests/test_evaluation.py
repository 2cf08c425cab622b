"""Evaluation nets for alpha-beta: the engine's score against the same net in JAX and numpy,
alpha-beta with a net from Python and the specs, the file's checks, and a tiny training
run whose loss falls."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import glacier
from glacier import learn, players, search
from glacier.cli import main
from glacier.errors import InvalidNetError, InvalidParameterError
from glacier.learn import evaluation_training as training
from glacier.nets import evaluation_net as evaluation_module
from glacier.nets.evaluation_net import EvaluationNet, evaluation_spec_for
from glacier.testing import random_evaluation_net, random_states

#: The games whose default start has two players.
GAMES = [g for g in glacier.GAMES if glacier.new_game(g).num_players == 2]
#: The games glacier ships an evaluation net for: those for two players only.
SHIPPED = [g for g in glacier.GAMES if set(glacier.game_spec(g).seats) == {2}]
#: Two games of different observations, and a game of more than two players.
FIRST, OTHER = (
    GAMES[0],
    next(g for g in GAMES if glacier.new_game(g).observation_shape != glacier.new_game(GAMES[0]).observation_shape),
)
MANY = next(g for g in glacier.GAMES if 3 in glacier.game_spec(g).seats)


def random_net(
    game: str, seed: int = 0, features: int = 40, hidden: tuple[int, ...] = (16,), base: str = "none"
) -> EvaluationNet:
    """Weights large enough that the scores spread over (-1, 1), and biases not zero."""
    return random_evaluation_net(
        game,
        features,
        hidden,
        seed,
        lambda name, shape: 0.2 if name == "feature.weight" else 1.0 / np.sqrt(shape[0]),
        base=base,
    )


@pytest.mark.parametrize("base", evaluation_module.BASES)
@pytest.mark.parametrize("game", GAMES)
def test_the_engines_score_is_the_jax_and_numpy_nets(game: str, base: str) -> None:
    net = random_net(game, seed=3, base=base)
    states = random_states(game, 24, seed=5)
    views = [[np.asarray(s.observation(seat), np.float32).ravel() for seat in (0, 1)] for s in states]
    movers = np.array([s.current_player for s in states])
    heuristic = np.array([s.heuristic()[s.current_player] for s in states], np.float32)
    engine = np.array([net.score(s) for s in states])
    assert engine.std() > 1e-3, "the scores hardly differ: a weak check"
    # numpy: the observation seen by the mover, and by the other
    mine = np.stack([v[m] for v, m in zip(views, movers)])
    other = np.stack([v[1 - m] for v, m in zip(views, movers)])
    np.testing.assert_allclose(engine, net.forward(mine, other, heuristic if base != "none" else None), atol=1e-5)
    # JAX, on the padded non-zero cells (as it trains)
    width = max(int(np.count_nonzero(x)) for v in views for x in v)
    index = np.zeros((len(states), 2, width), np.int32)
    value = np.zeros((len(states), 2, width), np.float32)
    for i, v in enumerate(views):
        for seat in (0, 1):
            nz = np.flatnonzero(v[seat])
            index[i, seat, : len(nz)] = nz
            value[i, seat, : len(nz)] = v[seat][nz]
    score = training.jax_score(net.spec)
    jax_out = np.asarray(score(net.tensors, index, value, movers.astype(np.int32), heuristic))
    np.testing.assert_allclose(engine, jax_out, atol=1e-5)


@pytest.mark.parametrize("game", glacier.GAMES)
def test_the_heuristic_gives_every_player_a_value(game: str) -> None:
    for state in random_states(game, 8, seed=4, plies=(0, 30)):
        values = state.heuristic()
        assert len(values) == state.num_players and all(-1 <= v <= 1 for v in values)
    state = glacier.new_game(game)
    while not state.is_terminal():
        state.play(state.legal_moves()[0])
    assert state.heuristic() == state.returns()


@pytest.mark.parametrize("game", GAMES)
def test_a_net_on_the_heuristic_starts_as_the_heuristic(game: str) -> None:
    spec = evaluation_spec_for(game, 16, (8,), base="heuristic")
    net = EvaluationNet(spec, training.initial_tensors(spec, 0))
    states = random_states(game, 16, seed=6, plies=(0, 30))
    scores = np.array([net.score(s) for s in states])
    clamp = evaluation_module.BASE_CLAMP
    heuristic = np.array([np.clip(s.heuristic()[s.current_player], -clamp, clamp) for s in states])
    assert heuristic.std() > 1e-3, "the heuristic hardly differs: a weak check"
    np.testing.assert_allclose(scores, heuristic, atol=1e-5)
    plain = search.alphabeta(states[0], depth=3)
    based = search.alphabeta(states[0], depth=3, evaluation=net)
    assert based.move == plain.move and abs(based.score - plain.score) < 1e-4


@pytest.mark.parametrize("game", GAMES)
def test_alphabeta_searches_with_a_net(game: str) -> None:
    net = random_net(game, seed=1)
    state = random_states(game, 1, seed=2)[0]
    before = state.text()
    result = search.alphabeta(state, depth=3, evaluation=net)
    assert result.move in state.legal_moves()
    assert state.text() == before
    assert result.nodes > 0 and result.depth == 3
    plain = search.alphabeta(state, depth=3)
    # Scored otherwise, the search differs (a search that ignored the net would not).
    assert (result.score, result.nodes) != (plain.score, plain.nodes)


def test_a_net_for_another_game_or_not_a_net_is_refused() -> None:
    net = random_net(FIRST)
    with pytest.raises(InvalidParameterError, match=f"for {FIRST}"):
        search.alphabeta(glacier.new_game(OTHER), depth=2, evaluation=net)
    with pytest.raises(InvalidParameterError, match="evaluation net"):
        search.alphabeta(glacier.new_game(FIRST), depth=2, evaluation="net.safetensors")
    with pytest.raises(InvalidNetError, match="two-player"):
        evaluation_spec_for(MANY, 8, (), players=3)


def saved(tmp_path: Path, game: str = OTHER) -> Path:
    path = tmp_path / f"{game}.safetensors"
    learn.save_evaluation(path, random_net(game))
    return path


def test_a_saved_net_loads_back_the_same(tmp_path: Path) -> None:
    net = random_net(OTHER)
    path = tmp_path / "net.safetensors"
    learn.save_evaluation(path, net)
    back = learn.load_evaluation(path, OTHER)
    assert back.digest() == net.digest() and back.path == path
    state = random_states(OTHER, 1, seed=9)[0]
    assert back.score(state) == net.score(state)
    assert not list(tmp_path.glob("*.partial"))
    learn.save_evaluation(tmp_path / "half.safetensors", net, dtype="float16")
    half = learn.load_evaluation(tmp_path / "half.safetensors")
    assert abs(half.score(state) - net.score(state)) < 1e-2


def rewrite_header(path: Path, change: object) -> None:
    raw = path.read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + size])
    change(header)  # type: ignore[operator]
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + raw[8 + size :])


def test_bad_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidNetError, match="no evaluation net file"):
        learn.load_evaluation(tmp_path / "missing.safetensors")
    path = saved(tmp_path)
    truncated = tmp_path / "truncated.safetensors"
    truncated.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(InvalidNetError, match="truncated"):
        learn.load_evaluation(truncated)
    nan = tmp_path / "nan.safetensors"
    raw = bytearray(path.read_bytes())
    raw[-4:] = struct.pack("<f", float("nan"))
    nan.write_bytes(bytes(raw))
    with pytest.raises(InvalidNetError, match="NaN"):
        learn.load_evaluation(nan)
    with pytest.raises(InvalidNetError, match=f"for {OTHER}, not for {FIRST}"):
        learn.load_evaluation(path, FIRST)
    shape = tmp_path / "shape.safetensors"
    shape.write_bytes(path.read_bytes())
    turned = list(reversed(glacier.new_game(OTHER).observation_shape))
    rewrite_header(shape, lambda h: h["__metadata__"].update(observation_shape=json.dumps(turned)))
    with pytest.raises(InvalidNetError, match="shape"):
        learn.load_evaluation(shape)
    layers = tmp_path / "layers.safetensors"
    layers.write_bytes(path.read_bytes())
    rewrite_header(layers, lambda h: h["__metadata__"].update(features="41"))
    with pytest.raises(InvalidNetError, match="shape"):
        learn.load_evaluation(layers)


def test_a_net_on_the_heuristic_is_saved_with_its_base(tmp_path: Path) -> None:
    net = random_net(OTHER, base="heuristic")
    path = tmp_path / "based.safetensors"
    learn.save_evaluation(path, net)
    back = learn.load_evaluation(path, OTHER)
    assert back.spec.base == "heuristic" and back.digest() == net.digest()
    assert back.digest() != random_net(OTHER).digest()
    state = random_states(OTHER, 1, seed=9)[0]
    assert back.score(state) == net.score(state)
    seats = (state.current_player, 1 - state.current_player)
    views = [np.asarray(state.observation(seat), np.float32)[None] for seat in seats]
    with pytest.raises(InvalidNetError, match="needs the heuristic's values"):
        back.forward(*views)
    with pytest.raises(InvalidNetError, match="takes no base values"):
        random_net(OTHER).forward(*views, base=[0.5])
    with pytest.raises(InvalidNetError, match="base is one of none, heuristic, not 'book'"):
        evaluation_spec_for(OTHER, 8, (), base="book")
    for change, message in [
        ({"base": "book"}, "base' is 'book'"),
        ({"format_version": "1"}, "which format version 1 has not"),
        ({"format_version": "3"}, "format version 3; this glacier reads versions 1 and 2"),
    ]:
        bad = tmp_path / "bad.safetensors"
        bad.write_bytes(path.read_bytes())
        rewrite_header(bad, lambda h, change=change: h["__metadata__"].update(change))
        with pytest.raises(InvalidNetError, match=message):
            learn.load_evaluation(bad)
    plain = saved(tmp_path)
    rewrite_header(plain, lambda h: h["__metadata__"].update(format_version="2"))
    with pytest.raises(InvalidNetError, match="base' is ''"):
        learn.load_evaluation(plain)


def test_a_policy_value_net_and_an_evaluation_net_are_never_confused(tmp_path: Path) -> None:
    with pytest.raises(InvalidNetError, match="policy-value net"):
        learn.load_evaluation(learn.baseline_path(OTHER))
    with pytest.raises(InvalidNetError, match="kind 'evaluation'"):
        learn.load(saved(tmp_path))


def test_the_alphabeta_spec_takes_a_net(tmp_path: Path) -> None:
    path = saved(tmp_path)
    player = players.from_spec(f"alphabeta:2:net={path}")
    assert isinstance(player, players.AlphaBetaPlayer) and player.net is not None
    assert player.name == f"alphabeta:2:net={path}"
    assert players.from_spec(f"alphabeta:0.2s:net={path}").seconds == 0.2
    match = glacier.arena(OTHER, [f"alphabeta:2:net={path}", "alphabeta:2"], games=2, seed=1)
    assert sum(p.wins + p.draws + p.losses for p in match.players) == 4


@pytest.mark.parametrize("game", SHIPPED)
def test_glacier_ships_an_evaluation_net_for_the_game(game: str) -> None:
    net = learn.evaluation(game)
    assert net.game == game and net.path == learn.nets.BASELINES / f"{game}-evaluation.safetensors"
    state = glacier.new_game(game)
    assert -1 < net.score(state) < 1
    assert search.alphabeta(state, depth=2, evaluation=net).move in state.legal_moves()
    assert players.from_spec("alphabeta:1:net=shipped").choose(state) in state.legal_moves()


def test_every_shipped_net_together_is_under_12_mb() -> None:
    files = list(learn.nets.BASELINES.glob("*.safetensors"))
    assert any(p.name.endswith("-evaluation.safetensors") for p in files)
    assert sum(p.stat().st_size for p in files) < 12 * 2**20


def test_the_shipped_spec_loads_the_net_of_the_game_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evaluation_module, "EVALUATIONS", tmp_path)
    learn.save_evaluation(tmp_path / f"{OTHER}-evaluation.safetensors", random_net(OTHER))
    player = players.from_spec("alphabeta:2:net=shipped")
    assert player.name == "alphabeta:2:net=shipped" and player.net is None
    state = glacier.new_game(OTHER)
    assert player.choose(state) in state.legal_moves()
    assert player.net is not None and player.net.path == tmp_path / f"{OTHER}-evaluation.safetensors"
    assert player.spawn(1).net is player.net
    with pytest.raises(InvalidNetError, match=f"ships no evaluation net for {FIRST}.*{OTHER}"):
        players.from_spec("alphabeta:2:net=shipped").choose(glacier.new_game(FIRST))


def test_the_arena_command_takes_a_net_and_refuses_an_unknown_key(tmp_path: Path) -> None:
    path = saved(tmp_path)
    args = ["arena", OTHER, f"alphabeta:1:net={path}", "alphabeta:1", "--games", "2", "--opening-plies", "2"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    assert f"alphabeta:1:net={path}" in out.output
    bad = CliRunner().invoke(main, ["arena", OTHER, "alphabeta:0.2s:nett=x", "alphabeta:1"])
    assert bad.exit_code != 0
    error = [line for line in bad.output.splitlines() if line.startswith("Error:")]
    assert len(error) == 1 and "alphabeta:0.2s:nett=x: alphabeta takes net=PATH" in error[0]
    assert "Traceback" not in bad.output


def test_glacier_train_for_alphabeta_writes_a_net(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["train", OTHER, "--for", "alphabeta", "--out", str(out), "--iterations", "1", "--games", "2"]
    done = CliRunner().invoke(main, [*args, "--nodes", "200", "--hidden", "8,8", "-q"])
    assert done.exit_code == 0, done.output
    net = learn.load_evaluation(out / "evaluation.safetensors", OTHER)
    assert (net.spec.features, net.spec.hidden) == (8, (8,))
    assert "1 rounds, 2 games" in done.output
    assert not list(out.rglob("*.partial*"))
    stray = CliRunner().invoke(main, [*args, "--simulations", "8"])
    assert stray.exit_code != 0 and "--simulations: not an option of --for alphabeta" in stray.output
    busy = CliRunner().invoke(main, [*args, "--nodes", "200", "-q"])
    assert busy.exit_code != 0 and "not empty" in busy.output
    assert len(busy.output.strip().splitlines()) == 1


def test_glacier_train_for_alphabeta_takes_a_teacher_and_random_plies(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["train", OTHER, "--for", "alphabeta", "--out", str(out), "--iterations", "2", "--games", "2"]
    more = ["--nodes", "200", "--hidden", "8,8", "--teacher", "heuristic", "--random-plies", "0,1", "-q"]
    done = CliRunner().invoke(main, [*args, *more])
    assert done.exit_code == 0, done.output
    config = json.loads((out / "config.json").read_text())
    assert config["teacher"] == "heuristic" and config["random_plies"] == [0, 1]
    # The second round's games are scored by the heuristic again, not by the first net.
    assert "scored by the heuristic" in (out / "train.log").read_text().splitlines()[-1]
    for bad, message in [
        (["--random-plies", "3"], "expected random plies such as 2,10"),
        (["--random-plies", "4,2"], "random_plies must be"),
        (["--teacher", "book"], "'book' is not one of"),
    ]:
        refused = CliRunner().invoke(main, [*args[:5], str(tmp_path / "other"), *args[6:], *bad])
        assert refused.exit_code != 0 and message in refused.output, refused.output
        assert not (tmp_path / "other" / "evaluation.safetensors").exists()
    mcts = CliRunner().invoke(main, ["train", OTHER, "--out", str(tmp_path / "m"), "--teacher", "heuristic"])
    assert mcts.exit_code != 0 and "--teacher: an option of --for alphabeta only" in mcts.output


def test_glacier_train_for_alphabeta_takes_a_base(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["train", OTHER, "--for", "alphabeta", "--out", str(out), "--iterations", "1", "--games", "2"]
    done = CliRunner().invoke(main, [*args, "--nodes", "200", "--hidden", "8,8", "--base", "heuristic", "-q"])
    assert done.exit_code == 0, done.output
    assert learn.load_evaluation(out / "evaluation.safetensors", OTHER).spec.base == "heuristic"
    again = CliRunner().invoke(main, [*args, "--resume", "--base", "none", "-q"])
    assert again.exit_code != 0 and "base heuristic, not" in again.output
    refused = CliRunner().invoke(main, [*args[:5], str(tmp_path / "other"), *args[6:], "--base", "book"])
    assert refused.exit_code != 0 and "'book' is not one of" in refused.output
    mcts = CliRunner().invoke(main, ["train", OTHER, "--out", str(tmp_path / "m"), "--base", "heuristic"])
    assert mcts.exit_code != 0 and "--base: an option of --for alphabeta only" in mcts.output


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        ("alphabeta:0.2s:nett=x", InvalidParameterError, "net=PATH"),
        ("alphabeta:0.2s:x", InvalidParameterError, "net=PATH"),
        ("alphabeta:0.2s:net=", InvalidParameterError, "net=PATH"),
        ("alphabeta:0.2s:net=/no/such/file", InvalidNetError, "no evaluation net file"),
        ("alphabeta:fast:net=x", InvalidParameterError, "expected a count or seconds"),
    ],
)
def test_bad_alphabeta_specs_say_why(spec: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        players.from_spec(spec)


@pytest.mark.parametrize("base", evaluation_module.BASES)
@pytest.mark.parametrize("game", GAMES)
def test_a_tiny_fit_lowers_the_loss(game: str, base: str) -> None:
    config = training.EvaluationTrainConfig(game, features=16, hidden=(8,), batch_size=64, base=base)
    positions = training.play_positions(game, 4, seed=2, nodes=200)
    assert len(positions) > 40
    spec = evaluation_spec_for(game, 16, (8,), base=base)
    fitter = training.Fitter(spec, training.initial_tensors(spec, 0), config)
    before = fitter.loss(positions)
    fitter.fit(positions, 200, np.random.default_rng(0))
    assert fitter.loss(positions) < 0.85 * before


def test_a_tiny_training_run_learns_and_resumes(tmp_path: Path) -> None:
    config = training.EvaluationTrainConfig(
        OTHER, features=16, hidden=(8,), games_per_round=6, nodes=300, batch_size=64
    )
    positions = training.play_positions(OTHER, 6, seed=1, nodes=300)
    assert len(positions) > 100
    assert set(np.unique(positions.columns["result"])) <= {-1.0, 0.0, 1.0}
    assert np.all(np.abs(positions.columns["score"]) <= 1)
    spec = evaluation_spec_for(OTHER, 16, (8,))
    fitter = training.Fitter(spec, training.initial_tensors(spec, 0), config)
    before = fitter.loss(positions)
    fitter.fit(positions, 300, np.random.default_rng(0))
    assert fitter.loss(positions) < 0.85 * before
    out = tmp_path / "run"
    run = training.train_evaluation(config, out, rounds=1)
    assert run.rounds == 1 and run.net is not None and (out / "evaluation.safetensors").exists()
    again = training.train_evaluation(config, out, rounds=2, resume=True)
    assert again.rounds == 2 and len(list((out / "positions").glob("round-*.npz"))) == 2
    assert "scored by the net" in (out / "train.log").read_text().splitlines()[-1]
    with pytest.raises(InvalidParameterError, match="not empty"):
        training.train_evaluation(config, out, rounds=1)
    with pytest.raises(InvalidParameterError, match=f"trains {OTHER}"):
        training.train_evaluation(training.EvaluationTrainConfig(FIRST), out, rounds=1, resume=True)

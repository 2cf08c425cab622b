"""Net players: the specs net:PATH[:BUDGET] and baseline[:BUDGET], in the arena and the CLI."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import glacier
from glacier import learn, players, search
from glacier.cli import main
from glacier.errors import InvalidNetError, InvalidParameterError
from glacier.learn import netfile

#: Games picked by what they are, not by name: the smallest observations first, and a game
#: of several player counts.
BY_SIZE = sorted(glacier.GAMES, key=lambda g: math.prod(glacier.observation_shape(g)))
SMALL, OTHER = BY_SIZE[0], BY_SIZE[1]
MULTI = next(g for g in glacier.GAMES if len(glacier.game_spec(g).seats) > 1)


def small_net(game: str, seed: int = 0, **params: object) -> learn.Net:
    spec = learn.spec_for(game, (16,), **params)
    rng = np.random.default_rng(seed)
    tensors = {k: (rng.standard_normal(s) * 0.3).astype(np.float32) for k, s in netfile.tensor_shapes(spec).items()}
    return learn.Net(spec, tensors)


@pytest.fixture
def net_file(tmp_path: Path) -> Path:
    path = tmp_path / "net.safetensors"
    learn.save(path, small_net(OTHER))
    return path


def test_net_specs_read_their_path_and_budget(net_file: Path) -> None:
    player = players.from_spec(f"net:{net_file}:64")
    assert isinstance(player, players.NetPlayer)
    assert (player.simulations, player.seconds, player.name) == (64, None, f"net:{net_file}:64")
    timed = players.from_spec(f"net:{net_file}:0.2s")
    assert (timed.simulations, timed.seconds) == (None, 0.2)  # type: ignore[union-attr]
    assert players.from_spec(f"net:{net_file}").simulations == 800  # type: ignore[union-attr]
    base = players.from_spec("baseline:32")
    assert base.name == "baseline:32"
    assert players.from_spec("baseline").simulations == 800  # type: ignore[union-attr]


def test_bad_net_specs(tmp_path: Path, net_file: Path) -> None:
    with pytest.raises(InvalidNetError, match="no net file"):
        players.from_spec(f"net:{tmp_path / 'absent.safetensors'}:64")
    with pytest.raises(InvalidParameterError, match="net:PATH"):
        players.from_spec("net:")
    with pytest.raises(InvalidParameterError):
        players.from_spec("baseline:lots")
    with pytest.raises(InvalidParameterError, match=f"not {SMALL}"):
        players.from_spec(f"net:{net_file}:8").choose(glacier.new_game(SMALL))


def test_a_net_player_plays_legal_games_in_the_arena(net_file: Path) -> None:
    result = glacier.arena(OTHER, [f"net:{net_file}:16", "random"], games=2, seed=3, threads=1, max_plies=60)
    assert result.players[0].name == f"net:{net_file}:16"
    for game in result.games:
        replay = glacier.new_game(OTHER, max_plies=60)
        for move in game.state.moves:
            replay.play(move)
        assert replay.is_terminal()


def test_the_arena_command_takes_net_specs(net_file: Path) -> None:
    run = CliRunner().invoke(
        main, ["arena", OTHER, f"net:{net_file}:8", "random", "--games", "2", "-t", "1", "-p", "max_plies=40"]
    )
    assert run.exit_code == 0, run.output
    assert f"net:{net_file}:8" in run.output
    bad = CliRunner().invoke(main, ["arena", OTHER, "net:/nonexistent/x.safetensors", "random", "--games", "1"])
    assert bad.exit_code != 0
    assert "no net file" in bad.output and "Traceback" not in bad.output


def test_glacier_play_takes_a_net_opponent(net_file: Path) -> None:
    run = CliRunner().invoke(
        main, ["play", OTHER, "--opponent", f"net:{net_file}", "--simulations", "8", "--seat", "1"], input="quit\n\n"
    )
    assert run.exit_code == 0, run.output
    assert "simulations" in run.output  # the net moved first, and said what its search did
    for bad in ("net:", "alphazero"):
        refused = CliRunner().invoke(main, ["play", OTHER, "--opponent", bad])
        assert refused.exit_code == 2 and "--opponent" in refused.output
    missing = CliRunner().invoke(main, ["play", OTHER, "--opponent", "net:/nonexistent.safetensors"])
    assert missing.exit_code == 1 and "no net file" in missing.output and "Traceback" not in missing.output
    # A net of another game, or a game with no shipped net, is refused before the first move.
    other = CliRunner().invoke(main, ["play", SMALL, "--opponent", f"net:{net_file}", "--seat", "1"])
    assert other.exit_code == 2 and f"is for {OTHER}" in other.output and "Traceback" not in other.output
    count = next(
        n for n in sorted(glacier.game_spec(MULTI).seats) if not learn.baseline_path(MULTI, players=n).exists()
    )
    level = ["play", MULTI, "-p", f"players={count}", "--opponent", "baseline"]
    unshipped = CliRunner().invoke(main, level, input="quit\n")
    assert unshipped.exit_code == 2 and "ships no net" in unshipped.output, unshipped.output


def test_a_timed_net_player_keeps_its_tree_between_slices(net_file: Path) -> None:
    player = players.from_spec(f"net:{net_file}:0.1s")
    state = glacier.new_game(OTHER)
    move = player.choose(state)
    assert move in state.legal_moves()
    last = player.last  # type: ignore[union-attr]
    assert last is not None and last.simulations > 16
    assert sum(last.visits.values()) >= last.simulations - 1  # the slices' visits add up in one tree


@pytest.mark.parametrize("game", glacier.GAMES)
def test_a_net_player_searches_as_its_game_declares(game: str) -> None:
    # players.NET_DEFAULTS holds each game's declared options for a net's search (in E,
    # rollouts for the values), under those the player is given.
    declared = glacier.game_spec(game).net_player
    assert players.NET_DEFAULTS[game] == declared
    net = small_net(game)
    state = glacier.new_game(game)
    default = players.NetPlayer(None, 40, 2, net=net)
    named = players.MCTSPlayer(40, net, 2, **declared)
    plain = players.MCTSPlayer(40, net, 2)
    for player in (default, named, plain):
        player.choose(state)
    assert default.last is not None and named.last is not None and plain.last is not None
    assert default.last._replace(seconds=0) == named.last._replace(seconds=0)
    # What the game declares changes the search (or nothing is declared).
    assert (default.last.values != plain.last.values) == bool(declared)
    # The player's own options win over the game's (here: each declared one at its default).
    off = {name: search.OPTIONS[name]["default"] for name in declared}
    mine = players.NetPlayer(None, 40, 2, net=net, **off)
    mine.choose(state)
    assert mine.last is not None and mine.last.values == plain.last.values

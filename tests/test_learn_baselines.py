"""The nets glacier ships: each loads, is its game's, and plays legal games through the specs
and the levels; a game without one says which games have one."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import glacier
from glacier import learn, players
from glacier.cli import main
from glacier.errors import InvalidNetError

SHIPPED = sorted(learn.nets.baseline_paths())


def shipped_cases() -> list[tuple[str, dict[str, int]]]:
    """(game, params) of every shipped net."""
    cases = []
    for path in SHIPPED:
        net = learn.load(path)
        seats = glacier.game_spec(net.game).seats
        cases.append((net.game, {"players": net.spec.num_players} if len(seats) > 1 else {}))
    return cases


def test_glacier_ships_nets_within_the_size_limit() -> None:
    assert SHIPPED, "no net is shipped"
    assert sum(p.stat().st_size for p in SHIPPED) < 10 * 2**20


@pytest.mark.parametrize("game", glacier.GAMES)
def test_every_game_ships_a_net_for_its_default_parameters(game: str) -> None:
    assert learn.baseline_path(game).exists(), f"no net shipped for {game}"
    assert learn.baseline(game).game == game


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_each_shipped_net_is_the_baseline_of_its_game(path: Path) -> None:
    net = learn.load(path)
    params = {"players": net.spec.num_players} if len(glacier.game_spec(net.game).seats) > 1 else {}
    assert learn.baseline_path(net.game, **params) == path
    baseline = learn.baseline(net.game, **params)
    assert baseline.digest() == net.digest()
    # How it was made is recorded in the file.
    assert baseline.training["iteration"] >= 1 and baseline.training["seconds"] > 0


@pytest.mark.parametrize(("game", "params"), shipped_cases(), ids=lambda v: v if isinstance(v, str) else str(v))
def test_each_shipped_net_plays_a_legal_game(game: str, params: dict[str, int]) -> None:
    short = {**params, "max_plies": 40}
    result = glacier.arena(game, ["baseline:16", "random"], games=2, seed=1, threads=1, **short)
    for g in result.games:
        replay = glacier.new_game(game, **short)
        for move in g.state.moves:
            replay.play(move)
        assert replay.is_terminal()
    assert result.players[0].name == "baseline:16"


def test_a_game_without_a_shipped_net_names_those_with_one() -> None:
    missing = [
        (game, {"players": n} if len(glacier.game_spec(game).seats) > 1 else {})
        for game in glacier.GAMES
        for n in range(2, 7)
        if not learn.baseline_path(game, **({"players": n} if len(glacier.game_spec(game).seats) > 1 else {})).exists()
        and (n in glacier.game_spec(game).seats or n == 2)
    ]
    if not missing:
        pytest.skip("every game ships a net")
    game, params = missing[0]
    with pytest.raises(InvalidNetError, match="ships no net"):
        learn.baseline(game, **params)
    with pytest.raises(InvalidNetError, match="ships no net"):
        players.from_spec("baseline:8").choose(glacier.new_game(game, **params))


def test_the_baseline_opponent_of_glacier_play() -> None:
    game, params = shipped_cases()[0]
    args = ["play", game, "--opponent", "baseline", "--simulations", "8", "--seat", "1"]
    args += [arg for k, v in params.items() for arg in ("-p", f"{k}={v}")]
    run = CliRunner().invoke(main, args, input="quit\n\n")
    assert run.exit_code == 0, run.output

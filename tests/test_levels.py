"""The levels of glacier play and glacier serve, and the players named by the shipped ladders:
each game's levels are players that exist, the shipped ladders order them strictly, and the
specs ``level:NAME`` and ``strongest[:Ts]`` resolve, in the arena and on the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

import glacier
from glacier import play, players, ratings
from glacier.cli import main
from glacier.errors import InvalidParameterError

CASES = [(game, n) for game in glacier.GAMES for n in sorted(glacier.game_spec(game).levels)]
#: Two games of two seats only, for the cases that play.
TWO, OTHER = [game for game in glacier.GAMES if list(glacier.game_spec(game).seats) == [2]][:2]


@pytest.fixture
def shipped_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Shipped ladders read from ``tmp_path`` instead of the package's."""
    monkeypatch.setattr(ratings, "SHIPPED", tmp_path)
    ratings.shipped.cache_clear()
    yield tmp_path
    ratings.shipped.cache_clear()


def write_ladder(path: Path, game: str, wins: dict[tuple[str, str], int], seconds: float = 0.2) -> None:
    """A results file in which the first player of each pair won ``wins[pair]`` of 10 games."""
    header = {"ladder": 1, "game": game, "params": dict(glacier.new_game(game).params)}
    header |= {"seconds_per_move": seconds, "opening_plies": 2, "seed": 0}
    lines = [json.dumps(header)]
    for (a, b), won in wins.items():
        for number in range(10):
            seats = (a, b) if number % 2 == 0 else (b, a)
            lines.append(
                json.dumps(
                    {"table": [a, b], "game": number, "seats": seats, "winner": a if number < won else b, "plies": 30}
                )
            )
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(("game", "num_players"), CASES)
def test_every_level_is_a_player_of_its_game(game: str, num_players: int) -> None:
    named = players.levels(game, num_players)
    names = [name for name, _ in named]
    assert len(set(names)) == len(names) and set(names) <= set(play.LEVEL_NAMES)
    assert play.DEFAULT_LEVEL in names
    for _, spec in named:
        if spec == players.STRONGEST:
            assert ratings.shipped(game, num_players) is not None, f"{game}: strongest needs a shipped ladder"
        players.from_spec(spec)  # a spec that does not read raises here
        if num_players != 2:
            assert not spec.startswith("alphabeta"), "alpha-beta plays two-player games"


@pytest.mark.parametrize(("game", "num_players"), [c for c in CASES if ratings.shipped(*c) is not None])
def test_the_shipped_ladder_orders_the_levels(game: str, num_players: int) -> None:
    """Each level is rated above the one below it, the 95% interval of their gap above 0,
    and the top level, where it is the strongest, is the ladder's best player at the
    ladder's time."""
    levels = play.levels(game, num_players)
    for level in levels:
        assert level.rating is not None, f"{game}: the ladder did not rate {level.spec} ({level.name})"
    _, games = ratings.read(ratings.shipped_path(game, num_players))
    for gap in ratings.gaps([g.outcome() for g in games], [level.spec for level in levels]):
        assert gap.low > 0, f"{game} with {num_players} players: {gap}"
    settings, rated = ratings.shipped(game, num_players) or (None, {})
    assert settings is not None and settings.game == game
    if levels[-1].name == players.STRONGEST:
        budget = f"{settings.seconds_per_move:g}s"
        timed = [r for r in rated.values() if r.player.split(":")[1:2] == [budget]]
        assert levels[-1].spec == max(timed, key=lambda r: r.elo).player


def test_strongest_is_the_best_player_at_the_ladder_time(shipped_dir: Path) -> None:
    write_ladder(
        shipped_dir / f"{TWO}.jsonl",
        TWO,
        {
            ("mcts:0.2s", "random"): 9,
            ("alphabeta:0.2s", "random"): 10,
            ("alphabeta:0.2s", "mcts:0.2s"): 8,
            ("mcts:100", "alphabeta:0.2s"): 10,
            ("mcts:100", "random"): 10,
            ("mcts:100", "mcts:0.2s"): 10,
        },
    )
    # mcts:100 beat everyone, but it does not search for a time: the strongest at 0.2 s is alpha-beta.
    assert players.strongest_spec(TWO) == "alphabeta:0.2s"
    assert players.strongest_spec(TWO, seconds=1.5) == "alphabeta:1.5s"
    player = players.from_spec("strongest:0.05s")
    state = glacier.new_game(TWO)
    assert player.choose(state) in state.legal_moves()
    assert isinstance(player, players.LevelPlayer) and player.resolve(TWO) == "alphabeta:0.05s"
    assert player.last is not None and player.last.move in state.legal_moves()


def test_levels_resolve_by_the_game_played(shipped_dir: Path) -> None:
    player = players.from_spec("level:easy", seed=3)
    for game in (TWO, OTHER):
        state = glacier.new_game(game)
        assert player.choose(state) in state.legal_moves()
        assert player.resolve(game) == dict(players.levels(game))["easy"]
    with pytest.raises(InvalidParameterError, match="ships no rating ladder"):
        players.from_spec("level:strongest").choose(glacier.new_game(TWO))


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("level:superhuman", "no game has a level"),
        ("strongest:400", "a time a move"),
        ("strongest:0s", "a time"),
        ("strongest:x", "seconds"),
        ("levels:easy", "unknown player"),
    ],
)
def test_bad_level_specs(spec: str, words: str) -> None:
    with pytest.raises(InvalidParameterError, match=words):
        players.from_spec(spec)


def test_level_specs_in_the_arena_and_on_the_command_line(shipped_dir: Path) -> None:
    write_ladder(shipped_dir / f"{TWO}.jsonl", TWO, {("mcts:0.2s", "random"): 9})
    result = glacier.arena(TWO, ["level:easy", "strongest:0.02s"], games=2, seed=1, max_plies=20)
    assert [p.name for p in result.players] == ["level:easy", "strongest:0.02s"] and len(result.games) == 2
    run = CliRunner().invoke(main, ["arena", TWO, "strongest:0.02s", "random", "--games", "2", "-p", "max_plies=20"])
    assert run.exit_code == 0, run.output
    assert "strongest:0.02s" in run.output
    run = CliRunner().invoke(main, ["play", OTHER, "--opponent", "strongest"], input="")
    assert run.exit_code == 2 and f"ships no rating ladder of {OTHER}" in run.output
    run = CliRunner().invoke(main, ["play", TWO, "--opponent", "level:nope"], input="")
    assert run.exit_code == 2 and "no game has a level 'nope'" in run.output


def test_play_help_lists_every_game_s_levels() -> None:
    out = CliRunner().invoke(main, ["play", "--help"], terminal_width=200).output
    for game in glacier.GAMES:
        spec = glacier.game_spec(game)
        assert spec.title in out
        for n in spec.levels:
            for level in play.levels(game, n):
                assert level.describe() in out

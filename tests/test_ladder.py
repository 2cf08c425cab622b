"""Rating ladders (glacier.ladder, ``glacier ladder``): the fit recovers known ratings from
synthetic results, the schedule and the results file, resuming, and bad input."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import glacier
from glacier import ladder, ratings
from glacier.cli import main
from glacier.errors import InvalidParameterError, LadderResultsError
from glacier.svg import ratings as chart


def _luce_games(true: dict[str, float], seats: int, rounds: int, seed: int, draw: float = 0.0) -> list[ladder.Outcome]:
    """Games drawn from the Luce model with strengths 10**(elo/400): every set of ``seats``
    players ``rounds`` times; a share ``draw`` of the games has no winner."""
    from itertools import combinations

    rng = random.Random(seed)
    games = []
    for _ in range(rounds):
        for table in combinations(true, seats):
            if rng.random() < draw:
                games.append(ladder.Outcome(table, None))
                continue
            weights = [10 ** (true[p] / 400) for p in table]
            games.append(ladder.Outcome(table, rng.choices(table, weights)[0]))
    return games


def test_the_fit_recovers_known_elo_from_two_player_games() -> None:
    true = {"random": 0.0, "b": 150.0, "c": 400.0, "d": 650.0}
    ratings = ladder.fit(_luce_games(true, 2, 600, seed=1), prior_draws=0.0)
    assert ratings["random"].elo == 0.0
    for name, elo in true.items():
        r = ratings[name]
        assert r.low <= elo <= r.high, (name, r)
        assert r.games == 3 * 600
    # The intervals are about as wide as a binomial's: a few tens of Elo with 1,800 games each.
    assert 20 < ratings["c"].high - ratings["c"].low < 120


def test_the_gaps_between_neighbours_hold_the_true_gaps() -> None:
    true = {"random": 0.0, "b": 150.0, "c": 400.0, "d": 650.0}
    games = _luce_games(true, 2, 100, seed=4)
    found = ratings.gaps(games, list(true), prior_draws=0.0)
    assert [(g.lower, g.upper) for g in found] == [("random", "b"), ("b", "c"), ("c", "d")]
    fitted = ladder.fit(games, prior_draws=0.0)
    for gap in found:
        assert gap.low <= true[gap.upper] - true[gap.lower] <= gap.high, gap
        # A gap is known more closely than the two ratings from the anchor say (beside the
        # anchor, whose own interval is empty, exactly as closely).
        widths = fitted[gap.upper].high - fitted[gap.upper].low + fitted[gap.lower].high - fitted[gap.lower].low
        assert gap.high - gap.low <= widths + 1e-9
        if gap.lower != "random":
            assert gap.high - gap.low < 0.8 * widths
    with pytest.raises(InvalidParameterError, match="not rated"):
        ratings.gaps(games, ["b", "nobody"])


def test_the_fit_recovers_known_ratings_from_tables_of_three_and_six() -> None:
    # Ratings close enough that the anchor wins its share of games at a table of six: every
    # rating is measured against it, so its few wins would move them all together.
    true = {"random": 0.0, "b": 100.0, "c": 200.0, "d": 325.0, "e": 150.0, "f": 250.0, "g": 50.0}
    for seats, rounds in ((3, 60), (6, 300)):
        ratings = ladder.fit(_luce_games(true, seats, rounds, seed=seats), prior_draws=0.0)
        misses = [name for name, elo in true.items() if not ratings[name].low <= elo <= ratings[name].high]
        # 95% intervals: at most one of six may miss by chance (seeded, so it is a fixed fact).
        assert len(misses) <= 1, (seats, misses, ratings)
        assert max(abs(ratings[name].elo - elo) for name, elo in true.items()) < 60


def test_a_perfect_record_gets_a_finite_rating_from_the_virtual_draw() -> None:
    # 3 wins and one virtual draw: a score of 3.5 / 4, 400 * log10(7) Elo.
    ratings = ladder.fit([ladder.Outcome(("a", "random"), "a")] * 3)
    assert ratings["a"].elo == pytest.approx(400 * math.log10(7))
    assert ratings["a"].score == 1.0
    # Draws are half a win each: 2 wins, 2 draws and a loss, and the virtual draw, make 3.5
    # points of 6 against 2.5.
    games = [ladder.Outcome(("a", "random"), None)] * 2 + [ladder.Outcome(("a", "random"), "a")] * 2
    games += [ladder.Outcome(("random", "a"), "random")]
    ratings = ladder.fit(games)
    assert ratings["a"].elo == pytest.approx(400 * math.log10(3.5 / 2.5))
    assert ratings["a"].score == pytest.approx(3 / 5)


def test_players_not_linked_to_the_anchor_are_not_rated() -> None:
    games = [ladder.Outcome(("a", "random"), "a"), ladder.Outcome(("x", "y"), "x")]
    assert set(ladder.fit(games)) == {"a", "random"}
    with pytest.raises(InvalidParameterError, match="anchor"):
        ladder.fit(games, anchor="nobody")
    with pytest.raises(InvalidParameterError, match="not among"):
        ladder.fit([ladder.Outcome(("a", "b"), "c")], anchor="a")


def test_the_schedule_plays_every_table_round_by_round() -> None:
    games = ladder.schedule(["a", "b", "c"], 2, 3)
    assert games[:3] == [(("a", "b"), 0), (("a", "c"), 0), (("b", "c"), 0)]
    assert len(games) == 9 and games[-1] == (("b", "c"), 2)
    assert len(ladder.schedule(["a", "b", "c", "d", "e"], 3, 3)) == 10 * 3
    with pytest.raises(InvalidParameterError, match="at least 2 players"):
        ladder.schedule(["a"], 2, 3)
    with pytest.raises(InvalidParameterError, match="differ"):
        ladder.schedule(["a", "a"], 2, 3)


PLAYERS = ["random", "mcts:8", "alphabeta:1"]


def _ply_limit(game: str) -> int:
    return next(int(p.default or 0) for p in glacier.game_spec(game).params if p.name == "max_plies")


def _seats(game: str) -> bool:
    return any(p.name == "players" for p in glacier.game_spec(game).params)


#: Two two-player games, the one of the shortest games first; and the game of 2 to 6 players.
QUICK, OTHER = sorted((g for g in glacier.GAMES if not _seats(g)), key=_ply_limit)[:2]
MANY = next(g for g in glacier.GAMES if _seats(g))


def test_a_ladder_records_every_game_and_resumes(tmp_path: Path) -> None:
    results = tmp_path / "two.jsonl"
    seen: list[int] = []

    def progress(game: object, done: int, total: int) -> None:
        seen.append(total)

    ratings = ladder.run(QUICK, PLAYERS, results, games=2, seed=3, max_plies=40, progress=progress)
    assert seen[0] == 6 and len(seen) == 7
    settings, games = ladder.read(results)
    assert settings.game == QUICK and settings.params == {"max_plies": 40}
    assert len(games) == 6 and set(ratings) == set(PLAYERS)
    # Seats rotate: each table's game 1 has its players the other way round.
    by_key = {(g.table, g.number): g for g in games}
    for table in [("random", "mcts:8"), ("mcts:8", "alphabeta:1")]:
        assert by_key[table, 0].seats == table and by_key[table, 1].seats == table[::-1]
    for g in games:
        assert g.winner is None or g.winner in g.table
        assert 0 < g.plies <= 40
    # More games per table and one player more: only the new games are played, the old kept.
    seen.clear()
    ladder.run(QUICK, [*PLAYERS, "flat:20"], results, games=3, seed=3, max_plies=40, progress=progress)
    assert seen[0] == (3 * 1) + 3 * 3  # game 2 of the three old tables, games 0-2 of three new
    _, more = ladder.read(results)
    assert more[:6] == games and len(more) == 6 + 12


def test_the_same_seed_plays_the_same_games(tmp_path: Path) -> None:
    ladder.run(OTHER, PLAYERS, tmp_path / "a.jsonl", games=2, seed=5, max_plies=30)
    ladder.run(OTHER, PLAYERS, tmp_path / "b.jsonl", games=2, seed=5, max_plies=30, threads=2)
    a = sorted(ladder.read(tmp_path / "a.jsonl")[1], key=lambda g: (g.table, g.number))
    b = sorted(ladder.read(tmp_path / "b.jsonl")[1], key=lambda g: (g.table, g.number))
    assert a == b


def test_a_ladder_of_three_seats_three_players_at_every_table(tmp_path: Path) -> None:
    players = ["random", "mcts:4", "mcts:8:rollout", "flat:20"]
    ratings = ladder.run(MANY, players, tmp_path / "e.jsonl", games=3, players=3, max_plies=60)
    _, games = ladder.read(tmp_path / "e.jsonl")
    assert len(games) == 4 * 3 and all(len(g.seats) == 3 for g in games)
    assert set(ratings) == set(players)


def test_a_stopped_ladder_keeps_the_games_it_finished(tmp_path: Path) -> None:
    results = tmp_path / "stopped.jsonl"

    def stop_after_two(game: object, done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ladder.run(QUICK, PLAYERS, results, games=4, max_plies=30, progress=stop_after_two)
    assert len(ladder.read(results)[1]) == 2
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "a temporary file was left"
    ladder.run(QUICK, PLAYERS, results, games=4, max_plies=30)
    assert len(ladder.read(results)[1]) == 12


def test_bad_results_files_and_parameters(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    ladder.run(QUICK, PLAYERS[:2], results, games=1, max_plies=20)
    with pytest.raises(LadderResultsError, match="other settings"):
        ladder.run(QUICK, PLAYERS[:2], results, games=1, max_plies=21)
    with pytest.raises(LadderResultsError, match="other settings"):
        ladder.run(QUICK, PLAYERS[:2], results, games=1, max_plies=20, seconds_per_move=0.5)
    (tmp_path / "junk.jsonl").write_text("not json\n")
    with pytest.raises(LadderResultsError, match="not a glacier ladder"):
        ladder.read(tmp_path / "junk.jsonl")
    lines = results.read_text().splitlines()
    row = json.loads(lines[1])
    row["winner"] = "somebody"
    (tmp_path / "bad.jsonl").write_text("\n".join([lines[0], json.dumps(row)]) + "\n")
    with pytest.raises(LadderResultsError, match="line 2"):
        ladder.read(tmp_path / "bad.jsonl")
    (tmp_path / "cut.jsonl").write_text(lines[0] + '\n{"table": ["random"')
    with pytest.raises(LadderResultsError, match="not a readable"):
        ladder.read(tmp_path / "cut.jsonl")
    for bad in ({"games": 0}, {"minutes": 0}, {"seconds_per_move": 0}, {"threads": -1}, {"opening_plies": -1}):
        with pytest.raises(InvalidParameterError):
            ladder.run(QUICK, PLAYERS, tmp_path / "x.jsonl", **bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="anchor"):
        ladder.run(QUICK, ["mcts:8", "alphabeta:1"], tmp_path / "x.jsonl")
    with pytest.raises(InvalidParameterError, match="unknown player"):
        ladder.run(QUICK, ["random", "nobody"], tmp_path / "x.jsonl")
    assert not (tmp_path / "x.jsonl").exists()


def test_the_default_players_of_each_game() -> None:
    two = ladder.default_players(QUICK, 0.5)
    assert two[0] == "random" and "alphabeta:0.5s" in two and "mcts:0.5s" in two
    assert "baseline:0.5s" in two and "alphabeta:0.5s:net=shipped" in two
    three = ladder.default_players(MANY, 0.2, players=3)
    assert not any(p.startswith("alphabeta") for p in three)
    for game in glacier.GAMES:
        players = ladder.default_players(game)
        assert len(set(players)) == len(players)
        for spec in players:
            glacier.players.from_spec(spec, 0)


def test_the_picture_shows_every_player() -> None:
    ratings = ladder.fit(_luce_games({"random": 0.0, "b": 200.0, "long-player-name": 400.0}, 2, 50, seed=2))
    svg = chart.draw([(r.player, r.elo, r.low, r.high) for r in ratings.values()], "a title")
    assert svg.startswith("<svg") and svg.count("<circle") == 3
    assert "long-player-name" in svg and "a title" in svg
    table = ladder.table(ratings)
    assert table.splitlines()[2].startswith("| `long-player-name` |")


def test_the_command(tmp_path: Path) -> None:
    runner = CliRunner()
    results = tmp_path / "ladder.jsonl"
    picture = tmp_path / "ladder.svg"
    args = ["ladder", QUICK, "--player", "random", "--player", "mcts:8", "--games", "2", "-p", "max_plies=30"]
    out = runner.invoke(main, [*args, "--results", str(results), "--picture", str(picture)])
    assert out.exit_code == 0, out.output
    assert "| `mcts:8` |" in out.output and "2 games in" in out.output
    assert picture.read_text().startswith("<svg")
    # Run again: nothing left to play, the same table.
    again = runner.invoke(main, [*args, "--results", str(results)])
    assert again.exit_code == 0 and again.output.splitlines()[-4:] == out.output.splitlines()[-4:]
    for bad, message in (
        (["ladder", QUICK, "--player", "random", "--results", str(results)], "at least 2 players"),
        ([*args, "--results", str(results), "--minutes", "0"], "--minutes"),
        ([*args, "--results", str(results), "--seconds-per-move", "0.5"], "other settings"),
        (["ladder", QUICK, "--player", "random", "--player", "mcts:x", "--results", str(tmp_path / "y")], "mcts:x"),
    ):
        out = runner.invoke(main, bad)
        assert out.exit_code != 0 and message in out.output, out.output
        assert len([line for line in out.output.splitlines() if line.startswith("Error")]) == 1

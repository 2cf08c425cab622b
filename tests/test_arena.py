"""Players, matches (glacier.arena), the arena command and the OpenSpiel bot."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

import glacier
from glacier import errors, players, records, reference
from glacier.arena import ArenaResult, GameResult, PlayerResult, SeatRecord, elo, score_interval
from glacier.cli import main


def ply_limit(game: str) -> int:
    return next(int(p.default or 0) for p in glacier.game_spec(game).params if p.name == "max_plies")


#: The game whose games are the shortest (the lowest default ply limit): the matches here
#: play it to the end.
QUICK = min(glacier.GAMES, key=ply_limit)
#: A game with a number of players (E), for matches of three.
MANY = next(game for game in glacier.GAMES if any(p.name == "players" for p in glacier.game_spec(game).params))
#: The games whose moves may take several actions.
SEVERAL_ACTIONS = [game for game in glacier.GAMES if reference.game_module(game).MAX_CHOSEN_ACTIONS > 1]


@pytest.mark.parametrize(
    ("spec", "kind", "name"),
    [
        ("random", players.RandomPlayer, "random"),
        ("montecarlo", players.MonteCarloPlayer, "montecarlo:200"),
        ("montecarlo:50", players.MonteCarloPlayer, "montecarlo:50"),
        ("flat:400", players.MonteCarloPlayer, "flat:400"),
        ("mcts", players.MCTSPlayer, "mcts:800"),
        ("mcts:400:heuristic", players.MCTSPlayer, "mcts:400:heuristic"),
        ("mcts:2s", players.MCTSPlayer, "mcts:2s"),
        ("alphabeta:3", players.AlphaBetaPlayer, "alphabeta:3"),
        ("alphabeta:0.2s", players.AlphaBetaPlayer, "alphabeta:0.2s"),
    ],
)
def test_player_specs(spec: str, kind: type, name: str) -> None:
    player = players.from_spec(spec, seed=4)
    assert isinstance(player, kind)
    assert player.name == name


def test_mcts_spec_options() -> None:
    player = players.from_spec("mcts:100:rollout12:c_puct=0.7:threads=2")
    assert isinstance(player, players.MCTSPlayer)
    assert (player.simulations, player.evaluator) == (100, "rollout")
    assert player.options == {"rollout_plies": 12, "c_puct": 0.7, "threads": 2}


@pytest.mark.parametrize("spec", ["nobody", "mcts:lots", "mcts:100:magic", "alphabeta:x", "random:3", "mcts:1:c_puct"])
def test_bad_specs_are_refused(spec: str) -> None:
    with pytest.raises(errors.InvalidParameterError):
        players.from_spec(spec)


def test_every_player_chooses_a_legal_move_and_leaves_the_state_alone() -> None:
    state = glacier.new_game(QUICK)
    state.play(state.legal_moves()[0])
    before = state.text()
    for spec in ["random", "montecarlo:5", "flat:20", "mcts:50", "mcts:50:heuristic", "alphabeta:2"]:
        assert players.from_spec(spec).choose(state) in state.legal_moves()
        assert state.text() == before and len(state.moves) == 1


def test_the_mcts_player_keeps_its_tree() -> None:
    player = players.MCTSPlayer(200, "heuristic", seed=1)
    state = glacier.new_game(QUICK)
    state.play(player.choose(state))
    state.play(state.legal_moves()[0])
    player.choose(state)
    assert player.last is not None and sum(player.last.visits.values()) > 199


def test_elo_and_its_interval() -> None:
    assert elo(0.5) == 0.0
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    low, high = score_interval(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    low, high = score_interval(1.0, 20)
    assert 0.8 < low < 1.0 and high == 1.0


def test_a_match_swaps_seats_and_does_not_depend_on_threads() -> None:
    one = glacier.arena(QUICK, ["mcts:60", "flat:60"], games=6, seed=3, threads=1)
    two = glacier.arena(QUICK, ["mcts:60", "flat:60"], games=6, seed=3, threads=2)
    assert [g.seats for g in one.games] == [(0, 1), (1, 0)] * 3
    assert [(g.winner, g.state.moves) for g in one.games] == [(g.winner, g.state.moves) for g in two.games]
    assert one.players == two.players
    for p in one.players:
        assert p.wins + p.draws + p.losses == 6
    first, second = one.players
    assert first.wins == second.losses and first.score + second.score == pytest.approx(1.0)
    assert one.elo == first.elo == pytest.approx(-second.elo)


def test_results_by_seat() -> None:
    """A player's record from each seat, counted by hand from four made-up games: the first
    player won twice from seat 0, drew and lost from seat 1."""
    games = tuple(
        GameResult(i, seats, winner, 10, None)
        for i, (seats, winner) in enumerate([((0, 1), 0), ((1, 0), None), ((0, 1), 0), ((1, 0), 1)])
    )
    two = tuple(PlayerResult(name, 0, 0, 0, 0.5, 0.0, (0.0, 0.0)) for name in ("a", "b"))  # not read
    made = ArenaResult(QUICK, two, games, None)
    assert made.by_seat(0) == (SeatRecord(0, 2, 2, 0, 0), SeatRecord(1, 2, 0, 1, 1))
    assert made.by_seat(1) == (SeatRecord(0, 2, 1, 1, 0), SeatRecord(1, 2, 0, 0, 2))
    # A real match: the seats add up to the player's totals, and the table says them.
    match = glacier.arena(QUICK, ["mcts:30", "random"], games=6, seed=2, threads=1)
    for p, total in enumerate(match.players):
        seats = match.by_seat(p)
        assert [r.seat for r in seats] == [0, 1] and all(r.games == 3 for r in seats)
        assert sum(r.wins for r in seats) == total.wins and sum(r.losses for r in seats) == total.losses
        assert sum(r.draws for r in seats) == total.draws
    line = ", ".join(f"seat {r.seat} {r.wins}-{r.draws}-{r.losses}" for r in match.by_seat(0))
    assert f"mcts:30 by seat (wins-draws-losses; seat 0 moves first): {line}" in match.table()
    with pytest.raises(errors.InvalidParameterError, match="player must be from 0 to 1"):
        match.by_seat(2)


def test_results_by_seat_with_three_players() -> None:
    """Seats rotate: in one rotation each player sits once in each seat."""
    match = glacier.arena(MANY, ["mcts:5", "random"], games=6, seed=1, players=3, max_plies=30)
    for p, total in enumerate(match.players):
        seats = match.by_seat(p)
        assert [(r.seat, r.games) for r in seats] == [(0, 2), (1, 2), (2, 2)]
        assert sum(r.wins + r.draws + r.losses for r in seats) == total.wins + total.draws + total.losses == 6


def test_random_openings_are_shared_by_the_games_of_a_rotation() -> None:
    """Each game starts with K random plies drawn from the seed and the round: the games of
    a round (seats swapped) start alike, other rounds and seeds differ, and deterministic
    players no longer play the same game over and over."""
    plain = glacier.arena(QUICK, ["alphabeta:2", "alphabeta:1"], games=4, seed=5, threads=1)
    assert len({tuple(g.state.moves) for g in plain.games[0::2]}) == 1  # the same game, twice
    match = glacier.arena(QUICK, ["alphabeta:2", "alphabeta:1"], games=6, seed=5, opening_plies=4)
    assert match.opening_plies == 4 and all(g.opening == 4 for g in match.games)
    openings = [tuple(g.state.moves[:4]) for g in match.games]
    assert openings[0::2] == openings[1::2]  # games 2k and 2k+1 swap seats on one opening
    assert len(set(openings[0::2])) == 3
    assert len({tuple(g.state.moves) for g in match.games[0::2]}) == 3
    for g in match.games:
        replay = glacier.new_game(QUICK)
        for move in g.state.moves:
            replay.play(move)
        assert replay.is_terminal() and replay.returns() == g.state.returns()
        assert g.plies == len(g.state.moves)
    again = glacier.arena(QUICK, ["alphabeta:2", "alphabeta:1"], games=6, seed=5, opening_plies=4, threads=2)
    assert [g.state.moves for g in again.games] == [g.state.moves for g in match.games]
    other = glacier.arena(QUICK, ["alphabeta:2", "alphabeta:1"], games=2, seed=6, opening_plies=4)
    assert tuple(other.games[0].state.moves[:4]) != openings[0]
    assert f"6 games of {QUICK}, each from 4 random opening plies" in match.table()


def test_random_openings_rotate_with_more_players() -> None:
    match = glacier.arena(MANY, ["random"], games=6, seed=1, opening_plies=3, players=3)
    openings = [g.state.moves[:3] for g in match.games]
    assert openings[0] == openings[1] == openings[2] != openings[3] == openings[4] == openings[5]
    assert [g.seats for g in match.games[:3]] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_an_opening_that_ends_the_game_ends_it() -> None:
    match = glacier.arena(QUICK, ["random"], games=2, seed=0, opening_plies=50, max_plies=6)
    for g in match.games:
        assert g.opening == g.plies == 6 and g.state.is_terminal()


def test_no_opening_plies_plays_the_match_as_before() -> None:
    """K = 0 (the default) draws nothing: the same seeds give the same games."""
    before = glacier.arena(QUICK, ["mcts:30", "random"], games=4, seed=8, threads=1)
    zero = glacier.arena(QUICK, ["mcts:30", "random"], games=4, seed=8, threads=1, opening_plies=0)
    assert [g.state.moves for g in zero.games] == [g.state.moves for g in before.games]
    assert zero.players == before.players and zero.table() == before.table()
    assert zero.opening_plies == 0 and all(g.opening == 0 for g in zero.games)
    assert "opening" not in zero.table()


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True, None])
def test_bad_opening_plies_are_refused(bad: Any) -> None:
    with pytest.raises(errors.InvalidParameterError, match="opening_plies"):
        glacier.arena(QUICK, ["random"], games=2, opening_plies=bad)


def test_the_arena_command_plays_random_openings(tmp_path: Path) -> None:
    path = tmp_path / "match.record"
    args = ["arena", QUICK, "alphabeta:1", "alphabeta:1", "--games", "4", "--seed", "3"]
    out = CliRunner().invoke(main, [*args, "--opening-plies", "2", "--record", str(path)])
    assert out.exit_code == 0, out.output
    assert f"4 games of {QUICK}, each from 2 random opening plies" in out.output
    played = glacier.arena(QUICK, ["alphabeta:1", "alphabeta:1"], games=4, seed=3, opening_plies=2)
    assert [g.state.moves for g in records.read_records(str(path))] == [g.state.moves for g in played.games]
    for bad in ["-1", "two"]:
        refused = CliRunner().invoke(main, [*args, "--opening-plies", bad])
        assert refused.exit_code == 2 and "--opening-plies" in refused.output


def test_players_fill_the_seats_and_rotate() -> None:
    result = glacier.arena(QUICK, ["random"], games=3, seed=1)
    assert [p.name for p in result.players] == ["random", "random#2"]
    assert [g.seats for g in result.games] == [(0, 1), (1, 0), (0, 1)]


def test_a_match_refuses_bad_requests() -> None:
    with pytest.raises(errors.InvalidParameterError):
        glacier.arena(QUICK, ["random", "random", "random"])
    with pytest.raises(errors.InvalidParameterError):
        glacier.arena(QUICK, ["random"], games=0)
    with pytest.raises(errors.InvalidParameterError):
        glacier.arena(QUICK, ["randomly"])
    with pytest.raises(errors.UnknownGameError):
        glacier.arena("go", ["random"])


def test_player_objects_are_spawned_per_game() -> None:
    mcts = players.MCTSPlayer(40, "heuristic")
    result = glacier.arena(QUICK, [mcts, players.RandomPlayer()], games=4, seed=2, threads=2)
    assert [p.name for p in result.players] == ["mcts:40:heuristic", "random"]
    assert mcts.last is None  # the object itself never played


def test_the_arena_command_prints_the_table_and_writes_records(tmp_path: Path) -> None:
    path = tmp_path / "match.record"
    out = CliRunner().invoke(
        main,
        ["arena", QUICK, "mcts:50", "random", "--games", "4", "--seed", "1", "--record", str(path)],
    )
    assert out.exit_code == 0, out.output
    assert "mcts:50" in out.output and "Elo" in out.output and f"4 games of {QUICK}" in out.output
    games = list(records.read_records(str(path)))
    assert len(games) == 4
    assert [g.tags["Round"] for g in games] == ["1", "2", "3", "4"]
    assert games[0].tags["Event"] == "glacier arena"
    first_seat = records.seat_names(QUICK)[0]
    assert (games[0].tags[first_seat], games[1].tags[first_seat]) == ("mcts:50", "random")
    # Each record replays, move by move from the start, to the game the arena played.
    played = glacier.arena(QUICK, ["mcts:50", "random"], games=4, seed=1)
    for record, game in zip(games, played.games):
        replay = glacier.new_game(QUICK)
        for move in record.state.moves:
            replay.play(move)
        assert replay.text() == game.state.text() and replay.is_terminal()
        assert replay.moves == game.state.moves
        assert record.result == records.result_of(game.state)
    bad = CliRunner().invoke(main, ["arena", QUICK, "wizard"])
    assert bad.exit_code != 0 and "unknown player" in bad.output


def test_the_arena_records_games_of_three_players(tmp_path: Path) -> None:
    path = tmp_path / "e.record"
    args = ["arena", MANY, "mcts:20", "random", "--games", "3", "-p", "players=3"]
    out = CliRunner().invoke(main, [*args, "--seed", "4", "--record", str(path)])
    assert out.exit_code == 0, out.output
    played = glacier.arena(MANY, ["mcts:20", "random"], games=3, seed=4, players=3)
    games = list(records.read_records(str(path)))
    assert [g.tags["Round"] for g in games] == ["1", "2", "3"]
    for record, game in zip(games, played.games):
        names = [played.players[p].name for p in game.seats]
        assert [record.tags[seat] for seat in records.seat_names(MANY, 3)] == names
        replay = glacier.new_game(MANY, players=3)
        for move in record.state.moves:
            replay.play(move)
        assert replay.text() == game.state.text() and replay.returns() == game.state.returns()


def test_play_against_mcts_shows_the_search(monkeypatch: Any) -> None:
    # A budget without --opponent or --level is a tree search with that budget.
    first = glacier.new_game(QUICK).current_player
    you = 1 - first
    out = CliRunner().invoke(
        main,
        ["play", QUICK, "--seat", str(you), "--simulations", "50", "--seed", "1", "--record", "/dev/null"],
        input="quit\n",
    )
    assert out.exit_code == 0, out.output
    computer = records.seat_names(QUICK)[first]
    assert f"{computer} (mcts:50) is thinking..." in out.output
    assert "50 simulations" in out.output
    out = CliRunner().invoke(main, ["play", QUICK, "--level", "easy", "--seconds", "2"], input="quit\n")
    assert out.exit_code != 0 and "--level sets the computer's budget" in out.output


def test_play_refuses_alphabeta_with_more_players() -> None:
    out = CliRunner().invoke(main, ["play", MANY, "-p", "players=3", "--opponent", "alphabeta"])
    assert out.exit_code != 0 and "two-player" in out.output


def test_the_openspiel_bot_plays_through_openspiel() -> None:
    import pyspiel
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    from glacier.openspiel_bot import MCTSBot

    game = pyspiel.load_game(f"glacier_{QUICK}")
    bot = MCTSBot(game, simulations=100, seed=3)
    state = game.new_initial_state()
    policy, action = bot.step_with_policy(state)
    assert action in state.legal_actions()
    assert sum(p for _, p in policy) == pytest.approx(1.0)
    assert {a for a, _ in policy} == set(state.legal_actions())
    wins = 0
    for seed in range(4):
        bots = [MCTSBot(game, simulations=100, seed=seed), UniformRandomBot(1, np.random.RandomState(seed))]
        wins += pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)[0] > 0
    assert wins >= 3
    with pytest.raises(ValueError, match="glacier games"):
        MCTSBot(pyspiel.load_game("tic_tac_toe"))


@pytest.mark.parametrize("game", SEVERAL_ACTIONS)
def test_the_openspiel_bot_plays_moves_of_several_actions(game: str) -> None:
    """Where a move takes several actions, the bot searches at its first action and then
    plays the chosen move's actions, each with a policy over the legal actions."""
    import pyspiel

    from glacier.openspiel_bot import MCTSBot

    spiel_game = pyspiel.load_game(f"glacier_{game}")
    bot = MCTSBot(spiel_game, simulations=30, seed=1, evaluator="heuristic")
    state = spiel_game.new_initial_state()
    rng = np.random.RandomState(0)
    in_a_move = 0
    for _ in range(200):
        if state.is_terminal():
            state = spiel_game.new_initial_state()
            bot.restart_at(state)
        if state.current_player() == 0 or state.native.pending_actions:
            policy, action = bot.step_with_policy(state)
            legal = state.legal_actions()
            assert action in legal
            assert {a for a, _ in policy} <= set(legal)
            assert sum(p for _, p in policy) == pytest.approx(1.0)
            in_a_move += bool(state.native.pending_actions)
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
    assert in_a_move > 0

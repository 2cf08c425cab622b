"""The terminal game (``glacier play``) and what it shares with the web app (glacier.play):
seats by name, goals, moves as people write them, the end of a game with its reason, and the
offer to save when the person leaves.

Every check here runs for every game; what a game shows in particular (its end reasons, its
notes, SAN in chess, E's goals) each game's own test module declares, in its section for
these tests: ``PLAY_ENDS`` (finished positions and how their end is told), ``WIN_IN_ONE`` (a
position its player to move wins with one move) and ``play_scenario(run)``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import glacier
from conftest import game_tests
from glacier import play, records
from glacier.cli import main
from glacier.errors import IllegalMoveError, InvalidParameterError


def run(*args: str, input: str | None = None, code: int = 0) -> str:
    """``glacier <args>`` with ``input`` typed at its prompts; its output."""
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def declaring(name: str) -> list[str]:
    """The games whose own test module declares ``name``."""
    return [game for game in glacier.GAMES if hasattr(game_tests(game), name)]


def param_options(params: dict[str, Any]) -> list[str]:
    return [option for name, value in params.items() for option in ("-p", f"{name}={value}")]


ENDS = [(game, *end) for game in declaring("PLAY_ENDS") for end in game_tests(game).PLAY_ENDS]


def test_every_game_declares_how_its_games_end() -> None:
    assert declaring("PLAY_ENDS") == list(glacier.GAMES)


@pytest.mark.parametrize(("game", "text", "params", "result"), ENDS)
def test_every_end_is_told_with_its_reason(game: str, text: str, params: dict[str, Any], result: str) -> None:
    state = glacier.from_text(game, text, **params)
    assert state.is_terminal()
    assert play.result_text(state) == result
    assert play.end_reason(state) == result.partition(": ")[2]


@pytest.mark.parametrize("game", glacier.GAMES)
def test_a_game_going_on_says_who_is_to_move(game: str) -> None:
    state = glacier.new_game(game)
    assert play.end_reason(state) is None
    assert play.result_text(state) == f"{play.seat_names(game, state.num_players)[state.current_player]} to move"


@pytest.mark.parametrize("game", glacier.GAMES)
def test_the_ply_limit_is_a_reason(game: str) -> None:
    state = glacier.new_game(game, max_plies=1)
    state.play(state.legal_moves()[0])
    assert state.is_terminal() and state.ended_by_ply_limit()
    assert play.end_reason(state).startswith("the ply limit")  # type: ignore[union-attr]


@pytest.mark.parametrize("game", glacier.GAMES)
def test_seats_goals_and_notes(game: str) -> None:
    spec = glacier.game_spec(game)
    for count, names in spec.seats.items():
        assert play.seat_names(game, count) == names
        for seat, name in enumerate(names):
            assert play.seat_number(game, count, name) == play.seat_number(game, count, name.lower()) == seat
            assert play.seat_number(game, count, str(seat)) == seat
        with pytest.raises(InvalidParameterError, match=", ".join(names)):
            play.seat_number(game, count, "Purple")
        with pytest.raises(InvalidParameterError, match=f"0..{count - 1}"):
            play.seat_number(game, count, str(count))
    state = glacier.new_game(game)
    goals = play.goals(state)
    assert goals is None or len(goals) == state.num_players
    assert len(play.seat_notes(state)) == state.num_players


@pytest.mark.parametrize("game", glacier.GAMES)
def test_every_legal_move_reads_as_itself_and_as_written(game: str) -> None:
    state = glacier.new_game(game)
    for move in state.legal_moves():
        assert play.read_move(state, move) == move
        assert play.read_move(state, play.notation(state, move)) == move
    with pytest.raises(IllegalMoveError):
        play.read_move(state, "z9z9")
    assert state.moves == [] and state.text() == glacier.new_game(game).text()


@pytest.mark.parametrize("game", declaring("WIN_IN_ONE"))
def test_the_terminal_game_says_who_you_are_and_ends_with_the_reason(game: str, tmp_path: Path) -> None:
    text, params, move, result = game_tests(game).WIN_IN_ONE
    state = glacier.from_text(game, text, **params)
    names = play.seat_names(game, state.num_players)
    you = state.current_player
    target = tmp_path / "won.record"
    out = run(
        "play", game, *param_options(params), "--position", text, "--seat", names[you], "--record", str(target),
        input=f"{move}\n",
    )  # fmt: skip
    assert f"You are {names[you]}" in out
    for other in range(state.num_players):
        if other != you:
            assert f"{names[other]} (player {other}) is the computer (medium)" in out
    assert f"{result} (you win)" in out
    assert records.loads(target.read_text()).moves == [move]


@pytest.mark.parametrize("game", glacier.GAMES)
def test_every_seat_is_told_who_plays_it(game: str) -> None:
    names = play.seat_names(game, glacier.new_game(game).num_players)
    out = run("play", game, "--seat", names[-1], "--level", "easy", "--seed", "1", input="quit\n")
    assert f"You are {names[-1]}" in out and f"your move, {names[-1]}" in out
    for seat, name in enumerate(names[:-1]):
        assert f"{name} (player {seat}) is the computer (easy)" in out
        assert f"{name} (easy) is thinking..." in out


@pytest.mark.parametrize("game", glacier.GAMES)
def test_end_of_input_and_ctrl_c_offer_to_save(game: str, tmp_path: Path) -> None:
    first = glacier.new_game(game).legal_moves()[0]
    target = tmp_path / "left.record"
    out = run("play", game, "--level", "easy", "--seed", "1", "--record", str(target), input=f"{first}\n")
    assert "the input ended." in out and f"saved the game to {target}" in out
    assert records.loads(target.read_text()).moves[0] == first
    out = run("play", game, "--level", "easy", "--seed", "1", input=f"{first}\n")
    assert "save the game?" in out and "not saved" in out

    answers = iter([first])
    offered: list[Any] = []

    def prompt(_: str) -> str:
        for answer in answers:
            return answer
        raise KeyboardInterrupt

    state = glacier.new_game(game)
    computers = {seat: play.computer("easy", game, seat) for seat in range(1, state.num_players)}
    state = play.run(state, 0, computers, offered.append, prompt, print)
    assert offered == [state] and state.moves[0] == first and len(state.moves) == state.num_players


@pytest.mark.parametrize("game", glacier.GAMES)
def test_bad_choices_are_one_line_errors(game: str) -> None:
    out = run("play", game, "--seat", "Purple", input="", code=2)
    assert f"'Purple' is no seat of {game}" in out
    out = run("play", game, "--level", "easy", "--opponent", "random", input="", code=2)
    assert "not both" in out
    out = run("play", game, "--level", "superhuman", input="", code=2)
    assert "superhuman" in out


@pytest.mark.parametrize("game", declaring("play_scenario"))
def test_each_games_own_scenario(game: str) -> None:
    game_tests(game).play_scenario(run)


def test_glacier_alone_prints_its_help() -> None:
    result = CliRunner().invoke(main, [])
    assert "Usage:" in result.output and "serve" in result.output and "play" in result.output
    assert result.exit_code == 0

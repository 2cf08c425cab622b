"""The terminal game (``glacier play``) and what it shares with the web app (glacier.play):
seats by name, E's goals, SAN in and out, E movements without their level, the end of a
game with its reason, and the offer to save when the person leaves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import glacier
from glacier import play, records
from glacier.cli import main
from glacier.errors import IllegalMoveError, InvalidParameterError
from glacier.svg import gallery

E = "martian_chinese_checkers"
#: White to move has taken six Reds: b1a1 pushes off the seventh.
KUBA_WIN_IN_ONE = "7/7/6B/2RRR1B/2RRR2/7/RW5 w 6,6 0,7 - - 10"


def run(*args: str, input: str | None = None, code: int = 0) -> str:
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def finished(game: str, text: str, **params: Any) -> Any:
    state = glacier.from_text(game, text, **params)
    assert state.is_terminal()
    return state


def gallery_text(name: str) -> tuple[str, str, dict[str, Any]]:
    picture = next(p for p in gallery.PICTURES if p.name == name)
    assert picture.text is not None
    return picture.game, picture.text, picture.params


@pytest.mark.parametrize(
    ("game", "text", "params", "result"),
    [
        (
            "ice_age_chess",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            {"ice_age_period": 0},
            "Black wins: checkmate",
        ),
        ("ice_age_chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 60", {}, "draw: stalemate"),
        ("ice_age_chess", "7k/8/6K1/8/8/8/8/8 b - - 100 70", {}, "draw: fifty moves without a capture or pawn move"),
        ("ice_age_chess", "7k/8/6K1/8/8/8/8/8 w - - 3 11", {"max_plies": 20}, "draw: the ply limit"),
        ("kuba", "3W3/3B3/7/5W1/R1B2W1/2W1B2/RW5 b 7,5 4,3 - - 187", {}, "White wins: seven Reds captured"),
        ("kuba", "7/7/6B/2RRR1B/2RRR2/7/RW5 w 6,6 0,7 - - 1000", {}, "draw: the ply limit"),
        (
            "kings_court",
            "GR1R4/R1G2G1G/6G1/4R3/GR4R1/3R1R1G/1G1R4/R1G4G g 59",
            {},
            "Red wins: no Green piece left in the Court",
        ),
        (
            "ice_cube_checkers",
            "-/-/-/B/WKK/B/WBB/WW/-/-/-/WB w 16",
            {},
            "White wins: White controls every cup holding a King",
        ),
    ],
)
def test_every_end_is_told_with_its_reason(game: str, text: str, params: dict[str, Any], result: str) -> None:
    assert play.result_text(finished(game, text, **params)) == result


def test_reasons_of_the_gallerys_finished_games() -> None:
    game, text, params = gallery_text("ice_age_chess-frozen-king")
    assert play.end_reason(finished(game, text, **params)) == "Black's king frozen by the Ice Age"
    game, text, params = gallery_text("e2-won")
    assert play.result_text(finished(game, text, **params)) == "Red wins: every Red pyramid home in its goal"
    assert play.end_reason(glacier.new_game("kuba")) is None
    assert play.result_text(glacier.new_game("kings_court")) == "Red to move"


def test_ice_cube_checkers_ply_limit_counts_the_cups() -> None:
    state = glacier.new_game("ice_cube_checkers", max_plies=1)
    state.play(state.legal_moves()[0])
    assert state.is_terminal()
    assert play.end_reason(state).startswith("the ply limit")  # type: ignore[union-attr]
    assert "cups" in play.end_reason(state)  # type: ignore[operator]


def test_seats_goals_and_notes() -> None:
    three = glacier.new_game(E, players=3)
    assert play.seat_names(E, 3) == ("Red", "Green", "Black")
    assert play.goals(three) == ["Blue", "Clear", "Yellow"]
    assert play.goals(glacier.new_game("kuba")) is None
    assert play.seat_number(E, 3, "green") == 1 and play.seat_number("kuba", 2, "1") == 1
    with pytest.raises(InvalidParameterError, match="Red, Green"):
        play.seat_number("kings_court", 2, "Blue")
    assert play.seat_notes(glacier.new_game("kuba")) == [
        "has taken 0 of 7 Red, 0 of 8 Black",
        "has taken 0 of 7 Red, 0 of 8 White",
    ]
    assert play.seat_notes(glacier.new_game("kings_court"))[0] == "24 pieces, 0 in the Court"


def test_moves_as_people_write_them() -> None:
    chess = glacier.new_game("ice_age_chess", start="standard")
    assert play.read_move(chess, "Nf3") == "g1f3" and play.read_move(chess, "e2e4") == "e2e4"
    assert play.notation(chess, "g1f3") == "Nf3"
    with pytest.raises(IllegalMoveError):
        play.read_move(chess, "Nf6")
    start = glacier.new_game(E)
    move = next(m for m in start.legal_moves() if m.startswith("i6/0-"))
    assert play.read_move(start, move.replace("/0", "")) == move
    # Two pieces of player 0 on d6 (levels 0 and 2): the destination tells which moves.
    stacked = glacier.from_text(
        E,
        "2 0 186 a8=3l a10=3l a12=3l b10=3s b13=3m c6=3s d6=0l3s0s d8=3m f11=3s f12=0m g1=0l g12=3l h5=0m3m h6=0s "
        "h8=0s3s j2=0l j5=3l0l3m k5=3m k8=0s l2=0m l5=0m m1=0m m3=0s m6=0l",
    )
    assert play.read_move(stacked, "d6-g3") == "d6/0-g3"
    assert play.read_move(stacked, "d6-c6") == "d6/2-c6"
    assert play.read_move(stacked, "d6-c6xc6/1=h5/1") == "d6/2-c6xc6/1=h5/1"
    with pytest.raises(IllegalMoveError):
        play.read_move(stacked, "d6-b6")
    assert start.moves == [] and stacked.moves == []


def test_the_terminal_game_says_who_you_are_and_ends_with_the_reason(tmp_path: Path) -> None:
    target = tmp_path / "won.record"
    out = run("play", "kuba", "--position", KUBA_WIN_IN_ONE, "--record", str(target), input="b1a1\n")
    assert "You are White." in out and "Black (player 1) is the computer (medium)." in out
    assert "White wins: seven Reds captured (you win)" in out
    assert records.loads(target.read_text()).moves == ["b1a1"]


def test_chess_takes_san_and_announces_the_computers_move_in_san(tmp_path: Path) -> None:
    target = tmp_path / "game.record"
    out = run("play", "ice_age_chess", "--level", "easy", "--seed", "3", "--record", str(target), input="Nf3\nquit\n")
    assert "You are White." in out and "your move, White" in out
    game = records.loads(target.read_text())
    assert game.moves[0] == "g1f3" and len(game.moves) == 2
    reply = records.Record.of(game).notation[1]
    assert f"Black plays {reply} ({game.moves[1]})" in out or f"Black plays {reply} (" in out
    assert f"last move: Black {reply}" in out


def test_e_seats_by_colour_with_their_goals() -> None:
    out = run("play", E, "-p", "players=3", "--seat", "Green", "--level", "easy", input="quit\n")
    assert "You are Green (player 1); your goal: fill the Clear territory." in out
    assert "Red (player 0) is the computer (easy), goal: the Blue territory." in out
    assert "colours: 0 = Red (player 0), 2 = Green (player 1), 4 = Black (player 2)" in out


def test_end_of_input_and_ctrl_c_offer_to_save(tmp_path: Path) -> None:
    target = tmp_path / "left.record"
    out = run("play", "kuba", "--level", "easy", "--seed", "1", "--record", str(target), input="f1f2\n")
    assert "the input ended." in out and f"saved the game to {target}" in out
    assert records.loads(target.read_text()).moves[0] == "f1f2"
    out = run("play", "kuba", "--level", "easy", "--seed", "1", input="f1f2\n")
    assert "save the game?" in out and "not saved" in out

    answers = iter(["f1f2"])
    offered: list[Any] = []

    def prompt(_: str) -> str:
        for answer in answers:
            return answer
        raise KeyboardInterrupt

    state = play.run(glacier.new_game("kuba"), 0, {1: play.computer("easy", "kuba", 0)}, offered.append, prompt, print)
    assert offered == [state] and state.moves[0] == "f1f2" and len(state.moves) == 2


def test_bad_choices_are_one_line_errors() -> None:
    out = run("play", "kuba", "--seat", "Purple", input="", code=2)
    assert "'Purple' is no seat of kuba" in out
    out = run("play", "kuba", "--level", "easy", "--opponent", "random", input="", code=2)
    assert "not both" in out
    out = run("play", "kuba", "--level", "superhuman", input="", code=2)
    assert "superhuman" in out


def test_glacier_alone_prints_its_help() -> None:
    result = CliRunner().invoke(main, [])
    assert "Usage:" in result.output and "serve" in result.output and "play" in result.output
    assert result.exit_code == 0

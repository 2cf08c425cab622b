"""Kuba, hand-verified positions for every rule (docs/rules/kuba.md), on both implementations.

Positions are written in the position text; each has 8 White, 8 Black and 13 Red marbles
counting the captured ones, as the text requires.
"""

from __future__ import annotations

from typing import Any

import pytest

import glacier
from glacier.errors import IllegalMoveError, InvalidPositionError
from glacier.svg import render
from svg_checks import SVG, tree

START = "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0,0 0,0 - - 0"


def test_start(impl: Any) -> None:
    state = impl.new_game("kuba")
    assert state.text() == START
    assert state.num_players == 2 and state.current_player == 0
    # Only corner marbles with a free or off-board square behind them can move.
    assert state.legal_moves() == ["a6b6", "a7a6", "a7b7", "b7b6", "f1f2", "g1f1", "g1g2", "g2f2"]


def test_square_behind_must_be_free_or_off_board(impl: Any) -> None:
    state = impl.from_text("kuba", "B6/7/7/5WW/7/7/R6 w 6,7 6,6 - - 0")
    moves = state.legal_moves()
    # f4 cannot push west (g4 behind it is occupied) nor east (it would push g4 off).
    assert moves == ["f4f3", "f4f5", "g4f4", "g4g3", "g4g5"]
    with pytest.raises(IllegalMoveError, match=r"behind is occupied|own marble"):
        state.play("f4e4")


def test_own_marble_cannot_be_pushed_off(impl: Any) -> None:
    state = impl.from_text("kuba", "B6/7/7/5WW/7/7/R6 w 6,7 6,6 - - 0")
    with pytest.raises(IllegalMoveError, match="own marble"):
        state.play("f4g4")
    assert state.text() == "B6/7/7/5WW/7/7/R6 w 6,7 6,6 - - 0"


def test_push_carries_the_row_and_captures_red_with_bonus(impl: Any) -> None:
    state = impl.from_text("kuba", "R6/7/7/5WR/7/7/B6 w 5,7 6,7 - - 0")
    state.play("f4g4")
    assert state.text() == "R6/7/7/6W/7/7/B6 w 6,7 6,7 + - 1"
    assert state.current_player == 0 and not state.is_terminal()
    # The bonus push is optional: pass is legal, and only in a bonus turn.
    assert state.legal_moves() == ["g4f4", "g4g3", "g4g5", "pass"]
    state.play("pass")
    assert state.text() == "R6/7/7/6W/7/7/B6 b 6,7 6,7 - - 2"
    assert "pass" not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="bonus"):
        state.play("pass")


def test_a_row_of_seven_moves_and_its_front_leaves(impl: Any) -> None:
    state = impl.from_text("kuba", "7/7/7/WRRRRRR/7/7/B6 w 3,7 4,7 - - 0")
    state.play("a4b4")
    assert state.text() == "7/7/7/1WRRRRR/7/7/B6 w 4,7 4,7 + - 1"


def test_bonus_pushes_chain(impl: Any) -> None:
    state = impl.from_text("kuba", "R6/7/7/4WRR/7/7/B6 w 4,7 6,7 - - 0")
    state.play("e4f4")
    assert state.text() == "R6/7/7/5WR/7/7/B6 w 5,7 6,7 + - 1"
    state.play("f4g4")
    assert state.text() == "R6/7/7/6W/7/7/B6 w 6,7 6,7 + - 2"


def test_capturing_an_opponent_marble(impl: Any) -> None:
    state = impl.from_text("kuba", "B6/7/7/4WBR/7/7/R6 w 5,6 6,7 - - 0")
    state.play("e4f4")  # the row e4-g4 reaches the edge: Red leaves, Black's f4 moves to g4
    assert state.text() == "B6/7/7/5WB/7/7/R6 w 6,6 6,7 + - 1"
    state.play("f4g4")
    assert state.text() == "B6/7/7/6W/7/7/R6 w 6,7 6,7 + - 2"


def test_seventh_red_wins_and_the_turn_passes(impl: Any) -> None:
    state = impl.from_text("kuba", "R6/7/7/5WR/7/7/B6 w 6,7 5,7 - - 0")
    state.play("f4g4")
    assert state.text() == "R6/7/7/6W/7/7/B6 b 7,7 5,7 - - 1"
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [1.0, -1.0]


def test_capturing_the_last_opponent_marble_wins(impl: Any) -> None:
    state = impl.from_text("kuba", "7/7/7/5WB/7/7/R6 w 6,7 6,7 - - 0")
    state.play("f4g4")
    assert state.text() == "7/7/7/6W/7/7/R6 b 6,8 6,7 - - 1"
    assert state.returns() == [1.0, -1.0]


def test_a_player_who_cannot_push_loses(impl: Any) -> None:
    state = impl.from_text("kuba", "7/7/3R3/2RB1W1/3R3/7/7 w 5,7 5,7 - - 0")
    state.play("f4e4")  # Black's only marble, d4, is now boxed in on all four sides
    assert state.text() == "7/7/3R3/2RBW2/3R3/7/7 b 5,7 5,7 - - 1"
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    # Read as text, the same position is judged at once.
    assert impl.from_text("kuba", state.text()).returns() == [1.0, -1.0]


def test_ko_forbids_pushing_the_front_marble_straight_back(impl: Any) -> None:
    state = impl.from_text("kuba", "7/7/7/1WB4/7/7/R6 w 6,7 6,7 - - 10")
    assert state.legal_moves() == ["b4b3", "b4b5", "b4c4"]
    state.play("b4c4")  # the row ends with Black's marble: Black may not push it straight back
    assert state.text() == "7/7/7/2WB3/7/7/R6 b 6,7 6,7 - d4c4 11"
    assert state.legal_moves() == ["d4d3", "d4d5"]
    with pytest.raises(IllegalMoveError, match="ko"):
        state.play("d4c4")
    # Without the ko the same push is legal.
    free = impl.from_text("kuba", "7/7/7/2WB3/7/7/R6 b 6,7 6,7 - - 11")
    assert free.legal_moves() == ["d4c4", "d4d3", "d4d5"]
    assert free.hash() != state.hash()
    # The ko lasts one turn: any push clears it.
    state.play("d4d5")
    assert state.text().endswith(" - - 12")


def test_ko_is_not_set_when_the_front_marble_is_red_or_own(impl: Any) -> None:
    state = impl.from_text("kuba", "7/7/7/1WR4/7/7/B6 w 6,7 6,7 - - 0")
    state.play("b4c4")
    assert state.text() == "7/7/7/2WR3/7/7/B6 b 6,7 6,7 - - 1"


def test_ko_can_make_a_player_lose(impl: Any) -> None:
    # After a2b2 Black's only marble, now on c2, could only be pushed back west: the ko forbids it.
    state = impl.from_text("kuba", "7/7/7/7/2R4/WB5/2R4 w 5,7 6,7 - - 0")
    state.play("a2b2")
    assert state.text() == "7/7/7/7/2R4/1WB4/2R4 b 5,7 6,7 - c2b2 1"
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_ply_limit_is_a_draw_but_a_win_on_the_last_ply_counts(impl: Any) -> None:
    state = impl.new_game("kuba", max_plies=1)
    state.play("a7a6")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    win = impl.from_text("kuba", "R6/7/7/5WR/7/7/B6 w 6,7 5,7 - - 0", max_plies=1)
    win.play("f4g4")
    assert win.returns() == [1.0, -1.0]
    # A capture on the last ply gives no bonus: the game ends and the turn passes on.
    capture = impl.from_text("kuba", "R6/7/7/5WR/7/7/B6 w 5,7 6,7 - - 0", max_plies=1)
    capture.play("f4g4")
    assert capture.text() == "R6/7/7/6W/7/7/B6 b 6,7 6,7 - - 1"
    assert capture.returns() == [0.0, 0.0]


def test_hash_depends_on_the_side_to_move(impl: Any) -> None:
    white = impl.from_text("kuba", "7/7/7/1WB4/7/7/R6 w 6,7 6,7 - - 10")
    black = impl.from_text("kuba", "7/7/7/1WB4/7/7/R6 b 6,7 6,7 - - 10")
    assert white.hash() != black.hash()
    # The ply count is not hashed.
    assert white.hash() == impl.from_text("kuba", "7/7/7/1WB4/7/7/R6 w 6,7 6,7 - - 11").hash()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0,0 0,0 - -", "7 fields"),
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW  w 0,0 0,0 - - 0", "7 fields"),
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW w 0,0 0,0 - - 0", "7 ranks"),
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB12WW w 0,0 0,0 - - 0", "two digits"),
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WWW w 0,0 0,0 - - 0", "8 squares"),
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB2WW w 0,0 0,0 - - 0", "6 squares"),
        ("WW3BB/WW1R1BB/2RXR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0,0 0,0 - - 0", "unexpected 'X'"),
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW x 0,0 0,0 - - 0", "side to move"),
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0;0 0,0 - - 0", "White's captures"),
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 00,0 0,0 - - 0", "White's captures"),
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0,0 0,0 ? - 0", "bonus flag"),
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0,0 0,0 - - -1", "ply count"),
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0,0 0,0 - - 01", "ply count"),
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0,1 0,0 - - 0", "must make 8"),
        ("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 1,0 0,0 - - 0", "must make 13"),
        ("7/7/7/7/7/7/R6 w 8,8 4,8 - - 0", "more than 7 Reds"),
        ("7/7/7/3B3/7/7/R5R w 7,7 4,8 - - 0", "both players have already won"),
        ("7/7/7/1WB4/7/7/R6 b 6,7 6,7 - c4e4 1", "neighbouring"),
        ("7/7/7/1WB4/7/7/R6 b 6,7 6,7 - z9z8 1", "ko must be"),
        ("7/7/7/1WB4/7/7/R6 b 6,7 6,7 + c4b4 1", "bonus turn cannot have a ko"),
        ("7/7/7/1WB4/7/7/R6 w 6,7 6,7 - c4b4 1", "side to move"),
    ],
)
def test_bad_texts(impl: Any, text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        impl.from_text("kuba", text)


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("a1", "not a Kuba move"),
        ("a1a3", "neighbouring"),
        ("h1h2", "not a Kuba move"),
        ("d4d5", "no marble"),
        ("A7A6", "not a Kuba move"),
    ],
)
def test_bad_moves_leave_the_state_unchanged(impl: Any, move: str, message: str) -> None:
    state = impl.new_game("kuba")
    with pytest.raises(IllegalMoveError, match=message):
        state.play(move)
    assert state.text() == START and state.moves == []


# --- pictures -----------------------------------------------------------------------------


def test_kuba_shows_the_captured_counts_in_large_type() -> None:
    state = glacier.from_text("kuba", "3W3/3B3/7/5W1/R1B2W1/2W1B2/RW5 b 7,5 4,3 - - 187")
    root = tree(render(state))
    counts = [t for t in root.iter(f"{SVG}text") if t.get("class") == "captured"]
    assert [t.text for t in counts] == ["7 of 7 Red", "5 of 8", "4 of 7 Red", "3 of 8"]
    assert all(float(t.get("font-size", "0")) >= 14 for t in counts)


# --- hooks of the generic tests (tests/test_actions.py) -------------------------------------


def check_action_meaning(state: Any, name: str, after: list[str], where: str) -> None:
    """An action is a whole move, named by its move text."""
    assert after == [name], where


def to_move_planes(players: int) -> set[int]:
    """The observation planes that say who is to move."""
    return {9}


# --- scenarios of the play and web tests (tests/test_play.py, test_serve_api.py, -------------
# --- test_serve_browser.py) -------------------------------------------------------------------

#: White to move has taken six Reds: b1a1 pushes off the seventh.
SIX_REDS = "7/7/6B/2RRR1B/2RRR2/7/RW5 w 6,6 0,7 - - 10"

#: Finished positions and how glacier.play tells their end.
PLAY_ENDS = (
    ("3W3/3B3/7/5W1/R1B2W1/2W1B2/RW5 b 7,5 4,3 - - 187", {}, "White wins: seven Reds captured"),
    ("7/7/6B/2RRR1B/2RRR2/7/RW5 w 6,6 0,7 - - 1000", {}, "draw: the ply limit"),
)

WIN_IN_ONE = (SIX_REDS, {}, "b1a1", "White wins: seven Reds captured")


def play_scenario(run: Any) -> None:
    """Each seat's note counts its captures."""
    import glacier
    from glacier import play as playing

    assert playing.goals(glacier.new_game("kuba")) is None
    assert playing.seat_notes(glacier.new_game("kuba")) == [
        "has taken 0 of 7 Red, 0 of 8 Black",
        "has taken 0 of 7 Red, 0 of 8 White",
    ]
    assert playing.seat_notes(glacier.from_text("kuba", SIX_REDS)) == [
        "has taken 6 of 7 Red, 6 of 8 Black",
        "has taken 0 of 7 Red, 7 of 8 White",
    ]


def serve_api_scenario(api: Any) -> None:
    """A push goes from the marble's square to the next; ``pass`` is a button."""
    from glacier.web.session import gesture

    assert gesture("kuba", "b1a1") == ("move", "b1", "a1")
    assert gesture("kuba", "pass") == ("choice",)


def browser_scenario(table: Any) -> None:
    """A capture and its extra turn, which may be passed; a push by dragging the marble."""
    page = table.start("kuba", "RW5/7/6B/2RRR1B/2RRR2/7/RW5 w 5,6 0,6 - - 10")
    page.select("b1")
    page.click(page.cell("a1"))
    page.played("b1a1")
    assert page.mine.current_player == 0 and "White to move" in page.status()  # the extra turn
    assert page.choices() == ["pass"] and page.labels() == ["pass: no bonus push"]
    page.screenshot()
    # This push by dragging the marble onto its square.
    page.drag("b7", "a7")
    page.played("b7a7")
    assert page.status() == "White wins: seven Reds captured"


# --- searches (tests/test_search.py) ----------------------------------------------------------


#: Positions whose best move is forced, with that move: name -> (text, params, move).
FORCED_MOVES = {
    # Both sides have 6 Reds and the last one is on g7: f7 pushes it off (the 7th, a win);
    # any other push lets Black push it off from g6.
    "Kuba winning push": ("5WR/6B/7/7/BBBBBB1/WWWW3/WWW4 w 6,1 6,0 - - 40", {}, "f7g7"),
}


# --- the command line and pictures (tests/test_cli_and_pictures.py) ---------------------------


#: The names of the squares, each drawn with its name.
CELL_NAMES = {f + str(r) for f in "abcdefg" for r in range(1, 8)}


def test_kuba_picture_has_one_circle_per_marble() -> None:
    import xml.etree.ElementTree as ET

    root = ET.fromstring(render(glacier.new_game("kuba")))
    assert len([c for c in root.iter(f"{SVG}circle") if c.get("class") == "marble"]) == 8 + 8 + 13


def run(*args: str, input: str | None = None) -> str:
    """``glacier <args>`` with ``input`` typed at its prompts; its output."""
    from click.testing import CliRunner

    from glacier.cli import main

    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_play_command_answers_illegal_input_with_the_legal_moves() -> None:
    out = run("play", "kuba", "--opponent", "random", "--seed", "1", input="a1a1\nmoves\nf1f2\nundo\nquit\n")
    assert "legal moves: a6b6 a7a6" in out
    assert "Black plays" in out


def test_play_against_monte_carlo_to_the_end(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    # Human plays White with max_plies=4; the Monte Carlo player answers. The leftover input
    # answers the prompt to save the game (a file named f2e2): in a temporary directory.
    monkeypatch.chdir(tmp_path)
    out = run(
        "play",
        "kuba",
        "-p",
        "max_plies=4",
        "--opponent",
        "montecarlo",
        "--playouts",
        "5",
        "--seed",
        "3",
        input="f1f2\ng2f2\nf2e2\nf1e1\ng1f1\ng1g2\n" * 2,
    )
    assert "draw" in out or "win" in out or "lose" in out

"""Ice Cube Checkers, hand-verified positions for every rule (docs/rules/ice_cube_checkers.md), on both
implementations.

Slots a..l run counter-clockwise; each slot's pieces are written W, B, K. Every position has
5 White cubes, 5 Black cubes and 2 King Kubes, as the text requires. Move counts are worked
out by hand with the multinomial formula: a slot holding w White cubes, b Black cubes and k
Kings gives White (w-1+b+k)! / ((w-1)! b! k!) moves (the last drop is a White cube, the rest
in any distinct order), and Black the same with b-1.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import glacier
from glacier import reference
from glacier.errors import IllegalMoveError, InvalidPositionError
from glacier.svg import ice_cube_checkers as drawing
from glacier.svg import render
from svg_checks import elements, tree

GAME = "ice_cube_checkers"
START = "W/W/W/K/W/W/B/B/B/K/B/B w 0"
ALL_IN_A = "WWWWWBBBBBKK/-/-/-/-/-/-/-/-/-/-/- w 0"


def test_start(impl: Any) -> None:
    state = impl.new_game(GAME)
    assert state.text() == START
    assert state.num_players == 2 and state.current_player == 0
    assert state.params == {"max_plies": 200}
    # Every White cube stands alone: five moves, each one cube one slot on. d holds only a King.
    assert state.legal_moves() == ["a:W", "b:W", "c:W", "e:W", "f:W"]
    assert not state.is_terminal() and state.returns() == [0.0, 0.0]


def test_a_lone_cube_moves_one_slot_on(impl: Any) -> None:
    state = impl.new_game(GAME)
    state.play("c:W")  # onto the King in d: d now holds W and K, written "WK"
    assert state.text() == "W/W/-/WK/W/W/B/B/B/K/B/B b 1"
    assert state.legal_moves() == ["g:B", "h:B", "i:B", "k:B", "l:B"]


def test_black_wraps_from_l_to_a(impl: Any) -> None:
    state = impl.from_text(GAME, "W/W/W/K/W/W/B/B/B/K/B/B b 1")
    state.play("l:B")
    assert state.text() == "WB/W/W/K/W/W/B/B/B/K/B/- w 2"


def test_a_slot_with_both_colours_lifts_everything(impl: Any) -> None:
    state = impl.new_game(GAME)
    state.play("f:W")  # g now holds White's cube and Black's
    assert state.text() == "W/W/W/K/W/-/WB/B/B/K/B/B b 1"
    # Black picks g: both cubes are lifted and Black's own must be dropped last.
    assert state.legal_moves() == ["g:WB", "h:B", "i:B", "k:B", "l:B"]
    state.play("g:WB")
    assert state.text() == "W/W/W/K/W/-/-/WB/BB/K/B/B w 2"


def test_a_slot_with_only_a_king_cannot_be_picked(impl: Any) -> None:
    state = impl.new_game(GAME)
    with pytest.raises(IllegalMoveError, match="slot d holds no White cube"):
        state.play("d:K")
    assert state.text() == START


def test_mixed_slot_moves_listed_once_each(impl: Any) -> None:
    text = "W/-/WWWBK/-/W/-/B/B/-/K/B/B b 7"
    state = impl.from_text(GAME, text)
    # Black in c (3 W, 1 B, 1 K): B last, then the 4!/3! = 4 distinct orders of W, W, W, K.
    assert state.legal_moves() == [
        "c:KWWWB",
        "c:WKWWB",
        "c:WWKWB",
        "c:WWWKB",
        "g:B",
        "h:B",
        "k:B",
        "l:B",
    ]
    # White in c: W last, then 4!/2! = 12 orders of W, W, B, K; plus a:W and e:W.
    white = impl.from_text(GAME, "W/-/WWWBK/-/W/-/B/B/-/K/B/B w 7")
    moves = white.legal_moves()
    assert len(moves) == 14 and len(set(moves)) == 14
    assert sorted(m for m in moves if m.startswith("c:")) == sorted(
        f"c:{order}W"
        for order in ("WWBK", "WWKB", "WBWK", "WKWB", "WBKW", "WKBW", "BWWK", "KWWB", "BWKW", "KWBW", "BKWW", "KBWW")
    )
    # Sowing: W into d, K into e, W into f, W into g, B into h.
    state.play("c:WKWWB")
    assert state.text() == "W/-/-/W/WK/W/WB/BB/-/K/B/B w 8"
    assert not state.is_terminal()


def test_multinomial_move_count_of_a_big_mixed_slot(impl: Any) -> None:
    # a holds 4 W, 3 B, 2 K. White: 8! / (3! 3! 2!) = 560 orders, plus b:W.
    white = impl.from_text(GAME, "WWWWBBBKK/W/B/B/-/-/-/-/-/-/-/- w 0")
    moves = white.legal_moves()
    assert len(moves) == 561 and len(set(moves)) == 561
    assert all(m.endswith("W") for m in moves)
    assert white.perft(1) == 561
    # Black: 8! / (4! 2! 2!) = 420 orders, plus c:B and d:B.
    black = impl.from_text(GAME, "WWWWBBBKK/W/B/B/-/-/-/-/-/-/-/- b 0")
    assert len(black.legal_moves()) == 422 and black.perft(1) == 422


def test_twelve_pieces_go_round_into_their_own_slot(impl: Any) -> None:
    state = impl.from_text(GAME, ALL_IN_A)
    # 11! / (4! 5! 2!) = 6930 distinct orders of the eleven pieces before the last W.
    assert state.perft(1) == 6930
    moves = state.legal_moves()
    assert len(moves) == 6930 and len(set(moves)) == 6930
    assert moves[0] == "a:BBBBBKKWWWWW" and moves[-1] == "a:WWWWKKBBBBBW"
    state.play("a:BBBBBKKWWWWW")  # b..f get B, g and h a King, i..l W, and a itself the last W
    assert state.text() == "W/B/B/B/B/B/K/K/W/W/W/W b 1"
    # Now every slot holds one piece: Black has exactly five moves after any White move.
    assert state.legal_moves() == ["b:B", "c:B", "d:B", "e:B", "f:B"]
    assert impl.from_text(GAME, ALL_IN_A).perft(2) == 6930 * 5
    black = impl.from_text(GAME, ALL_IN_A.replace(" w ", " b "))
    assert black.perft(1) == 6930  # 11! / (5! 4! 2!)


def test_mover_wins_by_controlling_both_king_slots(impl: Any) -> None:
    # White controls e (W and K); the King in b stands alone, controlled by nobody.
    state = impl.from_text(GAME, "W/K/W/-/WK/W/B/B/B/B/B/W w 10")
    assert not state.is_terminal()
    state.play("a:W")
    assert state.text() == "-/WK/W/-/WK/W/B/B/B/B/B/W b 11"
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [1.0, -1.0]
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.play("g:B")


def test_the_opponent_wins_when_the_mover_hands_it_control(impl: Any) -> None:
    # Kings: c is White's, j is Black's. White must drop c's King into Black's d.
    state = impl.from_text(GAME, "W/W/WK/B/-/W/-/B/B/BK/B/W w 20")
    assert state.legal_moves() == ["a:W", "b:W", "c:KW", "f:W", "l:W"]
    state.play("c:KW")
    assert state.text() == "W/W/-/BK/W/W/-/B/B/BK/B/W b 21"
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


def test_both_kings_in_one_slot(impl: Any) -> None:
    state = impl.from_text(GAME, "W/W/W/KK/W/W/B/B/B/-/B/B w 4")
    assert not state.is_terminal()  # two Kings alone: nobody controls d
    state.play("c:W")
    assert state.text() == "W/W/-/WKK/W/W/B/B/B/-/B/B b 5"
    assert state.returns() == [1.0, -1.0]
    # Both colours with the Kings: nobody controls that slot, nobody has won.
    mixed = impl.from_text(GAME, "W/W/-/WBKK/W/W/-/B/B/-/B/B w 5")
    assert not mixed.is_terminal()
    assert mixed.legal_moves() == ["a:W", "b:W", "d:BKKW", "d:KBKW", "d:KKBW", "e:W", "f:W"]


def test_a_finished_game_reads_as_terminal(impl: Any) -> None:
    # White holds both Kings whoever is to move.
    for side in "wb":
        state = impl.from_text(GAME, f"W/W/-/WKK/W/W/B/B/B/-/B/B {side} 5")
        assert state.is_terminal() and state.legal_moves() == [] and state.returns() == [1.0, -1.0]
        assert state.current_player == "wb".index(side)
        assert state.perft(1) == 0 and state.perft(0) == 1
    black = impl.from_text(GAME, "W/W/W/BK/W/W/-/BK/B/-/B/B w 9")
    assert black.returns() == [-1.0, 1.0]


def test_ply_limit_tie_break(impl: Any) -> None:
    # a:W leaves White controlling b, c, e, f (4) against Black's g, h, i, k, l (5).
    state = impl.new_game(GAME, max_plies=1)
    state.play("a:W")
    assert state.text() == "-/WW/W/K/W/W/B/B/B/K/B/B b 1"
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [-1.0, 1.0]
    # c:W makes d White's too: 5 against 5, a draw.
    state = impl.new_game(GAME, max_plies=1)
    state.play("c:W")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    # f:W then g:WB: White keeps a, b, c, e (4); h is mixed, Black keeps i, k, l (3).
    state = impl.new_game(GAME, max_plies=2)
    state.play("f:W")
    assert not state.is_terminal()
    state.play("g:WB")
    assert state.text() == "W/W/W/K/W/-/-/WB/BB/K/B/B w 2"
    assert state.returns() == [1.0, -1.0]


def test_a_win_on_the_last_ply_beats_the_tie_break(impl: Any) -> None:
    # After a:W both sides control five slots (a draw by count) but White holds both Kings.
    state = impl.from_text(GAME, "W/K/W/-/WK/W/B/B/B/B/B/W w 10", max_plies=11)
    state.play("a:W")
    assert state.returns() == [1.0, -1.0]


def test_ply_limit_read_from_text(impl: Any) -> None:
    assert impl.new_game(GAME, max_plies=0).returns() == [0.0, 0.0]
    state = impl.from_text(GAME, "-/WW/W/K/W/W/B/B/B/K/B/B b 200")
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    assert not impl.from_text(GAME, "-/WW/W/K/W/W/B/B/B/K/B/B b 199").is_terminal()


def test_hash(impl: Any) -> None:
    white = impl.from_text(GAME, START)
    black = impl.from_text(GAME, "W/W/W/K/W/W/B/B/B/K/B/B b 0")
    assert white.hash() != black.hash()
    # The ply count is not hashed.
    assert white.hash() == impl.from_text(GAME, "W/W/W/K/W/W/B/B/B/K/B/B w 12").hash()
    # The same position reached in two orders has the same hash.
    one, two = impl.new_game(GAME), impl.new_game(GAME)
    for move in ("a:W", "g:B", "e:W", "k:B"):
        one.play(move)
    for move in ("e:W", "k:B", "a:W", "g:B"):
        two.play(move)
    assert one.text() == two.text() and one.hash() == two.hash()
    # Counts matter: WW in one slot is not W in two.
    assert impl.from_text(GAME, "WW/-/W/K/W/W/B/B/B/K/B/B w 0").hash() != white.hash()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("W/W/W/K/W/W/B/B/B/K/B/B w", "3 fields"),
        ("W/W/W/K/W/W/B/B/B/K/B/B  w 0", "3 fields"),
        ("W/W/W/K/W/W/B/B/B/K/B/B w 0 x", "3 fields"),
        ("W/W/W/K/W/W/B/B/B/K/BB w 0", "12 slots"),
        ("W/W/W/K/W/W/B/B/B/K/B/B/- w 0", "12 slots"),
        ("WW//W/K/W/W/B/B/B/K/B/B w 0", "slot b is blank"),
        ("W/W/W/K/W/W/B/B/B/K/B/X w 0", "unexpected 'X' in slot l"),
        ("W/W/W/K/W/W/B/B/B/K/B/b w 0", "unexpected 'b' in slot l"),
        ("W/W/W/K/W/W/B/B/B/K/B/-- w 0", "unexpected '-' in slot l"),
        ("W/W/W/KW/-/W/B/B/B/K/B/B w 0", "slot d .* order W, B, K"),
        ("BW/W/W/K/W/-/-/B/B/K/B/B w 0", "slot a .* order W, B, K"),
        ("W/W/W/K/W/W/B/B/B/K/B/WB w 0", "too many White cubes"),
        ("W/W/W/K/-/W/B/B/B/K/B/B w 0", "4 White cubes"),
        ("W/W/W/K/W/W/B/B/B/K/B/- w 0", "4 Black cubes"),
        ("W/W/W/K/W/W/B/B/B/-/B/B w 0", "1 King Kubes"),
        ("W/W/W/KK/W/W/B/B/B/K/B/B w 0", "too many King Kubes"),
        ("W/W/W/K/W/W/B/B/B/K/B/B x 0", "side to move"),
        ("W/W/W/K/W/W/B/B/B/K/B/B W 0", "side to move"),
        ("W/W/W/K/W/W/B/B/B/K/B/B w -1", "ply count"),
        ("W/W/W/K/W/W/B/B/B/K/B/B w 01", "ply count"),
        ("W/W/W/K/W/W/B/B/B/K/B/B w +1", "ply count"),
        ("W/W/W/K/W/W/B/B/B/K/B/B w 4294967296", "ply count"),
        ("W/W/W/K/W/W/B/B/B/K/B/B w 0\n", "ply count"),
    ],
)
def test_bad_texts(impl: Any, text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        impl.from_text(GAME, text)


@pytest.mark.parametrize(
    ("text", "move", "message"),
    [
        (START, "", "not an Ice Cube Checkers move"),
        (START, "a", "not an Ice Cube Checkers move"),
        (START, "aW", "not an Ice Cube Checkers move"),
        (START, "a-W", "not an Ice Cube Checkers move"),
        (START, "m:W", "unknown slot 'm'"),
        (START, "A:W", "unknown slot 'A'"),
        (START, "a:X", "unknown piece 'X'"),
        (START, "a:w", "unknown piece 'w'"),
        (START, "d:K", "slot d holds no White cube"),
        (START, "g:B", "slot g holds no White cube"),
        (START, "a:", "wrong number of pieces: slot a holds 1, the move drops 0"),
        (START, "a:WW", "wrong number of pieces: slot a holds 1, the move drops 2"),
        (START, "a:B", "not the pieces in slot a: it holds 1 'W', the move drops 0"),
        ("W/-/WWWBK/-/W/-/B/B/-/K/B/B w 7", "c:WWWWB", "not the pieces in slot c"),
        ("W/-/WWWBK/-/W/-/B/B/-/K/B/B w 7", "c:WWWBK", "last piece dropped must be a White cube"),
        ("W/-/WWWBK/-/W/-/B/B/-/K/B/B w 7", "c:WWWKB", "last piece dropped must be a White cube"),
        ("W/-/WWWBK/-/W/-/B/B/-/K/B/B b 7", "c:WWWBK", "last piece dropped must be a Black cube"),
        ("W/-/WWWBK/-/W/-/B/B/-/K/B/B b 7", "a:W", "slot a holds no Black cube"),
    ],
)
def test_bad_moves_leave_the_state_unchanged(impl: Any, text: str, move: str, message: str) -> None:
    state = impl.from_text(GAME, text)
    with pytest.raises(IllegalMoveError, match=message):
        state.play(move)
    assert state.text() == text and state.moves == []


def test_board_drawing(impl: Any) -> None:
    drawing = str(impl.new_game(GAME))
    assert drawing.splitlines() == [
        "l  k  j  i  h  g",
        "B  B  K  B  B  B",
        "W  W  W  K  W  W",
        "a  b  c  d  e  f",
        "White to move, ply 0; White controls 5 slots, Black 5",
    ]


CROWDED = [
    ALL_IN_A,
    "WWWWWBBBBBKK/-/-/-/-/-/-/-/-/-/-/- b 0",
    "WWBBK/WB/-/-/WBBK/-/W/-/-/-/-/- w 0",
    "WWWWBBBKK/W/B/B/-/-/-/-/-/-/-/- b 0",
    "-/-/-/-/-/-/-/-/-/-/-/WWWWWBBBBBKK b 0",
]


@pytest.mark.parametrize("text", CROWDED)
def test_random_games_from_crowded_positions_agree(text: str) -> None:
    """Random games from positions with big mixed slots, engine against reference at every ply
    (the differential test starts from the start position, where slots stay small)."""
    for seed in range(20):
        rng = random.Random(seed)
        native, ref = glacier.from_text(GAME, text, max_plies=40), reference.from_text(GAME, text, max_plies=40)
        while True:
            assert native.text() == ref.text()
            assert native.hash() == ref.hash() == native._hash_from_scratch()
            legal = native.legal_moves()
            assert legal == ref.legal_moves() and len(legal) == native.perft(1)
            assert native.returns() == ref.returns()
            if not legal:
                break
            move = rng.choice(legal)
            native.play(move)
            ref.play(move)


def test_every_sowing_of_twelve_pieces_agrees() -> None:
    native, ref = glacier.from_text(GAME, ALL_IN_A), reference.from_text(GAME, ALL_IN_A)
    moves = native.legal_moves()
    assert moves == ref.legal_moves()
    for move in moves[::5]:
        native.play(move)
        ref.play(move)
        assert native.text() == ref.text()
        assert native.hash() == ref.hash() == native._hash_from_scratch()
        # The last piece, a White cube, always lands back in a: a holds exactly one W.
        assert native.text().startswith("W/")
        native.undo()
        ref.undo()


# --- pictures -----------------------------------------------------------------------------


def test_a_full_cup_of_twelve_stays_inside_it() -> None:
    state = glacier.from_text(GAME, "WWWWWBBBBBKK/-/-/-/-/-/-/-/-/-/-/- b 9")
    for flipped in (False, True):
        root = tree(render(state, flipped=flipped))
        cups = {el.get("data-slot"): el for el in elements(root, "rect", "cup")}
        cup = cups["a"]
        x0, y0 = float(cup.get("x", "")), float(cup.get("y", ""))
        cubes = elements(root, "rect", "cube")
        assert sorted(c.get("data-kind", "") for c in cubes) == sorted("WWWWWBBBBBKK")
        for cube in cubes:
            x, y, size = (float(cube.get(k, "")) for k in ("x", "y", "width"))
            assert x0 + 4 <= x and x + size <= x0 + drawing.CUP - 4
            assert y0 + 4 <= y and y + size <= y0 + drawing.CUP - 4
        assert elements(root, "path", "sowing") and len(elements(root, "polygon", "sowing")) == 10


def test_cubes_fill_their_cup() -> None:
    for count in range(1, 13):
        columns, rows, side = drawing.cube_layout(count)
        assert columns * rows >= count
        used = max(columns, rows) * side
        assert used >= (drawing.CUP - 2 * drawing.CUP_PAD) * 0.75 or side == 34.0


# --- hooks of the generic tests (tests/test_actions.py) -------------------------------------


def _common_prefix(texts: list[str]) -> str:
    """The longest text every one of ``texts`` begins with."""
    first, last = min(texts), max(texts)
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return first[:n]


def check_action_meaning(state: Any, name: str, after: list[str], where: str) -> None:
    """``slot k`` picks the cup sown, and each later action the piece dropped next."""
    before = state.legal_moves()
    if name.startswith("slot "):
        assert not state.pending_actions, where
        assert all(move.startswith(name[-1] + ":") for move in after), where
    else:
        # At a choice the open moves share their first drops and part at the next one.
        done = len(_common_prefix([move[2:] for move in before]))
        assert all(move[2 + done] == name[-1] for move in after), where


def to_move_planes(players: int) -> set[int]:
    """The observation planes that say who is to move."""
    return {9}


# --- scenarios of the play and web tests (tests/test_play.py, test_serve_api.py, -------------
# --- test_serve_browser.py) -------------------------------------------------------------------

#: Finished positions and how glacier.play tells their end.
PLAY_ENDS = (("-/-/-/B/WKK/B/WBB/WW/-/-/-/WB w 16", {}, "White wins: White controls every cup holding a King"),)

#: From this position White's sowing of cup d chooses its drops (B or K first).
SOWING = "W/W/W/WBK/-/W/-/B/B/K/B/B w 0"


def play_scenario(run: Any) -> None:
    """A game ended by the ply limit says how many cups each side controls."""
    from glacier import play as playing

    state = glacier.new_game(GAME, max_plies=1)
    state.play(state.legal_moves()[0])
    assert state.is_terminal()
    reason = playing.end_reason(state)
    assert reason is not None and reason.startswith("the ply limit") and "cups" in reason
    assert playing.seat_notes(glacier.new_game(GAME)) == ["controls 5 cups", "controls 5 cups"]


def serve_api_scenario(api: Any) -> None:
    """A sowing step by step: the cup, then each drop where there is a choice."""
    from glacier.web.session import gesture

    assert gesture(GAME, "slot d") == ("cell", "d")
    assert gesture(GAME, "drop K") == ("choice",)
    view = api.new(game=GAME, position=SOWING, seats=["human", "human"])
    game_id = view["id"]
    assert view["clickable"]["cells"] == {"a": 0, "b": 1, "c": 2, "d": 3, "f": 5}
    view = api.post(game_id, "action", action=3)
    assert view["pending"] == ["slot d"] and view["ply"] == 0
    assert [c["text"] for c in view["clickable"]["choices"]] == ["drop B", "drop K"]
    # Each drop says what falls into which cup, the one after the cups sown so far.
    assert [(c["label"], c["cells"]) for c in view["clickable"]["choices"]] == [
        ("drop a Black cube into cup e", ["e"]),
        ("drop a King Kube into cup e", ["e"]),
    ]
    view = api.post(game_id, "undo")  # takes back the unfinished move
    assert view["pending"] == [] and view["clickable"]["cells"]["d"] == 3
    api.post(game_id, "action", action=3)
    view = api.post(game_id, "action", action=14)
    assert view["ply"] == 1 and [m["move"] for m in view["moves"]] == ["d:KBW"]
    state = glacier.from_text(GAME, SOWING)
    state.play("d:KBW")
    assert view["text"] == state.text()


def browser_scenario(table: Any) -> None:
    """A sowing with a chosen drop, to the ply limit."""
    from glacier import play as playing

    page = table.start(GAME, SOWING, {"max_plies": 2})
    page.click(page.cell("d"))
    assert page.choices() == ["drop B", "drop K"]
    # Each drop says what falls where, the cup marked.
    assert page.labels() == ["drop a Black cube into cup e", "drop a King Kube into cup e"]
    assert page.acted_on() == {"e"}
    page.screenshot()
    page.choose("drop K")
    page.played("d:KBW")
    page.computer_replies()
    assert page.mine.is_terminal()
    assert page.status() == playing.result_text(page.mine)
    assert "the ply limit" in page.status()


# --- searches (tests/test_search.py) ----------------------------------------------------------


#: Positions whose best move is forced, with that move: name -> (text, params, move).
FORCED_MOVES = {
    # White's cube from b lands on the lone King in c: White then holds both King slots.
    "Ice Cube Checkers winning sow": ("W/W/K/WK/W/W/B/B/B/B/B/- w 10", {}, "b:W"),
}


# --- the command line and pictures (tests/test_cli_and_pictures.py) ---------------------------


#: The names of the slots, each drawn with its name.
CELL_NAMES = set("abcdefghijkl")

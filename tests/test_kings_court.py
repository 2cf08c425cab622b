"""King's Court, hand-verified positions for every rule (RULINGS.md section 4), on both
implementations.

Every expected move list and position text below was worked out by hand from the rules
(the reasoning is in the comments), not copied from either implementation. Boards are
written in the position text: rank 8 first, `R` Red, `G` Green, digits for empty squares;
the Center Court is c3-f6.
"""

from __future__ import annotations

from typing import Any

import pytest

from glacier.errors import IllegalMoveError, InvalidPositionError

START = "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r 0"
GAME = "kings_court"


def court_squares() -> set[str]:
    return {f + r for f in "cdef" for r in "3456"}


# --- the start and the two opening plies --------------------------------------------------


def test_start(impl: Any) -> None:
    state = impl.new_game(GAME)
    assert state.text() == START
    assert state.num_players == 2 and state.current_player == 0
    assert state.params == {"max_plies": 300}
    # Red's rank-2 pieces are on b2, d2, f2, h2; b3 and h3 are full, d3 and f3 empty.
    assert state.legal_moves() == ["d2-d3", "f2-f3"]


def test_opening_plies(impl: Any) -> None:
    state = impl.new_game(GAME)
    state.play("d2-d3")
    # Green has no piece in the Court now, but the Court rule starts after the opening.
    assert state.text() == "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG1R2RG/GRG1GRGR/RGRGRGRG g 1"
    assert not state.is_terminal() and state.current_player == 1
    # Green's rank-7 pieces are on b7, d7, f7, h7; only d6 and f6 below them are empty.
    assert state.legal_moves() == ["d7-d6", "f7-f6"]
    state.play("d7-d6")
    assert state.text() == "GRGRGRGR/RGR1RGRG/GR1G2GR/RG4RG/GR4GR/RG1R2RG/GRG1GRGR/RGRGRGRG r 2"


def test_first_move_after_the_opening(impl: Any) -> None:
    """After d2-d3 d7-d6 Red has 27 moves, counted by hand.

    Steps (13): d3 is Red's only Court piece, so it may step to c3, d4, e3 but not back to
    d2; other pieces step onto the empty c4 (b4), f3 (f2, g3), f5 (g5), c6 (b6, c7), e6
    (e7), d7 (c7, d8, e7).
    Jumps (14): single jumps a3xc3 (over b3), c1xc3 (c2), e1xe3 (e2), h4xf4 (g4), a5xc5
    (b5), h6xf6 (g6), f8xf6 (f7), b2xd2 (c2), f2xd2 (e2); chains continue over the Red d3
    to e3 or c3, or to d4: a3xc3xe3, c1xc3xe3, e1xe3xc3, b2xd2xd4, f2xd2xd4.
    """
    state = impl.new_game(GAME)
    state.play("d2-d3")
    state.play("d7-d6")
    assert state.legal_moves() == [
        "a3xc3", "a3xc3xe3", "a5xc5", "b2xd2", "b2xd2xd4", "b4-c4", "b6-c6", "c1xc3",
        "c1xc3xe3", "c7-c6", "c7-d7", "d3-c3", "d3-d4", "d3-e3", "d8-d7", "e1xe3",
        "e1xe3xc3", "e7-d7", "e7-e6", "f2-f3", "f2xd2", "f2xd2xd4", "f8xf6", "g3-f3",
        "g5-f5", "h4xf4", "h6xf6",
    ]  # fmt: skip
    # b2xd2xd4 jumps the Green c2 (removed) and the Red d3 (stays).
    state.play("b2xd2xd4")
    assert state.text() == "GRGRGRGR/RGR1RGRG/GR1G2GR/RG4RG/GR1R2GR/RG1R2RG/G3GRGR/RGRGRGRG g 3"


@pytest.mark.parametrize(
    ("moves", "bad", "message"),
    [
        ([], "d2xd4", "no jumps in the two opening plies"),
        ([], "a1-a2", "must step a piece from rank 2 onto rank 3"),
        ([], "b2-b3", "b3 is not empty"),
        ([], "d2-c2", "must step a piece from rank 2 onto rank 3"),
        (["d2-d3"], "d3-d4", "no Green piece on d3"),
        (["d2-d3"], "d7xd5", "no jumps in the two opening plies"),
        (["d2-d3"], "b7-b6", "b6 is not empty"),
        (["d2-d3"], "f6-f5", "no Green piece on f6"),
        (["d2-d3"], "d8-d7", "no Green piece on d8"),
        (["d2-d3"], "e8-d8", "a step goes one square|rank 7 onto rank 6"),
    ],
)
def test_opening_rejects(impl: Any, moves: list[str], bad: str, message: str) -> None:
    state = impl.new_game(GAME)
    for move in moves:
        state.play(move)
    before = state.text()
    with pytest.raises(IllegalMoveError, match=message):
        state.play(bad)
    assert state.text() == before


# --- jump chains --------------------------------------------------------------------------

# Red c3 and d5 (both in the Court), Green c4, e4, f6.
TURNING = "8/8/5G2/3R4/2G1G3/2R5/8/8 r 10"


def test_turning_chain_over_own_and_enemy_pieces(impl: Any) -> None:
    state = impl.from_text(GAME, TURNING)
    # c3 jumps the Green c4 to c5, turns over its own d5 to e5, turns again over the Green
    # e4 to e3; every prefix of the chain is a move too. d5 can step to four empty squares.
    assert state.legal_moves() == [
        "c3-b3", "c3-c2", "c3-d3", "c3xc5", "c3xc5xe5", "c3xc5xe5xe3",
        "d5-c5", "d5-d4", "d5-d6", "d5-e5",
    ]  # fmt: skip
    state.play("c3xc5xe5xe3")
    # Both Green pieces jumped are gone, the Red d5 jumped stays, the mover is on e3.
    assert state.text() == "8/8/5G2/3R4/8/4R3/8/8 g 11"
    assert not state.is_terminal()  # Green keeps f6 in the Court


def test_stopping_early_captures_only_what_was_jumped(impl: Any) -> None:
    state = impl.from_text(GAME, TURNING)
    state.play("c3xc5")
    assert state.text() == "8/8/5G2/2RR4/4G3/8/8/8 g 11"


# Red c3, c4, d3; Green d5, e4: a ring of four landings c3-c5-e5-e3 around d4.
RING = "8/8/8/3G4/2R1G3/2RR4/8/8 r 5"


def test_a_chain_may_not_return_to_its_start(impl: Any) -> None:
    state = impl.from_text(GAME, RING)
    # Around the ring either way, but never back onto c3. c4 can jump its own c3 to c2, d3
    # its own c3 to b3.
    assert state.legal_moves() == [
        "c3-b3", "c3-c2", "c3xc5", "c3xc5xe5", "c3xc5xe5xe3", "c3xe3", "c3xe3xe5",
        "c3xe3xe5xc5", "c4-b4", "c4-c5", "c4-d4", "c4xc2", "d3-d2", "d3-d4", "d3-e3", "d3xb3",
    ]  # fmt: skip
    for loop in ("c3xc5xe5xe3xc3", "c3xe3xe5xc5xc3"):
        with pytest.raises(IllegalMoveError, match="lands on c3 a second time"):
            state.play(loop)
    assert state.text() == RING


def test_two_paths_to_the_same_square_are_two_moves(impl: Any) -> None:
    via_c5 = impl.from_text(GAME, RING)
    via_e3 = impl.from_text(GAME, RING)
    via_c5.play("c3xc5xe5")  # over the Red c4 and the Green d5
    via_e3.play("c3xe3xe5")  # over the Red d3 and the Green e4
    assert via_c5.text() == "8/8/8/4R3/2R1G3/3R4/8/8 g 6"
    assert via_e3.text() == "8/8/8/3GR3/2R5/3R4/8/8 g 6"
    assert via_c5.hash() != via_e3.hash()


def test_jumping_your_own_piece_removes_nothing(impl: Any) -> None:
    state = impl.from_text(GAME, RING)
    state.play("c4xc2")
    assert state.text() == "8/8/8/3G4/4G3/2RR4/2R5/8 g 6"


# Green h8, d5, e4, c2; Red c1, c4, d3: from c1 a jump over c2 to c3, then the ring.
LOLLIPOP = "7G/8/8/3G4/2R1G3/3R4/2G5/2R5 r 7"


def test_a_chain_may_not_return_to_an_earlier_landing(impl: Any) -> None:
    state = impl.from_text(GAME, LOLLIPOP)
    assert [m for m in state.legal_moves() if m.startswith("c1")] == [
        "c1-b1", "c1-d1", "c1xc3", "c1xc3xc5", "c1xc3xc5xe5", "c1xc3xc5xe5xe3",
        "c1xc3xe3", "c1xc3xe3xe5", "c1xc3xe3xe5xc5",
    ]  # fmt: skip
    with pytest.raises(IllegalMoveError, match="lands on c3 a second time"):
        state.play("c1xc3xe3xe5xc5xc3")


def test_a_win_by_emptying_the_opponents_court(impl: Any) -> None:
    state = impl.from_text(GAME, LOLLIPOP)
    # Jumps c2, d3 (own), e4, d5: Green's three Court-side pieces go; h8 is outside.
    state.play("c1xc3xe3xe5xc5")
    assert state.text() == "7G/8/8/2R5/2R5/3R4/8/8 g 8"
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [1.0, -1.0]
    assert state.current_player == 1  # the turn passes on to the loser
    # Read as text, the same position is judged a win for Red at once.
    again = impl.from_text(GAME, state.text())
    assert again.is_terminal() and again.returns() == [1.0, -1.0]


def test_chain_may_leave_the_court_and_come_back(impl: Any) -> None:
    # Red's only piece, c3, is its only Court piece: a move must end in the Court, but the
    # landings on the way (a3, a5) may lie outside it.
    state = impl.from_text(GAME, "8/8/5G2/1G6/G7/1GR5/8/8 r 9")
    assert state.legal_moves() == ["c3-c4", "c3-d3", "c3xa3xa5xc5"]
    for bad in ("c3xa3", "c3xa3xa5", "c3-c2"):
        with pytest.raises(IllegalMoveError, match="no piece in the Center Court"):
            state.play(bad)
    state.play("c3xa3xa5xc5")
    assert state.text() == "8/8/5G2/2R5/8/8/8/8 g 10"
    # Green's only piece, f6, must stay in the Court: f6-f7 and f6-g6 are illegal.
    assert state.legal_moves() == ["f6-e6", "f6-f5"]


def test_the_longest_chains_have_15_jumps(impl: Any) -> None:
    # Every square with file + rank odd is full (Red on the odd files, Green on the even
    # ones) and the 4x4 sublattice of a1 is empty but for the Red a1: every jump is open,
    # so the chains from a1 are the self-avoiding walks of the 4x4 grid from a corner. The
    # longest visit all 16 squares: 15 jumps, and there are 52 such Hamiltonian paths from
    # a corner of the 4x4 grid (OEIS A096969).
    state = impl.from_text(GAME, "G1G1G1G1/1R1R1R1R/G1G1G1G1/1R1R1R1R/G1G1G1G1/1R1R1R1R/G1G1G1G1/RR1R1R1R r 10")
    chains = [m for m in state.legal_moves() if m.startswith("a1x")]
    longest = [m for m in chains if m.count("x") == 15]
    assert len(longest) == 52
    assert max(m.count("x") for m in state.legal_moves()) == 15
    # Up and down the files: every vertical jump takes a Green piece of ranks 2, 4, 6, every
    # sideways jump goes over a Red piece of rank 7 or 1, which stays. Green keeps only
    # rank 8, outside the Court: Red wins.
    state.play("a1xa3xa5xa7xc7xc5xc3xc1xe1xe3xe5xe7xg7xg5xg3xg1")
    assert state.text() == "G1G1G1G1/1R1R1R1R/8/1R1R1R1R/8/1R1R1R1R/8/1R1R1RRR g 11"
    assert state.returns() == [1.0, -1.0]


# --- the Court rule ---------------------------------------------------------------------


def test_leaving_the_court_without_another_piece_there(impl: Any) -> None:
    state = impl.from_text(GAME, "7G/8/5G2/8/8/2R5/8/R7 r 20")
    # c3 is Red's only Court piece: it may not step to b3 or c2; a1 moves freely.
    assert state.legal_moves() == ["a1-a2", "a1-b1", "c3-c4", "c3-d3"]
    with pytest.raises(IllegalMoveError, match="leave Red with no piece in the Center Court"):
        state.play("c3-b3")


def test_leaving_the_court_with_another_piece_there(impl: Any) -> None:
    state = impl.from_text(GAME, "7G/8/5G2/4R3/8/2R5/8/R7 r 20")
    assert state.legal_moves() == [
        "a1-a2", "a1-b1", "c3-b3", "c3-c2", "c3-c4", "c3-d3", "e5-d5", "e5-e4", "e5-e6", "e5-f5",
    ]  # fmt: skip
    state.play("c3-b3")
    assert state.text() == "7G/8/5G2/4R3/8/1R6/8/R7 g 21"


def test_every_move_ends_in_the_court_when_none_is_there(impl: Any) -> None:
    # Ply count 2: the two opening plies are done (here Red's step is missing from the
    # board, which a text may show). The opening ply that led here did not check the Court
    # rule, so Red has not lost: it must move into the Court.
    text = "GRGRGRGR/RGR1RGRG/GR1G2GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r 2"
    state = impl.from_text(GAME, text)
    assert not state.is_terminal()
    moves = state.legal_moves()
    assert "d2-d3" in moves and "b4-c4" in moves
    assert all(m[-2:] in court_squares() for m in moves)
    with pytest.raises(IllegalMoveError, match="no piece in the Center Court"):
        state.play("d8-d7")
    # At ply count 3 the same board means Green's last move left Red without a Court
    # piece: Green has won.
    later = impl.from_text(GAME, text[:-1] + "3")
    assert later.is_terminal() and later.returns() == [-1.0, 1.0]


# --- the end of the game ------------------------------------------------------------------


def test_a_player_with_no_legal_move_loses(impl: Any) -> None:
    # Green's only piece, d4, is in the Court. After e3-e4 its four neighbours and the four
    # squares beyond them are full: no step, no jump.
    state = impl.from_text(GAME, "8/8/3R4/3R4/1RRG1R2/3RR3/3R4/8 r 30")
    state.play("e3-e4")
    assert state.text() == "8/8/3R4/3R4/1RRGRR2/3R4/3R4/8 g 31"
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [1.0, -1.0]
    assert impl.from_text(GAME, state.text()).returns() == [1.0, -1.0]


def test_no_legal_opening_step_loses(impl: Any) -> None:
    # All 24 of each; Green fills c3-f3, so every Red piece on rank 2 is blocked.
    state = impl.from_text(GAME, "1R1R1R1R/RGRGRGRG/GR4GR/RG4RG/GR4GR/RGGGGGRG/GRGRGRGR/RGRGRGRG r 0")
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [-1.0, 1.0]


def test_ply_limit_is_a_draw(impl: Any) -> None:
    state = impl.new_game(GAME, max_plies=1)
    state.play("d2-d3")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.text() == "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG1R2RG/GRG1GRGR/RGRGRGRG g 1"
    # A text at or past the limit is a finished draw.
    assert impl.from_text(GAME, TURNING, max_plies=10).returns() == [0.0, 0.0]
    assert impl.from_text(GAME, TURNING, max_plies=11).legal_moves()


def test_a_win_on_the_last_ply_counts(impl: Any) -> None:
    win = impl.from_text(GAME, LOLLIPOP, max_plies=8)
    win.play("c1xc3xe3xe5xc5")
    assert win.returns() == [1.0, -1.0]
    quiet = impl.from_text(GAME, LOLLIPOP, max_plies=8)
    quiet.play("c1-b1")
    assert quiet.is_terminal() and quiet.returns() == [0.0, 0.0]


def test_ply_limit_comes_before_the_player_who_cannot_move(impl: Any) -> None:
    state = impl.from_text(GAME, "8/8/3R4/3R4/1RRG1R2/3RR3/3R4/8 r 30", max_plies=31)
    state.play("e3-e4")
    assert state.returns() == [0.0, 0.0]


# --- hash ---------------------------------------------------------------------------------


def test_hash_depends_on_side_and_opening_phase_only(impl: Any) -> None:
    red = impl.from_text(GAME, "7G/8/5G2/4R3/8/2R5/8/R7 r 20")
    green = impl.from_text(GAME, "7G/8/5G2/4R3/8/2R5/8/R7 g 20")
    assert red.hash() != green.hash()
    # Past the opening the ply count is not hashed ...
    assert red.hash() == impl.from_text(GAME, "7G/8/5G2/4R3/8/2R5/8/R7 r 3").hash()
    assert red.hash() == impl.from_text(GAME, "7G/8/5G2/4R3/8/2R5/8/R7 r 21").hash()
    both_in = "GRGRGRGR/RGR1RGRG/GR1G2GR/RG4RG/GR4GR/RG1R2RG/GRG1GRGR/RGRGRGRG"  # after d2-d3 d7-d6
    assert impl.from_text(GAME, f"{both_in} r 2").hash() == impl.from_text(GAME, f"{both_in} r 4").hash()
    # ... but "opening ply 1", "opening ply 2" and "later" differ.
    start = START.split(" ")[0]
    assert impl.from_text(GAME, f"{start} r 0").hash() != impl.from_text(GAME, f"{start} r 2").hash()
    red_in = "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG1R2RG/GRG1GRGR/RGRGRGRG"  # after d2-d3
    assert impl.from_text(GAME, f"{red_in} g 1").hash() != impl.from_text(GAME, f"{red_in} g 3").hash()


def test_hash_is_the_same_however_the_position_is_reached(impl: Any) -> None:
    a = impl.new_game(GAME)
    for move in ("d2-d3", "d7-d6", "f2-f3", "f7-f6"):
        a.play(move)
    # The other order: f2-f3 and f7-f6 as the opening plies, then plain steps.
    b = impl.new_game(GAME)
    for move in ("f2-f3", "f7-f6", "d2-d3", "d7-d6"):
        b.play(move)
    assert a.text() == b.text() == "GRGRGRGR/RGR1R1RG/GR1G1GGR/RG4RG/GR4GR/RG1R1RRG/GRG1G1GR/RGRGRGRG r 4"
    assert a.hash() == b.hash()


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r", "3 fields"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG  r 0", "3 fields"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r 0 0", "3 fields"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR r 0", "8 ranks"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG/8 r 0", "8 ranks"),
        ("GRGRGRGR/RGRGRGRG/GR13GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r 0", "two digits"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRGR r 0", "9 squares, not 8"),
        ("GRGRGRGR/RGRGRGRG/GR3GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r 0", "7 squares, not 8"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRGRG r 0", "10 squares"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RX/GRGRGRGR/RGRGRGRG r 0", "unexpected 'X'"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4Rg/GRGRGRGR/RGRGRGRG r 0", "unexpected 'g'"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG0R4RG/GRGRGRGR/RGRGRGRG r 0", "unexpected '0'"),
        ("8/8/8/8/8/8/8/9 r 5", "unexpected '9'"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG w 0", "side to move must be 'r' or 'g'"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG R 0", "side to move"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r -1", "ply count"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r 01", "ply count"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r +1", "ply count"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r 4294967296", "ply count"),
        ("RRRRRRRR/RRRRRRRR/RRRRRRRR/R7/8/8/8/8 r 5", "25 Red pieces: a side has at most 24"),
        ("GGGGGGGG/GGGGGGGG/GGGGGGGG/GG6/8/8/8/8 r 5", "26 Green pieces"),
        # Nothing can be captured in the opening: at ply counts 0-2 all 48 pieces are there.
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGR1 r 0", "23 Green pieces at ply count 0"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/1GRGRGRG g 1", "23 Red pieces at ply count 1"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/1GRGRGRG r 2", "23 Red pieces at ply count 2"),
        # The side to move must match the opening ply.
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG g 0", "at ply count 0 Red is to move"),
        ("GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG1R2RG/GRG1GRGR/RGRGRGRG r 1", "at ply count 1 Green is to move"),
        # From ply count 3 on, the player who just moved must have kept a Court piece.
        ("R7/8/8/8/8/8/8/7G r 5", "neither side has a piece in the Center Court"),
        ("R7/8/8/3G4/8/8/8/8 g 5", "Red has no piece in the Center Court"),
        ("R7/8/8/3G4/8/8/8/8 g 3", "Red has no piece in the Center Court"),
    ],
)
def test_bad_texts(impl: Any, text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        impl.from_text(GAME, text)


def test_texts_that_are_accepted(impl: Any) -> None:
    # Past the opening either side may be to move, whatever the parity of the ply count.
    assert impl.from_text(GAME, "7G/8/5G2/4R3/8/2R5/8/R7 g 20").current_player == 1
    # Fewer than 24 pieces after the opening; no pieces at all of the side that lost.
    assert impl.from_text(GAME, "R7/8/8/3R4/8/8/8/8 g 5").returns() == [1.0, -1.0]
    # At ply count 2 nothing is judged from the Court yet (see the Court-rule tests).
    placement = "GRGRGRGR/RGR1RGRG/GR1G2GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG"
    assert not impl.from_text(GAME, f"{placement} r 2").is_terminal()
    # Every text written reads back to the same state.
    for text in (START, TURNING, RING, LOLLIPOP):
        assert impl.from_text(GAME, text).text() == text


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("", "not a King's Court move"),
        ("c3", "not a King's Court move"),
        ("c3c4", "not a King's Court move"),
        ("c3-", "not a King's Court move"),
        ("c3--c4", "not a King's Court move"),
        ("c3-c4-c5", "not a King's Court move"),
        ("c3xc5-e5", "not a King's Court move"),
        ("c3-c4xc5", "not a King's Court move"),
        ("C3-C4", "not a King's Court move"),
        ("i3-i4", "not a King's Court move"),
        ("c9-c8", "not a King's Court move"),
        ("c3 -c4", "not a King's Court move"),
        ("a1-a2", "no Red piece on a1"),
        ("e4-e5", "no Red piece on e4"),
        ("c3-c5", "a step goes one square"),
        ("c3-d4", "a step goes one square"),
        ("c4-c3", "c3 is not empty"),
        ("c3xc6", "c3 to c6 is not a jump"),
        ("c3xd4", "c3 to d4 is not a jump"),
        ("c3xa3", "no piece on b3 to jump over"),
        ("c4xc6", "no piece on c5 to jump over"),
        ("d3xd5", "no piece on d4 to jump over"),
        ("c3xe3xe5xc5xc3", "lands on c3 a second time"),
        ("c3xc5xc3", "lands on c3 a second time"),
        ("c3xc5xe5xe3xc3xc5", "lands on c3 a second time"),
    ],
)
def test_bad_moves_leave_the_state_unchanged(impl: Any, move: str, message: str) -> None:
    state = impl.from_text(GAME, RING)
    with pytest.raises(IllegalMoveError, match=message):
        state.play(move)
    assert state.text() == RING and state.moves == []


def test_landing_square_must_be_empty(impl: Any) -> None:
    # d3 would jump its own c3 towards b3, but a Green piece stands there.
    state = impl.from_text(GAME, "8/8/8/3G4/2R1G3/1GRR4/8/8 r 5")
    assert "d3xb3" not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="landing square b3 is not empty"):
        state.play("d3xb3")


def test_board_string(impl: Any) -> None:
    text = str(impl.new_game(GAME))
    assert "Red to move" in text and "a b c d e f g h" in text
    assert "3  R G : : : : R G" in text  # empty Court squares are drawn as ':'
    assert "2  G R G R G R G R" in text

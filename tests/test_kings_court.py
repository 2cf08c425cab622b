"""King's Court, hand-verified positions for every rule of docs/rules/kings_court.md, on both
implementations.

Every expected move list and position text below was worked out by hand from the rules
(the reasoning is in the comments), not copied from either implementation. Boards are
written in the position text: rank 8 first, `R` Red, `G` Green, digits for empty squares;
the Center Court is c3-f6. At the start the ring of 16 squares beside the Court holds, side
by side: on rank 2 (c2-f2) Green c2 e2 and Red d2 f2; on rank 7 (c7-f7) Red c7 e7 and Green
d7 f7; on file b (b3-b6) Green b3 b5 and Red b4 b6; on file g (g3-g6) Red g3 g5 and Green g4
g6.
"""

from __future__ import annotations

from typing import Any

import pytest

from glacier.errors import IllegalMoveError, InvalidPositionError
from glacier.svg import kings_court as drawing
from svg_checks import MACHADO, delta_e, lab, linear_rgb, simulate

START = "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r 0"
GAME = "kings_court"
#: After d2-d3, then after d2-d3 d7-d6.
RED_IN = "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG1R2RG/GRG1GRGR/RGRGRGRG"
BOTH_IN = "GRGRGRGR/RGR1RGRG/GR1G2GR/RG4RG/GR4GR/RG1R2RG/GRG1GRGR/RGRGRGRG"


# --- the start and the two opening plies --------------------------------------------------


def test_start(impl: Any) -> None:
    state = impl.new_game(GAME)
    assert state.text() == START
    assert state.num_players == 2 and state.current_player == 0
    assert state.params == {"max_plies": 300}
    # Red's eight ring pieces each step onto the Court square beside them: d2 and f2 up,
    # c7 and e7 down, b4 and b6 right, g3 and g5 left (c6 and f3 are reached from two sides).
    assert state.legal_moves() == ["b4-c4", "b6-c6", "c7-c6", "d2-d3", "e7-e6", "f2-f3", "g3-f3", "g5-f5"]


@pytest.mark.parametrize(
    ("red", "after_red", "green", "after_green"),
    [
        # From rank 2: Green answers from rank 7, with d7 or f7.
        ("d2-d3", RED_IN, ["d7-d6", "f7-f6"], BOTH_IN),
        ("f2-f3", "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG3RRG/GRGRG1GR/RGRGRGRG", ["d7-d6", "f7-f6"], None),
        # From rank 7: Green answers from rank 2, with c2 or e2.
        (
            "c7-c6",
            "GRGRGRGR/RG1GRGRG/GRR3GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG",
            ["c2-c3", "e2-e3"],
            "GRGRGRGR/RG1GRGRG/GRR3GR/RG4RG/GR4GR/RGG3RG/GR1RGRGR/RGRGRGRG",
        ),
        ("e7-e6", "GRGRGRGR/RGRG1GRG/GR2R1GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG", ["c2-c3", "e2-e3"], None),
        # From file b: Green answers from file g, with g4 or g6.
        (
            "b6-c6",
            "GRGRGRGR/RGRGRGRG/G1R3GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG",
            ["g4-f4", "g6-f6"],
            "GRGRGRGR/RGRGRGRG/G1R3GR/RG4RG/GR3G1R/RG4RG/GRGRGRGR/RGRGRGRG",
        ),
        ("b4-c4", "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/G1R3GR/RG4RG/GRGRGRGR/RGRGRGRG", ["g4-f4", "g6-f6"], None),
        # From file g: Green answers from file b, with b3 or b5.
        (
            "g3-f3",
            "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG3R1G/GRGRGRGR/RGRGRGRG",
            ["b3-c3", "b5-c5"],
            "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/R1G2R1G/GRGRGRGR/RGRGRGRG",
        ),
        ("g5-f5", "GRGRGRGR/RGRGRGRG/GR4GR/RG3R1G/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG", ["b3-c3", "b5-c5"], None),
    ],
)
def test_an_entry_from_each_side_and_greens_reply_from_the_opposite_one(
    impl: Any, red: str, after_red: str, green: list[str], after_green: Any
) -> None:
    state = impl.new_game(GAME)
    state.play(red)
    # Green has no piece in the Court now, but the Court rule starts after the opening.
    assert state.text() == f"{after_red} g 1"
    assert not state.is_terminal() and state.current_player == 1
    assert state.legal_moves() == green
    # The same position read from its text has the same replies.
    assert impl.from_text(GAME, state.text()).legal_moves() == green
    state.play(green[1] if after_green is None else green[0])
    assert state.current_player == 0 and not state.is_terminal()
    if after_green is not None:
        assert state.text() == f"{after_green} r 2"


def test_first_move_after_the_opening(impl: Any) -> None:
    """After d2-d3 d7-d6 Red has 28 moves, counted by hand.

    Steps (14): d3 steps to c3, d4, e3 and back to d2 (legal, but it leaves Red without a
    Court piece: Red loses); other pieces step onto the empty c4 (b4), f3 (f2, g3), f5 (g5),
    c6 (b6, c7), e6 (e7), d7 (c7, d8, e7).
    Jumps (14): single jumps a3xc3 (over b3), c1xc3 (c2), e1xe3 (e2), h4xf4 (g4), a5xc5
    (b5), h6xf6 (g6), f8xf6 (f7), b2xd2 (c2), f2xd2 (e2); chains continue over the Red d3
    to e3 or c3, or to d4: a3xc3xe3, c1xc3xe3, e1xe3xc3, b2xd2xd4, f2xd2xd4.
    """
    state = impl.from_text(GAME, f"{BOTH_IN} r 2")
    assert state.legal_moves() == [
        "a3xc3", "a3xc3xe3", "a5xc5", "b2xd2", "b2xd2xd4", "b4-c4", "b6-c6", "c1xc3",
        "c1xc3xe3", "c7-c6", "c7-d7", "d3-c3", "d3-d2", "d3-d4", "d3-e3", "d8-d7", "e1xe3",
        "e1xe3xc3", "e7-d7", "e7-e6", "f2-f3", "f2xd2", "f2xd2xd4", "f8xf6", "g3-f3",
        "g5-f5", "h4xf4", "h6xf6",
    ]  # fmt: skip
    # b2xd2xd4 jumps the Green c2 (removed) and the Red d3 (stays).
    state.play("b2xd2xd4")
    assert state.text() == "GRGRGRGR/RGR1RGRG/GR1G2GR/RG4RG/GR1R2GR/RG1R2RG/G3GRGR/RGRGRGRG g 3"
    assert not state.is_terminal()


def test_stepping_out_of_your_only_court_square_loses(impl: Any) -> None:
    state = impl.new_game(GAME)
    for move in ("d2-d3", "d7-d6", "d3-d2"):
        state.play(move)
    # Red's only Court piece went back to d2; Green still has d6: Red has lost at once.
    assert state.text() == "GRGRGRGR/RGR1RGRG/GR1G2GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG g 3"
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [-1.0, 1.0]
    assert impl.from_text(GAME, state.text()).returns() == [-1.0, 1.0]


FIRST = "in the first opening ply Red must step a piece from beside the Court \\(c2-f2, c7-f7, b3-b6 or g3-g6\\)"


def second(side: str) -> str:
    return f"in the second opening ply Green must step a piece from {side}, the side opposite Red's entry"


@pytest.mark.parametrize(
    ("moves", "bad", "message"),
    [
        ([], "d2xd4", "no jumps in the two opening plies"),
        ([], "a1-a2", FIRST),  # not a ring square
        ([], "b2-b3", FIRST),  # b2 is beside the ring, not in it
        ([], "d2-c2", FIRST),  # a ring piece, but not towards the Court
        ([], "d2-d1", FIRST),
        ([], "b4-a4", FIRST),
        ([], "g5-g6", FIRST),
        ([], "c2-c3", "no Red piece on c2"),
        ([], "d2-d4", "a step goes one square"),
        (["d2-d3"], "d3-d4", "no Green piece on d3"),
        (["d2-d3"], "d7xd5", "no jumps in the two opening plies"),
        (["d2-d3"], "c2-c3", second(r"rank 7 \(c7-f7\)")),  # Red's own side
        (["d2-d3"], "b3-c3", second(r"rank 7 \(c7-f7\)")),  # a side next to it
        (["d2-d3"], "g4-f4", second(r"rank 7 \(c7-f7\)")),
        (["d2-d3"], "b7-b6", second(r"rank 7 \(c7-f7\)")),
        (["d2-d3"], "f6-f5", "no Green piece on f6"),
        (["d2-d3"], "d7-d5", "a step goes one square"),
        (["b4-c4"], "d7-d6", second(r"file g \(g3-g6\)")),
        (["g5-f5"], "g4-f4", second(r"file b \(b3-b6\)")),
        (["c7-c6"], "d7-d6", second(r"rank 2 \(c2-f2\)")),
        (["e7-e6"], "d7-d6", second(r"rank 2 \(c2-f2\)")),
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


def test_a_chain_counts_only_where_it_ends(impl: Any) -> None:
    # Red's only piece, c3, is its only Court piece; Green's f6 is in the Court. Every move
    # is legal; where the moving piece ends decides whether Red still has a Court piece.
    text = "8/8/5G2/1G6/G7/1GR5/8/8 r 9"
    state = impl.from_text(GAME, text)
    # c3 steps to c2, c4 or d3 (b3 is full); it jumps b3 to a3, then a4 to a5, then b5 to c5.
    assert state.legal_moves() == ["c3-c2", "c3-c4", "c3-d3", "c3xa3", "c3xa3xa5", "c3xa3xa5xc5"]
    # Landings outside the Court on the way (a3, a5) do not matter: it comes back to c5.
    state.play("c3xa3xa5xc5")
    assert state.text() == "8/8/5G2/2R5/8/8/8/8 g 10"
    assert not state.is_terminal()
    # Green's only piece, f6, may go anywhere, but only f6-e6 and f6-f5 stay in the Court.
    assert state.legal_moves() == ["f6-e6", "f6-f5", "f6-f7", "f6-g6"]
    state.play("f6-f7")
    assert state.text() == "8/5G2/8/2R5/8/8/8/8 r 11"
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_a_jump_out_of_your_only_court_square_loses(impl: Any) -> None:
    state = impl.from_text(GAME, "8/8/5G2/1G6/G7/1GR5/8/8 r 9")
    # c3xa3 takes the Green b3 but lands outside the Court: Red has no Court piece left, Green
    # still has f6, so Red has lost, capture or not.
    state.play("c3xa3")
    assert state.text() == "8/8/5G2/1G6/G7/R7/8/8 g 10"
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [-1.0, 1.0]
    assert impl.from_text(GAME, state.text()).returns() == [-1.0, 1.0]
    state.undo()
    state.play("c3xa3xa5")
    assert state.returns() == [-1.0, 1.0]


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
    # c3 is Red's only Court piece. Every step is legal, b3 and c2 (outside) too.
    assert state.legal_moves() == ["a1-a2", "a1-b1", "c3-b3", "c3-c2", "c3-c4", "c3-d3"]
    state.play("c3-b3")
    # Red has no Court piece left, Green has f6: Red loses at once.
    assert state.text() == "7G/8/5G2/8/8/1R6/8/R7 g 21"
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [-1.0, 1.0]
    assert state.current_player == 1  # the turn passes on, to the winner here


def test_leaving_the_court_with_another_piece_there(impl: Any) -> None:
    state = impl.from_text(GAME, "7G/8/5G2/4R3/8/2R5/8/R7 r 20")
    assert state.legal_moves() == [
        "a1-a2", "a1-b1", "c3-b3", "c3-c2", "c3-c4", "c3-d3", "e5-d5", "e5-e4", "e5-e6", "e5-f5",
    ]  # fmt: skip
    state.play("c3-b3")
    assert state.text() == "7G/8/5G2/4R3/8/1R6/8/R7 g 21"
    assert not state.is_terminal()


# Red e4 and Green f4 are each side's only Court piece; Red a1 and Green h8 wait outside.
LAST_TWO = "7G/8/8/8/4RG2/8/8/R7"


def test_taking_the_last_court_piece_and_landing_outside_is_a_draw(impl: Any) -> None:
    state = impl.from_text(GAME, f"{LAST_TWO} r 20")
    # e4 steps within the Court (d4, e3, e5) or jumps f4 to g4, outside.
    assert state.legal_moves() == ["a1-a2", "a1-b1", "e4-d4", "e4-e3", "e4-e5", "e4xg4"]
    state.play("e4xg4")
    # Green's last Court piece is gone, and Red's left the Court: neither has one, a draw.
    assert state.text() == "7G/8/8/8/6R1/8/8/R7 g 21"
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [0.0, 0.0]
    assert impl.from_text(GAME, state.text()).returns() == [0.0, 0.0]


def test_taking_the_last_court_piece_and_landing_inside_wins(impl: Any) -> None:
    state = impl.from_text(GAME, f"{LAST_TWO} g 20")
    # Green's f4 jumps e4 to d4, in the Court; f4-g4 would leave it.
    assert state.legal_moves() == ["f4-f3", "f4-f5", "f4-g4", "f4xd4", "h8-g8", "h8-h7"]
    win = impl.from_text(GAME, f"{LAST_TWO} g 20")
    win.play("f4xd4")
    assert win.text() == "7G/8/8/8/3G4/8/8/R7 r 21"
    assert win.is_terminal() and win.returns() == [-1.0, 1.0]
    state.play("f4-g4")
    assert state.text() == "7G/8/8/8/4R1G1/8/8/R7 r 21"
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_texts_are_judged_by_the_court_rule_from_the_third_ply_on(impl: Any) -> None:
    # The player not to move made the last move; ply count 3 or more: it was judged.
    assert impl.from_text(GAME, "R7/8/8/3G4/8/8/8/8 g 5").returns() == [-1.0, 1.0]  # Red left it
    assert impl.from_text(GAME, "R7/8/8/3R4/8/8/8/8 g 5").returns() == [1.0, -1.0]  # Green has none
    assert impl.from_text(GAME, "R7/8/8/8/8/8/8/7G r 5").returns() == [0.0, 0.0]  # neither
    assert impl.from_text(GAME, "R7/8/8/8/8/8/8/7G r 3").returns() == [0.0, 0.0]
    # At ply count 3 the board after d2-d3 alone means Green (to move) has no Court piece.
    assert impl.from_text(GAME, f"{RED_IN} g 3").returns() == [1.0, -1.0]
    # The two opening plies are not judged: the same board at ply count 1 goes on.
    assert not impl.from_text(GAME, f"{RED_IN} g 1").is_terminal()


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


def test_ply_limit_is_a_draw(impl: Any) -> None:
    state = impl.new_game(GAME, max_plies=1)
    state.play("d2-d3")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.text() == f"{RED_IN} g 1"
    # A text at or past the limit is a finished draw.
    assert impl.from_text(GAME, TURNING, max_plies=10).returns() == [0.0, 0.0]
    assert impl.from_text(GAME, TURNING, max_plies=11).legal_moves()
    assert impl.new_game(GAME, max_plies=0).returns() == [0.0, 0.0]


def test_a_win_on_the_last_ply_counts(impl: Any) -> None:
    win = impl.from_text(GAME, LOLLIPOP, max_plies=8)
    win.play("c1xc3xe3xe5xc5")
    assert win.returns() == [1.0, -1.0]
    quiet = impl.from_text(GAME, LOLLIPOP, max_plies=8)
    quiet.play("c1-b1")
    assert quiet.is_terminal() and quiet.returns() == [0.0, 0.0]
    # So does a loss by the Court rule.
    loss = impl.from_text(GAME, "7G/8/5G2/8/8/2R5/8/R7 r 20", max_plies=21)
    loss.play("c3-b3")
    assert loss.returns() == [-1.0, 1.0]


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
    assert impl.from_text(GAME, f"{BOTH_IN} r 2").hash() == impl.from_text(GAME, f"{BOTH_IN} r 4").hash()
    # ... but "opening ply 1", "opening ply 2" and "later" differ (the later texts of these
    # boards are finished games, which a text may show).
    start = START.split(" ")[0]
    assert impl.from_text(GAME, f"{start} r 0").hash() != impl.from_text(GAME, f"{start} r 4").hash()
    assert impl.from_text(GAME, f"{RED_IN} g 1").hash() != impl.from_text(GAME, f"{RED_IN} g 3").hash()


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
    # Two entries onto the same Court square from different sides are different positions.
    c, d = impl.new_game(GAME), impl.new_game(GAME)
    c.play("f2-f3")
    d.play("g3-f3")
    assert c.hash() != d.hash() and c.legal_moves() != d.legal_moves()


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
        # At ply counts 0, 1 and 2 the side to move is fixed ...
        (f"{START[:-4]} g 0", r"at ply count 0 Red is to move \(opening ply 1\), not Green"),
        (f"{RED_IN} r 1", r"at ply count 1 Green is to move \(opening ply 2\), not Red"),
        (f"{BOTH_IN} g 2", r"at ply count 2 Red is to move \(the first ply after the opening\), not Green"),
        # ... and the board must be one the opening reaches: at 0 the start itself,
        (f"{RED_IN} r 0", "a position at ply count 0 must be the start, 'GRGRGRGR/"),
        # at 1 the start after one of Red's eight opening steps (not none, not two, not a
        # step from elsewhere or of two squares, and no Green move yet),
        (f"{START[:-4]} g 1", "at ply count 1 Red's pieces must stand as after Red's opening step"),
        (
            "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG1R1RRG/GRG1G1GR/RGRGRGRG g 1",  # d2-d3 and f2-f3
            "at ply count 1 Red's pieces must stand as after Red's opening step",
        ),
        (
            "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR1R2GR/RG4RG/GRG1GRGR/RGRGRGRG g 1",  # d2 to d4
            "at ply count 1 Red's pieces must stand as after Red's opening step",
        ),
        (
            "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG2R1RG/GRG1GRGR/RGRGRGRG g 1",  # d2 to e3
            "at ply count 1 Red's pieces must stand as after Red's opening step",
        ),
        (
            "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/1GR3RG/GRGRGRGR/RGRGRGRG g 1",  # a3 to c3
            "at ply count 1 Red's pieces must stand as after Red's opening step",
        ),
        (f"{BOTH_IN} g 1", "at ply count 1 only Red has moved: Green's pieces must stand as at the start"),
        # and at 2 the start after Red's step and Green's from the opposite side.
        (f"{RED_IN} r 2", r"Green's pieces must stand as after Green's opening step: .* from rank 7 \(c7-f7\)"),
        (f"{START[:-4]} r 2", "at ply count 2 Red's pieces must stand as after Red's opening step"),
        (
            "GRGRGRGR/RGR1RGRG/GR4GR/RG1G2RG/GR4GR/RG1R2RG/GRG1GRGR/RGRGRGRG r 2",  # d2-d3, d7 to d5
            "Green's pieces must stand as after Green's opening step",
        ),
        (
            "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RGGR2RG/GR2GRGR/RGRGRGRG r 2",  # d2-d3 c2-c3
            r"Red entered from rank 2 \(c2-f2\), so Green enters from rank 7 \(c7-f7\), not rank 2 \(c2-f2\)",
        ),
        (
            "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/R1GR2RG/GRG1GRGR/RGRGRGRG r 2",  # d2-d3 b3-c3
            r"so Green enters from rank 7 \(c7-f7\), not file b \(b3-b6\)",
        ),
        (
            "GRGRGRGR/RGRGRGRG/G1R3GR/R1G3RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r 2",  # b6-c6 b5-c5
            r"Red entered from file b \(b3-b6\), so Green enters from file g \(g3-g6\), not file b \(b3-b6\)",
        ),
        (
            "GRGRGRGR/RGR1RGRG/G1RG2GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r 2",  # b6-c6 d7-d6
            r"so Green enters from file g \(g3-g6\), not rank 7 \(c7-f7\)",
        ),
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
    # Every position the opening reaches reads back, with the same moves.
    state = impl.new_game(GAME)
    for red in state.legal_moves():
        state.play(red)
        assert impl.from_text(GAME, state.text()).legal_moves() == state.legal_moves()
        for green in state.legal_moves():
            state.play(green)
            again = impl.from_text(GAME, state.text())
            assert again.text() == state.text() and again.legal_moves() == state.legal_moves()
            state.undo()
        state.undo()
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
    assert "Red to move (opening: a step from beside the Court onto the Court square next to it)" in text
    state = impl.new_game(GAME)
    state.play("g5-f5")
    assert "Green to move (opening: a step from file b (b3-b6) onto the Court square next to it)" in str(state)


def test_both_implementations_draw_the_same_board() -> None:
    import glacier
    from glacier import reference

    for text in (START, f"{RED_IN} g 1", f"{BOTH_IN} r 2", TURNING, f"{LAST_TWO} r 20", "7G/8/8/8/6R1/8/8/R7 g 21"):
        assert str(glacier.from_text(GAME, text)) == str(reference.from_text(GAME, text))


# --- records -------------------------------------------------------------------------------


def test_records_name_the_seats_red_and_green() -> None:
    from glacier import records

    assert records.seat_names(GAME) == ("Red", "Green")


# --- pictures -----------------------------------------------------------------------------


def test_kings_court_colours_are_told_apart_by_colour_blind_players() -> None:
    (red, _), (green, _) = drawing.PIECE_COLOURS["R"], drawing.PIECE_COLOURS["G"]
    assert delta_e(linear_rgb(red), linear_rgb(green)) >= 40
    for kind, matrix in MACHADO.items():
        assert delta_e(simulate(red, matrix), simulate(green, matrix)) >= 40, kind
    # Lightness alone (a grey print, or no colour vision at all) still tells them apart.
    assert abs(lab(linear_rgb(red))[0] - lab(linear_rgb(green))[0]) >= 15


# --- hooks of the generic tests (tests/test_actions.py) -------------------------------------


def _common_prefix(texts: list[str]) -> str:
    """The longest text every one of ``texts`` begins with."""
    first, last = min(texts), max(texts)
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return first[:n]


def check_action_meaning(state: Any, name: str, after: list[str], where: str) -> None:
    """A step (``a3-b4``) is a whole move, ``stop`` ends a chain of jumps, a jump (``a3xc5``)
    is one jump of every move still open."""
    if "-" in name:
        assert after == [name], where
    elif name == "stop":
        assert len(after) == 1 and after[0] == _common_prefix(state.legal_moves()).rstrip("x"), where
    else:
        frm, to = name.split("x")
        for move in after:
            squares = move.split("x")
            assert any(squares[i : i + 2] == [frm, to] for i in range(len(squares) - 1)), where
        if not state.pending_actions:
            assert all(move.startswith(name) for move in after), where


def to_move_planes(players: int) -> set[int]:
    """The observation planes that say who is to move."""
    return {5}


# --- scenarios of the play and web tests (tests/test_play.py, test_serve_api.py, -------------
# --- test_serve_browser.py) -------------------------------------------------------------------

#: Finished positions and how glacier.play tells their end.
PLAY_ENDS = (("GR1R4/R1G2G1G/6G1/4R3/GR4R1/3R1R1G/1G1R4/R1G4G g 59", {}, "Red wins: no Green piece left in the Court"),)

#: Red's chain b4xd4xf4 takes Green's last two pieces in the Court (and could go on to f6).
CHAIN = "G6G/8/8/5R2/1RG1G3/8/8/R7 r 20"
WIN_IN_ONE = (CHAIN, {}, "b4xd4xf4", "Red wins: no Green piece left in the Court")


def play_scenario(run: Any) -> None:
    import glacier
    from glacier import play as playing

    assert playing.seat_notes(glacier.new_game(GAME)) == ["24 pieces, 0 in the Court"] * 2


def serve_api_scenario(api: Any) -> None:
    """Each step or jump of a chain goes from square to square; ``stop`` is a button."""
    from glacier.web.session import gesture

    assert gesture(GAME, "d4xd6") == ("move", "d4", "d6")
    assert gesture(GAME, "d4-d5") == ("move", "d4", "d5")
    assert gesture(GAME, "stop") == ("choice",)


def browser_scenario(table: Any) -> None:
    """A chain of two jumps, stopped where it could go on; the record saved and opened."""
    from glacier import records

    page = table.start(GAME, CHAIN)
    page.select("b4")
    assert page.targets() == {"a4", "b3", "b5", "d4"}
    page.click(page.cell("d4"))
    page.check()  # the chain has begun: nothing is played yet
    assert page.choices() == ["stop"] and page.targets() == {"f4"}
    assert page.labels() == ["stop the chain on d4"] and page.acted_on() == {"d4"}
    page.click(page.cell("f4"))
    assert page.choices() == ["stop"] and page.targets() == {"f6"}  # the chain could go on
    page.screenshot()
    page.choose("stop")
    page.played("b4xd4xf4")
    assert page.mine.is_terminal() and page.status() == "Red wins: no Green piece left in the Court"
    page.tap('[data-action="save"]')
    page.until(lambda: page.browser.find_element("id", "record-text").text, "the saved record")
    text = page.browser.find_element("id", "record-text").text
    saved = records.loads(text)
    assert saved.moves == page.mine.moves and saved.text() == page.mine.text()
    # The record opened again, from a file given to the page.
    target = table.tmp_path / "saved.record"
    target.write_text(text, encoding="utf-8")
    before = page.board_state()
    page.script("document.getElementById('new-box').open = true; document.getElementById('start-from').open = true;")
    page.browser.find_element("css selector", "input[name=record]").send_keys(str(target))
    page.until(lambda: page.script("return document.getElementById('record-note').textContent;"), "the record read")
    page.tap('[data-action="new"]')
    page.until(lambda: page.board_state() not in ("", before), "the record opened")
    page.check()
    assert page.status() == "Red wins: no Green piece left in the Court"


# --- searches (tests/test_search.py) ----------------------------------------------------------


#: Positions whose best move is forced, with that move: name -> (text, params, move).
FORCED_MOVES = {
    # d3 jumps Green's only Court piece: Green has none left and loses.
    "King's Court capture emptying the Court": ("7G/8/8/8/3G4/3R4/8/R7 r 10", {}, "d3xd5"),
}


# --- the command line and pictures (tests/test_cli_and_pictures.py) ---------------------------


#: The names of the squares, each drawn with its name.
CELL_NAMES = {f + str(r) for f in "abcdefgh" for r in range(1, 9)}

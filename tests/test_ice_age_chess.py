"""Ice Age Chess, hand-verified positions for every rule (docs/rules/ice_age_chess.md), on both
implementations. Every expected move list and position text below was worked out by hand
(the reasoning is in the comments), not copied from either implementation.

Positions are FEN with ``*`` for ice; the Ice Age comes after Black's move at fullmove
numbers that are multiples of ``ice_age_period`` (default 20).
"""

from __future__ import annotations

import pickle
import re
from typing import Any

import pytest

import glacier
from glacier import reference
from glacier.errors import IllegalMoveError, InvalidParameterError, InvalidPositionError
from glacier.svg import ice_age_chess as drawing
from glacier.svg import render
from svg_checks import SVG, tree, words

GAME = "ice_age_chess"
START = "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def fen(impl: Any, text: str, **params: Any) -> Any:
    return impl.from_text(GAME, text, **params)


def play(state: Any, *moves: str) -> Any:
    for move in moves:
        state.play(move)
    return state


# --- the start and the pieces --------------------------------------------------------


def test_start(impl: Any) -> None:
    state = impl.new_game(GAME)
    assert state.text() == START
    assert state.params == {"max_plies": 1000, "ice_age_period": 20}
    assert state.num_players == 2 and state.current_player == 0
    # No pawn can push into ice: the first move captures ice, with a pawn diagonally
    # (14 ways) or a knight (4 ways).
    expected = [
        "a2b3", "b2a3", "b2c3", "c2b3", "c2d3", "d2c3", "d2e3",
        "e2d3", "e2f3", "f2e3", "f2g3", "g2f3", "g2h3", "h2g3",
        "b1a3", "b1c3", "g1f3", "g1h3",
    ]  # fmt: skip
    assert state.legal_moves() == sorted(expected)
    state.play("h2g3")
    assert state.text() == "rnbqkbnr/pppppppp/********/********/********/******P*/PPPPPPP1/RNBQKBNR b KQkq - 0 1"


def test_sliders_stop_at_ice_and_may_capture_it(impl: Any) -> None:
    state = fen(impl, "4k3/8/8/8/*7/8/8/R3K3 w Q - 0 1")
    # The rook goes up to the ice on a4 (capturing it) and along rank 1 to d1; the king
    # has its five steps and queen-side castling.
    assert state.legal_moves() == [
        "a1a2", "a1a3", "a1a4", "a1b1", "a1c1", "a1d1",
        "e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2",
    ]  # fmt: skip
    with pytest.raises(IllegalMoveError, match="the rook on a1 cannot move to a5"):
        state.play("a1a5")
    state.play("a1a4")  # capturing ice resets the halfmove clock; the rook's right is gone
    assert state.text() == "4k3/8/8/8/R7/8/8/4K3 b - - 0 1"


def test_ice_blocks_the_castling_path(impl: Any) -> None:
    state = fen(impl, "4k3/8/8/8/*7/8/8/R*2K3 w Q - 0 1")
    assert state.legal_moves() == [
        "a1a2", "a1a3", "a1a4", "a1b1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2",
    ]  # fmt: skip
    with pytest.raises(IllegalMoveError, match="castling needs"):
        state.play("e1c1")


def test_ice_gives_no_check_and_blocks_checks(impl: Any) -> None:
    blocked = fen(impl, "4r1k1/8/8/8/4*3/8/8/4K3 w - - 0 1")
    assert blocked.legal_moves() == ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]
    # Without the ice the rook checks: e2 is attacked.
    open_file = fen(impl, "4r1k1/8/8/8/8/8/8/4K3 w - - 0 1")
    assert open_file.legal_moves() == ["e1d1", "e1d2", "e1f1", "e1f2"]
    # Ice next to a king is no check either.
    assert fen(impl, "4k3/8/8/8/8/8/3***2/3*K*2 w - - 0 1").legal_moves() == [
        "e1d1", "e1d2", "e1e2", "e1f1", "e1f2",
    ]  # fmt: skip


def test_king_captures_ice_only_on_unattacked_squares(impl: Any) -> None:
    # The rook on f8 attacks down to the ice on f2 (so not f1 behind it).
    state = fen(impl, "5rk1/8/8/8/8/8/3*1*2/4K3 w - - 0 1")
    assert state.legal_moves() == ["e1d1", "e1d2", "e1e2", "e1f1"]
    with pytest.raises(IllegalMoveError, match="leave the king in check"):
        state.play("e1f2")


def test_knights_jump_over_ice(impl: Any) -> None:
    state = fen(impl, "4k3/8/8/8/8/***5/*N**4/***1K3 w - - 0 1")
    moves = [m for m in state.legal_moves() if m.startswith("b2")]
    # From b2, walled in by ice, a knight still reaches a4, c4, d3 and d1.
    assert moves == ["b2a4", "b2c4", "b2d1", "b2d3"]


def test_pawns_push_into_empty_squares_only(impl: Any) -> None:
    # d2: d3 is ice, so no push; it captures the ice on c3 (e3 is empty: no capture).
    # e2: e3 is empty but e4 is ice: a single push only; it captures the ice on d3 and f3.
    state = fen(impl, "4k3/8/8/8/4*3/2**1*2/3PP3/4K3 w - - 0 1")
    pawn_moves = [m for m in state.legal_moves() if m[:2] in ("d2", "e2")]
    assert pawn_moves == ["d2c3", "e2d3", "e2e3", "e2f3"]


def test_double_push_needs_both_squares_empty(impl: Any) -> None:
    state = fen(impl, "4k3/8/8/8/4*3/8/4P3/4K3 w - - 0 1")
    assert "e2e4" not in state.legal_moves() and "e2e3" in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="the pawn on e2 cannot move to e4"):
        state.play("e2e4")


def test_pawn_captures_ice_with_promotion(impl: Any) -> None:
    # g8 is ice (no push), h8 is ice (a capture, promoting four ways).
    state = fen(impl, "4k1**/6P1/8/8/8/8/8/4K3 w - - 0 1")
    assert state.legal_moves() == [
        "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "g7h8b", "g7h8n", "g7h8q", "g7h8r",
    ]  # fmt: skip
    with pytest.raises(IllegalMoveError, match="must promote"):
        state.play("g7h8")
    state.play("g7h8q")
    # The ice on g8 shields the black king from the new queen.
    assert state.text() == "4k1*Q/8/8/8/8/8/8/4K3 b - - 0 1"
    assert not state.is_terminal()


def test_promotion_to_each_piece(impl: Any) -> None:
    state = fen(impl, "4k3/1P6/8/8/8/8/8/4K3 w - - 5 1")
    assert [m for m in state.legal_moves() if m.startswith("b7")] == ["b7b8b", "b7b8n", "b7b8q", "b7b8r"]
    state.play("b7b8n")
    assert state.text() == "1N2k3/8/8/8/8/8/8/4K3 b - - 0 1"


# --- castling ----------------------------------------------------------------------


def test_castling_both_sides(impl: Any) -> None:
    state = fen(impl, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert {"e1g1", "e1c1"} <= set(state.legal_moves())
    state.play("e1g1")
    assert state.text() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
    state.play("e8c8")
    assert state.text() == "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"


def test_castling_through_or_out_of_check_is_illegal(impl: Any) -> None:
    # The bishop on a6 attacks f1: no king-side castling. b1 may be attacked (the knight
    # on a3 does), queen-side castling is fine.
    state = fen(impl, "4k3/8/b7/8/8/n7/8/R3K2R w KQ - 0 1")
    moves = state.legal_moves()
    assert "e1g1" not in moves and "e1c1" in moves
    # In check (the rook on e8), no castling at all.
    checked = fen(impl, "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert not {"e1g1", "e1c1"} & set(checked.legal_moves())


def test_rook_capture_removes_the_right(impl: Any) -> None:
    state = fen(impl, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    state.play("a1a8")
    assert state.text() == "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1"


# --- en passant --------------------------------------------------------------------


def test_en_passant(impl: Any) -> None:
    state = fen(impl, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1")
    state.play("e2e4")  # a black pawn stands beside e4: the square e3 is written
    assert state.text() == "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"
    assert "d4e3" in state.legal_moves()
    state.play("d4e3")
    assert state.text() == "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2"


def test_en_passant_square_written_only_when_a_capture_is_pseudo_legal(impl: Any) -> None:
    state = fen(impl, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    state.play("e2e4")
    assert state.text() == "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"
    # Read with an en-passant square nobody can capture on, the position is the same.
    same = fen(impl, "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1")
    assert same.text() == state.text() and same.hash() == state.hash()


def test_en_passant_that_would_expose_the_king(impl: Any) -> None:
    # b5xc6 would open rank 5 to the rook: illegal, but still pseudo-legal, so the square
    # stays in the text (and the hash).
    state = fen(impl, "8/8/8/KPp4r/8/8/8/7k w - c6 0 2")
    assert state.text() == "8/8/8/KPp4r/8/8/8/7k w - c6 0 2"
    assert state.legal_moves() == ["a5a4", "a5a6", "a5b6", "b5b6"]
    with pytest.raises(IllegalMoveError, match="leave the king in check"):
        state.play("b5c6")
    assert fen(impl, "8/8/8/KPp4r/8/8/8/7k w - - 0 2").hash() != state.hash()


# --- check, mate, stalemate ----------------------------------------------------------


def test_a_pinned_piece_stays_on_its_line(impl: Any) -> None:
    state = fen(impl, "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1")
    assert state.legal_moves() == ["e1d1", "e1d2", "e1f1", "e1f2"]
    with pytest.raises(IllegalMoveError, match="leave the king in check"):
        state.play("e2d3")


def test_check_must_be_answered(impl: Any) -> None:
    # The rook on a1 checks along rank 1: block on b1 with the knight, or step off the rank.
    state = fen(impl, "4k3/8/8/8/8/8/3N4/r3K3 w - - 0 1")
    assert state.legal_moves() == ["d2b1", "e1e2", "e1f2"]


def test_checkmate(impl: Any) -> None:
    state = fen(impl, CHESS_START, ice_age_period=0)
    play(state, "f2f3", "e7e5", "g2g4", "d8h4")
    assert state.text() == "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [-1.0, 1.0]
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.play("e2e3")


def test_stalemate(impl: Any) -> None:
    state = fen(impl, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
    state.play("f1f7")
    assert state.text() == "7k/5Q2/6K1/8/8/8/8/8 b - - 1 1"
    assert state.is_terminal() and state.legal_moves() == [] and state.returns() == [0.0, 0.0]


# --- counters ----------------------------------------------------------------------


def test_halfmove_clock_reaching_100_is_a_draw(impl: Any) -> None:
    state = fen(impl, "4k3/8/8/8/8/8/8/4K2R w K - 99 60")
    state.play("h1h2")
    assert state.text() == "4k3/8/8/8/8/8/7R/4K3 b - - 100 60"
    assert state.is_terminal() and state.legal_moves() == [] and state.returns() == [0.0, 0.0]
    assert state.perft(1) == 0


def test_mate_on_the_hundredth_halfmove_wins(impl: Any) -> None:
    state = fen(impl, "7k/8/6K1/8/8/8/8/R7 w - - 99 60")
    state.play("a1a8")
    assert state.text() == "R6k/8/6K1/8/8/8/8/8 b - - 100 60"
    assert state.returns() == [1.0, -1.0]


def test_ice_captures_and_pawn_moves_reset_the_halfmove_clock(impl: Any) -> None:
    state = fen(impl, "4k3/8/8/8/8/8/*7/R3K3 w - - 50 30")
    state.play("a1a2")
    assert state.text() == "4k3/8/8/8/8/8/R7/4K3 b - - 0 30"
    state.play("e8d8")
    assert state.text().endswith(" 1 31")


def test_halfmove_clock_in_the_hash_only_as_the_draw(impl: Any) -> None:
    base = "4k3/8/8/8/8/8/8/4K2R w K - {} 60"
    h50, h99, h100, h120 = (fen(impl, base.format(n)).hash() for n in (50, 99, 100, 120))
    assert h50 == h99 and h100 == h120 and h99 != h100
    assert fen(impl, base.format(100)).is_terminal()


def test_ply_limit(impl: Any) -> None:
    state = impl.new_game(GAME, max_plies=2)
    state.play("b1c3")
    assert not state.is_terminal()
    state.play("g8f6")  # 2 x (2 - 1) + 0 = 2 plies
    assert state.is_terminal() and state.returns() == [0.0, 0.0] and state.legal_moves() == []
    # Read from a text the same way: plies = 2 x (fullmove - 1), plus 1 with Black to move.
    assert fen(impl, "4k3/8/8/8/8/8/8/4K3 b - - 0 3", max_plies=5).is_terminal()
    assert not fen(impl, "4k3/8/8/8/8/8/8/4K3 w - - 0 3", max_plies=5).is_terminal()


def test_mate_on_the_last_ply_is_still_a_win(impl: Any) -> None:
    state = fen(impl, CHESS_START, ice_age_period=0, max_plies=4)
    play(state, "f2f3", "e7e5", "g2g4", "d8h4")
    assert state.returns() == [-1.0, 1.0]


# --- the Ice Age -------------------------------------------------------------------


def test_ice_age_freezes_isolated_pieces_and_unsheltered_squares(impl: Any) -> None:
    text = "r6k/6pp/4p3/3n1N2/4P3/8/R3P3/1K1N1B2 b - - 0 20"
    state = fen(impl, text)
    state.play("g7g6")
    # The rook on a8 has no piece around it: frozen. The corner a1 (a2 and b1 hold
    # pieces), the edge square e1 (d1, f1, e2) and the middle square e5 (e4, e6, d5, f5)
    # are sheltered and stay empty; every other empty square, g7 included, gets ice.
    assert state.text() == "*******k/*******p/****p*p*/***n1N**/****P***/********/R***P***/1K*N1B** w - - 0 21"
    assert not state.is_terminal()
    # Without the Ice Age the move is just a move.
    calm = fen(impl, text, ice_age_period=0)
    calm.play("g7g6")
    assert calm.text() == "r6k/7p/4p1p1/3n1N2/4P3/8/R3P3/1K1N1B2 w - - 0 21"


@pytest.mark.parametrize(
    ("params", "fullmove", "ice_age"),
    [
        ({}, 20, True),
        ({}, 40, True),
        ({}, 19, False),
        ({}, 21, False),
        ({"ice_age_period": 10}, 20, True),
        ({"ice_age_period": 3}, 20, False),
        ({"ice_age_period": 1}, 7, True),
        ({"ice_age_period": 0}, 20, False),
    ],
)
def test_ice_age_timing_and_both_kings_frozen(impl: Any, params: dict, fullmove: int, ice_age: bool) -> None:
    # Each king is surrounded by ice only (which is no company): both freeze at once.
    state = fen(impl, f"k*6/**6/8/8/8/8/6**/6*K b - - 0 {fullmove}", **params)
    state.play("a8b8")  # captures ice: the halfmove clock is reset
    if ice_age:
        assert (
            state.text()
            == f"********/********/********/********/********/********/********/******** w - - 0 {fullmove + 1}"
        )
        assert state.is_terminal() and state.returns() == [0.0, 0.0] and state.legal_moves() == []
    else:
        assert state.text() == f"1k6/**6/8/8/8/8/6**/6*K w - - 0 {fullmove + 1}"
        assert not state.is_terminal()


def test_no_ice_age_after_whites_move(impl: Any) -> None:
    state = fen(impl, "k*6/**6/8/8/8/8/6**/6*K w - - 0 20")
    state.play("h1g1")  # captures ice
    assert state.text() == "k*6/**6/8/8/8/8/6**/6K1 b - - 0 20"


def test_a_frozen_king_loses(impl: Any) -> None:
    state = fen(impl, "k7/p7/8/8/8/8/8/7K b - - 0 20")
    state.play("a8b8")
    # White's lone king freezes. a8 (b8 and a7 hold pieces) is sheltered.
    assert state.text() == "1k******/p*******/********/********/********/********/********/******** w - - 1 21"
    assert state.is_terminal() and state.returns() == [-1.0, 1.0] and state.legal_moves() == []


def test_a_frozen_king_loses_even_when_it_just_mated(impl: Any) -> None:
    text = "k7/8/8/8/6q1/5p2/8/7K b - - 0 20"
    mate = fen(impl, text, ice_age_period=0)
    mate.play("g4g2")  # protected by the pawn on f3: mate
    assert mate.returns() == [-1.0, 1.0]
    frozen = fen(impl, text)
    frozen.play("g4g2")  # the Ice Age freezes Black's lonely king: White wins
    assert frozen.text() == "********/********/********/********/********/*****p**/******q*/*******K w - - 1 21"
    assert frozen.returns() == [1.0, -1.0]


def test_an_ice_age_can_block_a_mate(impl: Any) -> None:
    text = "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 20"
    mate = fen(impl, text, ice_age_period=0)
    mate.play("a8a1")
    assert mate.returns() == [-1.0, 1.0]
    state = fen(impl, text)
    state.play("a8a1")
    # The rook on a1 is isolated and freezes (and ice fills rank 1 anyway): no check.
    # h1 (g1, h2) and h8 (g8, h7) are sheltered.
    assert state.text() == "******k1/*****ppp/********/********/********/********/*****PPP/******K1 w - - 1 21"
    assert not state.is_terminal()
    assert state.legal_moves() == ["f2e3", "f2g3", "g1f1", "g1h1", "g2f3", "g2h3", "h2g3"]


def test_ice_age_clears_the_en_passant_square(impl: Any) -> None:
    text = "4k3/3pr3/8/4P3/8/8/8/3RK3 b - - 0 20"
    calm = fen(impl, text, ice_age_period=0)
    calm.play("d7d5")
    assert calm.text() == "4k3/4r3/8/3pP3/8/8/8/3RK3 w - d6 0 21"
    state = fen(impl, text)
    state.play("d7d5")  # d6 lost its neighbour d7: it freezes, and the square goes
    assert state.text() == "****k***/****r***/********/***pP***/********/********/********/***RK*** w - - 0 21"
    assert "e5d6" in state.legal_moves()  # now a capture of the ice, not en passant
    assert state.hash() != calm.hash()


def test_ice_age_takes_castling_rights_of_frozen_rooks(impl: Any) -> None:
    state = fen(impl, "r3k2r/1p1ppp1p/8/8/8/8/4P1P1/R3K2R b KQkq - 0 20")
    state.play("b7b5")
    # The rooks on a1 and a8 (and the pawn on b5) are isolated: frozen, and with them the
    # queen-side rights. The king-side rights stay, but ice now fills f1 and g1.
    assert state.text() == "****k**r/***ppp*p/********/********/********/********/****P*P*/****K**R w Kk - 0 21"
    assert "e1g1" not in state.legal_moves()


# --- reading and writing positions -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        START,
        CHESS_START,
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 12 40",
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
        "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
        "*******k/*******p/****p*p*/***n1N**/****P***/********/R***P***/1K*N1B** w - - 0 21",
        "4k3/8/8/8/8/8/8/4K3 w - - 4294967295 4294967295",
    ],
)
def test_texts_round_trip(impl: Any, text: str) -> None:
    assert fen(impl, text).text() == text


def test_a_missing_king_has_lost(impl: Any) -> None:
    white_gone = fen(impl, "4k3/8/8/8/8/8/8/8 w - - 0 1")
    assert white_gone.is_terminal() and white_gone.returns() == [-1.0, 1.0] and white_gone.legal_moves() == []
    black_gone = fen(impl, "8/8/8/8/8/8/8/4K3 b - - 0 1")
    assert black_gone.returns() == [1.0, -1.0]
    both = fen(impl, "********/8/8/8/8/8/8/8 w - - 0 1")
    assert both.is_terminal() and both.returns() == [0.0, 0.0]


def test_a_finished_game_is_judged_as_read(impl: Any) -> None:
    assert fen(impl, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").returns() == [-1.0, 1.0]
    assert fen(impl, "7k/5Q2/6K1/8/8/8/8/8 b - - 1 1").returns() == [0.0, 0.0]
    # A mate wins even when the halfmove clock has run out.
    assert fen(impl, "R6k/8/6K1/8/8/8/8/8 b - - 100 60").returns() == [1.0, -1.0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "6 fields"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq - 0 1", "6 fields"),
        ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "8 ranks"),
        ("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "two digits"),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unexpected '9'"),
        ("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unexpected 'x'"),
        ("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "covers 7 squares"),
        ("rnbqkbnr/pppppppp/*******1*/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "covers 9 squares"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "side to move"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w QK - 0 1", "castling must be"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", "castling must be"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqx - 0 1", "castling must be"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant must be"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove clock"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 01 1", "halfmove clock"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4294967296 1", "halfmove clock"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove number"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x", "fullmove number"),
        # What the rules reject.
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "side not to move is in check"),
        ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "pawn stands on h8"),
        ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "pawn stands on a1"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "White has 2 kings"),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling right 'K' needs the White king on e1 and a White rook on h1"),
        ("r3k2r/8/8/8/8/8/8/R4K1R w Q - 0 1", "castling right 'Q' needs the White king on e1"),
        ("r3k1r1/8/8/8/8/8/8/R3K2R b k - 0 1", "castling right 'k' needs the Black king on e8 and a Black rook on h8"),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "wrong rank"),
        ("4k3/8/8/8/8/8/8/4K3 b - e6 0 1", "wrong rank"),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "needs a Black pawn on e5"),
        ("4k3/8/8/4*3/8/8/8/4K3 w - e6 0 1", "needs a Black pawn on e5"),
        ("4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1", "needs a Black pawn on e5"),
        ("4k3/8/4*3/4p3/8/8/8/4K3 w - e6 0 1", "needs a Black pawn on e5"),
        ("4k3/8/8/8/8/8/4P3/4K3 b - e3 0 1", "needs a White pawn on e4"),
        # What chess cannot reach.
        ("4k3/8/8/8/8/PPPPPPPP/P7/4K3 w - - 0 1", "White has 9 pawns"),
        ("4k3/8/8/8/NNNNNNNN/NNNNNNNN/8/4K3 w - - 0 1", "White has 17 pieces"),
    ],
)
def test_bad_texts(impl: Any, text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        fen(impl, text)


def test_consistent_en_passant_square_without_a_capture_is_normalised(impl: Any) -> None:
    state = fen(impl, "4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1")
    assert state.text() == "4k3/8/8/4p3/8/8/8/4K3 w - - 0 1"
    assert state.hash() == fen(impl, state.text()).hash()


def test_bad_parameters(impl: Any) -> None:
    with pytest.raises(InvalidParameterError, match="ice_age_period"):
        impl.new_game(GAME, ice_age_period=-1)
    with pytest.raises(InvalidParameterError, match="ice_age_period"):
        impl.new_game(GAME, ice_age_period=2**32)
    assert impl.new_game(GAME, ice_age_period=0).params["ice_age_period"] == 0


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("e2e4", "the pawn on e2 cannot move to e4"),
        ("b1d2", "the knight on b1 cannot move to d2"),
        ("e7e5", "no White piece on e7"),
        ("a3a4", "no White piece on a3"),
        ("e1g1", "castling needs"),
        ("e2d3q", "only a pawn move to the last rank takes a promotion letter"),
        ("e2", "not a UCI move"),
        ("e2e4x", "not a UCI move"),
        ("e2d3k", "not a UCI move"),
        ("i2i4", "not a UCI move"),
        ("E2E4", "not a UCI move"),
        ("e2-e4", "not a UCI move"),
    ],
)
def test_bad_moves_leave_the_state_unchanged(impl: Any, move: str, message: str) -> None:
    state = impl.new_game(GAME)
    with pytest.raises(IllegalMoveError, match=message):
        state.play(move)
    assert state.text() == START and state.moves == []


def test_hash_depends_on_side_castling_and_en_passant(impl: Any) -> None:
    white = fen(impl, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    black = fen(impl, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")
    fewer = fen(impl, "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1")
    assert len({white.hash(), black.hash(), fewer.hash()}) == 3
    # Neither the fullmove number nor the halfmove clock (below 100) is hashed.
    assert white.hash() == fen(impl, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 30").hash()
    # Ice is part of the position.
    assert fen(impl, "4k3/8/8/8/8/8/8/4K2* w - - 0 1").hash() != fen(impl, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").hash()


def test_transpositions_hash_alike(impl: Any) -> None:
    a = play(impl.new_game(GAME), "b1c3", "g8f6", "g1f3", "b8c6")
    b = play(impl.new_game(GAME), "g1f3", "b8c6", "b1c3", "g8f6")
    assert a.text() == b.text() and a.hash() == b.hash()


def test_board_drawing(impl: Any) -> None:
    drawing = str(impl.new_game(GAME))
    assert "a b c d e f g h" in drawing and "White to move" in drawing
    assert "next Ice Age after Black's move 20" in drawing


# --- standard chess against an independent implementation ----------------------------


def test_standard_chess_agrees_with_python_chess(impl: Any) -> None:
    """With ice_age_period=0 and no ice the game is standard chess: over seeded random
    games the position text (python-chess writes the en-passant square under the same
    X-FEN rule), the legal moves and the ends (mate, stalemate, 100 halfmoves) match
    python-chess move for move."""
    chess = pytest.importorskip("chess")
    import random

    games = 40 if impl.__name__ == "glacier" else 8
    ends = set()
    for seed in range(games):
        rng = random.Random(seed)
        state = fen(impl, CHESS_START, ice_age_period=0)
        board = chess.Board()
        while True:
            assert state.text() == board.fen(en_passant="xfen")
            moves = state.legal_moves()
            if board.is_checkmate():
                winner = 0 if board.turn == chess.BLACK else 1
                assert state.returns() == ([1.0, -1.0] if winner == 0 else [-1.0, 1.0]) and moves == []
                ends.add("mate")
                break
            if board.is_stalemate() or board.halfmove_clock >= 100:
                assert state.is_terminal() and state.returns() == [0.0, 0.0] and moves == []
                ends.add("draw")
                break
            assert moves == sorted(m.uci() for m in board.legal_moves)
            move = rng.choice(moves)
            state.play(move)
            board.push_uci(move)
    assert ends == {"mate", "draw"}


# --- named starts ------------------------------------------------------------------------


def test_standard_chess_gives_the_published_perft_counts() -> None:
    state = glacier.new_game("ice_age_chess", start="standard")
    assert [state.perft(depth) for depth in (1, 2, 3, 4, 5)] == [20, 400, 8902, 197281, 4865609]
    assert [reference.new_game("ice_age_chess", start="standard").perft(depth) for depth in (1, 2, 3)] == [
        20,
        400,
        8902,
    ]


@pytest.mark.parametrize("impl", [glacier, reference], ids=["native", "reference"])
def test_standard_chess_is_the_chess_start_without_ice_age(impl: Any) -> None:
    state = impl.new_game("ice_age_chess", start="standard")
    assert state.text() == CHESS_START
    assert state.params == {"max_plies": 1000, "ice_age_period": 0}
    assert state == impl.from_text("ice_age_chess", CHESS_START, ice_age_period=0)
    # Parameters given explicitly win over those the start implies.
    assert impl.new_game("ice_age_chess", start="standard", ice_age_period=20, max_plies=9).params == {
        "max_plies": 9,
        "ice_age_period": 20,
    }
    state.play("e2e4")
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.moves == ["e2e4"] and again.undo() == "e2e4"


def test_ice_age_period_zero_keeps_the_ice_of_the_start() -> None:
    state = glacier.new_game("ice_age_chess", ice_age_period=0)
    assert state.text().split()[0].count("*") == 32
    assert state.perft(2) == glacier.new_game("ice_age_chess").perft(2) == 324


# --- pictures -----------------------------------------------------------------------------


def test_chess_pieces_sit_in_the_middle_of_their_squares() -> None:
    cell, margin = 52, 26
    state = glacier.new_game(GAME)
    for flipped in (False, True):
        root = tree(render(state, flipped=flipped))
        drawn = [g for g in root.iter(f"{SVG}g") if g.get("class") == "piece"]
        assert len(drawn) == 32
        board = state.text().split(" ")[0]
        for g in drawn:
            x, y, scale = map(float, re.findall(r"[\d.]+", g.get("transform", "")))
            assert scale * drawing.PIECE_BOX == cell
            file, row = int((x - margin) / cell), int((y - margin) / cell)
            assert (x - margin, y - margin) == (file * cell, row * cell)
            rank = 7 - row
            if flipped:
                file, rank = 7 - file, 7 - rank
            expanded = re.sub(r"\d", lambda m: "." * int(m.group()), board).split("/")
            assert expanded[7 - rank][file] == g.get("data-piece")
        # Every outline stays in the box, with room above and below: no piece reaches into
        # the row above (as the rank-2 and rank-7 pawns once did).
        for shape in drawing._SHAPES.values():
            numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", re.sub(r'r="[^"]+"|rx="[^"]+"', "", shape))]
            assert min(numbers) >= 5 and max(numbers) <= 95


def test_chess_check_mate_and_frozen_kings_are_named() -> None:
    mate = glacier.from_text(GAME, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", ice_age_period=0)
    assert "Black wins by checkmate" in words(render(mate))
    frozen = glacier.from_text(
        GAME, "********/********/p******r/*rp****K/p*****P*/*N****B*/******N*/******** w - - 0 81"
    )
    assert "White wins (Black's king frozen)" in words(render(frozen))


# --- hooks of the generic tests (tests/test_actions.py) -------------------------------------


def check_action_meaning(state: Any, name: str, after: list[str], where: str) -> None:
    """An action is a whole move, named by its move text."""
    assert after == [name], where


def to_move_planes(players: int) -> set[int]:
    """The observation planes that say who is to move."""
    return {21}


# --- scenarios of the play and web tests (tests/test_play.py, test_serve_api.py, -------------
# --- test_serve_browser.py) -------------------------------------------------------------------


def _picture_text(name: str) -> tuple[str, dict[str, int]]:
    picture = next(p for p in glacier.game_spec(GAME).pictures if p.name == name)
    assert picture.text is not None
    return picture.text, dict(picture.params)


#: Finished positions and how glacier.play tells their end.
PLAY_ENDS = (
    ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", {"ice_age_period": 0}, "Black wins: checkmate"),
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 60", {}, "draw: stalemate"),
    ("7k/8/6K1/8/8/8/8/8 b - - 100 70", {}, "draw: fifty moves without a capture or pawn move"),
    ("7k/8/6K1/8/8/8/8/8 w - - 3 11", {"max_plies": 20}, "draw: the ply limit"),
    (*_picture_text("ice_age_chess-frozen-king"), "White wins: Black's king frozen by the Ice Age"),
)

#: White mates on the back rank.
WIN_IN_ONE = ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", {}, "a1a8", "White wins: checkmate")


def play_scenario(run: Any) -> None:
    """SAN in and out, at the terminal and in glacier.play."""
    import tempfile
    from pathlib import Path

    from glacier import play as playing
    from glacier import records

    chess = glacier.new_game(GAME, start="standard")
    assert playing.read_move(chess, "Nf3") == "g1f3" and playing.read_move(chess, "e2e4") == "e2e4"
    assert playing.notation(chess, "g1f3") == "Nf3"
    with pytest.raises(IllegalMoveError, match="SAN"):
        playing.read_move(chess, "Nf6")
    assert chess.moves == []
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "game.record"
        out = run("play", GAME, "--level", "easy", "--seed", "3", "--record", str(target), input="Nf3\nquit\n")
        game = records.loads(target.read_text())
    assert "You are White." in out and "your move, White" in out
    assert game.moves[0] == "g1f3" and len(game.moves) == 2
    reply = records.Record.of(game).notation[1]
    assert f"Black plays {reply} ({game.moves[1]})" in out or f"Black plays {reply} (" in out
    assert f"last move: Black {reply}" in out


def serve_api_scenario(api: Any) -> None:
    """Moves in SAN, undo, redo and looking back; every move goes from square to square."""
    from glacier import records
    from glacier.web.session import gesture

    assert gesture(GAME, "e7e8q") == ("move", "e7", "e8")
    assert gesture(GAME, "e1g1") == ("move", "e1", "g1")
    view = api.new(game=GAME, position=CHESS_START, params={"ice_age_period": 0}, seats=["human", "human"])
    game_id = view["id"]
    for move in ("e4", "e7e5", "Nf3"):
        view = api.post(game_id, "move", move=move)
    assert [m["text"] for m in view["moves"]] == ["e4", "e5", "Nf3"]
    assert [m["number"] for m in view["moves"]] == ["1.", None, "2."]
    view = api.post(game_id, "undo")
    assert view["ply"] == 2 and view["can_redo"]
    view = api.post(game_id, "goto", ply=0)
    assert view["text"] == CHESS_START
    view = api.post(game_id, "redo")
    assert view["ply"] == 1 and view["plies"] == 3
    view = api.post(game_id, "move", move="c5")  # a new line
    assert [m["text"] for m in view["moves"]] == ["e4", "c5"] and not view["can_redo"]
    assert records.loads(api.record(game_id)).moves == ["e2e4", "c7c5"]
    # The promotions of one pawn move share its gesture: each names its piece, with its picture.
    view = api.new(game=GAME, position="4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", params={"ice_age_period": 0})
    entries = view["clickable"]["moves"]["b7"]["b8"]
    assert sorted(e["label"] for e in entries) == [f"promote to a {p}" for p in ("bishop", "knight", "queen", "rook")]
    assert all(e["cells"] == ["b8"] and 'data-piece="' in e["picture"] for e in entries)
    # A game from a later move numbers its moves from there; Black's first shows "n...".
    view = api.new(game=GAME, position="4k3/8/8/8/8/8/8/4K2R b K - 0 30", seats=["human", "human"])
    view = api.post(view["id"], "move", move="Kd7")
    assert [m["number"] for m in view["moves"]] == ["30..."]


def browser_scenario(table: Any) -> None:
    """Castling by moving the king two squares, and a promotion by the piece chooser."""
    from glacier import play as playing

    page = table.start(GAME, "4k3/1P6/8/3**3/8/8/8/4K2R w K - 0 1", {"max_plies": 4})
    assert "White" in page.status() and "to move" in page.status()
    page.select("e1")
    assert page.targets() == {"d1", "d2", "e2", "f1", "f2", "g1"}
    page.click(page.cell("g1"))
    page.played("e1g1")
    assert page.script("return document.querySelector('#moves .move').textContent;") == "O-O"
    page.computer_replies()
    page.select("b7")
    page.tap(page.cell("b8"))
    assert sorted(page.choices()) == ["b7b8b", "b7b8n", "b7b8q", "b7b8r"]
    # Each promotion is a button with its piece's picture, the square marked.
    assert sorted(page.labels()) == [f"promote to a {p}" for p in ("bishop", "knight", "queen", "rook")]
    assert page.script("return document.querySelectorAll('[data-choice] svg [data-piece]').length;") == 4
    assert page.acted_on() == {"b8"}
    page.screenshot()
    page.choose("b7b8q")
    page.played("b7b8q")
    assert page.page_moves()[len(page.mine.moves) - 1] == "b7b8q"
    if not page.mine.is_terminal():
        page.computer_replies()
    assert page.mine.is_terminal()
    assert page.status() == playing.result_text(page.mine)


# --- searches (tests/test_search.py) ----------------------------------------------------------


#: Positions whose best move is forced, with that move: name -> (text, params, move).
FORCED_MOVES = {
    # The back-rank mate Ra8#.
    "chess mate in one": ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", {}, "a1a8"),
    "standard chess mate in one": ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", {"ice_age_period": 0}, "a1a8"),
}


def test_alphabeta_and_mcts_see_a_mate_in_two() -> None:
    # Philidor's legacy: 1. Qg8+ Rxg8 (the knight guards g8) 2. Nf7#, a smothered mate.
    from glacier import search

    state = glacier.from_text("ice_age_chess", "5r1k/6pp/7N/3Q4/8/8/8/6K1 w - - 0 1", ice_age_period=0)
    result = search.alphabeta(state, depth=5)
    assert (result.mate, result.depth, result.pv) == (3, 3, ("d5g8", "f8g8", "h6f7"))
    line = state.copy()
    for move in result.pv:
        line.play(move)
    assert line.is_terminal() and line.returns() == [1.0, -1.0]
    assert search.mcts(state, simulations=2000, seed=1).move == "d5g8"


# --- the command line and pictures (tests/test_cli_and_pictures.py) ---------------------------


#: The names of the squares, each drawn with its name.
CELL_NAMES = {f + str(r) for f in "abcdefgh" for r in range(1, 9)}


# --- the replay page (tests/test_replay_browser.py) -------------------------------------------


def test_the_replay_page_lists_a_chess_game_in_san_under_its_seats() -> None:
    # The page shows a record's notation (tests/test_replay_browser.py checks it in a browser):
    # for standard chess, SAN, and the seats White and Black.
    import json

    from glacier import records, replay

    chess = glacier.from_text("ice_age_chess", records.STANDARD_CHESS_START, ice_age_period=0)
    for move in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]:
        chess.play(move)
    record = records.Record.of(chess, ["Ann", "Bob"], {3: "the Ruy Lopez"})
    assert record.notation == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
    page = replay.page([record])
    assert json.dumps(record.notation, separators=(",", ":")) in page and "White: Ann, Black: Bob" in page

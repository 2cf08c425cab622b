"""The API contract, checked the same way on every game and both implementations."""

from __future__ import annotations

import random
from typing import Any

import pytest

import glacier
from glacier import reference
from glacier.errors import (
    GlacierError,
    IllegalMoveError,
    InvalidParameterError,
    InvalidPositionError,
    UnknownGameError,
)
from glacier.testing import check_contract


def test_games_are_listed() -> None:
    assert glacier.GAMES == reference.GAMES
    assert list(glacier.GAMES) == sorted(glacier.GAMES)


@pytest.mark.parametrize("seed", range(3))
def test_contract(game: str, impl: Any, seed: int) -> None:
    check_contract(lambda: impl.new_game(game), plies=40, seed=seed)


def test_errors_are_value_errors() -> None:
    for cls in (IllegalMoveError, InvalidPositionError, InvalidParameterError, UnknownGameError):
        assert issubclass(cls, GlacierError) and issubclass(cls, ValueError)


def test_unknown_game(impl: Any) -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        impl.new_game("chess")
    with pytest.raises(UnknownGameError):
        impl.from_text("chess", "x")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"max_plies": -1}, "between 0 and"),
        ({"max_plies": 2**32}, "between 0 and"),
        ({"max_plies": "10"}, "must be an integer"),
        ({"max_plies": 1.5}, "must be an integer"),
        ({"max_plies": True}, "must be an integer"),
        ({"no_such_parameter": 1}, "unknown parameter 'no_such_parameter'"),
    ],
)
def test_bad_parameters(game: str, impl: Any, params: dict, message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message):
        impl.new_game(game, **params)


def test_parameters_are_reported(game: str, impl: Any) -> None:
    state = impl.new_game(game, max_plies=77)
    assert state.params["max_plies"] == 77
    assert state.game == game
    assert impl.new_game(game) != state, "states with different parameters are not equal"


def test_ply_limit_zero_ends_at_once(game: str, impl: Any) -> None:
    state = impl.new_game(game, max_plies=0)
    assert state.is_terminal()
    assert state.legal_moves() == []
    assert state.returns() == [0.0] * state.num_players
    assert state.perft(1) == 0 and state.perft(0) == 1


def test_bad_perft_depth(game: str, impl: Any) -> None:
    with pytest.raises(InvalidParameterError):
        impl.new_game(game).perft(-1)


@pytest.mark.parametrize("text", ["", " ", "garbage", "\n"])
def test_malformed_text(game: str, impl: Any, text: str) -> None:
    with pytest.raises(InvalidPositionError):
        impl.from_text(game, text)


def test_text_must_be_a_string(game: str, impl: Any) -> None:
    with pytest.raises(InvalidPositionError, match="a position text must be a str, got int"):
        impl.from_text(game, 42)


def test_play_after_the_end_is_refused(game: str, impl: Any) -> None:
    state = impl.new_game(game, max_plies=0)
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.play("anything")


def test_distinct_positions_have_distinct_hashes(game: str) -> None:
    """Along random games, positions that share a hash play alike (texts may differ only
    in counters the rules leave out of the hash, such as a ply count)."""
    rng = random.Random(1)
    seen: dict[int, tuple[int, list[str]]] = {}
    for _ in range(5):
        state = glacier.new_game(game)
        for _ in range(200):
            key = (state.current_player, state.legal_moves())
            assert seen.setdefault(state.hash(), key) == key
            moves = state.legal_moves()
            if not moves:
                break
            state.play(rng.choice(moves))


def test_native_and_reference_states_compare_unequal_across_kinds(game: str) -> None:
    assert glacier.new_game(game) != reference.new_game(game)

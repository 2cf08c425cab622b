"""The strings ``legal_moves()`` hands out are shared between positions (one string per
common move text) and ``play()`` recognises the very objects of the last ``legal_moves()``
of the same state without reading their text. Whatever path a move takes, ``play()`` must
do exactly what it does with a fresh string of the same text: these tests play each move
both ways, on two copies, and also play strings from lists that are out of date."""

from __future__ import annotations

import random

import pytest

import glacier
from glacier.errors import IllegalMoveError


def fresh(text: str) -> str:
    """A new string object with the same text (never the shared one)."""
    return text.encode().decode()


def outcome(state: glacier.GameState, move: str) -> str:
    """The position text after playing ``move``, or the error's message."""
    try:
        state.play(move)
    except IllegalMoveError as error:
        return f"illegal: {error}"
    return state.text()


@pytest.mark.parametrize("game", glacier.GAMES)
def test_a_listed_object_plays_as_its_text_does(game: str) -> None:
    rng = random.Random(15)
    state = glacier.new_game(game)
    for _ in range(300):
        if state.is_terminal():
            break
        moves = state.legal_moves()
        assert moves == sorted(moves)
        twin = state.copy()
        assert twin.legal_moves() == moves
        chosen = moves[rng.randrange(len(moves))]
        state.play(chosen)
        twin.play(fresh(chosen))
        assert state.text() == twin.text()
        assert state.moves[-1] == chosen


@pytest.mark.parametrize("game", glacier.GAMES)
def test_strings_of_an_older_list_are_read_as_text(game: str) -> None:
    rng = random.Random(16)
    state = glacier.new_game(game)
    for _ in range(100):
        if state.is_terminal():
            break
        old = state.legal_moves()
        state.play(old[rng.randrange(len(old))])
        if state.is_terminal():
            break
        # The list is stale now: its strings are plain text to this state.
        stale = old[rng.randrange(len(old))]
        twin = state.copy()
        assert outcome(state, stale) == outcome(twin, fresh(stale))
        assert state.text() == twin.text()


@pytest.mark.parametrize("game", glacier.GAMES)
def test_undo_and_actions_forget_the_last_list(game: str) -> None:
    rng = random.Random(17)
    state = glacier.new_game(game)
    for _ in range(60):
        if state.is_terminal():
            break
        moves = state.legal_moves()
        first = moves[rng.randrange(len(moves))]
        state.play(first)
        state.undo()
        # The same position again: every listed string is still legal, through its text.
        again = moves[rng.randrange(len(moves))]
        twin = state.copy()
        assert outcome(state, again) == outcome(twin, fresh(again))
        if state.is_terminal():
            break
        listed = state.legal_moves()
        state.apply_action(state.legal_actions()[0])
        # In the middle of a move, or after it: the list is out of date.
        probe = listed[rng.randrange(len(listed))]
        twin = state.copy()
        assert outcome(state, probe) == outcome(twin, fresh(probe))


@pytest.mark.parametrize("game", glacier.GAMES)
def test_a_copy_does_not_take_the_list_along(game: str) -> None:
    state = glacier.new_game(game)
    moves = state.legal_moves()
    copy = state.copy()
    state.play(moves[0])
    copy.play(moves[1])
    assert copy.moves == [moves[1]]
    assert state.moves == [moves[0]]

"""Property-based tests (Hypothesis): any sequence of legal moves, and any text at all,
gets the same answer from the engine and the reference, and undo walks back exactly."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import glacier
from conftest import GAMES
from glacier import reference

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def answer(action: Any) -> tuple[str, str]:
    try:
        return "ok", str(action())
    except Exception as err:  # the class and message are what is compared
        return type(err).__name__, str(err)


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(choices=st.lists(st.integers(min_value=0, max_value=10**6), max_size=80))
def test_any_line_of_play(game: str, choices: list[int]) -> None:
    native, ref = glacier.new_game(game), reference.new_game(game)
    texts = [native.text()]
    for choice in choices:
        moves = native.legal_moves()
        assert moves == ref.legal_moves()
        if not moves:
            break
        move = moves[choice % len(moves)]
        native.play(move)
        ref.play(move)
        texts.append(native.text())
        assert native.text() == ref.text() and native.hash() == ref.hash()
        assert glacier.from_text(game, native.text()).hash() == native.hash()
    assert native.returns() == ref.returns()
    while native.moves:
        native.undo()
        assert native.text() == texts[len(native.moves)]


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(text=st.text(max_size=120))
def test_any_text(game: str, text: str) -> None:
    native = answer(lambda: glacier.from_text(game, text).text())
    ref = answer(lambda: reference.from_text(game, text).text())
    assert native == ref
    assert native[0] in ("ok", "InvalidPositionError")


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(move=st.text(max_size=24))
def test_any_move_text(game: str, move: str) -> None:
    native, ref = glacier.new_game(game), reference.new_game(game)
    assert answer(lambda: native.play(move)) == answer(lambda: ref.play(move))
    assert native.text() == ref.text()

"""How much history a state keeps: ``copy()`` (the position only), ``copy(history=...)``
and ``history_limit``, the same in the engine and the reference."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

import glacier
from glacier import reference
from glacier.errors import GlacierError, HistoryNotKeptError, InvalidParameterError

IMPLS = [pytest.param(glacier, id="native"), pytest.param(reference, id="reference")]


def played(impl: Any, game: str, plies: int, seed: int = 0, **params: Any) -> Any:
    state = impl.new_game(game, **params)
    rng = random.Random(seed)
    for _ in range(plies):
        legal = state.legal_moves()
        if not legal:
            break
        state.play(rng.choice(legal))
    return state


@pytest.mark.parametrize("game", glacier.GAMES)
@pytest.mark.parametrize("impl", IMPLS)
def test_a_limited_history_stays_that_long_and_undoes_what_it_kept(impl: Any, game: str) -> None:
    state = impl.new_game(game, max_plies=600)
    state.history_limit = 8
    rng = random.Random(3)
    texts = [state.text()]
    while not state.is_terminal():
        state.play(rng.choice(state.legal_moves()))
        texts.append(state.text())
        assert len(state.moves) == min(8, len(texts) - 1)
    # The game ends by its rules or at the ply limit, well after the history is full.
    assert 10 < len(texts) <= 601
    for back in range(1, 9):
        state.undo()
        assert state.text() == texts[-1 - back]
    with pytest.raises(HistoryNotKeptError, match="history_limit=8"):
        state.undo()
    assert state.text() == texts[-9]
    # Pickling starts from the oldest position kept.
    state.play(state.legal_moves()[0])
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.moves == state.moves
    again.undo()
    assert again.text() == texts[-9]


@pytest.mark.parametrize("game", glacier.GAMES)
@pytest.mark.parametrize("impl", IMPLS)
def test_copies_take_the_history_asked_for(impl: Any, game: str) -> None:
    state = played(impl, game, 12, seed=1)
    moves = state.moves
    assert len(moves) == 12
    bare = state.copy()
    assert bare == state and bare.moves == [] and copy.copy(state).moves == []
    with pytest.raises(HistoryNotKeptError, match=r"copy\(history=True\)"):
        bare.undo()
    assert bare == state
    assert state.copy(history=True).moves == moves == copy.deepcopy(state).moves
    assert state.copy(history=False).moves == []
    three = state.copy(history=3)
    assert three.moves == moves[-3:]
    assert state.copy(history=50).moves == moves
    for move in reversed(moves[-3:]):
        assert three.undo() == move
    with pytest.raises(HistoryNotKeptError):
        three.undo()
    # The original keeps everything; a fresh state still has nothing to undo.
    assert state.moves == moves
    with pytest.raises(GlacierError, match="no move to undo") as raised:
        impl.new_game(game).copy().undo()
    assert not isinstance(raised.value, HistoryNotKeptError)


@pytest.mark.parametrize("game", glacier.GAMES)
@pytest.mark.parametrize("impl", IMPLS)
def test_bad_history_arguments_are_refused(impl: Any, game: str) -> None:
    state = played(impl, game, 4)
    for bad in (-1, -5):
        with pytest.raises(InvalidParameterError, match="history"):
            state.copy(history=bad)
        with pytest.raises(InvalidParameterError, match="history_limit"):
            state.history_limit = bad
    for wrong in ("3", 2.5):
        with pytest.raises(TypeError, match="history"):
            state.copy(history=wrong)
        with pytest.raises(TypeError):
            state.history_limit = wrong
    assert state.history_limit is None and len(state.moves) == 4
    state.history_limit = 0
    assert state.moves == []
    with pytest.raises(HistoryNotKeptError, match="history_limit=0"):
        state.undo()


@pytest.mark.parametrize("game", glacier.GAMES)
def test_both_implementations_keep_the_same_plies(game: str) -> None:
    native, ref = played(glacier, game, 30, seed=5), played(reference, game, 30, seed=5)
    assert native.moves == ref.moves
    for impl_state in (native, ref):
        impl_state.history_limit = 7
    assert native.moves == ref.moves and len(native.moves) == 7
    assert pickle.loads(pickle.dumps(native)).text() == pickle.loads(pickle.dumps(ref)).text()
    assert native.copy(history=4).moves == ref.copy(history=4).moves

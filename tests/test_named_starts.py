"""Named starts: a start a game offers besides its own (standard chess in Ice Age Chess) is
one call away in both twins, ``new_game(game, start=name)``, as the game declares it; an
unknown one is refused in the same words. The game's own tests check what its starts are."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import glacier
from conftest import GAMES
from glacier import reference

#: Every named start of every game, as the games declare them (``GameSpec.starts``).
STARTS = [(game, name) for game in GAMES for name in glacier.game_spec(game).starts]


@pytest.mark.parametrize("impl", [glacier, reference], ids=["native", "reference"])
@pytest.mark.parametrize(("game", "name"), STARTS)
def test_a_named_start_is_its_text_with_the_parameters_it_implies(game: str, name: str, impl: Any) -> None:
    text, implied = glacier.game_spec(game).starts[name]
    assert reference.game_module(game).FACTS.starts[name] == (text, implied)
    state = impl.new_game(game, start=name)
    assert state.text() == text
    assert state == impl.from_text(game, text, **implied)
    assert {k: state.params[k] for k in implied} == implied
    # Parameters given explicitly win over those the start implies.
    for param in glacier.game_spec(game).params:
        if param.name in implied:
            other = param.max if implied[param.name] != param.max else param.min
            assert impl.new_game(game, start=name, **{param.name: other}).params[param.name] == other
    state.play(state.legal_moves()[0])
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.moves == state.moves


def test_some_game_offers_a_named_start() -> None:
    assert STARTS


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("start", ["chess", "", 3, None, "Standard"])
def test_unknown_starts_are_refused_alike_by_both_twins(game: str, start: object) -> None:
    answers = []
    for impl in (glacier, reference):
        if start is None:  # the game's own start
            answers.append(impl.new_game(game, start=start).text())
            continue
        with pytest.raises(glacier.InvalidParameterError) as caught:
            impl.new_game(game, start=start)
        answers.append(str(caught.value))
    assert answers[0] == answers[1]
    assert start is None or answers[0].startswith(f"{game} has no start {start!r}")

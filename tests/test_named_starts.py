"""Named starts: standard chess is one call away in both twins, ``new_game("ice_age_chess",
start="standard")``, and gives the published perft counts without a FEN."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import glacier
from conftest import GAMES
from glacier import reference

STANDARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


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
    assert state.text() == STANDARD
    assert state.params == {"max_plies": 1000, "ice_age_period": 0}
    assert state == impl.from_text("ice_age_chess", STANDARD, ice_age_period=0)
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

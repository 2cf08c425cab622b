"""Hostile input for both twins (Hypothesis): position and move texts made by mutating real
ones with NUL bytes, lone surrogates, characters outside the Basic Multilingual Plane,
non-ASCII digits and numbers far beyond every range, and huge parameter values.

The two implementations must agree word for word and raise only the errors of
``glacier.errors``, lone surrogates and huge inputs included; a message never holds a raw
surrogate (it is written ``\\udXXX``) nor more than a short prefix of a huge input.
"""

from __future__ import annotations

import functools
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import glacier
from conftest import GAMES, make_state, read_perft_fixtures
from glacier import reference

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Numbers at and beyond the edges of every integer type a reader might use.
HUGE = [
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211457",
    "9" * 60,
    "-1",
    "-9223372036854775809",
    "0" * 40 + "1",
]
#: Characters and pieces a reader must refuse or take in its stride.
ODD = ["\x00", "\x00\x00", "\U0001f9ca", "\U00010000", "\u0663", "\uff11", "\u00a0", "\t", "\n", "", " ", "  "]
SURROGATES = ["\ud800", "\udbff\udbff", "\udc80", "\udcff", "\udfff"]


def _real_states(game: str) -> list[Any]:
    """The start, every fixture position and a few positions reached by random play."""
    states = [glacier.new_game(game)]
    states += [make_state(glacier, record) for record in read_perft_fixtures() if record["game"] == game]
    for seed, plies in ((1, 7), (2, 25), (3, 80)):
        state, rng = glacier.new_game(game), random.Random(seed)
        for _ in range(plies):
            moves = state.legal_moves()
            if not moves:
                break
            state.play(rng.choice(moves))
        states.append(state)
    return states


STATES = {game: _real_states(game) for game in GAMES}


def _mutate(base: str, edits: list[tuple[int, int, str]], number: tuple[int, str] | None) -> str:
    """``base`` with each edit ``(position, length, piece)`` replacing ``length`` characters
    at ``position`` (modulo the length) by ``piece``, and one run of digits replaced by a
    number."""
    text = base
    if number is not None:
        runs = list(re.finditer(r"\d+", text))
        if runs:
            run = runs[number[0] % len(runs)]
            text = text[: run.start()] + number[1] + text[run.end() :]
    for position, length, piece in edits:
        at = position % (len(text) + 1)
        text = text[:at] + piece + text[at + length :]
    return text


def mutations(bases: list[str], pieces: list[str]) -> st.SearchStrategy[str]:
    piece = st.one_of(st.sampled_from(pieces), st.text(alphabet=st.sampled_from("".join(pieces) or "x"), max_size=4))
    edit = st.tuples(st.integers(0, 10**4), st.integers(0, 3), piece)
    number = st.none() | st.tuples(st.integers(0, 50), st.sampled_from(HUGE))
    return st.builds(_mutate, st.sampled_from(bases), st.lists(edit, max_size=3), number)


def answer(action: Any) -> tuple[str, str]:
    try:
        return "ok", str(action())
    except Exception as err:  # the class and message are what is compared
        return type(err).__name__, str(err)


def _read(impl: Any, game: str, text: str) -> str:
    state = impl.from_text(game, text)
    return f"{state.text()} {state.hash()} {state.is_terminal()} {state.returns()}"


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_hostile_position_texts_get_the_same_answer_from_both_twins(game: str, data: st.DataObject) -> None:
    bases = [state.text() for state in STATES[game]]
    text = data.draw(mutations(bases, ODD + HUGE))
    native = answer(lambda: _read(glacier, game, text))
    ref = answer(lambda: _read(reference, game, text))
    assert native == ref
    assert native[0] in ("ok", "InvalidPositionError", "InvalidParameterError")


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_hostile_move_texts_get_the_same_answer_from_both_twins(game: str, data: st.DataObject) -> None:
    position = data.draw(st.sampled_from([state.text() for state in STATES[game]]))
    native, ref = glacier.from_text(game, position), reference.from_text(game, position)
    moves = native.legal_moves() or ["pass", "a1a2"]
    move = data.draw(mutations(moves, ODD + HUGE))
    played = answer(lambda: native.play(move))
    assert played == answer(lambda: ref.play(move))
    assert played[0] in ("ok", "IllegalMoveError")
    assert native.text() == ref.text()
    if played[0] != "ok":
        assert native.text() == position


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_lone_surrogates_are_refused_in_the_same_words_and_change_nothing(game: str, data: st.DataObject) -> None:
    states = STATES[game]
    text = data.draw(mutations([state.text() for state in states], SURROGATES))
    if not any("\ud800" <= ch <= "\udfff" for ch in text):
        text += SURROGATES[0]
    refused = answer(lambda: glacier.from_text(game, text))
    assert refused == answer(lambda: reference.from_text(game, text))
    assert refused[0] == "InvalidPositionError"
    assert_printable(refused[1])

    position = data.draw(st.sampled_from([state.text() for state in states]))
    native, ref = glacier.from_text(game, position), reference.from_text(game, position)
    move = data.draw(mutations(native.legal_moves() or ["pass"], SURROGATES))
    if not any("\ud800" <= ch <= "\udfff" for ch in move):
        move = SURROGATES[-1] + move
    for method in ("play", "move_to_actions"):
        refused = answer(lambda m=method: getattr(native, m)(move))
        assert refused == answer(lambda m=method: getattr(ref, m)(move))
        assert refused[0] == "IllegalMoveError"
        assert_printable(refused[1])
    assert native.text() == ref.text() == position


def assert_printable(message: str) -> None:
    """A message prints anywhere: no raw surrogates, and no more of an input than a prefix."""
    message.encode("utf-8")
    assert len(message) < 400, message


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data(), size=st.integers(41, 20_000), piece=st.sampled_from(["x", "1", "/", " ", "\ud800", "é"]))
def test_a_huge_input_is_quoted_by_a_short_prefix_in_the_same_words(
    game: str, data: st.DataObject, size: int, piece: str
) -> None:
    base = data.draw(st.sampled_from([state.text() for state in STATES[game]]))
    at = data.draw(st.integers(0, len(base)))
    text = base[:at] + piece * size + base[at:]
    refused = answer(lambda: _read(glacier, game, text))
    assert refused == answer(lambda: _read(reference, game, text))
    assert_printable(refused[1])
    move = piece * size
    native, ref = glacier.from_text(game, base), reference.from_text(game, base)
    played = answer(lambda: native.play(move))
    assert played == answer(lambda: ref.play(move))
    assert played[0] == "IllegalMoveError"
    assert_printable(played[1])


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(value=st.one_of(st.integers(min_value=2**32), st.integers(max_value=-1)))
def test_huge_and_negative_parameters_are_refused_by_both_twins(game: str, value: int) -> None:
    for name in [p.name for p in glacier.game_spec(game).params]:
        with pytest.raises(glacier.InvalidParameterError):
            glacier.new_game(game, **{name: value})
        with pytest.raises(glacier.InvalidParameterError):
            reference.new_game(game, **{name: value})


@pytest.mark.parametrize("game", GAMES)
def test_numbers_of_thousands_of_digits_in_every_field_get_the_same_answer(game: str) -> None:
    """Python's int() refuses strings of over 4300 digits: the reference must not ask it."""
    fields = glacier.new_game(game).text().split(" ")
    for i in range(len(fields)):
        text = " ".join([*fields[:i], "7" * 5000, *fields[i + 1 :]])
        refused = answer(functools.partial(_read, glacier, game, text))
        assert refused[0] != "ok"
        assert refused == answer(functools.partial(_read, reference, game, text))

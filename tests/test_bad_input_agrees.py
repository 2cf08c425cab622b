"""Bad input, differentially: mangled position texts and mangled moves must get the same
answer from the engine and the reference (the same exception class and message, or the
same accepted position), and a rejected move must leave both states unchanged."""

from __future__ import annotations

import random
from typing import Any

import pytest

import glacier
from conftest import GAMES
from glacier import reference

ALPHABET = "WBRGKPNQpnbrqk*/0123456789 -+,:=xabcdefghm'\"é"
PARAMS = {"martian_chinese_checkers": {"players": 3}}


def mangle(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(chars) + 1)
        roll = rng.random()
        if roll < 0.4 and chars:
            chars[min(i, len(chars) - 1)] = rng.choice(ALPHABET)
        elif roll < 0.7:
            chars.insert(i, rng.choice(ALPHABET))
        elif chars:
            del chars[min(i, len(chars) - 1)]
    return "".join(chars)


def outcome(action: Any) -> tuple[str, str]:
    try:
        return "ok", str(action())
    except Exception as err:  # the class and message are what is compared
        return type(err).__name__, str(err)


@pytest.mark.parametrize("game", GAMES)
def test_mangled_texts(game: str) -> None:
    rng = random.Random(11)
    params = PARAMS.get(game, {})
    state = glacier.new_game(game, **params)
    texts = []
    for _ in range(40):  # texts from along a random game, not just the start
        texts.append(state.text())
        moves = state.legal_moves()
        if not moves:
            break
        state.play(rng.choice(moves))
    for _ in range(600):
        text = mangle(rng.choice(texts), rng)
        native = outcome(lambda t=text: glacier.from_text(game, t, **params).text())
        ref = outcome(lambda t=text: reference.from_text(game, t, **params).text())
        assert native == ref, text


@pytest.mark.parametrize("params", [{}, {"players": 2}, {"players": 3}])
def test_mangled_texts_whose_player_count_is_read_from_the_text(params: dict[str, int]) -> None:
    """E's texts state their number of players: with no ``players`` given both twins take the
    text's, and a given one that disagrees gets the same parameter error from both."""
    game = "martian_chinese_checkers"
    rng = random.Random(13)
    texts = [glacier.new_game(game, players=n).text() for n in (2, 3, 6)]
    for _ in range(300):
        text = mangle(rng.choice(texts), rng)
        native = outcome(lambda t=text: glacier.from_text(game, t, **params).text())
        ref = outcome(lambda t=text: reference.from_text(game, t, **params).text())
        assert native == ref, text


@pytest.mark.parametrize("game", GAMES)
def test_mangled_moves(game: str) -> None:
    rng = random.Random(12)
    params = PARAMS.get(game, {})
    native, ref = glacier.new_game(game, **params), reference.new_game(game, **params)
    for _ in range(300):
        legal = native.legal_moves()
        if not legal:
            break
        for _ in range(3):
            move = mangle(rng.choice(legal), rng)
            before = native.text()
            answers = []
            for state in (native, ref):
                answers.append(outcome(lambda s=state, m=move: s.play(m)))
                if answers[-1][0] == "ok":
                    state.undo()
            assert answers[0] == answers[1], move
            assert native.text() == ref.text() == before
        move = rng.choice(legal)
        native.play(move)
        ref.play(move)

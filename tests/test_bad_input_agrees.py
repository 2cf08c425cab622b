"""Bad input, differentially: mangled position texts and mangled moves must get the same
answer from the engine and the reference (the same exception class and message, or the
same accepted position), and a rejected move must leave both states unchanged."""

from __future__ import annotations

import random
from typing import Any, Optional

import pytest

import glacier
from conftest import GAMES
from glacier import reference

ALPHABET = "WBRGKPNQpnbrqk*/0123456789 -+,:=xabcdefghm'\"é"


def players_param(game: str) -> Optional[glacier.ParamSpec]:
    """The ``players`` parameter of ``game``, if its number of players is one."""
    return next((p for p in glacier.game_spec(game).params if p.name == "players"), None)


#: Games that take a number of players are played here by one more than the fewest.
PARAMS = {game: {"players": spec.min + 1} for game in GAMES if (spec := players_param(game)) is not None}
#: For those games: no ``players`` given, and the two smallest numbers given.
COUNT_CHOICES = [
    (game, choice) for game in PARAMS for choice in ({}, {"players": PARAMS[game]["players"] - 1}, PARAMS[game])
]


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


@pytest.mark.parametrize(("game", "params"), COUNT_CHOICES)
def test_mangled_texts_whose_player_count_is_read_from_the_text(game: str, params: dict[str, int]) -> None:
    """The texts of a game with a number of players (E) state it: with no ``players`` given
    both twins take the text's, and a given one that disagrees gets the same parameter error
    from both."""
    spec = players_param(game)
    assert spec is not None
    rng = random.Random(13)
    texts = [glacier.new_game(game, players=n).text() for n in (spec.min, spec.min + 1, spec.max)]
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


#: Values no argument takes, or beyond every range: floats (NaN among them), bools, strings,
#: None where an int is needed, negative and huge integers (one past 64 bits, and one far
#: beyond 128 bits, shown by its size).
BAD_VALUES: list[Any] = [1.0, 2.5, float("nan"), float("inf"), True, False, "3", b"3", [1]]
BAD_VALUES += [-1, -(2**70), 2**64, 2**70, 2**300]


def calls(state: Any, value: Any) -> dict[str, Any]:
    impl = reference if type(state).__module__.startswith("glacier.reference") else glacier
    return {
        "apply_action": lambda: state.apply_action(value),
        "action_to_move": lambda: state.action_to_move(value),
        "action_to_string": lambda: state.action_to_string(value),
        "observation": lambda: state.observation(value).shape,
        "perft": lambda: state.perft(value),
        "perft_divide": lambda: state.perft_divide(value),
        "play": lambda: state.play(value),
        "move_to_actions": lambda: state.move_to_actions(value),
        "new_game": lambda: impl.new_game(state.game, max_plies=value),
    }


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("value", BAD_VALUES, ids=repr)
def test_bad_values_get_the_same_glacier_error_from_both_twins(game: str, value: Any) -> None:
    params = PARAMS.get(game, {})
    native, ref = glacier.new_game(game, **params), reference.new_game(game, **params)
    for name, call in calls(native, value).items():
        got = outcome(call)
        assert got == outcome(calls(ref, value)[name]), name
        assert got[0] in ("IllegalMoveError", "InvalidParameterError"), (name, got)
    assert native.text() == ref.text() == glacier.new_game(game, **params).text()


@pytest.mark.parametrize("value", [2**70, 2**64, 256, -1, 1000])
def test_perft_beyond_its_deepest_depth_is_refused_by_both_twins_without_recursing(value: int) -> None:
    for game in GAMES:
        for impl in (glacier, reference):
            with pytest.raises(glacier.InvalidParameterError, match="perft depth must be between 0 and 255"):
                impl.new_game(game).perft(value)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda g: glacier.playouts(g, 1, seed=-1), "seed must be between 0 and 18446744073709551615, got -1"),
        (lambda g: glacier.playouts(g, 1, seed=2**64), "seed must be between 0 and 18446744073709551615"),
        (lambda g: glacier.playouts(g, 1, cutoff=-1), "cutoff must be between 0 and 4294967295, got -1"),
        (lambda g: glacier.playouts(g, 1.0), "games must be an integer, got float"),
        (lambda g: glacier.playouts(g, -3), "games must be >= 0, got -3"),
        (lambda g: glacier.playouts(g, 1, threads=True), "threads must be an integer, got bool"),
        (lambda g: glacier.playouts(g, 1, position="\ud800"), "the position text '\\ud800' is not text"),
        (lambda g: glacier.VectorEnv(g, num_envs=2**64), "num_envs must be at most 18446744073709551615"),
        (lambda g: glacier.VectorEnv(g, num_envs=0), "num_envs must be >= 1, got 0"),
        (lambda g: glacier.VectorEnv(g, num_envs=True), "num_envs must be an integer, got bool"),
        (lambda g: glacier.VectorEnv(g, num_envs=2, seed=-1), "seed must be between 0 and"),
        (lambda g: glacier.VectorEnv(g, num_envs=2, agent=2**70), "the agent's seat must be at most"),
        (lambda g: glacier.VectorEnv(g, num_envs=2).step([1.0, 2.0]), "actions must be integers"),
        (lambda g: glacier.VectorEnv(g, num_envs=2).step([float("nan"), 3]), "actions must be integers"),
        (lambda g: glacier.VectorEnv(g, num_envs=2).step([True, False]), "actions must be integers"),
        (lambda g: glacier.VectorEnv(g, num_envs=2).play_move(0, "\udc80"), "the move '\\udc80' is not text"),
        (
            lambda g: glacier.VectorEnv(g, num_envs=2).play_move(2**70, "pass"),
            "no environment 1180591620717411303424",
        ),
        (lambda g: glacier.VectorEnv(g, num_envs=2).legal_mask(1.5), "env must be an integer, got float"),
        (lambda g: glacier.VectorEnv(g, num_envs=2).observations(2**70), "player must be between 0 and 1"),
    ],
)
def test_bad_batch_arguments_raise_glacier_errors(call: Any, message: str) -> None:
    for game in GAMES:
        with pytest.raises(glacier.GlacierError) as raised:
            call(game)
        assert message in str(raised.value), game

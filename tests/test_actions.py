"""The action-level API of every game, engine and reference: a fixed numbering whose names
mean the same in every position, moves as short sequences of actions whose states in
between are real states, and observations from any player's point of view."""

from __future__ import annotations

import os
import pickle
import random
from typing import Any, Callable

import numpy as np
import pytest

import glacier
from conftest import GAMES, game_tests
from glacier import reference
from glacier.errors import GlacierError, IllegalMoveError, InvalidParameterError

#: Random states visited per game by the position-independence check (engine).
STATES = int(os.environ.get("GLACIER_ACTION_STATES", "3000"))


def _variants(game: str) -> list[dict[str, Any]]:
    """The game's declared variants without a ply limit (the walks set their own), each once."""
    out: list[dict[str, Any]] = []
    for variant in glacier.game_spec(game).variants:
        if "max_plies" not in variant and variant not in out:
            out.append(dict(variant))
    return out


#: Parameters that give every game its variety (E with every number of players).
VARIANTS: dict[str, list[dict[str, Any]]] = {game: _variants(game) for game in GAMES}


def _takes_several_actions(game: str) -> bool:
    """Whether some move of the game takes more than one action."""
    return int(reference.game_module(game).MAX_CHOSEN_ACTIONS) > 1


def _after(state: Any, action: int) -> list[str]:
    """The moves still open after ``action``: the one it completes, or the legal moves of the
    state it leaves."""
    child = state.copy()
    child.apply_action(action)
    if child.pending_actions:
        return child.legal_moves()  # type: ignore[no-any-return]
    return [child.moves[-1]]


def _check_meaning(game: str, state: Any, action: int, name: str, after: list[str]) -> None:
    """The name of an action says what it does, in every position: checked against the moves
    still open once it is taken (by the game's own test module)."""
    where = f"{game}: action {action} ({name!r}) in {state.text()!r} after {state.pending_actions}"
    assert after, where
    game_tests(game).check_action_meaning(state, name, after, where)


def _walk(state: Any, rng: random.Random, visit: Callable[[Any], None], states: int) -> int:
    """Takes random actions from ``state`` (a fresh game each time one ends), calling ``visit``
    on every state, until ``states`` states have been visited."""
    start = state.copy()
    seen = 0
    while seen < states:
        visit(state)
        seen += 1
        legal = state.legal_actions()
        if not legal:
            state = start.copy()
            continue
        state.apply_action(rng.choice(legal))
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_an_action_means_the_same_in_every_position(game: str) -> None:
    names: dict[int, str] = {}
    counts = {"between moves": 0, "in a move": 0}

    def visit(state: Any) -> None:
        counts["in a move" if state.pending_actions else "between moves"] += 1
        for action in state.legal_actions():
            name = state.action_to_string(action)
            assert names.setdefault(action, name) == name, f"action {action} is {names[action]!r} and {name!r}"
            _check_meaning(game, state, action, name, _after(state, action))

    variants = VARIANTS[game]
    for i, params in enumerate(variants):
        _walk(glacier.new_game(game, max_plies=150, **params), random.Random(i), visit, STATES // len(variants))
    assert counts["between moves"] >= STATES // 2
    if _takes_several_actions(game):
        assert counts["in a move"] > 0, "no state in the middle of a move was visited"
    assert all(0 <= a < glacier.num_distinct_actions(game) for a in names)


@pytest.mark.parametrize("game", GAMES)
def test_the_reference_names_actions_alike(game: str) -> None:
    def visit(state: Any) -> None:
        for action in state.legal_actions():
            name = state.action_to_string(action)
            _check_meaning(game, state, action, name, _after(state, action))

    _walk(reference.new_game(game, max_plies=60), random.Random(5), visit, 150)


@pytest.mark.parametrize("impl", [glacier, reference], ids=["native", "reference"])
@pytest.mark.parametrize("game", GAMES)
def test_actions_reach_the_states_whole_moves_reach(game: str, impl: Any) -> None:
    rng = random.Random(1)
    for params in VARIANTS[game][:3]:
        by_actions = impl.new_game(game, max_plies=80, **params)
        by_moves = by_actions.copy()
        while not by_moves.is_terminal():
            move = rng.choice(by_moves.legal_moves())
            mover = by_moves.current_player
            actions = by_actions.move_to_actions(move)
            assert 1 <= len(actions) <= by_actions.max_game_length
            for i, action in enumerate(actions):
                assert action in by_actions.legal_actions()
                expected = move if i == len(actions) - 1 else None
                assert by_actions.action_to_move(action) == expected
                by_actions.apply_action(action)
                if i < len(actions) - 1:
                    # A state in the middle of a move: the same player, a real choice, not over.
                    assert by_actions.current_player == mover and not by_actions.is_terminal()
                    assert len(by_actions.legal_actions()) >= 2
                    assert by_actions.pending_actions == actions[: i + 1]
                    assert move in by_actions.legal_moves()
            by_moves.play(move)
            assert (by_actions.text(), by_actions.hash()) == (by_moves.text(), by_moves.hash())
            assert by_actions.moves == by_moves.moves and by_actions == by_moves
        assert by_actions.returns() == by_moves.returns()
        assert by_actions.action_history() == by_moves.action_history()


def _mid_move(impl: Any, game: str) -> Any:
    """A state in the middle of a move, found by random play."""
    rng = random.Random(3)
    state = impl.new_game(game)
    for _ in range(2000):
        if state.pending_actions:
            return state
        if state.is_terminal():
            state = impl.new_game(game)
        state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError(f"no move of {game} took two actions")


@pytest.mark.parametrize("impl", [glacier, reference], ids=["native", "reference"])
@pytest.mark.parametrize("game", [game for game in GAMES if _takes_several_actions(game)])
def test_a_state_in_the_middle_of_a_move(game: str, impl: Any) -> None:
    state = _mid_move(impl, game)
    text, pending, legal_moves = state.text(), state.pending_actions, state.legal_moves()
    # Whole-move play goes on from the actions taken, and refuses a move they do not allow.
    others = [m for m in impl.new_game(game).legal_moves() if m not in legal_moves]
    for bad in others[:3]:
        with pytest.raises(IllegalMoveError):
            state.play(bad)
    with pytest.raises(IllegalMoveError, match="undo_action"):
        state.undo()
    assert (state.text(), state.pending_actions) == (text, pending)
    # Copies, pickles and equality keep the actions taken.
    twin = state.copy()
    assert twin == state and twin.pending_actions == pending
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.pending_actions == pending and again.legal_actions() == state.legal_actions()
    assert impl.from_text(game, text) != state
    # undo_action takes the actions back one by one, then the moves before.
    history = state.action_history()
    taken = [state.undo_action() for _ in range(len(pending))]
    assert taken == pending[::-1] and not state.pending_actions and state.text() == text
    last = state.undo_action()
    assert state.action_history() == history[: -len(pending) - 1] + state.pending_actions
    assert last == history[-len(pending) - 1]
    # A whole move from here plays as usual.
    twin.play(legal_moves[0])
    assert not twin.pending_actions and twin.moves[-1] == legal_moves[0]


@pytest.mark.parametrize("impl", [glacier, reference], ids=["native", "reference"])
def test_bad_actions_raise_and_change_nothing(game: str, impl: Any) -> None:
    state = impl.new_game(game)
    before = state.text()
    n = state.num_distinct_actions
    illegal = next(a for a in range(n) if a not in state.legal_actions())
    for bad in (-1, n, illegal):
        with pytest.raises(IllegalMoveError):
            state.apply_action(bad)
        with pytest.raises(IllegalMoveError):
            state.action_to_move(bad)
    for bad in (-1, n, 10**6):
        with pytest.raises(InvalidParameterError):
            state.action_to_string(bad)
    for bad in (-1, state.num_players):
        with pytest.raises(InvalidParameterError):
            state.observation(bad)
    with pytest.raises(GlacierError):
        state.undo_action()
    assert state.text() == before and not state.pending_actions


def test_sizes_from_the_module_functions(game: str) -> None:
    state = glacier.new_game(game, max_plies=50)
    assert glacier.num_distinct_actions(game, max_plies=50) == state.num_distinct_actions <= 10_000
    assert glacier.max_game_length(game, max_plies=50) == state.max_game_length
    assert glacier.max_game_length(game, max_plies=100) == 2 * state.max_game_length > 0
    assert glacier.observation_shape(game) == tuple(state.observation_shape)
    ref = reference.new_game(game, max_plies=50)
    assert (ref.num_distinct_actions, ref.max_game_length, ref.observation_shape) == (
        state.num_distinct_actions,
        state.max_game_length,
        state.observation_shape,
    )
    mask = state.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (state.num_distinct_actions,)
    assert np.flatnonzero(mask).tolist() == state.legal_actions()


@pytest.mark.parametrize("impl", [glacier, reference], ids=["native", "reference"])
def test_every_player_sees_itself_in_the_same_place(game: str, impl: Any) -> None:
    """Every start is symmetric between the players, so from every player's point of view
    the start looks the same, except for who is to move (a game's own test module may name
    the variants whose starts are symmetric: ``SYMMETRIC_VARIANTS``)."""
    own = game_tests(game)
    for params in getattr(own, "SYMMETRIC_VARIANTS", VARIANTS[game]):
        state = impl.new_game(game, **params)
        planes = own.to_move_planes(state.num_players)
        views = [state.observation(p) for p in range(state.num_players)]
        assert views[0].shape == tuple(state.observation_shape) and views[0].dtype == np.float32
        keep = [i for i in range(views[0].shape[0]) if i not in planes]
        for p, view in enumerate(views):
            np.testing.assert_array_equal(view[keep], views[0][keep], err_msg=f"player {p} of {params}")
            assert view.min() >= 0.0 and view.max() <= 1.0
        assert not np.array_equal(views[0], views[1]), "who is to move shows"
        np.testing.assert_array_equal(state.observation(), views[state.current_player])

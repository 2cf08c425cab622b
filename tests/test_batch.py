"""Parallel perft, playouts and the batched environment, on every built game."""

from __future__ import annotations

import random

import numpy as np
import pytest

import glacier
from glacier import reference
from glacier.errors import IllegalMoveError, InvalidParameterError


def test_parallel_perft_and_divide_match_serial(game: str) -> None:
    state = glacier.new_game(game)
    serial = state.perft(3)
    for threads in (0, 2, 3):
        assert state.perft(3, threads=threads) == serial
    divide = state.perft_divide(3, threads=2)
    assert list(divide) == state.legal_moves()
    assert sum(divide.values()) == serial
    assert divide == reference.new_game(game).perft_divide(3)


def test_bad_threads(game: str) -> None:
    with pytest.raises(InvalidParameterError, match="threads"):
        glacier.new_game(game).perft(2, threads=-1)


def test_playouts_are_deterministic_whatever_the_threads(game: str) -> None:
    one = glacier.playouts(game, 30, seed=5, threads=1)
    many = glacier.playouts(game, 30, seed=5, threads=3)
    for a, b in zip(one, many):
        np.testing.assert_array_equal(a, b)
    other = glacier.playouts(game, 30, seed=6, threads=1)
    assert not all(np.array_equal(a, b) for a, b in zip(one, other)), "another seed plays other games"


def test_playout_results_are_consistent(game: str) -> None:
    result = glacier.playouts(game, 50, seed=1, max_plies=120)
    assert result.finished.all()  # the ply limit ends every game
    assert (result.length <= 120).all()
    players = glacier.new_game(game).num_players
    assert result.returns.shape == (50, players)
    for winner, returns in zip(result.winner, result.returns):
        if winner >= 0:
            assert returns[winner] == 1.0 and returns.sum() == pytest.approx(0.0)
        else:
            assert (returns == 0).all()
    assert (result.legal_moves >= result.length).all()


def test_playout_cutoff(game: str) -> None:
    result = glacier.playouts(game, 10, seed=1, cutoff=3)
    assert (result.length <= 3).all()
    assert (result.winner[~result.finished] == -1).all()


def test_vector_env_matches_the_state_api(game: str) -> None:
    """Stepping the batched environment equals playing the same moves one by one."""
    env = glacier.VectorEnv(game, num_envs=3, seed=2, max_plies=60)
    shadows = [glacier.new_game(game, max_plies=60) for _ in range(3)]
    rng = random.Random(0)
    endings = 0
    for _ in range(150):
        assert env.texts() == [s.text() for s in shadows]
        np.testing.assert_array_equal(env.current_players(), [s.current_player for s in shadows])
        np.testing.assert_array_equal(env.legal_counts(), [len(s.legal_moves()) for s in shadows])
        actions = []
        for i, shadow in enumerate(shadows):
            listed = env.legal_actions(i)
            assert sorted(text for _, text in listed) == shadow.legal_moves()
            action, text = rng.choice(listed)
            actions.append(action)
            shadow.play(text)
        if env.num_actions is not None:
            mask = env.legal_mask()
            assert mask.shape == (3, env.num_actions)
            assert all(mask[i, a] for i, a in enumerate(actions))
        result = env.step(actions)
        for i, shadow in enumerate(shadows):
            assert result.terminated[i] == shadow.is_terminal()
            if shadow.is_terminal():
                endings += 1
                np.testing.assert_array_equal(result.returns[i], shadow.returns())
                assert result.episode_lengths[i] == len(shadow.moves)
                shadows[i] = glacier.new_game(game, max_plies=60)  # auto-reset
            else:
                assert (result.returns[i] == 0).all()
    assert endings > 0


def test_vector_env_rejects_illegal_actions_without_playing(game: str) -> None:
    env = glacier.VectorEnv(game, num_envs=2)
    before = env.texts()
    with pytest.raises(IllegalMoveError, match="environment 1"):
        env.step([env.legal_actions(0)[0][0], 10**6])
    assert env.texts() == before
    with pytest.raises(IllegalMoveError):
        env.step([-1, -1])
    with pytest.raises(InvalidParameterError, match="expected 2 actions"):
        env.step([0])


def test_vector_env_without_auto_reset_stops(game: str) -> None:
    env = glacier.VectorEnv(game, num_envs=1, auto_reset=False, max_plies=2)
    env.step(env.sample_actions())
    result = env.step(env.sample_actions())
    assert result.terminated[0]
    with pytest.raises(IllegalMoveError, match="ended"):
        env.step([0])
    env.reset()
    assert env.texts() == [glacier.new_game(game, max_plies=2).text()]


def test_vector_env_observations(game: str) -> None:
    env = glacier.VectorEnv(game, num_envs=2)
    if not env.observation_shape:
        pytest.skip(f"{game} has no observation encoding")
    obs = env.observations()
    assert obs.shape == (2, *env.observation_shape) and obs.dtype == np.float32
    assert obs.any()


def test_bad_env_parameters() -> None:
    with pytest.raises(InvalidParameterError):
        glacier.VectorEnv("kuba", num_envs=0)
    with pytest.raises(InvalidParameterError):
        glacier.VectorEnv("kuba", num_envs=2, no_such=1)

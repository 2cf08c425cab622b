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
    """Stepping the batched environment equals taking the same actions one by one."""
    env = glacier.VectorEnv(game, num_envs=3, seed=2, max_plies=60)
    shadows = [glacier.new_game(game, max_plies=60) for _ in range(3)]
    rng = random.Random(0)
    endings = 0
    for _ in range(200):
        assert env.texts() == [s.text() for s in shadows]
        np.testing.assert_array_equal(env.current_players(), [s.current_player for s in shadows])
        mask = env.legal_mask()
        assert mask.shape == (3, env.num_actions)
        obs = env.observations()
        assert obs.shape == (3, *env.observation_shape)
        actions = []
        for i, shadow in enumerate(shadows):
            listed = env.legal_actions(i)
            assert [a for a, _ in listed] == shadow.legal_actions() == np.flatnonzero(mask[i]).tolist()
            assert [name for _, name in listed] == [shadow.action_to_string(a) for a, _ in listed]
            assert env.pending_actions(i) == shadow.pending_actions
            np.testing.assert_array_equal(obs[i], shadow.observation())
            np.testing.assert_array_equal(env.observations(player=0)[i], shadow.observation(0))
            action = rng.choice(listed)[0]
            actions.append(action)
            shadow.apply_action(action)
        result = env.step(actions)
        for i, shadow in enumerate(shadows):
            over, cut = shadow.is_terminal(), shadow.ended_by_ply_limit()
            assert (result.terminated[i], result.truncated[i]) == (over and not cut, cut)
            if over:
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
    assert env.texts() == before and env.pending_actions(0) == []
    with pytest.raises(IllegalMoveError):
        env.step([-2, -1])
    env.step([-1, -1])  # -1 takes no action
    assert env.texts() == before
    with pytest.raises(InvalidParameterError, match="expected 2 actions"):
        env.step([0])


def test_vector_env_resets_each_environment_on_its_own(game: str) -> None:
    env = glacier.VectorEnv(game, num_envs=3, auto_reset=False, max_plies=2, seed=4)
    start = glacier.new_game(game, max_plies=2).text()
    ended = np.zeros(3, dtype=bool)
    for _ in range(40):
        result = env.step(env.sample_actions())  # -1 for the environments that have ended
        ended |= result.terminated | result.truncated
        if ended[:2].all():
            break
    assert ended[:2].all()
    with pytest.raises(IllegalMoveError, match="has ended"):
        env.step([0, 0, 0])
    env.reset(np.array([True, False, False]))
    texts = env.texts()
    assert texts[0] == start and env.legal_mask()[0].any() and not env.legal_mask()[1].any()
    with pytest.raises(InvalidParameterError):
        env.reset([True])
    env.reset()
    assert env.texts() == [start] * 3


def test_vector_env_against_the_built_in_opponent(game: str) -> None:
    """With an agent's seat, every other seat plays random moves inside the step: the agent
    is to move whenever the game goes on, and its reward is its own return."""
    players = glacier.new_game(game).num_players
    seat = players - 1
    env = glacier.VectorEnv(game, num_envs=4, agent=seat, seed=3, max_plies=40)
    assert env.agent == seat
    endings = 0
    for _ in range(150):
        live = env.legal_mask().any(axis=1)
        assert (env.current_players()[live] == seat).all()
        result = env.step(env.sample_actions())
        done = result.terminated | result.truncated
        endings += int(done.sum())
        np.testing.assert_array_equal(result.rewards, result.returns[:, seat])
    assert endings > 0
    with pytest.raises(InvalidParameterError):
        glacier.VectorEnv(game, num_envs=1, agent=players)


def test_vector_env_plays_whole_moves_too(game: str) -> None:
    env = glacier.VectorEnv(game, num_envs=2, seed=1)
    move = glacier.new_game(game).legal_moves()[0]
    returns, terminated, truncated, length = env.play_move(1, move)
    shadow = glacier.new_game(game)
    shadow.play(move)
    assert env.texts() == [glacier.new_game(game).text(), shadow.text()]
    assert not terminated and not truncated and length == 0 and returns.tolist() == [0.0] * shadow.num_players
    with pytest.raises(IllegalMoveError):
        env.play_move(0, "no such move")


def test_vector_env_observations(game: str) -> None:
    env = glacier.VectorEnv(game, num_envs=2)
    obs = env.observations()
    assert obs.shape == (2, *env.observation_shape) and obs.dtype == np.float32
    assert obs.any() and obs.min() >= 0 and obs.max() <= 1
    np.testing.assert_array_equal(env.observations(env=1), obs[1])
    with pytest.raises(InvalidParameterError):
        env.observations(player=env.num_players)


def test_bad_env_parameters() -> None:
    for game in glacier.GAMES:
        with pytest.raises(InvalidParameterError):
            glacier.VectorEnv(game, num_envs=0)
        with pytest.raises(InvalidParameterError):
            glacier.VectorEnv(game, num_envs=2, no_such=1)


def test_vector_env_writes_into_given_buffers(game: str) -> None:
    """``out=`` buffers, and masks written change by change, equal freshly made arrays."""
    env = glacier.VectorEnv(game, num_envs=5, seed=6, max_plies=30)
    masks = np.zeros((5, env.num_actions), dtype=bool)
    observations = np.full((5, *env.observation_shape), 7.0, dtype=np.float32)
    for _ in range(60):
        assert env.legal_mask(out=masks, changes_only=True) is masks
        np.testing.assert_array_equal(masks, env.legal_mask())
        np.testing.assert_array_equal(env.observations(out=observations), env.observations())
        env.step(env.sample_actions())
    fresh = np.zeros_like(masks)
    env.reset_masks()
    np.testing.assert_array_equal(env.legal_mask(out=fresh, changes_only=True), env.legal_mask())
    with pytest.raises(InvalidParameterError, match=r"C-contiguous|values"):
        env.legal_mask(out=np.zeros((5, 3), dtype=bool))
    with pytest.raises(InvalidParameterError):
        env.observations(out=observations[:, ::2].reshape(-1))


def _observations_kept_change_by_change(game: str, **params: object) -> None:
    """Steps that write observations and masks change by change into kept buffers (one
    array, then two in turn, then three in turn, so that each write may find its array
    written by another), across resets, viewpoints that change, moves of several actions
    and a full write in between, leave exactly what a fresh full write gives."""
    env = glacier.VectorEnv(game, num_envs=7, seed=3, max_plies=25, **params)
    # Not zeros: the first write into each array is whole.
    kept = [np.full((7, *env.observation_shape), 7.0, dtype=np.float32) for _ in range(3)]
    masks = [np.ones((7, env.num_actions), dtype=bool) for _ in range(3)]
    rng = np.random.default_rng(1)
    for turn in range(180):
        player = [None, 0, env.num_players - 1][turn // 20 % 3]
        arrays = 1 + turn // 60  # how many arrays are used in turn
        out, mask = kept[turn % arrays], masks[turn % arrays]
        env.step(env.sample_actions(), observations_out=out, masks_out=mask, player=player)
        np.testing.assert_array_equal(out, env.observations(player))
        np.testing.assert_array_equal(mask, env.legal_mask())
        if turn % 17 == 5:
            env.reset(rng.random(7) < 0.5)
            written = env.observations(player, out=out, changes_only=True)
            np.testing.assert_array_equal(written, env.observations(player))
            np.testing.assert_array_equal(env.legal_mask(out=mask, changes_only=True), env.legal_mask())
        if turn == 100:
            env.observations(out=out)  # a full write: the next step into it writes afresh
            env.legal_mask(out=mask)
    other = np.zeros_like(kept[0])  # another array is written in full, not change by change
    env.step(env.sample_actions(), observations_out=other)
    np.testing.assert_array_equal(other, env.observations())


def test_observations_written_change_by_change(game: str) -> None:
    _observations_kept_change_by_change(game)


#: Every number of players of the games that take one (E), as (game, players).
PLAYER_COUNTS = [
    (game, players)
    for game in glacier.GAMES
    for spec in glacier.game_spec(game).params
    if spec.name == "players"
    for players in range(spec.min, spec.max + 1)
]


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS)
def test_observations_of_every_number_of_players_written_change_by_change(game: str, players: int) -> None:
    _observations_kept_change_by_change(game, players=players)


def test_gymnasium_vector_env_lends_read_only_buffers(game: str) -> None:
    """With ``copy=False`` the arrays a step returns are the buffers the next step brings up
    to date: they refuse writes, and hold what ``copy=True`` returns."""
    pytest.importorskip("gymnasium")
    from glacier.gymnasium_env import GlacierVectorEnv

    lent = GlacierVectorEnv(game, 4, copy=False, max_plies=30)
    copied = GlacierVectorEnv(game, 4, max_plies=30)
    obs, _ = lent.reset(seed=2)
    fresh, _ = copied.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(80):
        for key in ("observation", "action_mask"):
            np.testing.assert_array_equal(obs[key], fresh[key])
            with pytest.raises(ValueError, match="read-only"):
                obs[key][0, 0] = 1
        actions = (fresh["action_mask"] * rng.random(fresh["action_mask"].shape[1])).argmax(axis=1)
        obs = lent.step(actions)[0]
        fresh = copied.step(actions)[0]

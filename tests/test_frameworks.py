"""The framework adapters, each tested with the framework itself: OpenSpiel (its random
simulation test and MCTS), Gymnasium (its environment checker) and PettingZoo (its API test)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import glacier
from conftest import GAMES

pyspiel = pytest.importorskip("pyspiel")
gymnasium = pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")

import glacier.openspiel  # noqa: E402  (registers the games)
from glacier.gymnasium_env import GlacierEnv, GlacierVectorEnv  # noqa: E402
from glacier.pettingzoo_env import env as aec_env  # noqa: E402

#: Short games keep the framework tests quick.
SHORT = {"max_plies": 40}


def test_every_built_game_is_registered_with_openspiel() -> None:
    names = set(pyspiel.registered_names())
    assert {f"glacier_{g}" for g in GAMES} <= names


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_random_simulation(game: str) -> None:
    spiel_game = pyspiel.load_game(f"glacier_{game}(max_plies=40)")
    assert spiel_game.num_players() == glacier.new_game(game).num_players
    pyspiel.random_sim_test(spiel_game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_states_follow_the_engine(game: str) -> None:
    spiel_game = pyspiel.load_game(f"glacier_{game}", SHORT)
    state = spiel_game.new_initial_state()
    shadow = glacier.new_game(game, **SHORT)
    rng = random.Random(0)
    while not state.is_terminal():
        assert str(state) == shadow.text()
        assert sorted(state.action_to_string(a) for a in state.legal_actions()) == shadow.legal_moves()
        assert all(0 <= a < spiel_game.num_distinct_actions() for a in state.legal_actions())
        action = rng.choice(state.legal_actions())
        shadow.play(state.action_to_string(action))
        state.apply_action(action)
    assert state.returns() == shadow.returns()


def test_openspiel_mcts_plays() -> None:
    from open_spiel.python.algorithms import mcts

    spiel_game = pyspiel.load_game("glacier_kuba", SHORT)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [mcts.MCTSBot(spiel_game, 2, 30, evaluator, random_state=np.random.RandomState(i)) for i in range(2)]
    state = spiel_game.new_initial_state()
    for _ in range(6):
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_env_checker(game: str) -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(GlacierEnv(game, **SHORT), skip_render_check=True)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_episode(game: str) -> None:
    env = GlacierEnv(game, **SHORT)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    total, steps, terminated = 0.0, 0, False
    while not terminated:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated
        total += reward
        steps += 1
    assert steps <= SHORT["max_plies"]
    assert len(info["returns"]) == glacier.new_game(game).num_players


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_vector_env(game: str) -> None:
    envs = GlacierVectorEnv(game, num_envs=4, **SHORT)
    obs, _info = envs.reset(seed=3)
    assert envs.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(60):
        masks = obs["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, truncated, _info = envs.step(actions)
        assert envs.observation_space.contains(obs)
        assert rewards.shape == terminated.shape == truncated.shape == (4,)
        ended += int(terminated.sum())
    assert ended > 0


# Dict observations with an action mask are what PettingZoo's own classic games use; its
# API test merely suggests Box or Discrete.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api(game: str) -> None:
    from pettingzoo.test import api_test

    api_test(aec_env(game, **SHORT), num_cycles=60, verbose_progress=False)

"""The framework adapters, each driven by the framework itself: OpenSpiel (its random
simulation test, its MCTS and a few training steps of its AlphaZero), Gymnasium (its
environment checker, ``make`` and ``make_vec`` by id, every autoreset mode) and PettingZoo
(its API and seed tests, E with 2 to 6 players)."""

from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
import tempfile
from typing import Any

import numpy as np
import pytest

import glacier
from conftest import GAMES

pyspiel = pytest.importorskip("pyspiel")
gymnasium = pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")

import glacier.openspiel  # noqa: E402  (registers the games)
from glacier.gymnasium_env import ENV_IDS, GlacierEnv, GlacierVectorEnv  # noqa: E402
from glacier.pettingzoo_env import env as aec_env  # noqa: E402
from glacier.players import RandomPlayer  # noqa: E402

#: Short games keep the framework tests quick.
SHORT = {"max_plies": 40}


def players_param(game: str) -> Any:
    """The ``players`` parameter of ``game`` (None if its number of players is fixed)."""
    return next((p for p in glacier.game_spec(game).params if p.name == "players"), None)


#: Every game, and those with a number of players (E) with each number they take.
VARIANTS = [
    (game, {"players": n} if spec else {})
    for game in GAMES
    for spec in [players_param(game)]
    for n in (range(spec.min, spec.max + 1) if spec else [None])
]
#: A game with a number of players.
MANY = next(game for game in GAMES if players_param(game))


def env_id(game: str) -> str:
    """The Gymnasium id of ``game``: ``glacier/`` and its name in CamelCase, version 0."""
    return "glacier/" + "".join(word.title() for word in game.split("_")) + "-v0"


VARIANT_IDS = [f"{g}-{p['players']}" if p else g for g, p in VARIANTS]

# --- OpenSpiel ---------------------------------------------------------------------------


def test_every_built_game_is_registered_with_openspiel() -> None:
    names = set(pyspiel.registered_names())
    assert {f"glacier_{g}" for g in GAMES} <= names


@pytest.mark.parametrize(("game", "params"), VARIANTS, ids=VARIANT_IDS)
def test_openspiel_random_simulation(game: str, params: dict[str, Any]) -> None:
    spiel_game = pyspiel.load_game(f"glacier_{game}", {**SHORT, **params})
    assert spiel_game.num_players() == glacier.new_game(game, **params).num_players
    assert spiel_game.num_distinct_actions() == glacier.num_distinct_actions(game)
    assert spiel_game.max_game_length() == glacier.max_game_length(game, **SHORT)
    pyspiel.random_sim_test(spiel_game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_states_follow_the_engine(game: str) -> None:
    spiel_game = pyspiel.load_game(f"glacier_{game}", SHORT)
    state = spiel_game.new_initial_state()
    shadow = glacier.new_game(game, **SHORT)
    rng = random.Random(0)
    while not state.is_terminal():
        assert state.legal_actions() == shadow.legal_actions()
        assert state.current_player() == shadow.current_player
        for player in range(spiel_game.num_players()):
            np.testing.assert_array_equal(
                np.asarray(state.observation_tensor(player)), shadow.observation(player).reshape(-1)
            )
        mask = np.asarray(state.legal_actions_mask(), dtype=bool)
        np.testing.assert_array_equal(mask, shadow.legal_action_mask())
        action = rng.choice(state.legal_actions())
        assert state.action_to_string(action) == shadow.action_to_string(action)
        shadow.apply_action(action)
        state.apply_action(action)
        assert state.history() == shadow.action_history()
    assert state.returns() == shadow.returns()


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_serialize_is_the_action_history_and_undo_goes_back(game: str) -> None:
    spiel_game = pyspiel.load_game(f"glacier_{game}", SHORT)
    state = spiel_game.new_initial_state()
    rng = random.Random(1)
    seen = []
    while not state.is_terminal():
        seen.append(str(state))
        player, action = state.current_player(), rng.choice(state.legal_actions())
        state.apply_action(action)
        if rng.random() < 0.3:
            state.undo_action(player, action)
            assert str(state) == seen[-1]
            state.apply_action(action)
    text = state.serialize()
    assert text == "\n".join(map(str, state.history())) + "\n"
    assert spiel_game.new_initial_state().serialize() == "\n"  # as OpenSpiel's own games write it
    again = spiel_game.deserialize_state(text)
    assert str(again) == str(state) and again.returns() == state.returns()
    with pytest.raises(pyspiel.SpielError):
        state.undo_action(0, state.history()[-1] + 1)  # not the last action
    last = state.history()[-1]
    state.undo_action(glacier_player_of_last(spiel_game, state.history()), last)
    assert str(state) == seen[-1] and not state.is_terminal()


def glacier_player_of_last(spiel_game: Any, history: list[int]) -> int:
    """The player who took the last action of ``history``."""
    state = spiel_game.new_initial_state()
    for action in history[:-1]:
        state.apply_action(action)
    return int(state.current_player())


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_mcts_plays(game: str) -> None:
    from open_spiel.python.algorithms import mcts

    spiel_game = pyspiel.load_game(f"glacier_{game}", SHORT)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        mcts.MCTSBot(spiel_game, 2, 12, evaluator, random_state=np.random.RandomState(i))
        for i in range(spiel_game.num_players())
    ]
    state = spiel_game.new_initial_state()
    for _ in range(6):
        if state.is_terminal():
            break
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.filterwarnings("ignore:Pay attention that you've been using the `nnx` api")
@pytest.mark.parametrize("game", GAMES)
def test_openspiel_alpha_zero_trains(game: str) -> None:
    """OpenSpiel's AlphaZero (the JAX one in open_spiel.python.algorithms.alpha_zero: its
    model, its MCTS bot with the network as evaluator, its training step) learns for a few
    steps on a tiny network from games of self-play. Its multi-process runner, which sends
    the game to processes of its own, is run by tests/test_openspiel_alphazero.py."""
    pytest.importorskip("flax")
    from open_spiel.python.algorithms.alpha_zero import alpha_zero, evaluator, utils

    spiel_game = pyspiel.load_game(f"glacier_{game}", {"max_plies": 10})
    with tempfile.TemporaryDirectory() as path:
        config = alpha_zero.Config(
            game=f"glacier_{game}",
            path=path,
            learning_rate=0.01,
            weight_decay=1e-4,
            decouple_weight_decay=False,
            train_batch_size=8,
            replay_buffer_size=64,
            replay_buffer_reuse=1,
            max_steps=3,
            checkpoint_freq=100,
            actors=1,
            evaluators=0,
            evaluation_window=10,
            eval_levels=1,
            uct_c=2.0,
            max_simulations=4,
            policy_alpha=1.0,
            policy_epsilon=0.25,
            temperature=1.0,
            temperature_drop=4,
            nn_model="mlp",
            nn_width=16,
            nn_depth=1,
            observation_shape=spiel_game.observation_tensor_shape(),
            output_size=spiel_game.num_distinct_actions(),
            verbose=False,
            quiet=True,
        )
        model = alpha_zero._init_model_from_config(config)
        bot = alpha_zero._init_bot(config, spiel_game, evaluator.AlphaZeroEvaluator(spiel_game, model), False)

        class Quiet:
            def opt_print(self, *args: Any) -> None: ...
            def print(self, *args: Any) -> None: ...

        examples = []
        while len(examples) < 3 * config.train_batch_size:
            trajectory = alpha_zero._play_game(Quiet(), 0, spiel_game, (bot, bot), 1.0, 4)
            for s in trajectory.states:
                assert s.legals_mask[s.action] and np.isclose(s.policy.sum(), 1.0)
                examples.append(
                    utils.TrainInput(
                        observation=np.asarray(s.observation, dtype=np.float32),
                        legals_mask=np.asarray(s.legals_mask, dtype=bool),
                        policy=np.asarray(s.policy, dtype=np.float32),
                        value=np.asarray(trajectory.returns[0], dtype=np.float32),
                    )
                )
        size = config.train_batch_size
        losses = [model.update(utils.TrainInput.stack(examples[i * size : (i + 1) * size])) for i in range(3)]
    assert all(np.isfinite(float(loss.total)) for loss in losses)


# --- Gymnasium ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_make_by_id_and_the_env_checker(game: str) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(ENV_IDS[game], render_mode="ansi", **SHORT)
    assert isinstance(env.unwrapped, GlacierEnv) and env.unwrapped.game == game
    assert env.metadata["render_fps"] > 0
    check_env(env.unwrapped)
    env.reset(seed=0)
    assert isinstance(env.render(), str)


def test_gymnasium_finds_the_environments_by_id_alone() -> None:
    """What the installed .pth file does at start-up (tests/test_wheel.py checks the wheel
    installs it): after the hook, importing Gymnasium registers glacier's environments."""
    code = (
        "import sys, _glacier_games_gymnasium_hook, gymnasium\n"
        "assert 'glacier' not in sys.modules or 'glacier.gymnasium_env' in sys.modules\n"
        f"e = gymnasium.make({env_id(GAMES[-1])!r})\n"
        f"print(e.unwrapped.game, all(i in gymnasium.registry for i in {[env_id(g) for g in GAMES]!r}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [GAMES[-1], "True"]
    # Imported the other way round (glacier's module first), nothing is registered twice.
    code = "import _glacier_games_gymnasium_hook, glacier.gymnasium_env as g, gymnasium; print(len(g.ENV_IDS))"
    out = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(len(GAMES))


def test_gymnasium_make_imports_the_module_from_the_id() -> None:
    name = f"glacier.gymnasium_env:{env_id(GAMES[0])}"
    code = f"import gymnasium; e = gymnasium.make({name!r}); print(e.unwrapped.game)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == GAMES[0]


def test_gymnasium_rgb_array(game: str) -> None:
    pytest.importorskip("cairosvg")
    env = GlacierEnv(game, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3 and frame.std() > 0


def _play_episode(env: Any, seed: int) -> tuple[float, bool, bool, dict[str, Any], int]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if terminated or truncated:
            return reward, terminated, truncated, info, steps


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_ply_limit_truncates_and_a_real_end_terminates(game: str) -> None:
    seen = set()
    for seed in range(40):
        reward, terminated, truncated, info, _ = _play_episode(GlacierEnv(game, max_plies=30), seed)
        assert terminated != truncated
        state = glacier.new_game(game, max_plies=30)
        assert len(info["returns"]) == state.num_players
        seen.add("truncated" if truncated else "terminated")
        if not truncated:
            assert reward != 0 or info["returns"] == [0.0] * state.num_players
    assert "truncated" in seen
    # A game that ends by its rules before the ply limit terminates.
    short = [GlacierEnv(game, max_plies=1000) for _ in range(1)]
    # Random games of E nearly never finish: its flat Monte Carlo player cuts its playouts.
    if glacier.game_spec(game).playout_plies == 0:
        ends = [_play_episode(short[0], seed)[1] for seed in range(10)]
        assert any(ends)


class FirstMove:
    """A player that always plays the first legal move (a stand-in for a search player)."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, state: Any) -> str:
        self.calls += 1
        return str(state.legal_moves()[0])


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_against_an_opponent(game: str) -> None:
    seat = glacier.new_game(game).num_players - 1
    for opponent in ("random", FirstMove()):
        env = GlacierEnv(game, opponent=opponent, agent=seat, **SHORT)
        obs, info = env.reset(seed=2)
        assert info["current_player"] == seat
        rng = np.random.default_rng(0)
        done = False
        while not done:
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done = terminated or truncated
            if not done:
                assert info["current_player"] == seat
        assert reward == info["returns"][seat]
        np.testing.assert_array_equal(obs["observation"], env.state.observation(seat))
    assert isinstance(opponent, FirstMove) and opponent.calls > 0
    with pytest.raises(glacier.InvalidParameterError):
        GlacierEnv(game, opponent="nobody")


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_illegal_actions(game: str) -> None:
    env = GlacierEnv(game)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    strict = GlacierEnv(game, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(glacier.IllegalMoveError):
        strict.step(illegal)


def _random_actions(masks: Any, rng: Any) -> Any:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


@pytest.mark.parametrize("mode", ["NextStep", "SameStep", "Disabled"])
@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_vector_env_follows_its_autoreset_mode(game: str, mode: str) -> None:
    from gymnasium.vector import AutoresetMode

    envs = gymnasium.make_vec(
        ENV_IDS[game], num_envs=4, vectorization_mode="vector_entry_point", autoreset_mode=mode, max_plies=8
    )
    assert isinstance(envs.unwrapped, GlacierVectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode(mode)
    start = GlacierEnv(game, max_plies=8).reset(seed=0)[0]
    obs, _ = envs.reset(seed=3)
    assert envs.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    ended = np.zeros(4, dtype=bool)
    endings = 0
    for _ in range(80):
        obs, rewards, terminated, truncated, info = envs.step(_random_actions(obs["action_mask"], rng))
        assert envs.observation_space.contains(obs)
        assert rewards.shape == terminated.shape == truncated.shape == (4,)
        done = terminated | truncated
        endings += int(done.sum())
        if mode == "NextStep":
            # The step after an end restarts the environment: its observation is the start's.
            for i in np.flatnonzero(ended):
                np.testing.assert_array_equal(obs["observation"][i], start["observation"])
                assert not done[i] and rewards[i] == 0
            ended = done
        elif mode == "SameStep" and done.any():
            assert (info["_final_obs"] == done).all()
            for i in np.flatnonzero(done):
                np.testing.assert_array_equal(obs["observation"][i], start["observation"])
                assert not info["final_obs"][i]["action_mask"].any()
        elif mode == "Disabled" and done.any():
            with pytest.raises(glacier.IllegalMoveError):
                envs.step(_random_actions(obs["action_mask"], rng))
            obs, _ = envs.reset(options={"reset_mask": done})
            for i in np.flatnonzero(done):
                np.testing.assert_array_equal(obs["observation"][i], start["observation"])
    assert endings > 0


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_vector_env_against_opponents(game: str) -> None:
    seat = glacier.new_game(game).num_players - 1
    for opponent in ("random", RandomPlayer(5)):
        envs = GlacierVectorEnv(game, 3, opponent=opponent, agent=seat, max_plies=20)
        obs, info = envs.reset(seed=1)
        rng = np.random.default_rng(1)
        endings = 0
        for _ in range(60):
            live = obs["action_mask"].any(axis=1)
            assert (info["current_player"][live] == seat).all()
            obs, rewards, terminated, truncated, info = envs.step(_random_actions(obs["action_mask"], rng))
            done = terminated | truncated
            endings += int(done.sum())
            np.testing.assert_array_equal(rewards[done], info["returns"][done, seat])
        assert endings > 0


# --- PettingZoo --------------------------------------------------------------------------


# Dict observations with an action mask are what PettingZoo's own classic games use; its
# API test merely suggests Box or Discrete.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(("game", "params"), VARIANTS, ids=VARIANT_IDS)
def test_pettingzoo_api_and_seed_tests(game: str, params: dict[str, Any]) -> None:
    from pettingzoo.test import api_test, seed_test

    api_test(aec_env(game, **SHORT, **params), num_cycles=60, verbose_progress=False)
    seed_test(functools.partial(aec_env, game, **SHORT, **params), num_cycles=60)


@pytest.mark.parametrize(("game", "params"), VARIANTS, ids=VARIANT_IDS)
def test_pettingzoo_observes_from_each_agent(game: str, params: dict[str, Any]) -> None:
    env = aec_env(game, **params)
    env.reset(seed=0)
    state = env.unwrapped.state
    for i, agent in enumerate(env.agents):
        obs = env.observe(agent)
        np.testing.assert_array_equal(obs["observation"], state.observation(i))
        assert obs["action_mask"].any() == (agent == env.agent_selection)


@pytest.mark.filterwarnings("ignore:.*Illegal move made")
def test_pettingzoo_illegal_moves_end_the_game_or_raise(game: str) -> None:
    env = aec_env(game)
    env.reset(seed=0)
    offender = env.agent_selection
    illegal = int(np.flatnonzero(~env.observe(offender)["action_mask"].astype(bool))[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1 and env._cumulative_rewards["player_1"] == 0
    strict = aec_env(game, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(glacier.IllegalMoveError):
        strict.step(illegal)


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
def test_pettingzoo_truncates_at_the_ply_limit() -> None:
    env = aec_env(MANY, players=3, max_plies=6)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(env.truncations.values()) and not any(env.terminations.values())


def test_the_openspiel_extra_leaves_the_engine_alone() -> None:
    """``glacier`` imports no framework itself (the adapters are optional)."""
    code = "import sys, glacier; print(sorted(m for m in ('pyspiel', 'gymnasium', 'pettingzoo') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=os.environ)
    assert out.stdout.strip() == "[]"


def test_gymnasium_vector_env_copies_or_lends_its_arrays(game: str) -> None:
    lent = GlacierVectorEnv(game, 3, copy=False)
    copied = GlacierVectorEnv(game, 3, copy=True)
    a, _ = lent.reset(seed=0)
    b, _ = copied.reset(seed=0)
    for key in ("observation", "action_mask"):
        np.testing.assert_array_equal(a[key], b[key])
        assert not a[key].flags.writeable and b[key].flags.writeable
    actions = _random_actions(b["action_mask"], np.random.default_rng(0))
    before = b["observation"].copy()
    a2 = lent.step(actions)[0]
    b2 = copied.step(actions)[0]
    np.testing.assert_array_equal(a2["observation"], b2["observation"])
    np.testing.assert_array_equal(b["observation"], before)  # a copy stays as it was

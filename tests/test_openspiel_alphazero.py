"""glacier's OpenSpiel games and states pickle as pyspiel's own do (a game by its parameters,
a state by its game and actions), so OpenSpiel's multi-process AlphaZero, which sends the
game to the processes it spawns, runs on them.

This module imports ``glacier.openspiel`` only inside its tests, so that a process spawned
to run one of its functions gets the games by unpickling them, as OpenSpiel's actors do."""

from __future__ import annotations

import json
import os
import pickle
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import glacier
from conftest import GAMES
from glacier import reference

pyspiel = pytest.importorskip("pyspiel")


def players_param(game: str) -> Any:
    """The ``players`` parameter of ``game`` (None if its number of players is fixed)."""
    return next((p for p in glacier.game_spec(game).params if p.name == "players"), None)


#: Every game, those with a number of players (E) with each number they take, then the
#: other parameter sets each game declares among its variants.
PICKLED = [
    (game, {"players": n} if spec else {})
    for game in GAMES
    for spec in [players_param(game)]
    for n in (range(spec.min, spec.max + 1) if spec else [None])
]
PICKLED += [
    (game, dict(variant))
    for game in GAMES
    for variant in glacier.game_spec(game).variants
    if set(variant) - {"players"}
]
#: The games whose moves may take several actions.
SEVERAL_ACTIONS = [game for game in GAMES if reference.game_module(game).MAX_CHOSEN_ACTIONS > 1]
#: The game whose games are the shortest (the lowest default ply limit).
QUICK = min(GAMES, key=lambda game: glacier.new_game(game).params["max_plies"] or 0)
PICKLED_IDS = [game + "".join(f"-{k}={v}" for k, v in params.items()) for game, params in PICKLED]


def load(game: str, params: dict[str, Any]) -> Any:
    import glacier.openspiel  # noqa: F401  (registers the games)

    return pyspiel.load_game(f"glacier_{game}", params)


def snapshot(state: Any) -> tuple[Any, ...]:
    """What the players of ``state`` see: everything a round trip must keep."""
    observations = [list(state.observation_tensor(p)) for p in range(state.get_game().num_players())]
    legal = [] if state.is_terminal() else state.legal_actions()
    return str(state), state.history(), state.current_player(), legal, observations, state.returns()


def play_on(state: Any, seed: int, limit: int = 40) -> list[tuple[Any, ...]]:
    """Plays ``state`` on for ``limit`` actions (or to its end), each chosen at random with
    ``seed``, and returns the snapshot after each."""
    rng = random.Random(seed)
    seen = []
    while not state.is_terminal() and len(seen) < limit:
        state.apply_action(rng.choice(state.legal_actions()))
        seen.append(snapshot(state))
    return seen


def after(spiel_game: Any, seed: int, actions: int) -> Any:
    """The state after ``actions`` random actions, or at the end if it comes first (the last
    action may be the first of a move of several)."""
    state = spiel_game.new_initial_state()
    rng = random.Random(seed)
    while len(state.history()) < actions and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("game", "params"), PICKLED, ids=PICKLED_IDS)
def test_games_and_states_pickle(game: str, params: dict[str, Any]) -> None:
    """A game comes back with its class and parameters; a state, at the start, in the middle
    of the game and at its end, comes back seeing and playing on exactly as the original."""
    spiel_game = load(game, params)
    again = pickle.loads(pickle.dumps(spiel_game))
    assert type(again) is type(spiel_game) and type(again).__name__.startswith("Glacier")
    assert str(again) == str(spiel_game) and again.get_parameters() == spiel_game.get_parameters()
    assert again.glacier_params == spiel_game.glacier_params == {**glacier.new_game(game).params, **params}
    assert again.num_players() == spiel_game.num_players() == glacier.new_game(game, **params).num_players
    assert again.max_game_length() == spiel_game.max_game_length()
    assert again.observation_tensor_shape() == spiel_game.observation_tensor_shape()
    assert snapshot(again.new_initial_state()) == snapshot(spiel_game.new_initial_state())
    assert pickle.loads(pickle.dumps(type(spiel_game))) is type(spiel_game)

    for seed, actions in [(0, 0), (1, 7), (2, 30)]:
        state = after(spiel_game, seed, actions)
        copy = pickle.loads(pickle.dumps(state))
        assert type(copy) is type(state) and type(copy.get_game()) is type(spiel_game)
        assert copy.get_game().glacier_params == spiel_game.glacier_params
        assert snapshot(copy) == snapshot(state) and copy.serialize() == state.serialize()
        assert play_on(copy, seed) == play_on(state, seed)
    end = after(load(game, {**params, "max_plies": 30}), 3, 10_000)
    copy = pickle.loads(pickle.dumps(end))
    assert end.is_terminal() and copy.is_terminal() and snapshot(copy) == snapshot(end)


@pytest.mark.parametrize("game", SEVERAL_ACTIONS)
def test_states_pickle_in_the_middle_of_a_move_and_after_an_undo(game: str) -> None:
    """A move of several actions (a King's Court jump chain, say) pickles between its actions; a
    state pickles with the actions it has now, not those taken back."""
    spiel_game = load(game, {})
    rng = random.Random(5)
    state = spiel_game.new_initial_state()
    while not state.native.pending_actions:
        if state.is_terminal():
            state = spiel_game.new_initial_state()
        state.apply_action(rng.choice(state.legal_actions()))
    copy = pickle.loads(pickle.dumps(state))
    assert copy.native.pending_actions == state.native.pending_actions
    assert snapshot(copy) == snapshot(state)
    player, action = state.current_player(), rng.choice(state.legal_actions())
    state.apply_action(action)
    state.undo_action(player, action)
    assert pickle.loads(pickle.dumps(state)).history() == copy.history() == state.history()
    assert play_on(copy, 9) == play_on(state, 9)


def seen_elsewhere(data: bytes) -> tuple[Any, ...]:
    """Run in a spawned process: whether glacier.openspiel was loaded before unpickling, then
    the game's name, each state's snapshot and its play onwards, and the states pickled back."""
    loaded_before = "glacier.openspiel" in sys.modules
    spiel_game, states = pickle.loads(data)
    plays = [play_on(s.clone(), 4) for s in states]
    return loaded_before, str(spiel_game), [snapshot(s) for s in states], plays, pickle.dumps(states)


def test_games_and_states_cross_spawned_processes() -> None:
    """A process started with ``spawn`` (as OpenSpiel's AlphaZero starts its actors) gets the
    games by unpickling them and plays on from the states it is sent; its states come back."""
    import multiprocessing

    sent = []
    for game in GAMES:  # each with the last parameter set it declares among its variants
        spiel_game = load(game, dict(glacier.game_spec(game).variants[-1]))
        sent.append((spiel_game, [after(spiel_game, seed, 5 * seed) for seed in range(4)]))
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        answers = pool.map(seen_elsewhere, [pickle.dumps(item) for item in sent])
    assert not answers[0][0]  # the first unpickling brought the games (the process is reused)
    for (spiel_game, states), (_, name, snapshots, plays, back) in zip(sent, answers):
        assert name == str(spiel_game)
        assert snapshots == [snapshot(s) for s in states]
        assert plays == [play_on(s.clone(), 4) for s in states]
        assert [snapshot(s) for s in pickle.loads(back)] == snapshots


#: Runs OpenSpiel's AlphaZero (its ``alpha_zero.alpha_zero`` entry, as its example script
#: calls it) in a process of its own: its import sets ``spawn`` as the start method for good.
RUNNER = """
import json, sys
from open_spiel.python.algorithms.alpha_zero import alpha_zero
import glacier.openspiel
alpha_zero.alpha_zero(alpha_zero.Config(**json.loads(sys.argv[1])))
"""


def test_openspiel_alpha_zero_runs_with_two_actors(tmp_path: Path) -> None:
    """OpenSpiel's runner spawns two actors, which get the game by unpickling it and play
    games of self-play with a small net; its learner trains for two steps on them. Every game
    an actor logged replays, action by action, to the returns it logged."""
    pytest.importorskip("flax")
    game, params = QUICK, {"max_plies": 10}
    config = {
        "game": f"glacier_{game}(max_plies={params['max_plies']})",
        "path": str(tmp_path),
        "learning_rate": 0.01,
        "weight_decay": 1e-4,
        "decouple_weight_decay": False,
        "train_batch_size": 8,
        "replay_buffer_size": 32,
        "replay_buffer_reuse": 1,
        "max_steps": 2,
        # A checkpoint per step: with fewer, the learner rewrites "checkpoint--1" while the
        # actors may still be loading it.
        "checkpoint_freq": 1,
        "actors": 2,
        "evaluators": 0,
        "evaluation_window": 10,
        "eval_levels": 2,  # the learner divides by eval_levels - 1
        "uct_c": 2.0,
        "max_simulations": 4,
        "policy_alpha": 1.0,
        "policy_epsilon": 0.25,
        "temperature": 1.0,
        "temperature_drop": 4,
        "nn_model": "mlp",
        "nn_width": 16,
        "nn_depth": 1,
        "observation_shape": None,
        "output_size": None,
        "verbose": False,
        "quiet": True,
        "nn_api_version": "linen",  # its example script's default
    }
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, json.dumps(config)], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "actor-0 started" in done.stdout and "actor-1 started" in done.stdout

    steps = [json.loads(line) for line in (tmp_path / "learner.jsonl").read_text().splitlines()]
    assert [s["step"] for s in steps] == [1, 2]
    assert all(s["total_states"] > 0 and s["total_trajectories"] > 0 for s in steps)
    assert all(0.0 < s["loss"]["sum"] < 1e3 for s in steps)

    played = 0
    for actor in (0, 1):
        log = (tmp_path / f"log-actor-{actor}.txt").read_text()
        assert "Exception" not in log
        games = re.findall(r"Game \d+: Returns: ([-\d. ]+); Actions: (.*)", log)
        assert games, log
        for returns, actions in games:
            state = glacier.new_game(game, **params)
            rest = actions.strip()
            while rest:
                # Action texts have spaces ("slot f"): match the legal ones against the log.
                named = {state.action_to_string(a): a for a in state.legal_actions()}
                matches = [t for t in named if rest == t or rest.startswith(t + " ")]
                assert len(matches) == 1, (rest, sorted(named))
                state.apply_action(named[matches[0]])
                rest = rest[len(matches[0]) :].strip()
            assert state.is_terminal()
            assert state.returns() == [float(r) for r in returns.split()]
            played += 1
    assert played >= steps[-1]["total_trajectories"]

"""The searches (glacier.search): forced moves found, reproducible results, the batched
evaluator's arrays, tree reuse, bad input refused with the state unchanged, and Ctrl-C."""

from __future__ import annotations

import doctest
import importlib
import random
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import numpy as np
import pytest

import glacier
from conftest import game_tests
from glacier import errors, players, reference, search

#: Hand-built positions whose best move is forced, with that move: each game declares its
#: own (``FORCED_MOVES`` in its test module: name -> (text, params, move)).
FORCED = {name: (game, *case) for game in glacier.GAMES for name, case in game_tests(game).FORCED_MOVES.items()}

#: The searches' options mean the same in every game; the first of the registry stands for all.
GAME = glacier.GAMES[0]


def _player_counts(game: str) -> list[dict[str, Any]]:
    counts = sorted(glacier.game_spec(game).seats)
    return [{}] if len(counts) == 1 else [{"players": count} for count in counts[:2]]


#: Every game; a game with a choice of players with its two smallest numbers of them.
EVERY_GAME = [(game, params) for game in glacier.GAMES for params in _player_counts(game)]

#: The games whose moves may take several actions.
SEVERAL_ACTIONS = [(g, p) for g, p in EVERY_GAME if reference.game_module(g).MAX_CHOSEN_ACTIONS > 1]

#: The games whose every move is one action.
ONE_ACTION = [g for g in glacier.GAMES if reference.game_module(g).MAX_CHOSEN_ACTIONS == 1]

#: A game of two players (by default), for evaluators that give two values.
TWO_PLAYERS = next(g for g in glacier.GAMES if glacier.new_game(g).num_players == 2)

#: The games whose default MCTS player searches with the heuristic priors.
WITH_PRIORS = [(g, p) for g, p in EVERY_GAME if "priors" in glacier.game_spec(g).mcts_player]


def rollouts(game: str) -> dict[str, Any]:
    """Rollouts that end: cut after the game's playout plies where its random games never finish."""
    plies = glacier.game_spec(game).playout_plies
    return {"rollout_plies": plies} if plies else {}


def position(name: str) -> tuple[Any, str]:
    game, text, params, best = FORCED[name]
    return glacier.from_text(game, text, **params), best


def test_every_game_declares_a_forced_move() -> None:
    assert sorted({game for game, *_ in FORCED.values()}) == sorted(glacier.GAMES)


@pytest.mark.parametrize("name", list(FORCED))
@pytest.mark.parametrize(
    "options",
    [
        {"evaluator": "rollout"},
        {"evaluator": "rollout", "rollout_plies": 4},
        {"evaluator": "heuristic"},
        {"evaluator": "rollout", "rollout_plies": 4, "priors": "heuristic", "rollout_policy": "move_priority"},
        {"evaluator": "heuristic", "priors": "heuristic", "prior_temperature": 0.5},
    ],
    ids=["rollout", "cut rollout", "heuristic", "guided rollout with priors", "heuristic with priors"],
)
def test_mcts_finds_the_forced_move(name: str, options: dict[str, Any]) -> None:
    state, best = position(name)
    before = state.text()
    result = search.mcts(state, simulations=400, seed=3, **options)
    assert result.move == best
    assert result.simulations == 400
    assert max(result.visits, key=result.visits.__getitem__) == best
    assert set(result.visits) == set(state.legal_moves())
    # The root's first simulation evaluates the root itself; every other one follows a move.
    assert sum(result.visits.values()) == 399
    assert result.values[state.current_player] > 0.5
    assert sum(result.values) == pytest.approx(0.0, abs=1e-6)
    assert state.text() == before and state.moves == []


@pytest.mark.parametrize("name", list(FORCED))
def test_alphabeta_finds_the_forced_move(name: str) -> None:
    state, best = position(name)
    result = search.alphabeta(state, depth=4)
    assert (result.move, result.mate, result.score, result.depth) == (best, 1, 1.0, 1)
    assert result.pv == (best,)


@pytest.mark.parametrize("game", glacier.GAMES)
def test_the_same_seed_gives_the_same_search(game: str) -> None:
    state = glacier.new_game(game)
    first = search.mcts(state, simulations=300, seed=11, rollout_plies=30)
    again = search.mcts(state, simulations=300, seed=11, rollout_plies=30)
    assert first == again._replace(seconds=first.seconds)
    other = search.mcts(state, simulations=300, seed=12, rollout_plies=30)
    assert other.visits != first.visits


@pytest.mark.parametrize("game", glacier.GAMES)
def test_root_parallel_gives_the_same_result_for_any_thread_count(game: str) -> None:
    state = glacier.new_game(game)
    results = [
        search.mcts(state, simulations=400, seed=5, threads=threads, parallel="root", trees=4, **rollouts(game))
        for threads in (1, 2, 3)
    ]
    assert all(r.visits == results[0].visits and r.move == results[0].move for r in results)
    assert results[0].simulations == 400


@pytest.mark.parametrize("name", list(FORCED))
def test_tree_parallel_runs_every_simulation(name: str) -> None:
    state, best = position(name)
    result = search.mcts(state, simulations=1000, threads=2, parallel="tree", seed=2)
    assert result.simulations == 1000 and sum(result.visits.values()) == 999
    assert result.move == best


@pytest.mark.parametrize("game", glacier.GAMES)
def test_a_time_budget_ends_the_search(game: str) -> None:
    state = glacier.new_game(game)
    result = search.mcts(state, simulations=None, seconds=0.05)
    assert result.simulations > 0 and result.move in state.legal_moves()


@pytest.mark.parametrize("game", glacier.GAMES)
def test_temperature_draws_moves_by_their_visits(game: str) -> None:
    state = glacier.new_game(game)
    drawn = {search.mcts(state, simulations=100, seed=s, temperature=1.0, **rollouts(game)).move for s in range(12)}
    assert len(drawn) > 1 and drawn <= set(state.legal_moves())


@pytest.mark.parametrize("game", glacier.GAMES)
def test_root_noise_changes_the_search_and_is_seeded(game: str) -> None:
    state = glacier.new_game(game)
    players = state.num_players
    quiet = search.mcts(state, evaluator=Recorder(players), simulations=300, seed=4)
    noisy = search.mcts(state, evaluator=Recorder(players), simulations=300, seed=4, dirichlet_fraction=0.5)
    again = search.mcts(state, evaluator=Recorder(players), simulations=300, seed=4, dirichlet_fraction=0.5)
    assert noisy.visits != quiet.visits
    assert noisy.visits == again.visits
    # The priors reported are the evaluator's; the noise only steers the root's selection.
    assert noisy.priors == quiet.priors


#: The game of the fewest moves at the start: two plies on, the tree kept still holds visits.
NARROWEST = min(glacier.GAMES, key=lambda game: len(glacier.new_game(game).legal_moves()))


def test_tree_reuse_goes_on_from_the_position_reached() -> None:
    searcher = search.MCTS(NARROWEST, evaluator="heuristic", seed=1)
    state = glacier.new_game(NARROWEST)
    first = searcher.search(state, simulations=500)
    size = searcher.tree_size
    state.play(first.move)
    state.play(state.legal_moves()[0])
    second = searcher.search(state, simulations=100)
    # The subtree below the two moves was kept: it holds more than the new simulations.
    assert second.simulations == 100
    assert sum(second.visits.values()) > 99
    assert 0 < searcher.tree_size < size + 100
    fresh = search.MCTS(NARROWEST, evaluator="heuristic", seed=1, reuse=False)
    assert sum(fresh.search(state, simulations=100).visits.values()) == 99


class Recorder:
    """A trivial batched evaluator that keeps the arrays it was given."""

    def __init__(self, players: int = 2) -> None:
        self.calls: list[tuple[np.ndarray, np.ndarray]] = []
        self.players = players

    def __call__(self, observations: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.calls.append((observations.copy(), legal.copy()))
        logits = np.zeros(legal.shape, np.float32)
        return logits, np.zeros((legal.shape[0], self.players), np.float32)


@pytest.mark.parametrize("game", ONE_ACTION)
def test_the_batched_evaluator_sees_observations_and_legal_masks(game: str) -> None:
    # Every move one action: the priors of uniform logits are uniform over the moves.
    states = [glacier.new_game(game), glacier.new_game(game)]
    states[1].play(states[1].legal_moves()[0])
    recorder = Recorder(states[0].num_players)
    results = search.mcts_batch(states, recorder, simulations=40)
    # The first call holds the two roots.
    observations, legal = recorder.calls[0]
    assert observations.dtype == np.float32 and legal.dtype == np.bool_
    assert observations.shape == (2, *states[0].observation_shape)
    assert legal.shape == (2, states[0].num_distinct_actions)
    for row, state in enumerate(states):
        np.testing.assert_array_equal(observations[row], state.observation())
        assert sorted(np.flatnonzero(legal[row])) == state.legal_actions()
    # Then one leaf per tree per call: 39 more calls (some leaves may be finished games).
    assert len(recorder.calls) <= 40
    assert all(c[0].shape[0] <= 2 for c in recorder.calls)
    assert [r.simulations for r in results] == [40, 40]
    for result, state in zip(results, states):
        assert result.priors == pytest.approx(dict.fromkeys(state.legal_moves(), 1 / len(state.legal_moves())))


@pytest.mark.parametrize("game", glacier.GAMES)
def test_a_single_search_batches_leaves_by_virtual_loss(game: str) -> None:
    state = glacier.new_game(game)
    recorder = Recorder(state.num_players)
    result = search.mcts(state, evaluator=recorder, simulations=200, batch_size=16)
    assert result.simulations == 200
    assert len(recorder.calls) < 200 / 4
    assert max(c[0].shape[0] for c in recorder.calls) == 16


@pytest.mark.parametrize("game", [g for g in ONE_ACTION if glacier.new_game(g).num_players == 2])
def test_priors_follow_the_logits_and_values_the_evaluator(game: str) -> None:
    state = glacier.new_game(game)
    target = state.legal_actions()[3]
    move = state.action_to_move(target)
    others = len(state.legal_actions()) - 1

    def favour(observations: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits = np.zeros(legal.shape, np.float32)
        logits[:, target] = 5.0
        values = np.tile(np.array([0.25, -0.25], np.float32), (legal.shape[0], 1))
        return logits, values

    result = search.mcts(state, evaluator=favour, simulations=100)
    assert result.priors[move] == pytest.approx(np.exp(5) / (np.exp(5) + others), rel=1e-5)
    assert result.move == move
    assert result.values == pytest.approx((0.25, -0.25), abs=1e-6)


def game_id(case: tuple[str, dict[str, Any]]) -> str:
    game, params = case
    return game + "".join(f"-{k}{v}" for k, v in params.items())


def sharing_first_actions(game: str, params: dict[str, Any], seed: int = 0) -> Any:
    """A state reached by seeded random moves where two legal moves begin with the same
    action (the first such state of the game)."""
    rng = random.Random(seed)
    state = glacier.new_game(game, **params)
    while len(state.legal_moves()) == len(state.legal_actions()):
        state.play(rng.choice(state.legal_moves()))
        assert not state.is_terminal()
    return state


def first_action_logits(legal: np.ndarray) -> np.ndarray:
    """Logits that differ per action (action number mod 7), the same for every row."""
    return np.tile((np.arange(legal.shape[1]) % 7).astype(np.float32) / 2, (legal.shape[0], 1))


@pytest.mark.parametrize("case", EVERY_GAME, ids=game_id)
def test_the_batched_evaluator_works_in_every_game(case: tuple[str, dict[str, Any]]) -> None:
    game, params = case
    state = sharing_first_actions(game, params) if case in SEVERAL_ACTIONS else glacier.new_game(game, **params)
    players = state.num_players
    calls: list[tuple[np.ndarray, np.ndarray]] = []

    def evaluator(observations: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        calls.append((observations.copy(), legal.copy()))
        values = np.zeros((legal.shape[0], players), np.float32)
        return first_action_logits(legal), values

    before = (state.text(), state.moves)
    result = search.mcts(state, evaluator=evaluator, simulations=60, batch_size=4)
    assert (state.text(), state.moves) == before
    observations, legal = calls[0]
    assert observations.dtype == np.float32 and legal.dtype == np.bool_
    assert observations.shape[1:] == tuple(state.observation_shape)
    assert legal.shape[1] == state.num_distinct_actions
    # The first leaf is the root: its observation, and its legal first actions as the mask.
    np.testing.assert_array_equal(observations[0], state.observation())
    assert list(np.flatnonzero(legal[0])) == sorted(state.legal_actions())
    # A move's prior is its first action's softmax share, split among the moves that begin
    # with that action.
    legal_actions = state.legal_actions()
    logits = first_action_logits(legal[:1])[0]
    softmax = np.exp(logits[legal_actions] - logits[legal_actions].max())
    softmax /= softmax.sum()
    share = dict(zip(legal_actions, softmax))
    firsts = {move: state.move_to_actions(move)[0] for move in state.legal_moves()}
    sharing = {a: sum(1 for f in firsts.values() if f == a) for a in legal_actions}
    assert set(result.priors) == set(state.legal_moves())
    for move, first in firsts.items():
        assert result.priors[move] == pytest.approx(share[first] / sharing[first], rel=1e-5)
    assert sum(result.priors.values()) == pytest.approx(1.0, abs=1e-5)
    if case in SEVERAL_ACTIONS:
        assert max(sharing.values()) >= 2
    # The policy target over actions: visits summed per first action.
    expected: dict[int, int] = {}
    for move, n in result.visits.items():
        expected[firsts[move]] = expected.get(firsts[move], 0) + n
    assert result.action_visits == expected
    assert list(result.action_visits) == sorted(result.action_visits)
    policy = result.action_policy(state.num_distinct_actions)
    assert policy.dtype == np.float32 and policy.shape == (state.num_distinct_actions,)
    assert policy.sum() == pytest.approx(1.0)
    assert set(np.flatnonzero(policy)) <= set(legal_actions)
    assert result.move in state.legal_moves()


@pytest.mark.parametrize("case", SEVERAL_ACTIONS, ids=game_id)
def test_mcts_batch_plays_legal_moves_of_several_actions(case: tuple[str, dict[str, Any]]) -> None:
    game, params = case
    states = [sharing_first_actions(game, params, seed) for seed in range(4)]
    players = states[0].num_players

    def evaluator(observations: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        assert observations.shape[0] == legal.shape[0] <= len(states)
        assert legal.any(axis=1).all()
        values = np.tanh(observations.reshape(len(observations), -1).mean(axis=1, keepdims=True))
        return first_action_logits(legal), np.tile(values, (1, players)).astype(np.float32)

    several = 0  # searched positions with a legal move of several actions
    for _ in range(6):
        going = [s for s in states if not s.is_terminal()]
        if not going:
            break
        results = search.mcts_batch(going, evaluator, simulations=24, seed=5)
        for state, result in zip(going, results):
            assert result.move in state.legal_moves()
            assert sum(result.visits.values()) == sum(result.action_visits.values())
            several += any(len(state.move_to_actions(m)) > 1 for m in state.legal_moves())
            state.play(result.move)
    assert several >= len(states)


@pytest.mark.parametrize("case", EVERY_GAME, ids=game_id)
@pytest.mark.parametrize("bad", ["logits shape", "logits dtype", "values shape", "NaN logits", "NaN values"])
def test_a_bad_evaluator_is_refused_in_every_game(case: tuple[str, dict[str, Any]], bad: str) -> None:
    game, params = case
    state = glacier.new_game(game, **params)
    players = state.num_players

    def evaluator(observations: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits = np.zeros(legal.shape, np.float32)
        values = np.zeros((legal.shape[0], players), np.float32)
        if bad == "logits shape":
            logits = logits[:, :-1]
        elif bad == "logits dtype":
            return logits.astype(np.float64), values
        elif bad == "values shape":
            values = np.zeros((legal.shape[0], players + 1), np.float32)
        elif bad == "NaN logits":
            logits[legal] = np.nan
        else:
            values[:] = np.nan
        return logits, values

    with pytest.raises(errors.EvaluatorError, match=r"shape|dtype|NaN"):
        search.mcts_batch([state, state.copy()], evaluator, simulations=20)
    assert state.moves == []


@pytest.mark.parametrize("case", SEVERAL_ACTIONS, ids=game_id)
def test_a_state_in_the_middle_of_a_move_is_refused(case: tuple[str, dict[str, Any]]) -> None:
    state = sharing_first_actions(*case)
    firsts = [state.move_to_actions(m)[0] for m in state.legal_moves()]
    shared = next(a for a in state.legal_actions() if firsts.count(a) > 1)
    state.apply_action(shared)
    assert state.pending_actions == [shared]
    with pytest.raises(errors.InvalidParameterError, match="middle of"):
        search.mcts(state, simulations=10)
    with pytest.raises(errors.InvalidParameterError, match="middle of"):
        search.alphabeta(state, depth=1)
    assert state.pending_actions == [shared]


def wrong_shape(o: np.ndarray, m: np.ndarray) -> Any:
    return np.zeros((m.shape[0], 3), np.float32), np.zeros((m.shape[0], 2), np.float32)


def wrong_dtype(o: np.ndarray, m: np.ndarray) -> Any:
    return np.zeros(m.shape), np.zeros((m.shape[0], 2), np.float32)


def wrong_values(o: np.ndarray, m: np.ndarray) -> Any:
    return np.zeros(m.shape, np.float32), np.zeros((m.shape[0], 3), np.float32)


def nan_values(o: np.ndarray, m: np.ndarray) -> Any:
    return np.zeros(m.shape, np.float32), np.full((m.shape[0], 2), np.nan, np.float32)


def nan_logits(o: np.ndarray, m: np.ndarray) -> Any:
    return np.full(m.shape, np.nan, np.float32), np.zeros((m.shape[0], 2), np.float32)


def not_arrays(o: np.ndarray, m: np.ndarray) -> Any:
    return [[0.0]], [[0.0, 0.0]]


def not_a_pair(o: np.ndarray, m: np.ndarray) -> Any:
    return np.zeros(m.shape, np.float32)


class Boom(RuntimeError):
    pass


def raising(o: np.ndarray, m: np.ndarray) -> Any:
    raise Boom("the network is down")


@pytest.mark.parametrize(
    ("evaluator", "message"),
    [
        (wrong_shape, "logits must have shape"),
        (wrong_dtype, "dtype float32"),
        (wrong_values, "values must have shape"),
        (nan_values, "is NaN"),
        (nan_logits, "is NaN"),
        (not_arrays, "must be a numpy array"),
        (not_a_pair, "pair"),
        (raising, "raised Boom: the network is down"),
    ],
)
def test_a_bad_evaluator_is_refused_and_the_state_unchanged(evaluator: Any, message: str) -> None:
    state = glacier.new_game(TWO_PLAYERS)
    state.play(state.legal_moves()[0])
    before = (state.text(), state.moves)
    with pytest.raises(errors.EvaluatorError, match=message) as caught:
        search.mcts(state, evaluator=evaluator, simulations=50)
    assert (state.text(), state.moves) == before
    if evaluator is raising:
        assert isinstance(caught.value.__cause__, Boom)
    # The searcher can be used again after the failure.
    searcher = search.MCTS(TWO_PLAYERS, evaluator=evaluator)
    with pytest.raises(errors.EvaluatorError):
        searcher.search(state, simulations=10)
    assert searcher.tree_size == 0


@pytest.mark.parametrize("kind", ["python", "net"])
def test_a_search_with_a_callable_evaluator_refuses_a_time(kind: str) -> None:
    """Its budget is in simulations: ``seconds`` would be ignored, so it is refused."""
    from glacier import learn

    state = glacier.new_game(TWO_PLAYERS)
    evaluator = Recorder(state.num_players) if kind == "python" else learn.baseline(TWO_PLAYERS)
    before = state.text()
    with pytest.raises(errors.InvalidParameterError, match="counts simulations, not seconds"):
        search.mcts(state, evaluator=evaluator, simulations=50, seconds=0.01)
    with pytest.raises(errors.InvalidParameterError, match="counts simulations, not seconds"):
        search.MCTS(TWO_PLAYERS, evaluator=evaluator).search(state, simulations=None, seconds=0.01)
    assert state.text() == before
    assert search.mcts(state, evaluator=evaluator, simulations=50).simulations == 50


def to_play_case(game: str, params: dict[str, Any], plies: int) -> Any:
    rng = random.Random(plies)
    state = glacier.new_game(game, **params)
    for _ in range(plies):
        state.play(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("case", EVERY_GAME, ids=game_id)
def test_an_evaluator_with_to_play_is_given_the_players_to_move(case: tuple[str, dict[str, Any]]) -> None:
    game, params = case
    states = [to_play_case(game, params, plies) for plies in (0, 1, 2)]
    seen: list[np.ndarray] = []

    def evaluator(observations: np.ndarray, legal: np.ndarray, *, to_play: np.ndarray) -> Any:
        seen.append(to_play.copy())
        assert to_play.dtype == np.int64 and to_play.shape == (legal.shape[0],)
        return np.zeros(legal.shape, np.float32), np.zeros((legal.shape[0], states[0].num_players), np.float32)

    search.mcts_batch(states, evaluator, simulations=30)
    # The first call holds the roots.
    assert seen[0].tolist() == [s.current_player for s in states]
    assert all(((t >= 0) & (t < states[0].num_players)).all() for t in seen)


def mover_and_others(players: int, mover_only: bool, to_play_by_keyword: bool = True) -> Any:
    """An evaluator whose value of a leaf depends on its observation only: the mover's
    value alone, or every player's written out as the engine fills them in."""

    def values_of(observations: np.ndarray) -> np.ndarray:
        flat = observations.reshape(observations.shape[0], -1)
        return np.tanh(flat @ np.linspace(-0.05, 0.05, flat.shape[1], dtype=np.float32)).astype(np.float32)

    def evaluator(observations: np.ndarray, legal: np.ndarray, to_play: np.ndarray) -> Any:
        v = values_of(observations)
        logits = first_action_logits(legal)
        if mover_only:
            return logits, v
        other = -v if players == 2 else -v / np.float32(players - 1)
        values = np.repeat(other[:, None], players, axis=1)
        values[np.arange(len(v)), to_play] = v
        return logits, values.astype(np.float32)

    return evaluator


@pytest.mark.parametrize("case", EVERY_GAME, ids=game_id)
def test_an_evaluator_may_give_the_movers_value_alone(case: tuple[str, dict[str, Any]]) -> None:
    game, params = case
    states = [to_play_case(game, params, plies) for plies in (0, 3)]
    players = states[0].num_players
    whole = search.mcts_batch(states, mover_and_others(players, False), simulations=60, batch_size=2)
    alone = search.mcts_batch(states, mover_and_others(players, True), simulations=60, batch_size=2)
    for a, b in zip(whole, alone):
        assert a._replace(seconds=0) == b._replace(seconds=0)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (lambda n, p: np.zeros(n + 1, np.float32), "values must have shape"),
        (lambda n, p: np.zeros((n, p + 1), np.float32), "values must have shape"),
        (lambda n, p: np.zeros((n, 1, p), np.float32), "values must have shape"),
        (lambda n, p: np.zeros(n, np.float64), "dtype float32"),
        (lambda n, p: np.full(n, np.nan, np.float32), r"values\[0\] is NaN"),
    ],
)
def test_a_bad_movers_value_is_refused(values: Any, message: str) -> None:
    # In a game of more than two players, where the mover's value alone does not give the others'.
    game, params = next((g, p) for g, p in EVERY_GAME if glacier.new_game(g, **p).num_players > 2)
    state = glacier.new_game(game, **params)

    def evaluator(observations: np.ndarray, legal: np.ndarray, to_play: np.ndarray) -> Any:
        return np.zeros(legal.shape, np.float32), values(legal.shape[0], state.num_players)

    searcher = search.MCTS(state.game, evaluator=evaluator)
    with pytest.raises(errors.EvaluatorError, match=message):
        searcher.search(state, simulations=10)
    assert searcher.tree_size == 0 and state.moves == []


def one_leaf(case: tuple[str, dict[str, Any]]) -> tuple[Any, np.ndarray, Any]:
    """A position of ``case``'s game, its heuristic values and an evaluator that scores it
    otherwise: one simulation evaluates the root alone, so its values are the leaf's."""
    game, params = case
    state = to_play_case(game, params, 3)
    heuristic = np.array(search.mcts(state, evaluator="heuristic", simulations=1).values)
    return state, heuristic, mover_and_others(state.num_players, False)


@pytest.mark.parametrize("case", EVERY_GAME, ids=game_id)
def test_heuristic_mix_weighs_the_heuristic_into_a_leafs_values(case: tuple[str, dict[str, Any]]) -> None:
    state, heuristic, evaluator = one_leaf(case)
    alone = np.array(search.mcts(state, evaluator=evaluator, simulations=1).values)
    assert not np.allclose(alone, heuristic)
    for weight in (0.25, 1.0):
        mixed = search.mcts(state, evaluator=evaluator, simulations=1, heuristic_mix=weight).values
        assert np.allclose(mixed, (1 - weight) * alone + weight * heuristic, atol=1e-6)
    # The engine's own evaluations are mixed alike (on one thread and on two sharing the
    # tree): a rollout wholly outweighed.
    for threads in (1, 2):
        rollout = search.mcts(state, evaluator="rollout", simulations=1, threads=threads, heuristic_mix=1.0)
        assert np.allclose(rollout.values, heuristic, atol=1e-6)


@pytest.mark.parametrize("case", EVERY_GAME, ids=game_id)
def test_rollout_mix_weighs_a_rollout_into_a_leafs_values(case: tuple[str, dict[str, Any]]) -> None:
    state, heuristic, evaluator = one_leaf(case)
    alone = search.mcts(state, evaluator=evaluator, simulations=1)
    # A rollout cut after 0 plies is the heuristic of the leaf itself.
    for weight in (0.25, 1.0):
        mixed = search.mcts(state, evaluator=evaluator, simulations=1, rollout_mix=weight, rollout_plies=0)
        assert np.allclose(mixed.values, (1 - weight) * np.array(alone.values) + weight * heuristic, atol=1e-6)
        assert mixed.priors == alone.priors
    # With both mixes, the three weights add up to 1.
    both = search.mcts(state, evaluator=evaluator, simulations=1, heuristic_mix=0.5, rollout_mix=0.5, rollout_plies=0)
    assert np.allclose(both.values, heuristic, atol=1e-6)
    # At weight 1 the values are those of the engine's own rollout from the same seed: the
    # rollout draws from the tree's random stream alike, and the net's values are unused.
    for seed in (1, 2):
        rollout = search.mcts(state, evaluator="rollout", simulations=1, seed=seed, rollout_plies=30)
        mixed = search.mcts(state, evaluator=evaluator, simulations=1, seed=seed, rollout_mix=1.0, rollout_plies=30)
        assert np.allclose(mixed.values, rollout.values, atol=1e-6)


def test_a_search_with_rollout_mix_is_the_same_for_any_thread_count() -> None:
    # Each tree draws its rollouts from its own random stream, so trees searched together
    # on one thread or split across two give the same results.
    states = [to_play_case(GAME, {}, plies) for plies in (5, 6, 7, 8)]
    evaluator = mover_and_others(states[0].num_players, True)
    results = []
    for threads in (1, 2):
        searcher = search.MCTS(GAME, evaluator=evaluator, seed=3, threads=threads, rollout_mix=0.5, rollout_plies=10)
        results.append(searcher.search_batch(states, simulations=60, batch_size=4))
    assert [r.visits for r in results[0]] == [r.visits for r in results[1]]
    assert [r.values for r in results[0]] == [r.values for r in results[1]]


def test_an_evaluator_without_to_play_is_called_as_before(game: str) -> None:
    state = glacier.new_game(game)
    calls: list[int] = []

    def positional(*arrays: np.ndarray) -> Any:
        calls.append(len(arrays))
        return np.zeros(arrays[1].shape, np.float32), np.zeros((arrays[1].shape[0], state.num_players), np.float32)

    search.mcts(state, evaluator=positional, simulations=5)
    assert set(calls) == {2}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"simulations": 0}, "simulations must be >= 1"),
        ({"simulations": -5}, "simulations must be >= 1"),
        ({"simulations": None}, "budget"),
        ({"seconds": -1.0}, "seconds"),
        ({"seconds": float("nan")}, "seconds"),
        ({"c_puct": -0.5}, "c_puct"),
        ({"threads": -1}, "threads"),
        ({"evaluator": "neural"}, "unknown evaluator"),
        ({"selection": "greedy"}, "selection"),
        ({"parallel": "both"}, "parallel"),
        ({"trees": 0}, "trees"),
        ({"temperature": -1.0}, "temperature"),
        ({"dirichlet_fraction": 1.5}, "dirichlet_fraction"),
        ({"rollout_plies": -1}, "rollout_plies"),
        ({"evaluator": Recorder(), "batch_size": 0}, "batch_size"),
        ({"priors": "gain"}, "unknown priors"),
        ({"priors": "heuristic", "prior_temperature": 0.0}, "prior_temperature"),
        ({"priors": "heuristic", "prior_temperature": float("inf")}, "prior_temperature"),
        ({"evaluator": Recorder(), "priors": "heuristic"}, "gives its own priors"),
        ({"rollout_policy": "greedy"}, "rollout_policy"),
        ({"evaluator": "heuristic", "rollout_policy": "move_priority"}, "is for rollouts"),
        ({"rollout_policy": "move_priority", "rollout_temperature": -1.0}, "rollout_temperature"),
        ({"rollout_policy": "move_priority", "rollout_temperature": float("nan")}, "rollout_temperature"),
        ({"heuristic_mix": 1.5}, "heuristic_mix must be between 0 and 1"),
        ({"heuristic_mix": -0.1}, "heuristic_mix"),
        ({"heuristic_mix": float("nan")}, "heuristic_mix"),
        ({"rollout_mix": 1.5}, "rollout_mix must be between 0 and 1"),
        ({"rollout_mix": -0.5}, "rollout_mix"),
        ({"rollout_mix": float("nan")}, "rollout_mix"),
        ({"rollout_mix": 0.6, "heuristic_mix": 0.6}, "add up to at most 1"),
    ],
)
def test_bad_search_options_are_refused(options: dict[str, Any], message: str) -> None:
    state = glacier.new_game(GAME)
    with pytest.raises(errors.InvalidParameterError, match=message):
        search.mcts(state, **options)
    assert state.moves == []


@pytest.mark.parametrize("case", EVERY_GAME, ids=game_id)
def test_guided_rollouts_are_seeded_and_differ_from_uniform_ones(case: tuple[str, dict[str, Any]]) -> None:
    game, params = case
    state = glacier.new_game(game, **params)
    options: dict[str, Any] = {"evaluator": "rollout", "rollout_plies": 20, "simulations": 100, "seed": 4}
    guided = search.mcts(state, rollout_policy="move_priority", **options)
    assert guided == search.mcts(state, rollout_policy="move_priority", **options)._replace(seconds=guided.seconds)
    assert guided.visits != search.mcts(state, **options).visits
    assert guided.simulations == 100 and sum(guided.visits.values()) == 99


@pytest.mark.parametrize("case", WITH_PRIORS, ids=game_id)
def test_a_player_spec_takes_the_priors(case: tuple[str, dict[str, Any]]) -> None:
    game, params = case
    player = players.from_spec("mcts:60:rollout10:priors=heuristic:prior_temperature=0.5", seed=2)
    state = glacier.new_game(game, **params)
    move = player.choose(state)
    assert move in state.legal_moves() and player.last is not None
    assert len(set(player.last.priors.values())) > 1
    assert player.last.priors[move] == pytest.approx(max(player.last.priors.values()))


@pytest.mark.parametrize("game", glacier.GAMES)
def test_the_default_mcts_player_searches_as_its_game_declares(game: str) -> None:
    # players.MCTS_DEFAULTS holds each game's declared options; the priors are the
    # heuristic's where the game names them, uniform otherwise.
    declared = glacier.game_spec(game).mcts_player
    assert players.MCTS_DEFAULTS[game] == declared
    state = glacier.new_game(game)
    default = players.from_spec("mcts:30", seed=2)
    named = players.MCTSPlayer(30, seed=2, **declared)
    default.choose(state)
    named.choose(state)
    assert default.last is not None and named.last is not None
    assert (default.last.move, default.last.visits, default.last.priors) == (
        named.last.move,
        named.last.visits,
        named.last.priors,
    )
    assert (len(set(default.last.priors.values())) > 1) == ("priors" in declared)


def test_a_finished_game_or_a_wrong_state_is_refused() -> None:
    state, best = position(next(iter(FORCED)))
    state.play(best)
    assert state.is_terminal()
    with pytest.raises(errors.GlacierError, match="game is over"):
        search.mcts(state, simulations=10)
    with pytest.raises(errors.GlacierError, match="game is over"):
        search.alphabeta(state, depth=2)
    with pytest.raises(errors.InvalidParameterError, match="game state"):
        search.mcts_batch([object()], Recorder(), simulations=10)  # type: ignore[list-item]
    with pytest.raises(errors.InvalidParameterError, match="one game"):
        search.mcts_batch([glacier.new_game(glacier.GAMES[1]), glacier.new_game(GAME)], Recorder())
    searcher = search.MCTS(GAME)
    with pytest.raises(errors.InvalidParameterError, match=f"for {GAME}"):
        searcher.search(glacier.new_game(glacier.GAMES[1]), simulations=10)


def test_alphabeta_options_are_checked() -> None:
    state = glacier.new_game(GAME)
    for options, message in [({"depth": 0}, "depth"), ({"depth": 99}, "depth"), ({"seconds": 0.0}, "seconds")]:
        with pytest.raises(errors.InvalidParameterError, match=message):
            search.alphabeta(state, **options)


@pytest.mark.parametrize("name", list(FORCED))
def test_a_reference_state_can_be_searched(name: str) -> None:
    game, text, params, best = FORCED[name]
    state = reference.from_text(game, text, **params)
    assert search.mcts(state, simulations=200).move == best


INTERRUPTED = """
import sys, glacier
from glacier import search
state = glacier.new_game(sys.argv[1])
options = eval(sys.argv[2])
print("ready", flush=True)
try:
    if "depth" in options:
        search.alphabeta(state, **options)
    else:
        search.mcts(state, **options)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def interrupt(code: str, *args: str) -> None:
    """Runs ``code`` in a child Python, sends SIGINT once it printed ``ready`` and the search
    is under way, and checks that it caught ``KeyboardInterrupt`` within half a second."""
    with subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None
        # A child that never answers is killed, so the reads below end (and the test fails).
        watchdog = threading.Timer(60, child.kill)
        watchdog.start()
        try:
            assert child.stdout.readline().strip() == "ready"
            time.sleep(0.3)
            sent = time.perf_counter()
            child.send_signal(signal.SIGINT)
            assert child.stdout.readline().strip() == "interrupted"
            # A responsiveness promise (the search polls its stop flag), not a speed figure.
            assert time.perf_counter() - sent < 0.5
            assert child.wait(timeout=10) == 0
        finally:
            watchdog.cancel()
            child.kill()


@pytest.mark.parametrize(
    ("game", "options"),
    # Each search would run for a minute or more in any game.
    [
        (GAME, {"simulations": None, "seconds": 60}),
        (GAME, {"simulations": None, "seconds": 60, "threads": 2, "parallel": "tree"}),
        (GAME, {"simulations": 10**9, "threads": 2, "parallel": "root", "evaluator": "heuristic"}),
        (GAME, {"depth": 60}),
    ],
    ids=["mcts", "tree-parallel", "root-parallel", "alphabeta"],
)
def test_a_long_search_stops_on_ctrl_c(game: str, options: dict[str, Any]) -> None:
    interrupt(INTERRUPTED, game, repr(options))


def test_a_python_evaluator_stops_on_ctrl_c() -> None:
    interrupt(
        """
import sys, glacier, numpy as np
from glacier import search
state = glacier.new_game(sys.argv[1])
def trivial(o, m):
    return np.zeros(m.shape, np.float32), np.zeros((m.shape[0], state.num_players), np.float32)
print("ready", flush=True)
try:
    search.mcts(state, evaluator=trivial, simulations=10**9)
except KeyboardInterrupt:
    print("interrupted", flush=True)
""",
        GAME,
    )


@pytest.mark.parametrize("name", ["glacier.search", "glacier.arena", "glacier.openspiel_bot"])
def test_docstring_examples(name: str) -> None:
    # ``glacier.arena`` is the function; the module is in sys.modules.
    result = doctest.testmod(importlib.import_module(name), raise_on_error=False, report=True)
    assert result.attempted > 0 and result.failed == 0

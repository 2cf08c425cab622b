"""The searches (glacier.search): forced moves found, reproducible results, the batched
evaluator's arrays, tree reuse, bad input refused with the state unchanged, and Ctrl-C."""

from __future__ import annotations

import doctest
import importlib
import random
import signal
import subprocess
import sys
import time
from typing import Any

import numpy as np
import pytest

import glacier
from glacier import errors, players, search

#: Hand-built positions whose best move is forced, with that move.
FORCED = {
    # The back-rank mate Ra8#.
    "chess mate in one": ("ice_age_chess", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", {}, "a1a8"),
    "standard chess mate in one": (
        "ice_age_chess",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        {"ice_age_period": 0},
        "a1a8",
    ),
    # White's cube from b lands on the lone King in c: White then holds both King slots.
    "Ice Cube Checkers winning sow": ("ice_cube_checkers", "W/W/K/WK/W/W/B/B/B/B/B/- w 10", {}, "b:W"),
    # d3 jumps Green's only Court piece: Green has none left and loses.
    "King's Court capture emptying the Court": ("kings_court", "7G/8/8/8/3G4/3R4/8/R7 r 10", {}, "d3xd5"),
    # Both sides have 6 Reds and the last one is on g7: f7 pushes it off (the 7th, a win);
    # any other push lets Black push it off from g6.
    "Kuba winning push": ("kuba", "5WR/6B/7/7/BBBBBB1/WWWW3/WWW4 w 6,1 6,0 - - 40", {}, "f7g7"),
    # Colour 0 has 14 pieces in its goal; its small on f8 steps onto e8, the last goal hex.
    "E last piece home": (
        "martian_chinese_checkers",
        "2 0 40 a8=3s0l a9=0l a10=0l a11=0l a12=0l a13=3s3s3s3s3m3m3m3m3m3l3l3l3l3l b8=0m b9=0m b10=0m "
        "b11=0m c8=0s c9=0m c10=0s d8=0s d9=0s f8=0s",
        {},
        "f8/0-e8",
    ),
}

CHESS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def position(name: str) -> tuple[Any, str]:
    game, text, params, best = FORCED[name]
    return glacier.from_text(game, text, **params), best


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


#: Colour 0 home but for its large on a7, whose only goal hex is a10 (a large keeps its
#: hexes modulo 3), walled in by colour 0's own pieces on a8/a9, b10/c10 and b9/c8: one of
#: them has to step out first. (Colour 3 is in the same plight at k5.)
WALLED = (
    "2 0 100 a7=0l a8=0l a9=0m a11=0l a12=0l b8=0s b9=0s b10=0s b11=0m c8=0m c9=0m c10=0m d8=0l "
    "d9=0s e8=0s h6=3l i5=3l i6=3s j5=3s j6=3m k4=3m k6=3l l3=3m l4=3s l6=3m m2=3s m3=3l m4=3l "
    "m5=3m m6=3s"
)


def heuristic(state: Any) -> tuple[float, ...]:
    """The game's heuristic values of ``state``: a search's first simulation evaluates its root."""
    return search.mcts(state, simulations=1, evaluator="heuristic").values


def test_the_e_heuristic_sees_a_goal_hex_walled_in_by_own_pieces() -> None:
    state = glacier.from_text("martian_chinese_checkers", WALLED)
    assert "a7/0-a10" not in state.legal_moves()
    # The wall counts 2 movements on top of the large's one (docs/rules/
    # martian_chinese_checkers.md, "Heuristic"); the medium on a9 stepping out to c7 leaves
    # two in all (the large jumps a8 to a9 and steps in; the medium comes back).
    opened = state.copy()
    opened.play("a9/0-c7")
    assert heuristic(opened)[0] > heuristic(state)[0]
    # So a search player gets out, where the wall used to hold both players to the ply limit.
    for evaluator in ("heuristic", None):
        seats = [players.MCTSPlayer(400, evaluator, seed=seat) for seat in range(2)]
        game = state.copy()
        while not game.is_terminal() and len(game.moves) < 40:
            game.play(seats[game.current_player].choose(game))
        assert game.is_terminal() and game.returns() == [1.0, -1.0], evaluator


def test_alphabeta_and_mcts_see_a_mate_in_two() -> None:
    # Philidor's legacy: 1. Qg8+ Rxg8 (the knight guards g8) 2. Nf7#, a smothered mate.
    state = glacier.from_text("ice_age_chess", "5r1k/6pp/7N/3Q4/8/8/8/6K1 w - - 0 1", ice_age_period=0)
    result = search.alphabeta(state, depth=5)
    assert (result.mate, result.depth, result.pv) == (3, 3, ("d5g8", "f8g8", "h6f7"))
    line = state.copy()
    for move in result.pv:
        line.play(move)
    assert line.is_terminal() and line.returns() == [1.0, -1.0]
    assert search.mcts(state, simulations=2000, seed=1).move == "d5g8"


def test_the_same_seed_gives_the_same_search() -> None:
    state = glacier.from_text("ice_age_chess", CHESS, ice_age_period=0)
    first = search.mcts(state, simulations=300, seed=11, rollout_plies=30)
    again = search.mcts(state, simulations=300, seed=11, rollout_plies=30)
    assert first == again._replace(seconds=first.seconds)
    other = search.mcts(state, simulations=300, seed=12, rollout_plies=30)
    assert other.visits != first.visits


def test_root_parallel_gives_the_same_result_for_any_thread_count() -> None:
    state = glacier.new_game("kings_court")
    results = [
        search.mcts(state, simulations=400, seed=5, threads=threads, parallel="root", trees=4) for threads in (1, 2, 3)
    ]
    assert all(r.visits == results[0].visits and r.move == results[0].move for r in results)
    assert results[0].simulations == 400


def test_tree_parallel_runs_every_simulation() -> None:
    state, best = position("chess mate in one")
    result = search.mcts(state, simulations=1000, threads=2, parallel="tree", seed=2)
    assert result.simulations == 1000 and sum(result.visits.values()) == 999
    assert result.move == best


def test_a_time_budget_ends_the_search() -> None:
    state = glacier.new_game("ice_cube_checkers")
    result = search.mcts(state, simulations=None, seconds=0.05)
    assert result.simulations > 0 and result.move in state.legal_moves()


def test_temperature_draws_moves_by_their_visits() -> None:
    state = glacier.new_game("kings_court")
    drawn = {search.mcts(state, simulations=100, seed=s, temperature=1.0).move for s in range(12)}
    assert len(drawn) > 1 and drawn <= set(state.legal_moves())


def test_root_noise_changes_the_search_and_is_seeded() -> None:
    state = glacier.from_text("ice_age_chess", CHESS, ice_age_period=0)
    quiet = search.mcts(state, evaluator=Recorder(), simulations=300, seed=4)
    noisy = search.mcts(state, evaluator=Recorder(), simulations=300, seed=4, dirichlet_fraction=0.5)
    again = search.mcts(state, evaluator=Recorder(), simulations=300, seed=4, dirichlet_fraction=0.5)
    assert noisy.visits != quiet.visits
    assert noisy.visits == again.visits
    # The priors reported are the evaluator's; the noise only steers the root's selection.
    assert noisy.priors == quiet.priors


def test_tree_reuse_goes_on_from_the_position_reached() -> None:
    searcher = search.MCTS("ice_cube_checkers", evaluator="heuristic", seed=1)
    state = glacier.new_game("ice_cube_checkers")
    first = searcher.search(state, simulations=500)
    size = searcher.tree_size
    state.play(first.move)
    state.play(state.legal_moves()[0])
    second = searcher.search(state, simulations=100)
    # The subtree below the two moves was kept: it holds more than the new simulations.
    assert second.simulations == 100
    assert sum(second.visits.values()) > 99
    assert 0 < searcher.tree_size < size + 100
    fresh = search.MCTS("ice_cube_checkers", evaluator="heuristic", seed=1, reuse=False)
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


def test_the_batched_evaluator_sees_observations_and_legal_masks() -> None:
    states = [glacier.from_text("ice_age_chess", CHESS, ice_age_period=0), glacier.new_game("ice_age_chess")]
    states[1].play(states[1].legal_moves()[0])
    recorder = Recorder()
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


def test_a_single_search_batches_leaves_by_virtual_loss() -> None:
    state = glacier.new_game("ice_age_chess")
    recorder = Recorder()
    result = search.mcts(state, evaluator=recorder, simulations=200, batch_size=16)
    assert result.simulations == 200
    assert len(recorder.calls) < 200 / 4
    assert max(c[0].shape[0] for c in recorder.calls) == 16


def test_priors_follow_the_logits_and_values_the_evaluator() -> None:
    state = glacier.from_text("ice_age_chess", CHESS, ice_age_period=0)
    target = state.legal_actions()[3]
    move = state.action_to_move(target)

    def favour(observations: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits = np.zeros(legal.shape, np.float32)
        logits[:, target] = 5.0
        values = np.tile(np.array([0.25, -0.25], np.float32), (legal.shape[0], 1))
        return logits, values

    result = search.mcts(state, evaluator=favour, simulations=100)
    assert result.priors[move] == pytest.approx(np.exp(5) / (np.exp(5) + 19), rel=1e-5)
    assert result.move == move
    assert result.values == pytest.approx((0.25, -0.25), abs=1e-6)


#: Every game, E with 2 and 3 players.
EVERY_GAME = [
    ("ice_age_chess", {}),
    ("ice_cube_checkers", {}),
    ("kings_court", {}),
    ("kuba", {}),
    ("martian_chinese_checkers", {"players": 2}),
    ("martian_chinese_checkers", {"players": 3}),
]

#: The games whose moves may take several actions (E with 2 and 3 players).
SEVERAL_ACTIONS = [(g, p) for g, p in EVERY_GAME if g not in ("ice_age_chess", "kuba")]


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


def test_a_state_in_the_middle_of_a_move_is_refused() -> None:
    state = sharing_first_actions("ice_cube_checkers", {})
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
    state = glacier.new_game("ice_age_chess")
    state.play(state.legal_moves()[0])
    before = (state.text(), state.moves)
    with pytest.raises(errors.EvaluatorError, match=message) as caught:
        search.mcts(state, evaluator=evaluator, simulations=50)
    assert (state.text(), state.moves) == before
    if evaluator is raising:
        assert isinstance(caught.value.__cause__, Boom)
    # The searcher can be used again after the failure.
    searcher = search.MCTS("ice_age_chess", evaluator=evaluator)
    with pytest.raises(errors.EvaluatorError):
        searcher.search(state, simulations=10)
    assert searcher.tree_size == 0


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
    state = glacier.new_game("martian_chinese_checkers", players=3)

    def evaluator(observations: np.ndarray, legal: np.ndarray, to_play: np.ndarray) -> Any:
        return np.zeros(legal.shape, np.float32), values(legal.shape[0], 3)

    searcher = search.MCTS(state.game, evaluator=evaluator)
    with pytest.raises(errors.EvaluatorError, match=message):
        searcher.search(state, simulations=10)
    assert searcher.tree_size == 0 and state.moves == []


def test_an_evaluator_without_to_play_is_called_as_before() -> None:
    state = glacier.new_game("kuba")
    calls: list[int] = []

    def positional(*arrays: np.ndarray) -> Any:
        calls.append(len(arrays))
        return np.zeros(arrays[1].shape, np.float32), np.zeros((arrays[1].shape[0], 2), np.float32)

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
        ({"evaluator": "heuristic", "rollout_policy": "move_priority"}, "is for the 'rollout' evaluator"),
        ({"rollout_policy": "move_priority", "rollout_temperature": -1.0}, "rollout_temperature"),
        ({"rollout_policy": "move_priority", "rollout_temperature": float("nan")}, "rollout_temperature"),
    ],
)
def test_bad_search_options_are_refused(options: dict[str, Any], message: str) -> None:
    state = glacier.new_game("ice_cube_checkers")
    with pytest.raises(errors.InvalidParameterError, match=message):
        search.mcts(state, **options)
    assert state.moves == []


def test_heuristic_priors_follow_the_work_each_move_saves() -> None:
    # E rates a move by the movements of work (the heuristic's) it saves its player: the
    # priors are a softmax over it, so a move saving one movement more has e (at temperature
    # 1) or e**2 (at 0.5) times the prior, and the search selects by PUCT.
    state = glacier.new_game("martian_chinese_checkers", players=2)
    uniform = search.mcts(state, simulations=50, evaluator="heuristic")
    assert len(set(uniform.priors.values())) == 1
    for temperature in (1.0, 0.5):
        result = search.mcts(
            state, simulations=50, evaluator="heuristic", priors="heuristic", prior_temperature=temperature
        )
        priors = sorted({round(p, 6) for p in result.priors.values()})
        assert sum(result.priors.values()) == pytest.approx(1.0, abs=1e-5)
        assert len(priors) > 1
        ratios = [b / a for a, b in zip(priors, priors[1:])]
        # Neighbouring levels differ by whole movements: e ** (k / temperature) for k >= 1.
        for ratio in ratios:
            k = np.log(ratio) * temperature
            assert k == pytest.approx(round(k), abs=1e-3) and round(k) >= 1
        # PUCT follows the priors: the most visited move is among the most promising.
        best = max(result.priors.values())
        assert result.priors[result.move] == pytest.approx(best)


def test_guided_rollouts_are_seeded_and_differ_from_uniform_ones() -> None:
    state = glacier.new_game("martian_chinese_checkers", players=3)
    options: dict[str, Any] = {"evaluator": "rollout", "rollout_plies": 20, "simulations": 100, "seed": 4}
    guided = search.mcts(state, rollout_policy="move_priority", **options)
    assert guided == search.mcts(state, rollout_policy="move_priority", **options)._replace(seconds=guided.seconds)
    assert guided.visits != search.mcts(state, **options).visits
    assert guided.simulations == 100 and sum(guided.visits.values()) == 99


def test_a_player_spec_takes_the_priors() -> None:
    player = players.from_spec("mcts:60:rollout10:priors=heuristic:prior_temperature=0.5", seed=2)
    state = glacier.new_game("martian_chinese_checkers", players=3)
    move = player.choose(state)
    assert move in state.legal_moves() and player.last is not None
    assert len(set(player.last.priors.values())) > 1
    assert player.last.priors[move] == pytest.approx(max(player.last.priors.values()))


def test_the_default_mcts_player_of_e_searches_with_the_priors() -> None:
    # E's default (players.MCTS_DEFAULTS): rollouts cut after 20 plies, PUCT over the
    # heuristic priors; the same search as naming them, and the other games keep theirs.
    state = glacier.new_game("martian_chinese_checkers", players=3)
    default = players.from_spec("mcts:60", seed=2)
    named = players.MCTSPlayer(60, "rollout", seed=2, rollout_plies=20, priors="heuristic")
    default.choose(state)
    named.choose(state)
    assert default.last is not None and named.last is not None
    assert len(set(default.last.priors.values())) > 1
    assert (default.last.move, default.last.visits, default.last.priors) == (
        named.last.move,
        named.last.visits,
        named.last.priors,
    )
    kuba = players.from_spec("mcts:30", seed=2)
    kuba.choose(glacier.new_game("kuba"))
    assert kuba.last is not None and len(set(kuba.last.priors.values())) == 1


def test_a_finished_game_or_a_wrong_state_is_refused() -> None:
    state = glacier.from_text("ice_cube_checkers", "W/W/K/WK/W/W/B/B/B/B/B/- w 10")
    state.play("b:W")
    assert state.is_terminal()
    with pytest.raises(errors.GlacierError, match="game is over"):
        search.mcts(state, simulations=10)
    with pytest.raises(errors.GlacierError, match="game is over"):
        search.alphabeta(state, depth=2)
    with pytest.raises(errors.InvalidParameterError, match="game state"):
        search.mcts_batch([object()], Recorder(), simulations=10)  # type: ignore[list-item]
    with pytest.raises(errors.InvalidParameterError, match="one game"):
        search.mcts_batch([glacier.new_game("kings_court"), glacier.new_game("ice_age_chess")], Recorder())
    searcher = search.MCTS("kings_court")
    with pytest.raises(errors.InvalidParameterError, match="for kings_court"):
        searcher.search(glacier.new_game("ice_cube_checkers"), simulations=10)


def test_alphabeta_options_are_checked() -> None:
    state = glacier.new_game("kings_court")
    for options, message in [({"depth": 0}, "depth"), ({"depth": 99}, "depth"), ({"seconds": 0.0}, "seconds")]:
        with pytest.raises(errors.InvalidParameterError, match=message):
            search.alphabeta(state, **options)


def test_a_reference_state_can_be_searched() -> None:
    state = glacier.reference.from_text("kings_court", FORCED["King's Court capture emptying the Court"][1])
    assert search.mcts(state, simulations=200).move == "d3xd5"


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
            child.kill()


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("ice_age_chess", {"simulations": None, "seconds": 60}),
        ("ice_age_chess", {"simulations": None, "seconds": 60, "threads": 2, "parallel": "tree"}),
        ("kings_court", {"simulations": 10**9, "threads": 2, "parallel": "root", "evaluator": "heuristic"}),
        ("ice_age_chess", {"depth": 60}),
    ],
    ids=["mcts", "tree-parallel", "root-parallel", "alphabeta"],
)
def test_a_long_search_stops_on_ctrl_c(game: str, options: dict[str, Any]) -> None:
    interrupt(INTERRUPTED, game, repr(options))


def test_a_python_evaluator_stops_on_ctrl_c() -> None:
    interrupt(
        """
import glacier, numpy as np
from glacier import search
state = glacier.new_game("ice_age_chess")
def trivial(o, m):
    return np.zeros(m.shape, np.float32), np.zeros((m.shape[0], 2), np.float32)
print("ready", flush=True)
try:
    search.mcts(state, evaluator=trivial, simulations=10**9)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""
    )


@pytest.mark.parametrize("name", ["glacier.search", "glacier.arena", "glacier.openspiel_bot"])
def test_docstring_examples(name: str) -> None:
    # ``glacier.arena`` is the function; the module is in sys.modules.
    result = doctest.testmod(importlib.import_module(name), raise_on_error=False, report=True)
    assert result.attempted > 0 and result.failed == 0


def test_flat_monte_carlo_cuts_its_playouts_in_e() -> None:
    # Random games of E never finish: whole playouts would all score 0 (a draw at the ply
    # limit), so the player cuts them after 20 plies by default there and scores the rest by
    # the heuristic; from the walled position that finds the way out, as MCTS does.
    player = players.from_spec("flat:200", seed=1)
    assert isinstance(player, players.MonteCarloPlayer) and player.name == "flat:200"
    assert players.PLAYOUT_PLIES["martian_chinese_checkers"] == 20
    state = glacier.from_text("martian_chinese_checkers", WALLED)
    move = player.choose(state)
    assert move in state.legal_moves() and state.text() == glacier.from_text("martian_chinese_checkers", WALLED).text()
    cut = players.from_spec("flat:200:6", seed=1)
    assert isinstance(cut, players.MonteCarloPlayer) and (cut.playout_plies, cut.name) == (6, "flat:200:6")
    assert cut.spawn(2).playout_plies == 6
    assert cut.choose(state) in state.legal_moves()
    with pytest.raises(errors.InvalidParameterError, match="playout_plies"):
        players.MonteCarloPlayer(playout_plies=-1)
    with pytest.raises(errors.InvalidParameterError, match="whole number"):
        players.from_spec("flat:200:x")

"""The net in the engine against the same net in the training library: equal within 1e-5 on
random positions of every game; and the shipped nets load and play."""

from __future__ import annotations

import random

import numpy as np
import pytest

import glacier
from glacier import learn, search
from glacier.errors import InvalidNetError, InvalidParameterError

#: Every game, and each player count of a game that has several.
CASES = [
    (game, {"players": n} if len(glacier.game_spec(game).seats) > 1 else {})
    for game in glacier.GAMES
    for n in sorted(glacier.game_spec(game).seats)
]


def random_positions(game: str, count: int, seed: int, **params: object) -> list[glacier.State]:
    """Positions reached by random moves, a few plies to a few dozen in."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        state = glacier.new_game(game, **params)
        for _ in range(rng.randrange(1 + 3 * k)):
            if state.is_terminal():
                break
            state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            out.append(state)
    return out


@pytest.mark.parametrize(("game", "params"), CASES, ids=lambda v: v if isinstance(v, str) else str(v))
def test_the_engine_computes_the_jax_net(game: str, params: dict[str, int]) -> None:
    jax = pytest.importorskip("jax")
    from glacier.learn import model

    spec = learn.spec_for(game, (48, 24), **params)
    raw = model.init(spec, seed=5)
    # Biases too, so that every tensor counts.
    keys = jax.random.split(jax.random.PRNGKey(1), len(raw))
    jparams = {
        name: value + (0.05 * jax.random.normal(k, value.shape) if name.endswith(".bias") else 0.0)
        for (name, value), k in zip(raw.items(), keys)
    }
    net = learn.Net(spec, model.to_numpy(jparams))
    states = random_positions(game, 24, seed=3, **params)
    observations = np.stack([s.observation() for s in states]).astype(np.float32)
    legal = np.stack([s.legal_action_mask() for s in states])
    to_play = np.asarray([s.current_player for s in states])
    assert len(set(to_play.tolist())) > 1  # the positions have several players to move
    logits, values = net(observations, legal, to_play)
    jax_logits, jax_relative = model.forward(jparams, observations, to_play)
    assert np.allclose(logits, np.asarray(jax_logits), atol=1e-5, rtol=0)
    players = spec.num_players
    for row, mover in enumerate(to_play):
        for k in range(players):
            assert abs(values[row, (mover + k) % players] - float(jax_relative[row, k])) <= 1e-5
    # The numpy twin agrees too.
    np_logits, np_relative = net.forward(observations, to_play)
    assert np.allclose(np_logits, np.asarray(jax_logits), atol=1e-5, rtol=0)
    assert np.allclose(np_relative, np.asarray(jax_relative), atol=1e-5, rtol=0)


def test_the_evaluator_refuses_bad_batches() -> None:
    game, params = CASES[0]
    spec = learn.spec_for(game, (8,), **params)
    net = learn.Net(spec, {k: np.zeros(s, np.float32) for k, s in learn.netfile.tensor_shapes(spec).items()})
    state = glacier.new_game(game, **params)
    obs = state.observation()[None]
    legal = state.legal_action_mask()[None]
    with pytest.raises(InvalidNetError, match="to_play"):
        net(obs, legal)
    with pytest.raises(InvalidParameterError, match="to_play has 2 entries"):
        net(obs, legal, [0, 1])
    with pytest.raises(InvalidParameterError, match="player 7"):
        net(obs, legal, [7])
    with pytest.raises(InvalidParameterError, match="floats each"):
        net(obs.reshape(1, -1)[:, :-1], legal, [0])
    with pytest.raises(InvalidParameterError):
        glacier._native.NativeNet(game, [1, 2, 3], [8], 4, 2, np.zeros(10, np.float32))


@pytest.mark.parametrize("game", glacier.GAMES)
def test_a_search_with_a_net_plays_a_legal_game(game: str) -> None:
    spec = learn.spec_for(game, (16,), max_plies=24)
    rng = np.random.default_rng(0)
    shapes = learn.netfile.tensor_shapes(spec)
    tensors = {k: (rng.standard_normal(s) * 0.2).astype(np.float32) for k, s in shapes.items()}
    net = learn.Net(spec, tensors)
    state = glacier.new_game(game, max_plies=24)
    replay = state.copy()
    while not state.is_terminal():
        result = search.mcts(state, evaluator=net, simulations=24)
        assert result.simulations == 24
        assert abs(sum(result.priors.values()) - 1) < 1e-4
        state.play(result.move)
    for move in state.moves:
        replay.play(move)
    assert replay.is_terminal() and replay.returns() == state.returns()

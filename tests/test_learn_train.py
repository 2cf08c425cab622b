"""The trainer (JAX + optax) and the replay buffer, on positions of real games."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import glacier
from glacier import learn
from glacier.errors import InvalidNetError

pytest.importorskip("jax")
pytest.importorskip("optax")


#: Games picked by what they are, not by name: the smallest observations first, and a game
#: of several player counts.
BY_SIZE = sorted(glacier.GAMES, key=lambda g: math.prod(glacier.observation_shape(g)))
SMALL, OTHER = BY_SIZE[0], BY_SIZE[1]
MULTI = next(g for g in glacier.GAMES if len(glacier.game_spec(g).seats) > 1)


def positions(game: str, count: int, seed: int = 0, **params: object) -> dict[str, np.ndarray]:
    """Rows shaped like self-play shards, from random games: policy targets one-hot on the
    first legal action, returns those of the game's end."""
    rng = np.random.default_rng(seed)
    rows: dict[str, list[object]] = {k: [] for k in learn.AZ_COLUMNS}
    index = 0
    while len(rows["game"]) < count:
        state = glacier.new_game(game, **params)
        first = len(rows["game"])
        while not state.is_terminal() and len(rows["game"]) < count:
            mask = state.legal_action_mask()
            policy = np.zeros(len(mask), np.float32)
            policy[int(np.flatnonzero(mask)[0])] = 1.0
            rows["game"].append(index)
            rows["ply"].append(len(state.moves))
            rows["player"].append(state.current_player)
            rows["observation"].append(state.observation())
            rows["legal_count"].append(int(mask.sum()))
            rows["legal_mask"].append(mask)
            rows["action"].append(0)
            rows["policy"].append(policy)
            rows["root_values"].append([0.0] * state.num_players)
            rows["searched"].append(True)
            moves = state.legal_moves()
            state.play(moves[int(rng.integers(len(moves)))])
        returns = state.returns() if state.is_terminal() else [0.0] * state.num_players
        rows["returns"].extend([returns] * (len(rows["game"]) - first))
        index += 1
    return {k: np.asarray(v) for k, v in rows.items()}


def test_value_targets_are_relative_to_the_mover() -> None:
    returns = np.asarray([[1.0, -0.5, -0.5], [1.0, -0.5, -0.5], [0.0, 1.0, -1.0]])
    player = np.asarray([0, 1, 2])
    targets = learn.value_targets(returns, player)
    assert targets.tolist() == [[1.0, -0.5, -0.5], [-0.5, -0.5, 1.0], [-1.0, 0.0, 1.0]]
    mixed = learn.value_targets(returns, player, root_values=np.zeros((3, 3)), mix=0.5)
    assert mixed.tolist() == (targets / 2).tolist()


def test_moves_to_end_counts_each_games_moves_from_each_row() -> None:
    game = np.asarray([4, 4, 4, 1, 1, 4])
    ply = np.asarray([0, 1, 2, 0, 1, 3])
    assert learn.moves_to_end(game, ply).tolist() == [4, 3, 2, 2, 1, 1]


def test_a_discounted_value_target_is_worth_less_the_further_the_end() -> None:
    returns = np.asarray([[1.0, -1.0], [1.0, -1.0], [0.0, 0.0]])
    player = np.asarray([0, 1, 0])
    moves_left = np.asarray([3, 1, 2])
    targets = learn.value_targets(returns, player, moves_left=moves_left, discount=0.5)
    assert targets.tolist() == [[0.25, -0.25], [-1.0, 1.0], [0.0, 0.0]]
    # The search's root value is mixed in as it is: only the return is discounted.
    mixed = learn.value_targets(returns, player, np.ones((3, 2)), 0.5, moves_left, 0.5)
    assert mixed.tolist() == [[0.625, 0.375], [0.0, 1.0], [0.5, 0.5]]
    assert learn.value_targets(returns, player, discount=1.0).tolist() == [[1.0, -1.0], [-1.0, 1.0], [0.0, 0.0]]
    with pytest.raises(glacier.InvalidParameterError, match="moves to the game's end"):
        learn.value_targets(returns, player, discount=0.5)
    for bad in (0.0, 1.5, float("nan")):
        with pytest.raises(glacier.InvalidParameterError, match="value discount"):
            learn.value_targets(returns, player, moves_left=moves_left, discount=bad)


def test_the_buffer_discounts_each_return_by_the_moves_to_its_games_end() -> None:
    spec = learn.spec_for(SMALL, (8,))
    data = positions(SMALL, 120)
    plain, discounted = learn.ReplayBuffer(spec, capacity=120), learn.ReplayBuffer(spec, capacity=120)
    plain.add(data)
    discounted.add(data, value_discount=0.9)
    left = learn.moves_to_end(data["game"], data["ply"])
    assert left.min() == 1 and left.max() > 1
    assert np.allclose(discounted.value_target, plain.value_target * (0.9 ** (left - 1))[:, None])
    decided = np.abs(plain.value_target).sum(axis=1) > 0
    assert decided.any()


def test_the_buffer_keeps_the_newest_positions() -> None:
    spec = learn.spec_for(SMALL, (8,))
    buffer = learn.ReplayBuffer(spec, capacity=50)
    data = positions(SMALL, 80)
    assert buffer.add(data) == 50  # the 30 oldest do not fit
    assert len(buffer) == 50
    newest = data["observation"][-50:].reshape(50, -1).astype(np.float16)
    kept = {row.tobytes() for row in buffer.observation}
    assert all(row.tobytes() in kept for row in newest)
    batch = buffer.sample(32, np.random.default_rng(0))
    assert batch["observation"].shape == (32, spec.inputs)
    assert batch["observation"].dtype == np.float32
    assert batch["policy"].shape == (32, spec.num_actions)
    assert np.allclose(batch["policy"].sum(axis=1), 1.0)


def test_the_buffer_keeps_observations_in_half_the_memory() -> None:
    """float16: a 0/1 plane exactly, any other value (a ply's fraction) within 0.05%."""
    spec = learn.spec_for(OTHER, (8,))
    data = positions(OTHER, 300)
    buffer = learn.ReplayBuffer(spec, capacity=300)
    buffer.add(data)
    assert buffer.observation.nbytes == 300 * spec.inputs * 2
    stored = buffer.observation.astype(np.float32)
    given = data["observation"].reshape(300, -1).astype(np.float32)
    binary = np.isin(given, (0.0, 1.0))
    assert binary.any() and not binary.all()
    assert np.array_equal(stored[binary], given[binary])
    assert np.allclose(stored, given, rtol=2**-11, atol=0)


def test_the_buffer_keeps_masks_as_bits_and_policies_in_float16() -> None:
    """Every sampled row is a stored position's: its legal mask exactly, its policy within
    float16's precision; and a row takes the memory :meth:`row_bytes` says."""
    spec = learn.spec_for(OTHER, (8,))
    data = positions(OTHER, 300)
    rng = np.random.default_rng(1)
    visits = np.where(data["legal_mask"], rng.integers(0, 50, data["legal_mask"].shape), 0) + data["policy"]
    data["policy"] = (visits / visits.sum(axis=1, keepdims=True)).astype(np.float32)
    buffer = learn.ReplayBuffer(spec, capacity=300)
    buffer.add(data)
    observation = data["observation"].reshape(300, -1).astype(np.float16).astype(np.float32)
    legal = np.asarray(data["legal_mask"], dtype=np.bool_)
    policy = np.asarray(data["policy"], dtype=np.float32)
    batch = buffer.sample(200, np.random.default_rng(3))
    assert batch["legal_mask"].dtype == np.bool_ and batch["legal_mask"].shape == (200, spec.num_actions)
    assert batch["policy"].dtype == np.float32
    for row in range(200):
        same = np.flatnonzero((observation == batch["observation"][row]).all(axis=1))
        assert any(
            np.array_equal(legal[j], batch["legal_mask"][row])
            and np.allclose(policy[j], batch["policy"][row], rtol=2**-11, atol=2**-24)
            for j in same
        ), row
    arrays = (buffer.observation, buffer.to_play, buffer.legal_bits, buffer.policy, buffer.value_target)
    assert sum(a.nbytes for a in arrays) == 300 * learn.ReplayBuffer.row_bytes(spec)
    assert learn.ReplayBuffer.row_bytes(spec) == (
        2 * spec.inputs + 2 * spec.num_actions + (spec.num_actions + 7) // 8 + 4 * spec.num_players + 4
    )


@pytest.mark.parametrize(("game", "params"), [(OTHER, {}), (MULTI, {"players": 3})])
def test_the_loss_falls_and_the_jax_net_is_the_saved_net(tmp_path: Path, game: str, params: dict[str, int]) -> None:
    spec = learn.spec_for(game, (32, 16), **params)
    buffer = learn.ReplayBuffer(spec, capacity=400)
    buffer.add(positions(game, 400, **params))
    trainer = learn.Trainer(spec, seed=1, learning_rate=3e-3)
    stats = trainer.fit(buffer, 150, 64, np.random.default_rng(0))
    assert stats.steps == 150
    assert stats.loss_last < 0.7 * stats.loss_first
    net = trainer.net({"steps": trainer.steps})
    learn.save(tmp_path / "net.safetensors", net)
    loaded = learn.load(tmp_path / "net.safetensors")
    from glacier.learn import model

    batch = buffer.sample(16, np.random.default_rng(1))
    jax_logits, jax_values = model.forward(trainer.params, batch["observation"], batch["to_play"])
    logits, values = loaded.forward(batch["observation"], batch["to_play"])
    assert np.allclose(logits, np.asarray(jax_logits), atol=1e-5)
    assert np.allclose(values, np.asarray(jax_values), atol=1e-5)


def test_the_optimizer_state_resumes(tmp_path: Path) -> None:
    spec = learn.spec_for(SMALL, (16,))
    buffer = learn.ReplayBuffer(spec, capacity=200)
    buffer.add(positions(SMALL, 200))
    one = learn.Trainer(spec, seed=3)
    one.fit(buffer, 20, 32, np.random.default_rng(0))
    one.save_state(tmp_path / "optimizer.npz")
    net = one.net()
    # The same 20 more steps, from the saved state, give the same parameters.
    two = learn.Trainer(spec, net=net)
    two.load_state(tmp_path / "optimizer.npz")
    assert two.steps == 20
    one.fit(buffer, 20, 32, np.random.default_rng(5))
    two.fit(buffer, 20, 32, np.random.default_rng(5))
    for name, value in one.net().tensors.items():
        assert np.allclose(value, two.net().tensors[name], atol=1e-6)
    other = learn.Trainer(learn.spec_for(SMALL, (8,)))
    with pytest.raises(InvalidNetError, match="another shape"):
        other.load_state(tmp_path / "optimizer.npz")
    (tmp_path / "broken.npz").write_bytes(b"not an npz")
    with pytest.raises(InvalidNetError, match="cannot read"):
        two.load_state(tmp_path / "broken.npz")

"""The replay buffer and the trainer (JAX + optax).

:class:`ReplayBuffer` keeps the latest self-play positions (the rows of the shards that a
search chose a move at) with their training targets; :class:`Trainer` fits a net to them
with Adam: cross-entropy of the policy to the search's visit distribution, squared error of
every player's value (relative to the mover) to the game's final returns, so a net for E
with 3 to 6 players trains as one for two. The gradients are JAX's.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

from ..errors import InvalidNetError, InvalidParameterError
from ..nets import Net
from ..nets.netfile import NetSpec

__all__ = ["ReplayBuffer", "TrainStats", "Trainer", "moves_to_end", "value_targets"]


def moves_to_end(game: npt.NDArray[Any], ply: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """For the rows of whole games (shard columns ``game`` and ``ply``): the moves from each
    row's position to its game's end, its own move included (1 at the game's last move)."""
    numbers, index = np.unique(np.asarray(game), return_inverse=True)
    ply = np.asarray(ply, dtype=np.int64)
    last = np.full(len(numbers), -1, np.int64)
    np.maximum.at(last, index, ply)
    return np.asarray(last[index] - ply + 1, dtype=np.int64)


def value_targets(
    returns: npt.NDArray[Any],
    player: npt.NDArray[Any],
    root_values: Optional[npt.NDArray[Any]] = None,
    mix: float = 0.0,
    moves_left: Optional[npt.NDArray[Any]] = None,
    discount: float = 1.0,
) -> npt.NDArray[np.float32]:
    """Every player's value target relative to the player to move of each row: column ``k``
    is player ``(player + k) % n``'s final return, mixed with the search's root value by
    ``mix`` (0: the return alone). With ``discount`` below 1, each return is first
    multiplied by ``discount ** (moves_left - 1)``: a win a few moves away is then worth
    more than one far off, so a net learns to prefer the shorter win."""
    returns = np.asarray(returns, dtype=np.float32)
    rows, players = returns.shape
    if not 0 < discount <= 1:
        raise InvalidParameterError(f"the value discount must be in (0, 1], got {discount}")
    if discount != 1.0:
        if moves_left is None:
            raise InvalidParameterError("a discounted value target needs each row's moves to the game's end")
        scale = np.power(np.float64(discount), np.asarray(moves_left, dtype=np.float64) - 1)
        returns = (returns * scale[:, None]).astype(np.float32)
    if root_values is not None and mix > 0:
        returns = (1 - mix) * returns + mix * np.asarray(root_values, dtype=np.float32)
    columns = (np.asarray(player, dtype=np.int64)[:, None] + np.arange(players)[None, :]) % players
    return np.asarray(returns[np.arange(rows)[:, None], columns], dtype=np.float32)


class ReplayBuffer:
    """The latest ``capacity`` training positions of one game, oldest dropped first.

    Each position holds the observation (flat), the player to move, the legal-action mask, the policy target
    (the search's visits over actions, summing to 1) and the value target (per player,
    relative to the mover). A position is kept in about half the memory its arrays take:
    the observation and the policy in float16 (0/1 planes exactly, other values to within
    0.05%), the legal mask as bits.
    :meth:`sample` gives back float32 and a boolean mask. Chess, whose 4288 actions outweigh
    its observation, fits twice the positions in the same memory."""

    def __init__(self, spec: NetSpec, capacity: int) -> None:
        if capacity < 1:
            raise InvalidParameterError(f"the replay buffer's capacity must be >= 1, got {capacity}")
        self.spec = spec
        self.capacity = capacity
        self.observation = np.zeros((capacity, spec.inputs), np.float16)
        self.to_play = np.zeros(capacity, np.int32)
        self.legal_bits = np.zeros((capacity, (spec.num_actions + 7) // 8), np.uint8)
        self.policy = np.zeros((capacity, spec.num_actions), np.float16)
        self.value_target = np.zeros((capacity, spec.num_players), np.float32)
        self.size = 0
        self._next = 0
        self.added = 0

    def __len__(self) -> int:
        return self.size

    @staticmethod
    def row_bytes(spec: NetSpec) -> int:
        """The memory one position takes."""
        return 2 * spec.inputs + 2 * spec.num_actions + (spec.num_actions + 7) // 8 + 4 * spec.num_players + 4

    def add(self, data: dict[str, npt.NDArray[Any]], value_mix: float = 0.0, value_discount: float = 1.0) -> int:
        """Adds the searched rows of self-play shard columns (:mod:`glacier.selfplay.alphazero`),
        whole games; returns how many. ``value_mix`` and ``value_discount`` shape the value
        targets (:func:`value_targets`)."""
        if not len(data.get("game", ())):
            return 0
        searched = np.asarray(data["searched"], dtype=np.bool_)
        observation = np.asarray(data["observation"], dtype=np.float32)[searched].reshape(-1, self.spec.inputs)
        n = len(observation)
        if n == 0:
            return 0
        legal = np.asarray(data["legal_mask"], dtype=np.bool_)[searched]
        to_play = np.asarray(data["player"], dtype=np.int32)[searched]
        policy = np.asarray(data["policy"], dtype=np.float32)[searched]
        if legal.shape[1] != self.spec.num_actions or data["returns"].shape[1] != self.spec.num_players:
            raise InvalidParameterError("these self-play rows are of another game or player count than the net's")
        moves_left = moves_to_end(data["game"], data["ply"])[searched] if value_discount != 1.0 else None
        targets = value_targets(
            data["returns"][searched],
            data["player"][searched],
            data["root_values"][searched],
            value_mix,
            moves_left,
            value_discount,
        )
        # Only the newest rows fit when there are more than the buffer holds.
        keep = slice(max(0, n - self.capacity), n)
        n = keep.stop - keep.start
        index = (self._next + np.arange(n)) % self.capacity
        self.observation[index] = observation[keep]
        self.to_play[index] = to_play[keep]
        self.legal_bits[index] = np.packbits(legal[keep], axis=1, bitorder="little")
        self.policy[index] = policy[keep]
        self.value_target[index] = targets[keep]
        self._next = int((self._next + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)
        self.added += n
        return n

    def sample(self, batch_size: int, rng: np.random.Generator) -> dict[str, npt.NDArray[Any]]:
        """``batch_size`` positions drawn uniformly (with replacement)."""
        if self.size == 0:
            raise InvalidParameterError("the replay buffer is empty")
        index = rng.integers(0, self.size, batch_size)
        return {
            "observation": self.observation[index].astype(np.float32),
            "to_play": self.to_play[index],
            "legal_mask": np.unpackbits(
                self.legal_bits[index], axis=1, count=self.spec.num_actions, bitorder="little"
            ).astype(np.bool_),
            "policy": self.policy[index].astype(np.float32),
            "value_target": self.value_target[index],
        }


@dataclass(frozen=True)
class TrainStats:
    """What one call of :meth:`Trainer.fit` did."""

    steps: int
    loss_first: float
    """The loss of the first step's batch (before that step)."""
    loss_last: float
    """The mean loss of the last tenth of the steps."""
    policy_loss: float
    value_loss: float
    seconds: float
    positions_per_second: float


class Trainer:
    """Fits a net's parameters with Adam (optax), ``learning_rate`` and L2 ``weight_decay``
    (decoupled, AdamW); starts from ``net`` or from fresh parameters seeded ``seed``."""

    def __init__(
        self,
        spec: NetSpec,
        *,
        net: Optional[Net] = None,
        seed: int = 0,
        learning_rate: float = 1e-3,
        weight_decay: float = 1e-4,
    ) -> None:
        import jax
        import optax  # type: ignore[import-untyped]

        from . import model

        self.spec = spec
        self._model = model
        self._jax = jax
        self.optimizer = optax.adamw(learning_rate, weight_decay=weight_decay)
        if net is not None:
            self.params = {k: jax.numpy.asarray(v) for k, v in net.tensors.items()}
        else:
            self.params = model.init(spec, seed)
        self.opt_state = self.optimizer.init(self.params)
        self.steps = 0
        optimizer = self.optimizer

        def step(params: Any, opt_state: Any, batch: Any) -> Any:
            (total, parts), grads = jax.value_and_grad(model.loss, has_aux=True)(params, batch)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, total, parts

        self._step = jax.jit(step)
        self._loss = jax.jit(model.loss)

    def loss(self, batch: dict[str, npt.NDArray[Any]]) -> float:
        """The loss of the current parameters on ``batch``."""
        total, _ = self._loss(self.params, batch)
        return float(total)

    def fit(
        self, buffer: ReplayBuffer, steps: int, batch_size: int, rng: np.random.Generator, stop: Any = None
    ) -> TrainStats:
        """``steps`` steps of Adam on batches drawn from ``buffer``; ``stop()`` (if given) is
        asked between steps and ends the fit early when true."""
        start = time.perf_counter()
        losses: list[float] = []
        first = float("nan")
        policy = value = float("nan")
        done = 0
        for i in range(steps):
            if stop is not None and stop():
                break
            batch = buffer.sample(batch_size, rng)
            if i == 0:
                first = self.loss(batch)
            self.params, self.opt_state, total, parts = self._step(self.params, self.opt_state, batch)
            losses.append(float(total))
            policy, value = float(parts["policy_loss"]), float(parts["value_loss"])
            done += 1
        self.steps += done
        seconds = time.perf_counter() - start
        tail = losses[-max(1, len(losses) // 10) :] if losses else [float("nan")]
        return TrainStats(
            done, first, float(np.mean(tail)), policy, value, seconds, done * batch_size / seconds if seconds else 0.0
        )

    def net(self, training: Optional[dict[str, Any]] = None) -> Net:
        """The current parameters as a :class:`Net` (``training`` goes to its metadata)."""
        spec = NetSpec(
            self.spec.game,
            self.spec.params,
            self.spec.observation_shape,
            self.spec.num_actions,
            self.spec.num_players,
            self.spec.hidden,
            dict(training or {}),
        )
        return Net(spec, self._model.to_numpy(self.params))

    def save_state(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes the optimizer's state and step count (a temporary file, then renamed); the
        parameters are saved as a net (:meth:`net`)."""
        leaves = self._jax.tree_util.tree_leaves(self.opt_state)
        target = Path(path)
        partial = target.with_name(target.name + ".partial")
        arrays = {f"leaf{i}": np.asarray(leaf) for i, leaf in enumerate(leaves)}
        savez: Any = np.savez  # its stub types ``**kwds`` as the flag ``allow_pickle``
        try:
            with open(partial, "wb") as out:
                savez(out, steps=np.asarray(self.steps), **arrays)
            os.replace(partial, target)
        except BaseException:  # Ctrl-C included: leave no half-written file behind
            partial.unlink(missing_ok=True)
            raise

    def load_state(self, path: Union[str, os.PathLike[str]]) -> None:
        """Restores what :meth:`save_state` wrote (for the same net shape)."""
        jax = self._jax
        leaves, treedef = jax.tree_util.tree_flatten(self.opt_state)
        try:
            with np.load(path) as saved:
                found = [saved[f"leaf{i}"] for i in range(len(leaves))]
                steps = int(saved["steps"])
        except (OSError, KeyError, ValueError) as err:
            raise InvalidNetError(f"cannot read the optimizer state {path}: {err}") from None
        if any(np.shape(a) != np.shape(b) for a, b in zip(found, leaves)):
            raise InvalidNetError(f"the optimizer state {path} is for a net of another shape")
        self.opt_state = jax.tree_util.tree_unflatten(treedef, [jax.numpy.asarray(a) for a in found])
        self.steps = steps

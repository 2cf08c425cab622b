"""The net in JAX: its parameters, its forward pass and its losses, for training (optax).

The parameters are a dict of the net file's tensors (:func:`glacier.nets.netfile.tensor_shapes`),
so a trained net is saved as it is and the engine evaluates exactly this function: ReLU
layers, a policy head of one logit per action and a ``tanh`` value head of one value per
player, relative to the player to move.

JAX is imported here and by the trainer only: loading and using nets (:mod:`glacier.nets`)
needs numpy alone.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..nets.netfile import NetSpec, tensor_shapes

__all__ = ["forward", "init", "loss"]

Params = dict[str, jax.Array]


def init(spec: NetSpec, seed: int) -> Params:
    """Fresh parameters: He-normal weights for the ReLU layers, small ones for the heads,
    zero biases."""
    key = jax.random.PRNGKey(seed)
    params: Params = {}
    for name, shape in tensor_shapes(spec).items():
        key, sub = jax.random.split(key)
        if name.endswith(".bias"):
            params[name] = jnp.zeros(shape, jnp.float32)
        elif name.startswith("dense"):
            params[name] = jax.random.normal(sub, shape, jnp.float32) * np.sqrt(2.0 / shape[0])
        else:
            fan_in = shape[1] if name == "policy.weight" else shape[0]
            params[name] = jax.random.normal(sub, shape, jnp.float32) * (0.1 / np.sqrt(fan_in))
    return params


def _layers(params: Params) -> int:
    return sum(1 for name in params if name.startswith("dense") and name.endswith(".weight"))


def forward(params: Params, observations: jax.Array, to_play: jax.Array) -> tuple[jax.Array, jax.Array]:
    """``observations`` ``[B, *shape]`` of the players ``to_play`` ``[B]`` -> (logits
    ``[B, actions]``, values ``[B, players]`` relative to the mover)."""
    players = params["value.bias"].shape[0]
    h = jnp.concatenate(
        [observations.reshape(observations.shape[0], -1), jax.nn.one_hot(to_play, players, dtype=jnp.float32)], axis=1
    )
    for i in range(_layers(params)):
        h = jax.nn.relu(h @ params[f"dense{i}.weight"] + params[f"dense{i}.bias"])
    logits = h @ params["policy.weight"].T + params["policy.bias"]
    values = jnp.tanh(h @ params["value.weight"] + params["value.bias"])
    return logits, values


def loss(params: Params, batch: dict[str, jax.Array]) -> tuple[jax.Array, dict[str, jax.Array]]:
    """The training loss of a batch: the cross-entropy of the policy (a softmax over the
    legal actions) to the search's visit distribution, plus the mean squared error of every
    player's value (relative to the mover) to its target. ``batch`` holds ``observation``,
    ``to_play``,
    ``legal_mask``, ``policy`` and ``value_target`` (``[B, players]``, relative to the
    mover)."""
    logits, values = forward(params, batch["observation"], batch["to_play"])
    masked = jnp.where(batch["legal_mask"], logits, -1e9)
    log_probs = jax.nn.log_softmax(masked, axis=-1)
    policy_loss = -jnp.mean(jnp.sum(jnp.where(batch["legal_mask"], batch["policy"] * log_probs, 0.0), axis=-1))
    value_loss = jnp.mean(jnp.sum((values - batch["value_target"]) ** 2, axis=-1))
    total = policy_loss + value_loss
    return total, {"policy_loss": policy_loss, "value_loss": value_loss}


def to_numpy(params: Any) -> dict[str, np.ndarray]:
    """The parameters as float32 numpy arrays (for saving)."""
    return {name: np.asarray(value, dtype=np.float32) for name, value in params.items()}

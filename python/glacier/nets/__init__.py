"""Nets as evaluators: loading, saving, checking them against a game, and the nets glacier
ships (``baselines/``): a policy-value net per game and player count, for MCTS, and an
evaluation net per two-player game, alpha-beta's learned score (:mod:`glacier.nets.evaluation_net`).

>>> import glacier
>>> from glacier import nets, search
>>> net = nets.baseline("ice_cube_checkers")
>>> state = glacier.new_game("ice_cube_checkers")
>>> search.mcts(state, evaluator=net, simulations=16).move in state.legal_moves()
True

:func:`load` reads a net file (:mod:`glacier.nets.netfile`), checks it against the game it
names (the game exists, takes these parameters, and has the net's observation shape, action
count and player count) and returns a :class:`Net`. A :class:`Net` is an evaluator for
:mod:`glacier.search` (``evaluator(observations, legal, to_play) -> (logits, values)``).
Its input is the observation and a one-hot of the player to move.

This package needs numpy alone: the players load nets from it, and :mod:`glacier.learn`
(which trains them, with JAX) re-exports it.
"""

from __future__ import annotations

import hashlib
import math
import os
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

from .. import _native
from ..errors import InvalidNetError
from . import netfile
from ._shared import SpecProperties, game_facts
from .evaluation_net import SUFFIX as _EVALUATION_SUFFIX
from .evaluation_net import (
    EvaluationNet,
    EvaluationSpec,
    evaluation,
    evaluation_path,
    evaluation_spec_for,
    load_evaluation,
    save_evaluation,
)
from .netfile import NetSpec

__all__ = [
    "BASELINES",
    "EvaluationNet",
    "EvaluationSpec",
    "Net",
    "baseline",
    "baseline_path",
    "baseline_paths",
    "evaluation",
    "evaluation_path",
    "evaluation_spec_for",
    "load",
    "load_evaluation",
    "save",
    "save_evaluation",
    "spec_for",
]

#: The folder of the nets shipped inside the package, one per game (and player count).
BASELINES = Path(__file__).parent / "baselines"


def spec_for(game: str, hidden: tuple[int, ...], training: Optional[dict[str, Any]] = None, **params: Any) -> NetSpec:
    """The spec of a net of ``hidden`` layer widths for ``game`` with ``params``."""
    full, shape, actions, players = game_facts(game, params)
    return NetSpec(game, full, shape, actions, players, tuple(hidden), dict(training or {}))


class Net(_native.NativeNet, SpecProperties):
    """A policy-value net for one game, evaluated by the engine: an evaluator for
    :mod:`glacier.search` that the searches run in Rust, batched over their leaves, with the
    GIL released.

    ``net(observations, legal, to_play)`` evaluates a batch in the engine too: leaves
    ``[B, *observation_shape]`` float32, ``[B, num_actions]`` bool and ``[B]`` players to
    move give prior logits ``[B, num_actions]`` and every player's value
    ``[B, num_players]`` (float32, in player order). :meth:`forward` is the same net in
    numpy, giving its own outputs (values relative to the mover).
    """

    spec: NetSpec
    tensors: dict[str, npt.NDArray[np.float32]]
    path: Optional[Path]

    def __new__(cls, spec: NetSpec, tensors: dict[str, Any], path: Optional[Path] = None) -> Net:
        checked = netfile.checked_tensors("net", netfile.tensor_shapes(spec), tensors)
        flat = np.concatenate([array.ravel() for array in checked.values()])  # in the shapes' order
        self = super().__new__(
            cls, spec.game, list(spec.observation_shape), list(spec.hidden), spec.num_actions, spec.num_players, flat
        )
        self.spec = spec
        self.tensors = checked
        self.path = path
        return self

    def __init__(self, spec: NetSpec, tensors: dict[str, Any], path: Optional[Path] = None) -> None:
        pass  # made by __new__

    @property
    def game(self) -> str:
        return self.spec.game

    def __repr__(self) -> str:
        where = f" from {self.path}" if self.path else ""
        return f"<glacier.nets.Net {self.game} hidden={list(self.spec.hidden)}{where}>"

    def flat_weights(self) -> npt.NDArray[np.float32]:
        """Every weight in one float32 vector, tensor after tensor in the engine's order."""
        return np.concatenate([self.tensors[name].ravel() for name in netfile.tensor_shapes(self.spec)])

    def digest(self) -> str:
        """A SHA-256 of the spec and weights: equal for the same net."""
        h = hashlib.sha256()
        for key, value in sorted(self.spec.metadata().items()):
            if key != "training":
                h.update(f"{key}={value};".encode())
        h.update(self.flat_weights().tobytes())
        return h.hexdigest()

    def forward(
        self, observations: npt.ArrayLike, to_play: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The net on ``[B, *observation_shape]`` observations of the players ``to_play``
        ``[B]``: logits ``[B, num_actions]`` and values ``[B, num_players]`` relative to the
        mover (value ``k`` is player ``to_play + k``'s)."""
        flat = np.asarray(observations, dtype=np.float32).reshape(-1, self.spec.inputs)
        one_hot = np.eye(self.spec.num_players, dtype=np.float32)[np.asarray(to_play, dtype=np.int64).reshape(-1)]
        h = np.concatenate([flat, one_hot], axis=1)
        for i in range(len(self.spec.hidden)):
            h = np.maximum(h @ self.tensors[f"dense{i}.weight"] + self.tensors[f"dense{i}.bias"], 0.0)
        logits = h @ self.tensors["policy.weight"].T + self.tensors["policy.bias"]
        values = np.tanh(h @ self.tensors["value.weight"] + self.tensors["value.bias"])
        return logits.astype(np.float32), values.astype(np.float32)

    def __call__(
        self,
        observations: npt.NDArray[np.float32],
        legal: npt.NDArray[np.bool_],
        to_play: Optional[npt.ArrayLike] = None,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        if to_play is None:
            raise InvalidNetError("a net evaluator needs the player to move of every leaf (to_play)")
        movers = np.ascontiguousarray(np.asarray(to_play, dtype=np.int64).reshape(-1))
        observations = np.ascontiguousarray(observations, dtype=np.float32)
        return super().__call__(observations, legal, movers)


def save(path: Union[str, os.PathLike[str]], net: Net, dtype: str = "float32") -> None:
    """Writes ``net`` to ``path`` (a temporary file, then renamed). ``dtype="float16"``
    stores the weights at half the size and precision; they load back as float32."""
    netfile.write(path, net.spec, net.tensors, dtype)


def load(path: Union[str, os.PathLike[str]], game: Optional[str] = None, **params: Any) -> Net:
    """Reads the net at ``path`` and checks it against its game: raises
    :class:`glacier.errors.InvalidNetError` for a missing, truncated or corrupt file, NaN or
    infinite weights, a net whose shapes are not its game's, or (when ``game`` or
    ``params`` are given) a net made for another game, or for parameters under which the
    game's shapes differ (E's number of players; another ply limit is fine)."""
    path = Path(path)
    spec, tensors = netfile.read(path)
    if game is not None and spec.game != game:
        raise InvalidNetError(f"{path} is a net for {spec.game}, not for {game}")
    full, shape, actions, players = game_facts(spec.game, spec.params)
    if params:
        # A net plays any parameters that keep its shapes (another ply limit, say).
        wanted, other_shape, other_actions, other_players = game_facts(spec.game, {**full, **params})
        if (other_shape, other_actions, other_players) != (shape, actions, players):
            raise InvalidNetError(
                f"{path} is a net for {spec.game} with {full}; with {wanted} the game has "
                f"observations {list(other_shape)}, {other_actions} actions and {other_players} players"
            )
    if spec.observation_shape != shape or math.prod(shape) != spec.inputs:
        raise InvalidNetError(
            f"{path} is a net for observations of shape {list(spec.observation_shape)}; {spec.game} has {list(shape)}"
        )
    if spec.num_actions != actions or spec.num_players != players:
        raise InvalidNetError(
            f"{path} is a net for {spec.num_actions} actions and {spec.num_players} players; "
            f"{spec.game} with {full} has {actions} and {players}"
        )
    return Net(NetSpec(spec.game, full, shape, actions, players, spec.hidden, spec.training), tensors, path)


def baseline_path(game: str, **params: Any) -> Path:
    """The file of the shipped net of ``game`` with ``params`` (E's nets are per player count)."""
    full = game_facts(game, params)[0]
    players = full.get("players")
    name = f"{game}-{players}p" if players is not None else game
    return BASELINES / f"{name}.safetensors"


def baseline_paths() -> list[Path]:
    """The files of every shipped policy-value net (the evaluation nets beside them excluded)."""
    return sorted(p for p in BASELINES.glob("*.safetensors") if not p.name.endswith(_EVALUATION_SUFFIX))


def baseline(game: str, **params: Any) -> Net:
    """The shipped net of ``game`` with ``params`` (see docs/learning.md for how each was
    trained and how strong it is)."""
    path = baseline_path(game, **params)
    if not path.exists():
        shipped = [p.stem for p in baseline_paths()]
        raise InvalidNetError(
            f"glacier ships no net for {game} with {params or 'its default parameters'} "
            f"(it ships: {', '.join(shipped) or 'none'})"
        )
    return load(path, game, **params)

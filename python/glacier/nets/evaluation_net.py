"""Evaluation nets: the learned static score of alpha-beta, and their file.

An evaluation net scores a position of a two-player game for its player to move, inside
alpha-beta (``glacier.search.alphabeta(state, evaluation=net)``, the spec
``alphabeta:BUDGET:net=PATH``), its first layer updated incrementally as the search makes
and unmakes moves (rust/glacier-core/src/net/evaluation/). Its input is the game's
observation from each seat's side, both always: ``x0`` seen by seat 0 and ``x1`` by seat 1,
flat. With ``m`` the player to move::

    a_s = x_s @ feature.weight + feature.bias               (for s = 0, 1)
    h = relu(concat(a_m, a_(1-m)))
    h = relu(h @ dense{i}.weight + dense{i}.bias)           (each hidden layer)
    z = h @ value.weight + value.bias
    score = tanh(z)                                         (the mover's, in (-1, 1))

A net on the heuristic (``base`` ``"heuristic"``) learns a correction of the game's own
heuristic instead: with ``b`` the heuristic's value for the mover
(``state.heuristic()[mover]``), ``score = tanh(z + atanh(clip(b, -0.999, 0.999)))``, so
that a net whose value layer is zero scores exactly as the heuristic does.

The file is the policy-value nets' format (:mod:`glacier.nets.netfile`: safetensors, read
and written there with numpy) with metadata of its own: ``format`` ``"glacier-net"``,
``format_version`` ``"1"`` (``"2"`` for a net with a base), ``kind`` ``"evaluation"`` (a
policy-value net's file has no ``kind``; each reader refuses the other's file), ``game``,
``params`` (JSON), ``observation_shape`` (JSON list), ``features`` (the width of
``feature.weight``), ``hidden`` (JSON list, may be empty), ``training`` (JSON) and, in
version 2, ``base`` (``"heuristic"``; a version-1 file has no base). Tensors, float32 or float16:
``feature.weight`` ``[inputs, features]``, ``feature.bias`` ``[features]``,
``dense{i}.weight`` ``[in, out]`` (``dense0``'s ``in`` is ``2 * features``) and
``dense{i}.bias``, ``value.weight`` ``[last, 1]``, ``value.bias`` ``[1]``.

This module needs numpy only (no training library): a player loads the net from here, and
:mod:`glacier.learn` (which trains them) re-exports its names.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

from .. import _native
from ..errors import InvalidNetError
from ._shared import SpecProperties, game_facts
from .netfile import FORMAT, FORMAT_VERSION, bad_file, checked_tensors, read_safetensors, write_safetensors

__all__ = [
    "BASES",
    "EVALUATIONS",
    "KIND",
    "EvaluationNet",
    "EvaluationSpec",
    "evaluation",
    "evaluation_path",
    "evaluation_spec_for",
    "evaluation_tensor_shapes",
    "load_evaluation",
    "save_evaluation",
]

#: The ``kind`` of an evaluation net's file.
KIND = "evaluation"

#: The folder of the evaluation nets shipped inside the package, one per game
#: (``<game>-evaluation.safetensors``, beside the policy-value nets).
EVALUATIONS = Path(__file__).parent / "baselines"

#: How a shipped evaluation net's file name ends.
SUFFIX = "-evaluation.safetensors"

#: What the errors call an evaluation net.
_NOUN = "evaluation net"

#: What an evaluation net's output may be added to (:attr:`EvaluationSpec.base`).
BASES = ("none", "heuristic")

#: How close to +-1 the base's value is taken before its ``atanh`` (the engine's ``BASE_CLAMP``).
BASE_CLAMP = 0.999

#: The format version of a file with a base (one without is version ``FORMAT_VERSION``).
BASE_FORMAT_VERSION = 2


@dataclass(frozen=True)
class EvaluationSpec:
    """What an evaluation net is for and its layer sizes: the file's metadata."""

    game: str
    params: dict[str, Any]
    observation_shape: tuple[int, ...]
    features: int
    hidden: tuple[int, ...]
    training: dict[str, Any] = field(default_factory=dict, compare=False)
    #: What the net's output is added to before its ``tanh``: ``"none"`` or ``"heuristic"``.
    base: str = "none"

    @property
    def inputs(self) -> int:
        return math.prod(self.observation_shape)

    def metadata(self) -> dict[str, str]:
        based = {"base": self.base} if self.base != "none" else {}
        return {
            "format": FORMAT,
            "format_version": str(BASE_FORMAT_VERSION if based else FORMAT_VERSION),
            **based,
            "kind": KIND,
            "game": self.game,
            "params": json.dumps(self.params, sort_keys=True),
            "observation_shape": json.dumps(list(self.observation_shape)),
            "features": str(self.features),
            "hidden": json.dumps(list(self.hidden)),
            "training": json.dumps(self.training, sort_keys=True),
        }


def evaluation_tensor_shapes(spec: EvaluationSpec) -> dict[str, tuple[int, ...]]:
    """The tensors of a net of ``spec``, in the order of the engine's flat buffer."""
    shapes: dict[str, tuple[int, ...]] = {
        "feature.weight": (spec.inputs, spec.features),
        "feature.bias": (spec.features,),
    }
    width = 2 * spec.features
    for i, h in enumerate(spec.hidden):
        shapes[f"dense{i}.weight"] = (width, h)
        shapes[f"dense{i}.bias"] = (h,)
        width = h
    shapes["value.weight"] = (width, 1)
    shapes["value.bias"] = (1,)
    return shapes


def _bad(path: Path, why: str) -> InvalidNetError:
    return bad_file(path, _NOUN, why)


def _spec_of(path: Path, meta: Any) -> EvaluationSpec:
    if not isinstance(meta, dict) or not all(isinstance(v, str) for v in meta.values()):
        raise _bad(path, "its header has no metadata of strings")
    if meta.get("format") != FORMAT:
        raise _bad(path, f"its metadata says format {meta.get('format')!r}, not {FORMAT!r}")
    if meta.get("kind") != KIND:
        if "kind" not in meta:
            raise _bad(path, "it is a policy-value net (for MCTS: load it with glacier.nets.load)")
        raise _bad(path, f"its metadata says kind {meta.get('kind')!r}, not {KIND!r}")
    version = meta.get("format_version")
    if version == str(FORMAT_VERSION):
        if "base" in meta:
            raise _bad(path, f"its metadata has a 'base' ({meta['base']!r}), which format version {version} has not")
        base = "none"
    elif version == str(BASE_FORMAT_VERSION):
        base = meta.get("base", "")
        if base not in BASES[1:]:
            raise _bad(path, f"its metadata 'base' is {base!r}, not one of {', '.join(BASES[1:])}")
    else:
        raise InvalidNetError(
            f"{path} is a glacier evaluation net of format version {version}; "
            f"this glacier reads versions {FORMAT_VERSION} and {BASE_FORMAT_VERSION}"
        )
    fields = {}
    for key in ("params", "observation_shape", "hidden", "training"):
        if key not in meta:
            raise _bad(path, f"its metadata has no {key!r}")
        try:
            fields[key] = json.loads(meta[key])
        except ValueError:
            raise _bad(path, f"its metadata {key!r} is not JSON: {meta[key]!r}") from None
    shape, hidden = fields["observation_shape"], fields["hidden"]
    for key, value, least in (("observation_shape", shape, 1), ("hidden", hidden, 0)):
        if not isinstance(value, list) or len(value) < least or not all(isinstance(v, int) and v >= 1 for v in value):
            raise _bad(path, f"its metadata {key!r} is not a list of positive integers: {value!r}")
    try:
        features = int(meta.get("features", ""))
    except ValueError:
        raise _bad(path, f"its metadata 'features' is not a number: {meta.get('features')!r}") from None
    if features < 1:
        raise _bad(path, f"its metadata 'features' is {features}")
    if not isinstance(fields["params"], dict) or not isinstance(fields["training"], dict):
        raise _bad(path, "its metadata 'params' and 'training' must be JSON objects")
    return EvaluationSpec(
        meta.get("game", ""), fields["params"], tuple(shape), features, tuple(hidden), fields["training"], base
    )


def evaluation_spec_for(
    game: str,
    features: int,
    hidden: tuple[int, ...],
    training: Optional[dict[str, Any]] = None,
    base: str = "none",
    **params: Any,
) -> EvaluationSpec:
    """The spec of an evaluation net for ``game`` (two players) with ``params``, on ``base``."""
    full, shape, _, players = game_facts(game, params)
    if players != 2:
        raise InvalidNetError(f"evaluation nets are for two-player games; {game} with {full} has {players} players")
    if base not in BASES:
        raise InvalidNetError(f"an evaluation net's base is one of {', '.join(BASES)}, not {base!r}")
    return EvaluationSpec(game, full, shape, int(features), tuple(int(h) for h in hidden), dict(training or {}), base)


class EvaluationNet(_native.NativeEvalNet, SpecProperties):
    """An evaluation net for one two-player game, evaluated by the engine: alpha-beta's
    static score (``glacier.search.alphabeta(state, evaluation=net)``).

    :meth:`score` is the engine's score of a state; :meth:`forward` the same net in numpy.
    """

    spec: EvaluationSpec
    tensors: dict[str, npt.NDArray[np.float32]]
    path: Optional[Path]

    def __new__(cls, spec: EvaluationSpec, tensors: dict[str, Any], path: Optional[Path] = None) -> EvaluationNet:
        checked = checked_tensors(_NOUN, evaluation_tensor_shapes(spec), tensors)
        flat = np.concatenate([array.ravel() for array in checked.values()])  # in the shapes' order
        self = super().__new__(
            cls, spec.game, list(spec.observation_shape), spec.features, list(spec.hidden), flat, spec.base
        )
        self.spec = spec
        self.tensors = checked
        self.path = path
        return self

    def __init__(self, spec: EvaluationSpec, tensors: dict[str, Any], path: Optional[Path] = None) -> None:
        pass  # made by __new__

    def __repr__(self) -> str:
        where = f" from {self.path}" if self.path else ""
        layers = f"features={self.spec.features} hidden={list(self.spec.hidden)}"
        if self.spec.base != "none":
            layers += f" base={self.spec.base}"
        return f"<glacier.nets.EvaluationNet {self.game} {layers}{where}>"

    def digest(self) -> str:
        """A SHA-256 of the spec and weights: equal for the same net."""
        h = hashlib.sha256()
        for key, value in sorted(self.spec.metadata().items()):
            if key != "training":
                h.update(f"{key}={value};".encode())
        for name in evaluation_tensor_shapes(self.spec):
            h.update(self.tensors[name].tobytes())
        return h.hexdigest()

    def forward(
        self, mover: npt.ArrayLike, other: npt.ArrayLike, base: Optional[npt.ArrayLike] = None
    ) -> npt.NDArray[np.float32]:
        """The net in numpy on ``[B, *observation_shape]`` observations seen by the player
        to move and by the other: the mover's scores ``[B]``. A net on the heuristic needs
        ``base``, the heuristic's values for the mover ``[B]`` (``state.heuristic()[mover]``)."""
        if (base is None) != (self.spec.base == "none"):
            need = "takes no base values" if self.spec.base == "none" else f"needs the {self.spec.base}'s values"
            raise InvalidNetError(f"this evaluation net {need} (forward's base)")
        t = self.tensors
        views = [np.asarray(x, dtype=np.float32).reshape(-1, self.spec.inputs) for x in (mover, other)]
        h = np.maximum(np.concatenate([x @ t["feature.weight"] + t["feature.bias"] for x in views], axis=1), 0.0)
        for i in range(len(self.spec.hidden)):
            h = np.maximum(h @ t[f"dense{i}.weight"] + t[f"dense{i}.bias"], 0.0)
        logit = (h @ t["value.weight"] + t["value.bias"])[:, 0]
        if base is not None:
            logit = logit + np.arctanh(np.clip(np.asarray(base, np.float32).reshape(-1), -BASE_CLAMP, BASE_CLAMP))
        score: npt.NDArray[np.float32] = np.tanh(logit).astype(np.float32)
        return score


def save_evaluation(path: Union[str, os.PathLike[str]], net: EvaluationNet, dtype: str = "float32") -> None:
    """Writes ``net`` to ``path`` (a temporary file, then renamed); ``dtype="float16"``
    stores the weights at half the size and precision."""
    write_safetensors(path, _NOUN, net.spec.metadata(), evaluation_tensor_shapes(net.spec), net.tensors, dtype)


def load_evaluation(path: Union[str, os.PathLike[str]], game: Optional[str] = None, **params: Any) -> EvaluationNet:
    """Reads the evaluation net at ``path`` and checks it against its game: raises
    :class:`glacier.errors.InvalidNetError` for a missing, truncated or corrupt file, a
    policy-value net's file, NaN or infinite weights, a net whose observation shape is not
    its game's, or (when ``game`` or ``params`` are given) a net for another game or for
    parameters that change the game's observation shape."""
    path = Path(path)
    spec, tensors = read_safetensors(path, _NOUN, _spec_of, evaluation_tensor_shapes)
    if game is not None and spec.game != game:
        raise InvalidNetError(f"{path} is an evaluation net for {spec.game}, not for {game}")
    full, shape, _, players = game_facts(spec.game, spec.params)
    if params:
        wanted, other_shape, _, other_players = game_facts(spec.game, {**full, **params})
        if (other_shape, other_players) != (shape, players):
            raise InvalidNetError(
                f"{path} is an evaluation net for {spec.game} with {full}; with {wanted} the game has "
                f"observations {list(other_shape)} and {other_players} players"
            )
    if spec.observation_shape != shape:
        raise InvalidNetError(
            f"{path} is an evaluation net for observations of shape {list(spec.observation_shape)}; "
            f"{spec.game} has {list(shape)}"
        )
    if players != 2:
        raise InvalidNetError(f"{path} is an evaluation net for {spec.game} with {full}, which has {players} players")
    return EvaluationNet(replace(spec, params=full, observation_shape=shape), tensors, path)


def evaluation_path(game: str) -> Path:
    """The file of the evaluation net shipped for ``game``."""
    return EVALUATIONS / f"{game}{SUFFIX}"


def evaluation(game: str, **params: Any) -> EvaluationNet:
    """The evaluation net glacier ships for ``game`` (its ``.path`` is the file)."""
    path = evaluation_path(game)
    if not path.exists():
        shipped = sorted(p.name[: -len(SUFFIX)] for p in EVALUATIONS.glob(f"*{SUFFIX}"))
        raise InvalidNetError(
            f"glacier ships no evaluation net for {game} (it ships one for: {', '.join(shipped) or 'no game'})"
        )
    return load_evaluation(path, game, **params)

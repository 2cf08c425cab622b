"""The net file: a policy-value net saved framework-free, as safetensors.

A safetensors file is an 8-byte little-endian header length, a JSON header naming every
tensor's dtype, shape and byte range, and the raw little-endian data; any safetensors
reader (the ``safetensors`` package, its Rust crate, PyTorch, JAX) reads glacier's nets.
This module reads and writes the format itself with numpy, so a saved net needs nothing
else to load; :func:`read_safetensors` and :func:`write_safetensors` serve the evaluation
nets' file too (:mod:`glacier.nets.evaluation_net`), given its own metadata and tensors.

The header's ``__metadata__`` (strings only, as the format requires) says what the net is
for, and :func:`read` checks every part of it against the tensors:

- ``format`` ``"glacier-net"`` and ``format_version`` (``"1"``);
- ``game`` and ``params`` (JSON: the game's full parameters, e.g. E's ``players``);
- ``observation_shape`` (JSON list), ``num_actions``, ``num_players``;
- ``hidden`` (JSON list of the hidden layers' widths);
- ``training`` (JSON: how the net was made, free-form).

The net's input is the flat observation followed by a one-hot of the player to move (the
games turn the board to the mover's side but number actions the same for every player).
The tensors, float32 (or float16, half the size, read back as float32):
``dense{i}.weight`` ``[in, out]`` (``dense0``: ``in`` is the
observation's size plus the number of players) and ``dense{i}.bias`` for each hidden
layer, ``policy.weight`` ``[num_actions, last]`` (a row per action), ``policy.bias``,
``value.weight`` ``[last, num_players]`` and ``value.bias``. Values are relative to the
player to move: output ``k`` is the value of player ``(to_play + k) %
num_players``, each squashed by ``tanh``.
"""

from __future__ import annotations

import json
import math
import os
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TypeVar, Union

import numpy as np
import numpy.typing as npt

from ..errors import InvalidNetError

__all__ = ["DTYPES", "FORMAT", "FORMAT_VERSION", "NetSpec", "read", "tensor_shapes", "write"]

FORMAT = "glacier-net"
FORMAT_VERSION = 1

#: A header larger than this is not a net's (guards against reading a huge length).
MAX_HEADER = 1 << 20

#: The dtypes a net's tensors may be stored in: safetensors' name and numpy's (little-endian).
DTYPES = {"float32": ("F32", "<f4"), "float16": ("F16", "<f2")}
_NUMPY_OF = dict(DTYPES.values())


@dataclass(frozen=True)
class NetSpec:
    """What a net is for and its layer sizes: the file's metadata."""

    game: str
    params: dict[str, Any]
    observation_shape: tuple[int, ...]
    num_actions: int
    num_players: int
    hidden: tuple[int, ...]
    training: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def inputs(self) -> int:
        return math.prod(self.observation_shape)

    def metadata(self) -> dict[str, str]:
        return {
            "format": FORMAT,
            "format_version": str(FORMAT_VERSION),
            "game": self.game,
            "params": json.dumps(self.params, sort_keys=True),
            "observation_shape": json.dumps(list(self.observation_shape)),
            "num_actions": str(self.num_actions),
            "num_players": str(self.num_players),
            "hidden": json.dumps(list(self.hidden)),
            "training": json.dumps(self.training, sort_keys=True),
        }


def tensor_shapes(spec: NetSpec) -> dict[str, tuple[int, ...]]:
    """The tensors a net of ``spec`` has, in the order of the engine's flat buffer."""
    shapes: dict[str, tuple[int, ...]] = {}
    width = spec.inputs + spec.num_players
    for i, h in enumerate(spec.hidden):
        shapes[f"dense{i}.weight"] = (width, h)
        shapes[f"dense{i}.bias"] = (h,)
        width = h
    shapes["policy.weight"] = (spec.num_actions, width)
    shapes["policy.bias"] = (spec.num_actions,)
    shapes["value.weight"] = (width, spec.num_players)
    shapes["value.bias"] = (spec.num_players,)
    return shapes


#: The spec of a kind of net (:class:`NetSpec`, or an evaluation net's).
SpecT = TypeVar("SpecT")


def _a(noun: str) -> str:
    """``noun`` with its article: "a net", "an evaluation net"."""
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def bad_file(path: Path, noun: str, why: str) -> InvalidNetError:
    """The error for the file at ``path``, which is not a glacier ``noun`` because ``why``."""
    return InvalidNetError(f"{path} is not a glacier {noun}: {why}")


def _bad(path: Path, why: str) -> InvalidNetError:
    return bad_file(path, "net", why)


def _check_names(noun: str, shapes: dict[str, tuple[int, ...]], tensors: dict[str, Any]) -> None:
    if set(tensors) != set(shapes):
        raise InvalidNetError(f"{_a(noun)} of this spec has the tensors {sorted(shapes)}, got {sorted(tensors)}")


def _checked_tensor(name: str, shape: tuple[int, ...], value: Any) -> npt.NDArray[np.float32]:
    array = np.ascontiguousarray(value, dtype=np.float32)
    if array.shape != shape:
        raise InvalidNetError(f"tensor {name} has shape {array.shape}, not {shape}")
    if not np.isfinite(array).all():
        raise InvalidNetError(f"tensor {name} holds NaN or infinite weights")
    return array


def checked_tensors(
    noun: str, shapes: dict[str, tuple[int, ...]], tensors: dict[str, Any]
) -> dict[str, npt.NDArray[np.float32]]:
    """``tensors`` as contiguous float32 arrays in the order of ``shapes``, checked to be
    exactly those tensors, of those shapes, and finite (``noun``, the kind of net, is for the
    errors)."""
    _check_names(noun, shapes, tensors)
    return {name: _checked_tensor(name, shape, tensors[name]) for name, shape in shapes.items()}


def write_safetensors(
    path: Union[str, os.PathLike[str]],
    noun: str,
    metadata: dict[str, str],
    shapes: dict[str, tuple[int, ...]],
    tensors: dict[str, Any],
    dtype: str,
) -> None:
    """Writes the file of a ``noun`` (safetensors) to a temporary file beside ``path``, then
    renamed, so the file is always whole: ``metadata``, and ``tensors`` checked as by
    :func:`checked_tensors`, in the order of ``shapes``, stored as ``dtype``."""
    if dtype not in DTYPES:
        raise InvalidNetError(f"a net is stored as one of {sorted(DTYPES)}, not {dtype!r}")
    stored, numpy_dtype = DTYPES[dtype]
    _check_names(noun, shapes, tensors)
    header: dict[str, Any] = {"__metadata__": metadata}
    chunks: list[bytes] = []
    offset = 0
    for name, shape in shapes.items():
        array = _checked_tensor(name, shape, tensors[name])
        with np.errstate(over="ignore"):
            array = array.astype(numpy_dtype)
        if not np.isfinite(array).all():
            raise InvalidNetError(f"tensor {name} holds weights too large for {dtype}")
        data = array.tobytes()
        header[name] = {"dtype": stored, "shape": list(shape), "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned
    target = Path(path)
    partial = target.with_name(target.name + ".partial")
    try:
        with open(partial, "wb") as out:
            out.write(struct.pack("<Q", len(text)))
            out.write(text)
            for data in chunks:
                out.write(data)
        os.replace(partial, target)
    except BaseException:  # Ctrl-C included: leave no half-written file behind
        partial.unlink(missing_ok=True)
        raise


def write(path: Union[str, os.PathLike[str]], spec: NetSpec, tensors: dict[str, Any], dtype: str = "float32") -> None:
    """Writes a net to ``path`` (safetensors): to a temporary file beside it, then renamed, so
    the file is always whole. ``tensors`` must have exactly the shapes of
    :func:`tensor_shapes`; every weight must be finite, also once stored as ``dtype``
    (``"float32"``, or ``"float16"`` for a file half the size)."""
    write_safetensors(path, "net", spec.metadata(), tensor_shapes(spec), tensors, dtype)


def _json_field(path: Path, meta: dict[str, str], key: str) -> Any:
    if key not in meta:
        raise _bad(path, f"its metadata has no {key!r}")
    try:
        return json.loads(meta[key])
    except ValueError:
        raise _bad(path, f"its metadata {key!r} is not JSON: {meta[key]!r}") from None


def _int_list(path: Path, value: Any, key: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and v >= 1 for v in value) or not value:
        raise _bad(path, f"its metadata {key!r} is not a list of positive integers: {value!r}")
    return tuple(value)


def _spec_of(path: Path, meta: Any) -> NetSpec:
    if not isinstance(meta, dict) or not all(isinstance(v, str) for v in meta.values()):
        raise _bad(path, "its header has no metadata of strings")
    if meta.get("format") != FORMAT:
        raise _bad(path, f"its metadata says format {meta.get('format')!r}, not {FORMAT!r}")
    if "kind" in meta:  # only an evaluation net's file says its kind (evaluation_net.py)
        raise _bad(path, f"it is a net of kind {meta['kind']!r} (for alpha-beta: glacier.nets.load_evaluation)")
    if meta.get("format_version") != str(FORMAT_VERSION):
        raise InvalidNetError(
            f"{path} is a glacier net of format version {meta.get('format_version')}; "
            f"this glacier reads version {FORMAT_VERSION}"
        )
    numbers = {}
    for key in ("num_actions", "num_players"):
        try:
            numbers[key] = int(meta.get(key, ""))
        except ValueError:
            raise _bad(path, f"its metadata {key!r} is not a number: {meta.get(key)!r}") from None
        if numbers[key] < 1:
            raise _bad(path, f"its metadata {key!r} is {numbers[key]}")
    params = _json_field(path, meta, "params")
    training = _json_field(path, meta, "training")
    if not isinstance(params, dict) or not isinstance(training, dict):
        raise _bad(path, "its metadata 'params' and 'training' must be JSON objects")
    return NetSpec(
        game=meta.get("game", ""),
        params=params,
        observation_shape=_int_list(path, _json_field(path, meta, "observation_shape"), "observation_shape"),
        num_actions=numbers["num_actions"],
        num_players=numbers["num_players"],
        hidden=_int_list(path, _json_field(path, meta, "hidden"), "hidden"),
        training=training,
    )


def read_safetensors(
    path: Path,
    noun: str,
    spec_of: Callable[[Path, Any], SpecT],
    shapes_of: Callable[[SpecT], dict[str, tuple[int, ...]]],
) -> tuple[SpecT, dict[str, npt.NDArray[np.float32]]]:
    """Reads the file of a ``noun`` (safetensors): ``spec_of(path, metadata)`` checks the
    header's metadata and makes the spec, whose tensors ``shapes_of(spec)`` names; they are
    read as float32. Raises :class:`glacier.errors.InvalidNetError` for a file that is
    missing, truncated, not safetensors, whose tensors are not its spec's, or that holds NaN
    or infinite weights."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InvalidNetError(f"no {noun} file at {path}") from None
    except IsADirectoryError:
        raise InvalidNetError(f"{path} is a directory, not {_a(noun)} file") from None
    except OSError as err:
        raise InvalidNetError(f"cannot read the {noun} file {path}: {err.strerror}") from None
    if len(raw) < 8:
        raise bad_file(path, noun, f"it is {len(raw)} bytes long (truncated?)")
    (size,) = struct.unpack("<Q", raw[:8])
    if size > MAX_HEADER or 8 + size > len(raw):
        raise bad_file(path, noun, "its header length runs past the end of the file (truncated, or not safetensors)")
    try:
        header = json.loads(raw[8 : 8 + size].decode())
    except (UnicodeDecodeError, ValueError):
        raise bad_file(path, noun, "its header is not JSON (not safetensors?)") from None
    if not isinstance(header, dict):
        raise bad_file(path, noun, "its header is not a JSON object")
    spec = spec_of(path, header.pop("__metadata__", None))
    data = memoryview(raw)[8 + size :]
    shapes = shapes_of(spec)
    if set(header) != set(shapes):
        missing, extra = sorted(set(shapes) - set(header)), sorted(set(header) - set(shapes))
        why = f"its tensors do not match its layer sizes (missing {missing}, unexpected {extra})"
        raise bad_file(path, noun, why)
    tensors: dict[str, npt.NDArray[np.float32]] = {}
    for name, shape in shapes.items():
        info = header[name]
        if not isinstance(info, dict) or info.get("dtype") not in _NUMPY_OF:
            raise bad_file(path, noun, f"tensor {name} is not float32 or float16")
        numpy_dtype = _NUMPY_OF[info["dtype"]]
        if info.get("shape") != list(shape):
            why = f"tensor {name} has shape {info.get('shape')}, its layer sizes say {list(shape)}"
            raise bad_file(path, noun, why)
        offsets = info.get("data_offsets")
        if (
            not isinstance(offsets, list)
            or len(offsets) != 2
            or not all(isinstance(o, int) for o in offsets)
            or offsets[1] - offsets[0] != np.dtype(numpy_dtype).itemsize * math.prod(shape)
            or offsets[0] < 0
        ):
            raise bad_file(path, noun, f"tensor {name} has bad data offsets {offsets!r}")
        if offsets[1] > len(data):
            raise bad_file(path, noun, f"tensor {name} runs past the end of the file (truncated)")
        array = np.frombuffer(data[offsets[0] : offsets[1]], dtype=numpy_dtype).reshape(shape)
        if not np.isfinite(array).all():
            raise InvalidNetError(f"the {noun} {path} holds NaN or infinite weights (tensor {name})")
        tensors[name] = array.astype(np.float32)
    return spec, tensors


def read(path: Union[str, os.PathLike[str]]) -> tuple[NetSpec, dict[str, npt.NDArray[np.float32]]]:
    """Reads a net file: its spec and its tensors (as float32, the shapes of
    :func:`tensor_shapes`). Raises :class:`glacier.errors.InvalidNetError` for a file that
    is missing, truncated, not safetensors, not a glacier net of this format version, whose
    tensors disagree with its metadata, or that holds NaN or infinite weights."""
    return read_safetensors(Path(path), "net", _spec_of, tensor_shapes)

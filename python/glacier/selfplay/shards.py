"""Self-play shards: a directory of games recorded row by row, written shard after shard so
that a run stopped at any point resumes with the shards still missing.

A directory holds ``manifest.json`` (what the run plays: the game, its parameters, the
number of games, the seed, the player and its options, the shard size, the format and the
columns) and ``shard-IIIII-of-NNNNN.parquet`` (pyarrow) or ``.npz``, each holding the rows of
``shard_size`` consecutive games. A shard is written to a temporary name and renamed, so a
shard on disk is always whole; a second run with the same manifest plays only the missing
ones, and a directory holding another run is refused.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Union

import numpy as np
import numpy.typing as npt

from ..errors import InvalidParameterError

__all__ = [
    "COLUMNS",
    "FORMATS",
    "SelfPlayRun",
    "ShardPlan",
    "load_selfplay",
    "manifest",
    "ranges",
    "read_shard",
    "shard_format",
    "write_shard",
]

#: The columns of a self-play shard, one row per action played.
COLUMNS = ("game", "ply", "player", "observation", "legal_count", "legal_mask", "action", "returns")

#: The formats a shard is written in.
FORMATS = ("parquet", "npz")


def ranges(n: int, chunk: int) -> list[tuple[int, int]]:
    """``0..n`` cut into consecutive ranges of ``chunk`` (the last one shorter)."""
    return [(start, min(start + chunk, n)) for start in range(0, n, chunk)]


def shard_format(format: str) -> str:
    """``format`` checked, ``"auto"`` made ``"parquet"`` when pyarrow is installed (else ``"npz"``)."""
    if format == "auto":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            return "npz"
        return "parquet"
    if format not in FORMATS:
        raise InvalidParameterError(f"format must be 'parquet', 'npz' or 'auto', got {format!r}")
    return format


def _shard_name(index: int, count: int, fmt: str) -> str:
    return f"shard-{index:05d}-of-{count:05d}.{fmt}"


def manifest(
    game: str,
    params: dict[str, Any],
    n: int,
    seed: int,
    player: Union[str, Callable[..., Any]],
    options: dict[str, Any],
    shard_size: int,
    fmt: str,
    columns: tuple[str, ...] = COLUMNS,
) -> dict[str, Any]:
    """The manifest of a run of ``n`` games of ``game`` (its full ``params``) by ``player``."""
    name = player if isinstance(player, str) else f"{player.__module__}.{player.__qualname__}"
    return {
        "game": game,
        "params": params,
        "games": n,
        "seed": seed,
        "player": name,
        "player_options": options,
        "shard_size": shard_size,
        "format": fmt,
        "shards": -(-n // shard_size),
        "columns": list(columns),
    }


def _check_manifest(directory: Path, manifest: dict[str, Any]) -> None:
    """Writes ``manifest`` into ``directory``, or checks that the one there is the same run."""
    manifest_path = directory / "manifest.json"
    if manifest_path.exists():
        found = json.loads(manifest_path.read_text())
        if found != manifest:
            differ = sorted(k for k in manifest if found.get(k) != manifest[k])
            raise InvalidParameterError(f"{directory} holds another self-play run (it differs in {', '.join(differ)})")
    else:
        partial = manifest_path.with_name(manifest_path.name + ".partial")
        partial.write_text(json.dumps(manifest, indent=2) + "\n")
        os.replace(partial, manifest_path)


@dataclass(frozen=True)
class ShardPlan:
    """The shards of a run in its directory: the games of each, its path, and those still
    missing."""

    directory: Path
    format: str
    ranges: list[tuple[int, int]]
    paths: list[Path]
    missing: list[int]

    @classmethod
    def open(cls, directory: Union[str, os.PathLike[str]], manifest: dict[str, Any]) -> ShardPlan:
        """Creates ``directory`` with ``manifest``, or checks that it holds this run (and
        refuses one that holds another); the shards' plan."""
        path = Path(directory)
        path.mkdir(parents=True, exist_ok=True)
        _check_manifest(path, manifest)
        cut = ranges(manifest["games"], manifest["shard_size"])
        fmt = manifest["format"]
        paths = [path / _shard_name(i, len(cut), fmt) for i in range(len(cut))]
        return cls(path, fmt, cut, paths, [i for i, p in enumerate(paths) if not p.exists()])

    def write(self, shard: int, data: dict[str, npt.NDArray[Any]]) -> None:
        """Writes the rows of shard ``shard``."""
        write_shard(self.paths[shard], data, self.format)

    def missing_games(self) -> int:
        return sum(self.ranges[i][1] - self.ranges[i][0] for i in self.missing)


@dataclass(frozen=True)
class SelfPlayRun:
    """What a self-play call did."""

    directory: Path
    shards: int
    played: int
    """Shards played in this call."""
    resumed: int
    """Shards found complete on disk and not played again."""
    plies: int
    """Rows (actions) recorded in the shards played in this call."""
    seconds: float


def write_shard(path: Path, data: dict[str, npt.NDArray[Any]], fmt: str) -> None:
    """Writes ``data`` to ``path`` atomically (a temporary name, then a rename), so a shard on
    disk is always complete and a resumed run can trust it."""
    partial = path.with_name(path.name + ".partial")
    try:
        _write_partial(partial, data, fmt)
    except BaseException:  # Ctrl-C included: leave no half-written file behind
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, path)


def _write_partial(partial: Path, data: dict[str, npt.NDArray[Any]], fmt: str) -> None:
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        columns = {}
        for name, values in data.items():
            if values.ndim == 1:
                columns[name] = pa.array(values)
            else:  # tensors per row; Arrow tensors have no bool, so masks go as uint8
                stored = values.astype(np.uint8) if values.dtype == np.bool_ else values
                columns[name] = pa.FixedShapeTensorArray.from_numpy_ndarray(np.ascontiguousarray(stored))
        pq.write_table(pa.table(columns), partial)
    else:
        savez: Any = np.savez_compressed  # its stub types ``**kwds`` as the flag ``allow_pickle``
        with open(partial, "wb") as out:
            savez(out, **data)


def read_shard(path: Path) -> dict[str, npt.NDArray[Any]]:
    """The columns of one shard."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(path)
        data: dict[str, npt.NDArray[Any]] = {}
        for name in table.column_names:
            column = table.column(name).combine_chunks()
            if hasattr(column, "to_numpy_ndarray"):
                values = column.to_numpy_ndarray()
                data[name] = values.astype(np.bool_) if name == "legal_mask" else values
            else:
                data[name] = column.to_numpy(zero_copy_only=False)
        return data
    with np.load(path) as npz:
        return {name: npz[name] for name in npz.files}


def load_selfplay(
    directory: Union[str, os.PathLike[str]], *, allow_partial: bool = False
) -> dict[str, npt.NDArray[Any]]:
    """The shards of a self-play directory concatenated in game order, as numpy arrays by
    column. A run with shards still missing raises, unless ``allow_partial``."""
    directory = Path(directory)
    manifest_path = directory / "manifest.json"
    if not manifest_path.exists():
        raise InvalidParameterError(f"{directory} is not a self-play directory (no manifest.json)")
    found = json.loads(manifest_path.read_text())
    count = found["shards"]
    paths = [directory / _shard_name(i, count, found["format"]) for i in range(count)]
    present = [p for p in paths if p.exists()]
    if len(present) < count and not allow_partial:
        raise InvalidParameterError(
            f"{directory} has {len(present)} of {count} shards; run selfplay again to finish it, "
            "or pass allow_partial=True"
        )
    parts = [read_shard(p) for p in present]
    if not parts:
        return {}
    return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}

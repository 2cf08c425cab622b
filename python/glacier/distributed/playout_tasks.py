"""Random playouts on Ray: ranges of game numbers played in tasks, each game the one
:func:`glacier.playouts` plays with that number, so the result does not depend on the
workers."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ..batch import Playouts
from ..batch import playouts as local_playouts
from ..errors import InvalidParameterError
from ..selfplay.shards import ranges
from .cluster import TASK_RETRIES, check_seed, cluster_cpus, connect, gather

__all__ = ["GAMMA", "playouts"]

#: The SplitMix64 increment: game ``start + j`` of a batch seeded ``s`` is game ``j`` of the
#: batch seeded ``s + start * GAMMA`` (the stream keys are ``mix(seed + (index + 1) * GAMMA)``).
GAMMA = 0x9E3779B97F4A7C15
_U64 = 1 << 64


def _playout_range(
    game: str, start: int, stop: int, seed: int, position: Optional[str], cutoff: Optional[int], params: dict[str, Any]
) -> Playouts:
    """A Ray task: games ``start..stop`` of the batch seeded ``seed``."""
    shifted = (seed + start * GAMMA) % _U64
    return local_playouts(game, stop - start, seed=shifted, threads=1, position=position, cutoff=cutoff, **params)


def playouts(
    game: str,
    n: int,
    *,
    seed: int,
    address: Optional[str] = None,
    position: Optional[str] = None,
    cutoff: Optional[int] = None,
    chunk: Optional[int] = None,
    connect_timeout: float = 10.0,
    **params: Any,
) -> Playouts:
    """The same arrays as ``glacier.playouts(game, n, seed=seed, ...)``, played on Ray in tasks
    of ``chunk`` consecutive games (by default four tasks per CPU), whatever the number of
    workers."""
    seed = check_seed(seed)
    if not isinstance(n, int) or n < 0:
        raise InvalidParameterError(f"n must be an integer >= 0, got {n!r}")
    if chunk is not None and (not isinstance(chunk, int) or chunk < 1):
        raise InvalidParameterError(f"chunk must be an integer >= 1, got {chunk!r}")
    empty = local_playouts(game, 0, seed=seed, position=position, cutoff=cutoff, **params)  # checks the rest
    if n == 0:
        return empty
    ray = connect(address, connect_timeout)
    chunk = chunk or max(1, -(-n // (4 * cluster_cpus(ray))))
    task = ray.remote(max_retries=TASK_RETRIES)(_playout_range)
    refs = [task.remote(game, a, b, seed, position, cutoff, params) for a, b in ranges(n, chunk)]
    parts: list[Playouts] = gather(ray, refs, lambda _u, _r: None)
    return Playouts(*(np.concatenate([getattr(p, f) for p in parts]) for f in Playouts._fields))

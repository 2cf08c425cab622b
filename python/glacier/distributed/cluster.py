"""Ray for :mod:`glacier.distributed`: importing it, joining or starting a cluster, and
gathering the results of tasks (stopping them all on an error or Ctrl-C)."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
from typing import Any, Callable, Optional

from ..errors import ClusterConnectionError, GlacierError, InvalidParameterError

__all__ = ["TASK_RETRIES", "check_seed", "cluster_cpus", "connect", "gather"]

#: How often Ray retries a task whose worker died (the count is the same whichever attempt ends).
TASK_RETRIES = 5
_U64 = 1 << 64


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ModuleNotFoundError(
            "glacier.distributed needs Ray, which is not installed: pip install 'glacier-games[ray]'"
        ) from None
    return ray


def _probe(address: str, timeout: float) -> None:
    """Fails fast, with a clear message, when nothing listens at ``address`` (Ray itself would
    retry for minutes)."""
    target = address.split("://", 1)[-1]
    host, sep, port_text = target.rpartition(":")
    if not sep or not host or not port_text.isdigit():
        raise ClusterConnectionError(f"Ray address {address!r} is not HOST:PORT (e.g. 127.0.0.1:6379)")
    try:
        socket.create_connection((host.strip("[]"), int(port_text)), timeout=timeout).close()
    except OSError as err:
        raise ClusterConnectionError(
            f"cannot reach a Ray cluster at {address} within {timeout:g} s ({err}); "
            "start one with 'ray start --head --port=PORT' or check the address"
        ) from None


def _recorded_address() -> Optional[str]:
    """The cluster ``ray start`` last recorded on this machine, if any (Ray's own lookup)."""
    try:
        from ray._private.services import find_bootstrap_address

        found = find_bootstrap_address(None)
    except Exception:  # a Ray without this lookup: start a local Ray instead
        return None
    return str(found) if found else None


def connect(address: Optional[str], connect_timeout: float) -> Any:
    """Ray, connected: the existing connection, the cluster at ``address``, or for ``None``
    the cluster ``RAY_ADDRESS`` names, else the one ``ray start`` ran on this machine if it
    still answers, else a new local Ray."""
    ray = _import_ray()
    if ray.is_initialized():
        return ray
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if not address:
        address = os.environ.get("RAY_ADDRESS") or None
    if not address:
        recorded = _recorded_address()
        try:
            if recorded:
                _probe(recorded, min(connect_timeout, 2.0))
        except ClusterConnectionError:
            recorded = None  # a stale record of a cluster that has stopped
        address = recorded or "local"
    if address not in ("auto", "local"):
        _probe(address, connect_timeout)
    try:
        ray.init(
            address=address,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.WARNING,
        )
    except ConnectionError as err:
        ray.shutdown()
        raise ClusterConnectionError(f"cannot join the Ray cluster at {address}: {err}") from None
    return ray


def cluster_cpus(ray: Any) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _get(ray: Any, ref: Any) -> Any:
    """``ray.get``, with an error raised by glacier on a worker re-raised as itself."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as err:
        cause = getattr(err, "cause", None)
        if isinstance(cause, GlacierError):
            raise type(cause)(f"{cause} (on a Ray worker)") from None
        raise


def _cancel(ray: Any, refs: Any) -> None:
    """Stops every task still queued or running (native counts ignore a polite cancel, so the
    workers running them are ended; Ray starts new ones)."""
    for ref in refs:
        with contextlib.suppress(Exception):  # a task that finished meanwhile cannot be cancelled
            ray.cancel(ref, force=True)


def gather(ray: Any, refs: list[Any], on_result: Callable[[int, Any], None], poll: float = 0.5) -> list[Any]:
    """The results of ``refs`` in order; ``on_result(i, result)`` as each arrives (also every
    ``poll`` seconds with ``i = -1``, so progress can refresh). Stops everything on an error."""
    results: list[Any] = [None] * len(refs)
    index = {ref: i for i, ref in enumerate(refs)}
    pending = list(refs)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=poll)
            for ref in done:
                results[index[ref]] = _get(ray, ref)
                on_result(index[ref], results[index[ref]])
            if not done:
                on_result(-1, None)
    except BaseException:
        _cancel(ray, pending)
        raise
    return results


def check_seed(seed: Any) -> int:
    """``seed`` checked: an integer in 0..2**64-1, as the engine's seeds are."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < _U64:
        raise InvalidParameterError(f"seed must be an integer in 0..2**64-1, got {seed!r}")
    return seed

"""Perft, random playouts and self-play data on a Ray cluster (the optional ``glacier-games[ray]`` extra).

All three are embarrassingly parallel, so Ray does the scheduling, the retries and the moving
of results; this module only cuts the work into tasks and puts the answers back together.

- :func:`perft` expands the tree a few plies on the driver, merges transpositions by position
  text (each unique position counted once, times its multiplicity), packs the unique positions
  into work units and counts every unit in a Ray task with the native perft on one thread.
  A task whose worker dies is retried by Ray; ``verify=True`` counts every unit a second time,
  split one ply further down and placed on another node when there is one, and reports any
  unit whose two counts disagree.
- :func:`playouts` plays ranges of game numbers in tasks: game ``i`` of a seed always plays
  the same moves, so the result equals :func:`glacier.playouts` whatever the number of workers.
- :func:`selfplay` plays games with one of glacier's players on the workers and writes shards
  of training data (Parquet through pyarrow, or ``.npz``), resuming where an interrupted run
  stopped; :func:`load_selfplay` reads the shards back as numpy arrays.

``address=None`` joins the Ray started by ``ray start`` on this machine, or starts a local one
(every core, dashboard off); an address such as ``"10.0.0.5:6379"`` joins that cluster. A
process that is already connected to Ray keeps its connection. Usage statistics are off
unless ``RAY_USAGE_STATS_ENABLED`` says otherwise.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Union

import numpy as np
import numpy.typing as npt

import glacier

from .batch import Playouts
from .batch import playouts as local_playouts
from .errors import ClusterConnectionError, GlacierError, InvalidParameterError
from .players import MonteCarloPlayer, RandomPlayer

__all__ = [
    "PLAYERS",
    "PerftProgress",
    "PerftResult",
    "SelfPlayRun",
    "UnitCount",
    "UnitMismatch",
    "compare_counts",
    "expand",
    "load_selfplay",
    "pack_units",
    "perft",
    "player_seed",
    "playouts",
    "selfplay",
    "selfplay_records",
]

#: How often Ray retries a task whose worker died (the count is the same whichever attempt ends).
TASK_RETRIES = 5
#: The SplitMix64 increment: game ``start + j`` of a batch seeded ``s`` is game ``j`` of the
#: batch seeded ``s + start * GAMMA`` (the stream keys are ``mix(seed + (index + 1) * GAMMA)``).
GAMMA = 0x9E3779B97F4A7C15
_U64 = 1 << 64

#: The players :func:`selfplay` knows by name; a callable taking ``seed=`` (and the options)
#: works too.
PLAYERS: dict[str, Callable[..., Any]] = {"random": RandomPlayer, "montecarlo": MonteCarloPlayer}


# --- Ray: import, connection, errors -------------------------------------------------------


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


def _connect(address: Optional[str], connect_timeout: float) -> Any:
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


def _cluster_cpus(ray: Any) -> int:
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


def _gather(ray: Any, refs: list[Any], on_result: Callable[[int, Any], None], poll: float = 0.5) -> list[Any]:
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


def _state_of(game_or_state: Union[str, glacier.State], params: dict[str, Any]) -> glacier.State:
    if isinstance(game_or_state, str):
        return glacier.new_game(game_or_state, **params)
    if not isinstance(game_or_state, glacier.State):
        raise InvalidParameterError(f"expected a game name or a glacier state, got {game_or_state!r}")
    if params:
        raise InvalidParameterError("pass game parameters with a game name, not with a state (it has its own)")
    return game_or_state


# --- perft ---------------------------------------------------------------------------------


def _expand_once(frontier: dict[str, tuple[glacier.State, int]]) -> dict[str, tuple[glacier.State, int]]:
    below: dict[str, list[Any]] = {}
    for parent, multiplicity in frontier.values():
        for move in parent.legal_moves():
            child = parent.copy()
            child.play(move)
            text = child.text()
            entry = below.get(text)
            if entry is None:
                below[text] = [child, multiplicity]
            else:
                entry[1] += multiplicity
    return {text: (child, count) for text, (child, count) in below.items()}


def expand(state: glacier.State, plies: int) -> dict[str, int]:
    """Every position ``plies`` plies below ``state``, by position text, with the number of move
    sequences that reach it (transpositions merged at every ply, so each position is expanded
    once). Positions where the game ended earlier have no successors and do not appear."""
    frontier: dict[str, tuple[glacier.State, int]] = {state.text(): (state, 1)}
    for _ in range(plies):
        frontier = _expand_once(frontier)
    return {text: count for text, (_, count) in frontier.items()}


def _auto_split(state: glacier.State, depth: int, cpus: int) -> tuple[int, dict[str, int]]:
    """The shallowest split leaving at least 64 unique positions per CPU, never closer than two
    plies to the leaves (a unit of perft(1) is all overhead), and its positions."""
    frontier: dict[str, tuple[glacier.State, int]] = {state.text(): (state, 1)}
    plies = 0
    while plies < depth - 2 and len(frontier) < 64 * cpus:
        frontier = _expand_once(frontier)
        plies += 1
    return plies, {text: count for text, (_, count) in frontier.items()}


def pack_units(positions: dict[str, int], units: int) -> list[list[tuple[str, int]]]:
    """The positions (sorted by text, so the packing is reproducible) dealt into ``units`` work
    units in turn: neighbours in text order, which often have similar subtrees, are spread."""
    ordered = sorted(positions.items())
    units = max(1, min(units, len(ordered)))
    return [ordered[u::units] for u in range(units)]


@dataclass(frozen=True)
class UnitCount:
    """What a task reports for one work unit."""

    nodes: int
    """The sum over the unit's positions of ``perft(position) * multiplicity``."""
    leaves: int
    """The sum of the positions' counts (each position once)."""
    seconds: float
    """Time spent counting inside the task."""
    cpu_seconds: float
    """CPU time the worker process spent on it (below ``seconds`` when the CPU was shared)."""
    worker: str
    """``node-id/pid`` of the worker process that counted it."""
    node: str


def _perft_one(state: glacier.State, depth: int, hash_mb: int) -> int:
    if not hash_mb:
        return state.perft(depth, threads=1)
    count: Any = state.perft
    try:
        return int(count(depth, threads=1, hash_mb=hash_mb))
    except TypeError as err:
        if "hash_mb" not in str(err):
            raise
        raise InvalidParameterError(
            f"hash_mb={hash_mb}: this engine's perft has no transposition table (perft() takes no "
            "hash_mb); use hash_mb=0 or a glacier whose perft accepts it on every worker"
        ) from None


def _count_unit(
    game: str,
    params: dict[str, Any],
    unit: list[tuple[str, int]],
    depth: int,
    hash_mb: int,
    one_ply_deeper: bool,
) -> UnitCount:
    """A Ray task: perft(``depth``) of every position of ``unit``. ``one_ply_deeper`` counts
    each position through its children instead (the second count of ``verify``)."""
    import ray

    start, cpu_start = time.perf_counter(), time.process_time()
    nodes = leaves = 0
    for text, multiplicity in unit:
        state = glacier.from_text(game, text, **params)
        if one_ply_deeper and depth > 0:
            count = 0
            for move in state.legal_moves():
                child = state.copy()
                child.play(move)
                count += _perft_one(child, depth - 1, hash_mb)
        else:
            count = _perft_one(state, depth, hash_mb)
        nodes += count * multiplicity
        leaves += count
    node = ray.get_runtime_context().get_node_id()
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    return UnitCount(nodes, leaves, seconds, cpu_seconds, f"{node}/{os.getpid()}", node)


@dataclass(frozen=True)
class UnitMismatch:
    """A work unit whose two counts (``verify``) disagree."""

    unit: int
    first: int
    second: int
    workers: tuple[str, str]
    positions: tuple[str, ...]


def compare_counts(
    work: list[list[tuple[str, int]]], first: list[UnitCount], second: list[UnitCount]
) -> list[UnitMismatch]:
    """The units whose two counts disagree, with the workers that made them and their positions."""
    return [
        UnitMismatch(u, a.nodes, b.nodes, (a.worker, b.worker), tuple(text for text, _ in work[u]))
        for u, (a, b) in enumerate(zip(first, second))
        if a.nodes != b.nodes
    ]


@dataclass(frozen=True)
class PerftProgress:
    """Passed to a ``progress`` callable of :func:`perft` as units finish."""

    units_done: int
    units: int
    nodes_done: int
    elapsed: float
    unit: Optional[int]
    """The unit that just finished (None for a periodic refresh)."""
    count: Optional[UnitCount]
    verifying: bool


@dataclass(frozen=True)
class PerftResult:
    """The count of :func:`perft` and how it was made."""

    nodes: int
    game: str
    depth: int
    split_depth: int
    paths: int
    """Move sequences to the split (``perft(split_depth)``, terminal positions before it excluded)."""
    positions: int
    """Unique positions at the split."""
    units: int
    cpus: int
    split_seconds: float
    """Expanding, merging and packing, on the driver."""
    count_seconds: float
    """From the first task submitted to the last result (the verifying pass excluded)."""
    task_seconds: float
    """Time spent counting inside the tasks, summed."""
    task_cpu_seconds: float
    """CPU time of the tasks, summed."""
    verified: bool
    mismatches: tuple[UnitMismatch, ...]
    counts: tuple[UnitCount, ...]

    def __int__(self) -> int:
        return self.nodes

    @property
    def seconds(self) -> float:
        """Split plus count (the Ray start-up and the verifying pass excluded)."""
        return self.split_seconds + self.count_seconds

    @property
    def leaves_counted(self) -> int:
        """Leaves the tasks counted: each unique position's subtree once (``nodes`` counts it
        once per move sequence)."""
        return sum(c.leaves for c in self.counts)

    @property
    def overhead_per_task(self) -> float:
        """CPU-seconds per task not spent counting: scheduling, transfer and idle CPUs at the end."""
        return max(0.0, self.count_seconds * self.cpus - self.task_seconds) / self.units


def perft(
    game_or_state: Union[str, glacier.State],
    depth: int,
    *,
    split_depth: Optional[int] = None,
    address: Optional[str] = None,
    hash_mb: int = 0,
    units: Optional[int] = None,
    verify: bool = False,
    progress: Union[bool, Callable[[PerftProgress], None]] = True,
    connect_timeout: float = 10.0,
    **params: Any,
) -> PerftResult:
    """perft(``depth``) of a game's start (``params`` are its parameters) or of a state, on Ray.

    The tree is expanded to ``split_depth`` plies on the driver (by default the shallowest
    split with 64 unique positions per CPU); transpositions there are merged by position text;
    the unique positions are dealt into ``units`` work units (by default 32 per CPU) and each
    unit is counted by a Ray task with the native perft on one thread. The answer is
    ``sum(perft(position) * multiplicity)``, exactly the single-machine count.

    ``hash_mb`` is passed to every native perft call when nonzero (an engine without a
    transposition table rejects it with :class:`~glacier.errors.InvalidParameterError`).
    ``verify`` counts every unit again, one ply further split and on another node when the
    cluster has more than one, and lists the units whose counts disagree in
    ``result.mismatches``. ``progress`` shows a progress bar (on a terminal), or is called
    with a :class:`PerftProgress` as units finish.
    """
    state = _state_of(game_or_state, params)
    game, game_params = state.game, state.params
    if not isinstance(depth, int) or depth < 0:
        raise InvalidParameterError(f"depth must be an integer >= 0, got {depth!r}")
    if split_depth is not None and (not isinstance(split_depth, int) or split_depth < 0):
        raise InvalidParameterError(f"split_depth must be an integer >= 0, got {split_depth!r}")
    if split_depth is not None and depth < split_depth:
        raise InvalidParameterError(f"depth {depth} is below the split depth {split_depth}")
    if not isinstance(hash_mb, int) or hash_mb < 0:
        raise InvalidParameterError(f"hash_mb must be an integer >= 0, got {hash_mb!r}")
    if units is not None and (not isinstance(units, int) or units < 1):
        raise InvalidParameterError(f"units must be an integer >= 1, got {units!r}")

    ray = _connect(address, connect_timeout)
    cpus = _cluster_cpus(ray)
    split_start = time.perf_counter()
    if split_depth is None:
        split_depth, positions = _auto_split(state, depth, cpus)
    else:
        positions = expand(state, split_depth)
    work = pack_units(positions, units or 32 * cpus)
    split_seconds = time.perf_counter() - split_start

    task = ray.remote(max_retries=TASK_RETRIES)(_count_unit)
    rest = depth - split_depth
    bar, report = _perft_progress(progress, depth, game)
    try:
        count_start = time.perf_counter()
        first = _count_pass(ray, task, game, game_params, work, rest, hash_mb, report, None, count_start)
        count_seconds = time.perf_counter() - count_start
        mismatches: list[UnitMismatch] = []
        if verify:
            second = _count_pass(ray, task, game, game_params, work, rest, hash_mb, report, first, time.perf_counter())
            mismatches = compare_counts(work, first, second)
    finally:
        if bar is not None:
            bar.close()
    return PerftResult(
        nodes=sum(c.nodes for c in first),
        game=game,
        depth=depth,
        split_depth=split_depth,
        paths=sum(positions.values()),
        positions=len(positions),
        units=len(work),
        cpus=cpus,
        split_seconds=split_seconds,
        count_seconds=count_seconds,
        task_seconds=sum(c.seconds for c in first),
        task_cpu_seconds=sum(c.cpu_seconds for c in first),
        verified=verify,
        mismatches=tuple(mismatches),
        counts=tuple(first),
    )


def _count_pass(
    ray: Any,
    task: Any,
    game: str,
    params: dict[str, Any],
    work: list[list[tuple[str, int]]],
    rest: int,
    hash_mb: int,
    report: Callable[[PerftProgress], None],
    first: Optional[list[UnitCount]],
    start: float,
) -> list[UnitCount]:
    """One count of every unit; the second pass (``first`` given) splits one ply deeper and
    asks for another node than the first count's (softly: one node is fine)."""
    verifying = first is not None
    nodes = [n["NodeID"] for n in ray.nodes() if n.get("Alive")] if verifying else []
    refs = []
    for u, unit in enumerate(work):
        options: dict[str, Any] = {}
        if first is not None and len(nodes) > 1:
            other = nodes[(nodes.index(first[u].node) + 1) % len(nodes)] if first[u].node in nodes else nodes[0]
            options["scheduling_strategy"] = ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(
                other, soft=True
            )
        refs.append(task.options(**options).remote(game, params, unit, rest, hash_mb, verifying))
    done = 0
    nodes_done = 0

    def on_result(u: int, count: Optional[UnitCount]) -> None:
        nonlocal done, nodes_done
        if count is not None:
            done += 1
            nodes_done += count.nodes
        elapsed = time.perf_counter() - start
        report(PerftProgress(done, len(work), nodes_done, elapsed, u if u >= 0 else None, count, verifying))

    return _gather(ray, refs, on_result)


def _perft_progress(
    progress: Union[bool, Callable[[PerftProgress], None]], depth: int, game: str
) -> tuple[Any, Callable[[PerftProgress], None]]:
    if callable(progress):
        return None, progress
    if not progress:
        return None, lambda _: None
    from tqdm import tqdm

    bar = tqdm(desc=f"{game} perft({depth}) on Ray", unit="unit", leave=False, disable=None)

    def report(p: PerftProgress) -> None:
        if bar.total != p.units or (p.verifying and bar.desc.endswith("Ray")):
            bar.reset(total=p.units)
            bar.set_description(f"{game} perft({depth}) {'verifying' if p.verifying else 'on Ray'}")
        bar.n = p.units_done
        rate = p.nodes_done / p.elapsed if p.elapsed > 0 else 0.0
        bar.set_postfix_str(f"{rate / 1e6:,.0f} M nodes/s", refresh=False)
        bar.refresh()

    return bar, report


# --- playouts ------------------------------------------------------------------------------


def _check_seed(seed: Any) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < _U64:
        raise InvalidParameterError(f"seed must be an integer in 0..2**64-1, got {seed!r}")
    return seed


def _ranges(n: int, chunk: int) -> list[tuple[int, int]]:
    return [(start, min(start + chunk, n)) for start in range(0, n, chunk)]


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
    seed = _check_seed(seed)
    if not isinstance(n, int) or n < 0:
        raise InvalidParameterError(f"n must be an integer >= 0, got {n!r}")
    if chunk is not None and (not isinstance(chunk, int) or chunk < 1):
        raise InvalidParameterError(f"chunk must be an integer >= 1, got {chunk!r}")
    empty = local_playouts(game, 0, seed=seed, position=position, cutoff=cutoff, **params)  # checks the rest
    if n == 0:
        return empty
    ray = _connect(address, connect_timeout)
    chunk = chunk or max(1, -(-n // (4 * _cluster_cpus(ray))))
    task = ray.remote(max_retries=TASK_RETRIES)(_playout_range)
    refs = [task.remote(game, a, b, seed, position, cutoff, params) for a, b in _ranges(n, chunk)]
    parts: list[Playouts] = _gather(ray, refs, lambda _u, _r: None)
    return Playouts(*(np.concatenate([getattr(p, f) for p in parts]) for f in Playouts._fields))


# --- self-play data ------------------------------------------------------------------------

#: The columns of a self-play shard, one row per action played.
COLUMNS = ("game", "ply", "player", "observation", "legal_count", "legal_mask", "action", "returns")


def player_seed(seed: int, game_index: int) -> int:
    """The seed :func:`selfplay` gives the player of game ``game_index`` of a run seeded ``seed``."""
    return int(np.random.SeedSequence([seed, game_index]).generate_state(1, np.uint64)[0])


def _make_player(player: Union[str, Callable[..., Any]], options: dict[str, Any], seed: int) -> Any:
    factory = PLAYERS[player] if isinstance(player, str) else player
    return factory(seed=seed, **options)


def _play_games(
    game: str,
    params: dict[str, Any],
    start: int,
    stop: int,
    seed: int,
    player: Union[str, Callable[..., Any]],
    options: dict[str, Any],
) -> dict[str, npt.NDArray[Any]]:
    """A Ray task: games ``start..stop``, every ply recorded (see :func:`selfplay`)."""
    rows: dict[str, list[Any]] = {c: [] for c in COLUMNS}
    probe = glacier.new_game(game, **params)
    for index in range(start, stop):
        state = glacier.new_game(game, **params)
        chooser = _make_player(player, options, player_seed(seed, index))
        first_row = len(rows["game"])
        while not state.is_terminal():
            # A move of several actions (a jump chain, a drop order) is a row per action: each
            # row is one decision of the fixed action space, as a learner sees it.
            for action in state.move_to_actions(chooser.choose(state)):
                rows["game"].append(index)
                rows["ply"].append(len(state.moves))
                rows["player"].append(state.current_player)
                rows["observation"].append(state.observation())
                rows["legal_count"].append(len(state.legal_actions()))
                rows["legal_mask"].append(state.legal_action_mask())
                rows["action"].append(action)
                state.apply_action(action)
        rows["returns"].extend([state.returns()] * (len(rows["game"]) - first_row))
    obs_shape = tuple(probe.observation_shape)
    return {
        "game": np.asarray(rows["game"], dtype=np.int64),
        "ply": np.asarray(rows["ply"], dtype=np.uint32),
        "player": np.asarray(rows["player"], dtype=np.int32),
        "observation": np.asarray(rows["observation"], dtype=np.float32).reshape((-1, *obs_shape)),
        "legal_count": np.asarray(rows["legal_count"], dtype=np.uint32),
        "legal_mask": np.asarray(rows["legal_mask"], dtype=np.bool_).reshape(-1, probe.num_distinct_actions),
        "action": np.asarray(rows["action"], dtype=np.int64),
        "returns": np.asarray(rows["returns"], dtype=np.float64).reshape(-1, probe.num_players),
    }


def _shard_name(index: int, count: int, fmt: str) -> str:
    return f"shard-{index:05d}-of-{count:05d}.{fmt}"


def _write_shard(path: Path, data: dict[str, npt.NDArray[Any]], fmt: str) -> None:
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


def _read_shard(path: Path) -> dict[str, npt.NDArray[Any]]:
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


@dataclass(frozen=True)
class SelfPlayRun:
    """What :func:`selfplay` did."""

    directory: Path
    shards: int
    played: int
    """Shards played in this call."""
    resumed: int
    """Shards found complete on disk and not played again."""
    plies: int
    """Rows (actions) recorded in the shards played in this call."""
    seconds: float


def _manifest(
    game: str,
    params: dict[str, Any],
    n: int,
    seed: int,
    player: Union[str, Callable[..., Any]],
    options: dict[str, Any],
    shard_size: int,
    fmt: str,
) -> dict[str, Any]:
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
        "columns": list(COLUMNS),
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


def _az_columns() -> tuple[str, ...]:
    from .learn.selfplay_games import AZ_COLUMNS

    return AZ_COLUMNS


def _check_az_options(game: str, params: dict[str, Any], options: dict[str, Any]) -> None:
    """Checks ``player="az"``'s options on the driver: a net file for this game, and
    self-play settings it knows."""
    from .learn.nets import load
    from .learn.selfplay_games import SelfPlaySettings

    if "net" not in options:
        raise InvalidParameterError("player='az' needs player_options={'net': PATH, ...}: the net file to play with")
    net = load(options["net"], game, **params)
    if options.get("net_digest") not in (None, net.digest()):
        raise InvalidParameterError(f"the net {options['net']} is not the one this run was started with")
    SelfPlaySettings.of({k: v for k, v in options.items() if k not in ("net", "net_digest")}).check()


def _play_games_az(
    game: str, params: dict[str, Any], start: int, stop: int, seed: int, options: dict[str, Any]
) -> dict[str, npt.NDArray[Any]]:
    """A Ray task of ``player="az"``: games ``start..stop`` of AlphaZero self-play with the net
    file ``options["net"]`` (checked against ``options["net_digest"]`` when given)."""
    from .learn import selfplay_games as az
    from .learn.nets import load

    settings = {k: v for k, v in options.items() if k not in ("net", "net_digest")}
    net = load(options["net"], game, **params)
    if options.get("net_digest") not in (None, net.digest()):
        raise InvalidParameterError(f"the net {options['net']} changed since the self-play run began")
    rows: dict[str, npt.NDArray[Any]] = az.play_games(
        game, params, start, stop, seed, az.engine_evaluator(net), az.SelfPlaySettings.of(settings)
    )
    return rows


def selfplay(
    game: str,
    n: int,
    *,
    player: Union[str, Callable[..., Any]] = "random",
    seed: int,
    out: Union[str, os.PathLike[str]],
    address: Optional[str] = None,
    player_options: Optional[dict[str, Any]] = None,
    shard_size: int = 100,
    format: str = "auto",
    progress: bool = True,
    connect_timeout: float = 10.0,
    record: Optional[Union[str, os.PathLike[str]]] = None,
    **params: Any,
) -> SelfPlayRun:
    """Plays ``n`` games of ``game`` on Ray, every seat taken by ``player``, and writes the plies
    to shards of ``shard_size`` games in the directory ``out``.

    ``player`` is a name of :data:`PLAYERS` (``"random"``, ``"montecarlo"``) or a callable
    taking ``seed=`` and ``player_options`` that returns an object with ``choose(state) ->
    move``; game ``i`` gets its own seed derived from ``(seed, i)``, so the data does not
    depend on the workers. Each row is one action of the game's fixed action space (a move
    of several actions, such as a jump chain, has a row per action, all by the same player):
    ``game`` (its number), ``ply`` (the whole moves made before it), ``player`` (to move),
    ``observation`` (the engine's tensor, from the mover's point of view), ``legal_count``
    and ``legal_mask`` (the legal actions), ``action`` (the action taken) and ``returns``
    (the game's final returns, one per player). Replaying the ``action`` column with
    ``apply_action`` replays the games.

    ``format`` is ``"parquet"`` (pyarrow), ``"npz"`` or ``"auto"`` (Parquet when pyarrow is
    installed). Shards are written by the driver as they arrive, each complete or absent; a
    second call with the same arguments plays only the missing shards (a directory holding
    another run is refused). :func:`load_selfplay` reads the directory back.

    ``player="az"`` is AlphaZero self-play with a net (:mod:`glacier.learn`): every move
    chosen by the engine's MCTS with the net file ``player_options["net"]`` as its
    evaluator, the other options those of :class:`glacier.learn.SelfPlaySettings`
    (simulations, Dirichlet noise, temperature schedule), each task playing its games all
    at once. Its rows have the columns of :data:`glacier.learn.selfplay_games.AZ_COLUMNS`: the
    above, plus ``policy`` (the search's visits over actions), ``root_values`` (the root's
    value for every player) and ``searched`` (whether the row is a move's first action,
    where the search chose). ``glacier train --ray ADDRESS`` plays its self-play this way.

    ``record``: a file that then receives every game of the run as a game record
    (:mod:`glacier.records`; see :func:`selfplay_records`), written anew each call.
    """
    seed = _check_seed(seed)
    options = dict(player_options or {})
    if not isinstance(n, int) or n < 1:
        raise InvalidParameterError(f"n must be an integer >= 1, got {n!r}")
    if not isinstance(shard_size, int) or shard_size < 1:
        raise InvalidParameterError(f"shard_size must be an integer >= 1, got {shard_size!r}")
    if isinstance(player, str) and player not in PLAYERS and player != "az":
        raise InvalidParameterError(f"unknown player {player!r}; glacier has: {', '.join([*PLAYERS, 'az'])}")
    if not isinstance(player, str) and not callable(player):
        raise InvalidParameterError(f"player must be a name or a callable, got {player!r}")
    if format == "auto":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            format = "npz"
        else:
            format = "parquet"
    if format not in ("parquet", "npz"):
        raise InvalidParameterError(f"format must be 'parquet', 'npz' or 'auto', got {format!r}")
    full_params = glacier.new_game(game, **params).params  # checks the game and its parameters
    if player == "az":
        _check_az_options(game, full_params, options)
    else:
        try:
            _make_player(player, options, 0)  # checks the options here rather than on every worker
        except TypeError as err:
            raise InvalidParameterError(
                f"player_options {options!r} do not suit the player {player!r}: {err}"
            ) from None

    directory = Path(out)
    directory.mkdir(parents=True, exist_ok=True)
    manifest = _manifest(game, full_params, n, seed, player, options, shard_size, format)
    if player == "az":
        manifest["columns"] = list(_az_columns())
    _check_manifest(directory, manifest)

    ranges = _ranges(n, shard_size)
    paths = [directory / _shard_name(i, len(ranges), format) for i in range(len(ranges))]
    missing = [i for i, path in enumerate(paths) if not path.exists()]
    start = time.perf_counter()
    plies = 0
    if missing:
        ray = _connect(address, connect_timeout)
        if player == "az":
            task = ray.remote(max_retries=TASK_RETRIES)(_play_games_az)
            refs = [task.remote(game, full_params, *ranges[i], seed, options) for i in missing]
        else:
            task = ray.remote(max_retries=TASK_RETRIES)(_play_games)
            refs = [task.remote(game, full_params, *ranges[i], seed, player, options) for i in missing]
        from tqdm import tqdm

        with tqdm(
            total=len(missing), desc=f"{game} self-play", unit="shard", disable=None if progress else True
        ) as bar:

            def on_result(k: int, data: Optional[dict[str, npt.NDArray[Any]]]) -> None:
                nonlocal plies
                if data is None:
                    return
                _write_shard(paths[missing[k]], data, format)
                plies += len(data["game"])
                bar.update()

            _gather(ray, refs, on_result)
    if record is not None:
        selfplay_records(directory, record)
    return SelfPlayRun(
        directory, len(ranges), len(missing), len(ranges) - len(missing), plies, time.perf_counter() - start
    )


def selfplay_records(
    directory: Union[str, os.PathLike[str]],
    path: Union[str, os.PathLike[str]],
    *,
    allow_partial: bool = False,
    append: bool = False,
) -> int:
    """Writes every game of a :func:`selfplay` directory to ``path`` as game records
    (:mod:`glacier.records`, tags ``Event "glacier selfplay"`` and ``Round`` the game's
    number + 1), each game replayed from its ``action`` column; returns the number of games.
    ``allow_partial`` as in :func:`load_selfplay`; ``append`` adds them after the file's
    games instead of replacing the file."""
    from . import records

    directory = Path(directory)
    data = load_selfplay(directory, allow_partial=allow_partial)
    manifest = json.loads((directory / "manifest.json").read_text())
    games = data["game"] if data else np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.diff(games, prepend=-1) != 0).tolist()
    played = []
    for first, stop in zip(starts, [*starts[1:], len(games)]):
        state = glacier.new_game(manifest["game"], **manifest["params"])
        for action in data["action"][first:stop].tolist():
            state.apply_action(action)
        played.append(records.Record.of(state, Event="glacier selfplay", Round=str(int(games[first]) + 1)))
    return records.write(Path(path), played, append=append)


def load_selfplay(
    directory: Union[str, os.PathLike[str]], *, allow_partial: bool = False
) -> dict[str, npt.NDArray[Any]]:
    """The shards of a :func:`selfplay` directory concatenated in game order, as numpy arrays
    by column. A run with shards still missing raises, unless ``allow_partial``."""
    directory = Path(directory)
    manifest_path = directory / "manifest.json"
    if not manifest_path.exists():
        raise InvalidParameterError(f"{directory} is not a self-play directory (no manifest.json)")
    manifest = json.loads(manifest_path.read_text())
    count = manifest["shards"]
    paths = [directory / _shard_name(i, count, manifest["format"]) for i in range(count)]
    present = [p for p in paths if p.exists()]
    if len(present) < count and not allow_partial:
        raise InvalidParameterError(
            f"{directory} has {len(present)} of {count} shards; run selfplay again to finish it, "
            "or pass allow_partial=True"
        )
    parts = [_read_shard(p) for p in present]
    if not parts:
        return {}
    return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}

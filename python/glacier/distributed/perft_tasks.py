"""perft on Ray: the tree expanded a few plies on the driver, transpositions merged, the
unique positions packed into work units, each unit counted in a task by the native perft on
one thread (and, with ``verify``, counted again one ply further split, on another node)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

import glacier

from ..errors import InvalidParameterError
from .cluster import TASK_RETRIES, cluster_cpus, connect, gather

__all__ = [
    "PerftProgress",
    "PerftResult",
    "UnitCount",
    "UnitMismatch",
    "compare_counts",
    "expand",
    "pack_units",
    "perft",
]


def _state_of(game_or_state: Union[str, glacier.State], params: dict[str, Any]) -> glacier.State:
    if isinstance(game_or_state, str):
        return glacier.new_game(game_or_state, **params)
    if not isinstance(game_or_state, glacier.State):
        raise InvalidParameterError(f"expected a game name or a glacier state, got {game_or_state!r}")
    if params:
        raise InvalidParameterError("pass game parameters with a game name, not with a state (it has its own)")
    return game_or_state


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

    def __str__(self) -> str:
        return f"unit {self.unit}: {self.first} then {self.second} (workers {self.workers[0]}, {self.workers[1]})"


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

    def report(self) -> list[str]:
        """The result as lines of text (``glacier perft --ray``): the count, its speed, the
        split, and for a verified count whose units all agree, that they do."""
        rate = self.nodes / self.seconds if self.seconds > 0 else float("inf")
        lines = [
            f"{self.game} perft({self.depth}) = {self.nodes}",
            f"{self.seconds:.3f} s, {rate:,.0f} leaves/s (Ray, {self.cpus} CPUs, one engine thread per task; "
            "last ply counted in bulk)",
            f"split at ply {self.split_depth}: {self.paths} move sequences, {self.positions} unique positions, "
            f"{self.units} units; split {self.split_seconds:.3f} s, {self.overhead_per_task * 1e3:.1f} ms "
            "overhead per task",
        ]
        if self.verified and not self.mismatches:
            lines.append(
                f"verified: every unit counted twice (one ply further split the second time), all {self.units} agree"
            )
        return lines


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

    ray = connect(address, connect_timeout)
    cpus = cluster_cpus(ray)
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

    return gather(ray, refs, on_result)


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

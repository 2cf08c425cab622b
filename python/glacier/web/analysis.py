"""The analysis of the position a game shows in the web app: the game's default MCTS searcher
run in slices of a fifth of a second, each in a worker thread of the analyses' own small
pool (as many threads as cores, taken in turn), so that any number of analyses share the
machine and none keeps a computer player from its move (those have their pool,
:mod:`glacier.web.computers`).

An analysis is bounded: a position is searched for at most :data:`ANALYSIS_SECONDS`, in
trees of at most :data:`MAX_NODES` nodes (all analyses together :data:`ALL_NODES`): a full
tree's root visits are kept and the search goes on in a fresh tree, so memory stays bounded
however long or many the analyses. It stops when no page has shown the game for
:data:`glacier.web.session.UNWATCHED_SECONDS`, and its tree is dropped when it stops.
While it is on, a move (or going to another position) goes on with the new position,
reusing the part of the tree that the move reached.
"""

from __future__ import annotations

import asyncio
import os
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

import anyio
import anyio.lowlevel
import anyio.to_thread

from glacier import play
from glacier.errors import GlacierError

__all__ = [
    "ALL_NODES",
    "ANALYSIS_SECONDS",
    "ANALYSIS_THREADS",
    "MAX_NODES",
    "TOP_MOVES",
    "Analysis",
    "Analyst",
    "tree_cap",
]

#: How many moves an analysis lists (and draws as arrows).
TOP_MOVES = 4
#: A position is searched this long at most.
ANALYSIS_SECONDS = 120.0
#: A tree holds at most this many nodes (a few hundred bytes each, up to 2 kB in E); a full
#: tree's root visits are kept and the search goes on in a new one.
MAX_NODES = 200_000
#: The nodes all analyses' trees hold together at most: the bound of their memory
#: (docs/benchmarks.md measures it).
ALL_NODES = 400_000
#: Analyses searching at once (the others wait for their turn, a slice at a time).
ANALYSIS_THREADS = max(1, min(4, os.cpu_count() or 1))

#: The analyses searching now (their trees share :data:`ALL_NODES`).
_RUNNING: weakref.WeakSet[Analyst] = weakref.WeakSet()


def tree_cap() -> int:
    """How many nodes an analysis's tree may hold now."""
    return min(MAX_NODES, ALL_NODES // max(1, len(_RUNNING)))


_LIMITER: anyio.lowlevel.RunVar[anyio.CapacityLimiter] = anyio.lowlevel.RunVar("glacier_web_analyses")


def _pool() -> anyio.CapacityLimiter:
    """The analyses' threads (one limiter per event loop: a limiter belongs to its loop)."""
    try:
        return _LIMITER.get()
    except LookupError:
        limiter = anyio.CapacityLimiter(ANALYSIS_THREADS)
        _LIMITER.set(limiter)
        return limiter


@dataclass
class Analysis:
    """What the search of one position has found so far. ``generation`` is the session's
    count of positions shown when it began: the page shows it only while that holds."""

    ply: int
    generation: int
    running: bool = True
    simulations: int = 0
    seconds: float = 0.0
    nodes: int = 0
    values: list[float] = field(default_factory=list)
    top: list[dict[str, Any]] = field(default_factory=list)
    error: Optional[str] = None
    cancelled: bool = False
    """Set to end the search after its slice (a worker thread's search is never cut short:
    the next analysis of the same searcher waits for it)."""
    ended: Optional[str] = None
    """Why it stopped: ``stopped``, ``time``, ``no page shows the game``, ``the game is over``."""

    def shown(self, names: Sequence[str]) -> dict[str, Any]:
        """What the page shows of it."""
        return {
            "ply": self.ply,
            "running": self.running,
            "simulations": self.simulations,
            "seconds": round(self.seconds, 1),
            "nodes": self.nodes,
            "values": [{"seat": name, "value": round(v, 3)} for name, v in zip(names, self.values)],
            "top": list(self.top),
            "error": self.error,
            "ended": self.ended,
        }


class Analyst:
    """The analysis of one game: :meth:`start` turns it on for a position, :meth:`follow`
    moves it to the position shown next, :meth:`stop` turns it off. ``changed()`` is called
    (on the event loop) whenever :attr:`current` changes; ``watched()`` says whether a page
    has shown the game lately."""

    def __init__(self, game: str, changed: Callable[[], None], watched: Callable[[], bool]) -> None:
        self.game = game
        self.on = False
        self.current: Optional[Analysis] = None
        self._changed = changed
        self._watched = watched
        self._task: Optional[asyncio.Task[None]] = None
        self._searcher: Any = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self, position: Any, ply: int, generation: int) -> None:
        """Turns the analysis on and searches ``position`` (whole moves, not over)."""
        self.on = True
        self._begin(position, ply, generation)

    def follow(self, position: Any, ply: int, generation: int) -> None:
        """The game shows another position: while on, the analysis goes on with it (it
        stops at the end of the game)."""
        if not self.on:
            return
        if position.is_terminal():
            self.stop("the game is over")
            return
        self._begin(position, ply, generation)

    def stop(self, reason: str = "stopped") -> None:
        """Turns the analysis off; its search ends within a slice and its tree is dropped."""
        self.on = False
        if self.current is not None and self.current.running:
            self.current.cancelled = True
            if self.current.ended is None:
                self.current.ended = reason

    def _begin(self, position: Any, ply: int, generation: int) -> None:
        previous = self._task
        if self.current is not None:
            self.current.cancelled = True
        self.current = Analysis(ply, generation)
        self._task = asyncio.get_running_loop().create_task(self._run(self.current, position, previous))

    async def _run(self, analysis: Analysis, position: Any, previous: Optional[asyncio.Task[None]]) -> None:
        try:
            if previous is not None:  # its slice may still be running in the searcher
                await asyncio.wait([previous])
            if self._searcher is None:
                self._searcher = play.default_search(self.game, seed=1)
            searcher = self._searcher
            earlier = _Earlier()
            begun = time.monotonic()
            _RUNNING.add(self)
            while not analysis.cancelled:
                if not self._watched():
                    self.on = False
                    analysis.ended = "no page shows the game"
                    break
                if analysis.seconds >= ANALYSIS_SECONDS:
                    analysis.ended = "time"
                    break
                found = await anyio.to_thread.run_sync(_slice, searcher, position, analysis, limiter=_pool())
                if found is None:
                    break
                result, nodes = found
                analysis.simulations += result.simulations
                visits, values = earlier.with_tree(result)
                analysis.values = values
                analysis.top = _top(position, visits)
                analysis.nodes = nodes
                analysis.seconds = time.monotonic() - begun
                if nodes >= tree_cap():  # a full tree's visits are kept, its memory freed
                    earlier.add(result)
                    await anyio.to_thread.run_sync(searcher.reset)
                self._changed()
        except GlacierError as err:  # shown with the analysis, not lost in a worker thread
            analysis.error = str(err)
        finally:
            analysis.running = False
            _RUNNING.discard(self)
            if self._task is asyncio.current_task():  # not replaced by the next position's
                self._searcher = None  # the tree's memory goes with it
            self._changed()

    def close(self) -> None:
        self.stop()


def _slice(searcher: Any, position: Any, analysis: Analysis) -> Optional[tuple[Any, int]]:
    if analysis.cancelled:  # while it waited for its turn
        return None
    result = searcher.search(position, simulations=None, seconds=play.SLICE_SECONDS)
    return result, searcher.tree_size


def _top(position: Any, visits: dict[str, int]) -> list[dict[str, Any]]:
    total = sum(visits.values()) or 1
    ranked = sorted(visits.items(), key=lambda item: -item[1])[:TOP_MOVES]
    return [
        {"move": move, "notation": play.notation(position, move), "visits": count, "share": round(count / total, 3)}
        for move, count in ranked
    ]


class _Earlier:
    """The root's visits and values of the full trees an analysis has searched and dropped
    (their sum is the analysis's, as trees searched side by side are added up)."""

    def __init__(self) -> None:
        self.visits: dict[str, int] = {}
        self.value_sums: list[float] = []
        self.weight = 0

    def add(self, result: Any) -> None:
        for move, count in result.visits.items():
            self.visits[move] = self.visits.get(move, 0) + count
        weight = sum(result.visits.values())
        if not self.value_sums:
            self.value_sums = [0.0] * len(result.values)
        self.value_sums = [s + v * weight for s, v in zip(self.value_sums, result.values)]
        self.weight += weight

    def with_tree(self, result: Any) -> tuple[dict[str, int], list[float]]:
        """The visits and values of the earlier trees and the tree now searched together."""
        if not self.weight:
            return dict(result.visits), list(result.values)
        visits = dict(self.visits)
        for move, count in result.visits.items():
            visits[move] = visits.get(move, 0) + count
        weight = sum(result.visits.values())
        total = self.weight + weight
        values = [(s + v * weight) / total for s, v in zip(self.value_sums, result.values)]
        return visits, values

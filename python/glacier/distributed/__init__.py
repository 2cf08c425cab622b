"""Perft, random playouts and self-play data on a Ray cluster (the optional ``glacier-games[ray]`` extra).

All three are embarrassingly parallel, so Ray does the scheduling, the retries and the moving
of results; this package only cuts the work into tasks and puts the answers back together.
The tasks are glacier's own functions (the native perft, :func:`glacier.playouts`, the
self-play of :mod:`glacier.selfplay`), so every answer is the one a single machine gives.

- :func:`perft` (:mod:`~glacier.distributed.perft_tasks`) expands the tree a few plies on
  the driver, merges transpositions by position text (each unique position counted once,
  times its multiplicity), packs the unique positions into work units and counts every unit
  in a Ray task with the native perft on one thread. A task whose worker dies is retried by
  Ray; ``verify=True`` counts every unit a second time, split one ply further down and
  placed on another node when there is one, and reports any unit whose two counts disagree.
- :func:`playouts` (:mod:`~glacier.distributed.playout_tasks`) plays ranges of game numbers
  in tasks: game ``i`` of a seed always plays the same moves, so the result equals
  :func:`glacier.playouts` whatever the number of workers.
- :func:`selfplay` (:mod:`~glacier.distributed.selfplay_tasks`) plays games with one of
  glacier's players, or with a net, on the workers and writes shards of training data
  (Parquet through pyarrow, or ``.npz``), resuming where an interrupted run stopped;
  :func:`load_selfplay` reads the shards back as numpy arrays.

``address=None`` joins the Ray started by ``ray start`` on this machine, or starts a local one
(every core, dashboard off); an address such as ``"10.0.0.5:6379"`` joins that cluster
(:mod:`~glacier.distributed.cluster`). A process that is already connected to Ray keeps its
connection. Usage statistics are off unless ``RAY_USAGE_STATS_ENABLED`` says otherwise.
"""

from __future__ import annotations

from ..selfplay import PLAYERS, SelfPlayRun, load_selfplay, player_seed, selfplay_records
from ..selfplay.shards import COLUMNS
from .cluster import TASK_RETRIES
from .perft_tasks import (
    PerftProgress,
    PerftResult,
    UnitCount,
    UnitMismatch,
    compare_counts,
    expand,
    pack_units,
    perft,
)
from .playout_tasks import GAMMA, playouts
from .selfplay_tasks import selfplay

__all__ = [
    "COLUMNS",
    "GAMMA",
    "PLAYERS",
    "TASK_RETRIES",
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

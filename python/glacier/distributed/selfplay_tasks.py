"""Self-play on Ray: the shards of a run still missing played in tasks (the functions of
:mod:`glacier.selfplay`), each written by the driver as it arrives."""

from __future__ import annotations

import os
import time
from typing import Any, Callable, Optional, Union

import numpy.typing as npt

import glacier

from ..errors import InvalidParameterError
from ..selfplay import alphazero, player_games
from ..selfplay.alphazero import AZ_COLUMNS
from ..selfplay.player_games import PLAYERS
from ..selfplay.records import selfplay_records
from ..selfplay.shards import COLUMNS, SelfPlayRun, ShardPlan, manifest, shard_format
from .cluster import TASK_RETRIES, check_seed, connect, gather

__all__ = ["selfplay"]


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

    ``player`` is a name of :data:`glacier.selfplay.PLAYERS` (``"random"``, ``"montecarlo"``) or a callable
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
    another run is refused). :func:`glacier.selfplay.load_selfplay` reads the directory back.

    ``player="az"`` is AlphaZero self-play with a net (:mod:`glacier.selfplay.alphazero`):
    every move chosen by the engine's MCTS with the net file ``player_options["net"]`` as its
    evaluator, the other options those of :class:`glacier.selfplay.SelfPlaySettings`
    (simulations, Dirichlet noise, temperature schedule), each task playing its games all
    at once. Its rows have the columns of :data:`glacier.selfplay.AZ_COLUMNS`: the
    above, plus ``policy`` (the search's visits over actions), ``root_values`` (the root's
    value for every player) and ``searched`` (whether the row is a move's first action,
    where the search chose). ``glacier train --ray ADDRESS`` plays its self-play this way.

    ``record``: a file that then receives every game of the run as a game record
    (:mod:`glacier.records`; see :func:`glacier.selfplay.selfplay_records`), written anew each call.
    """
    seed = check_seed(seed)
    options = dict(player_options or {})
    if not isinstance(n, int) or n < 1:
        raise InvalidParameterError(f"n must be an integer >= 1, got {n!r}")
    if not isinstance(shard_size, int) or shard_size < 1:
        raise InvalidParameterError(f"shard_size must be an integer >= 1, got {shard_size!r}")
    if isinstance(player, str) and player not in PLAYERS and player != "az":
        raise InvalidParameterError(f"unknown player {player!r}; glacier has: {', '.join([*PLAYERS, 'az'])}")
    if not isinstance(player, str) and not callable(player):
        raise InvalidParameterError(f"player must be a name or a callable, got {player!r}")
    format = shard_format(format)
    full_params = glacier.new_game(game, **params).params  # checks the game and its parameters
    if player == "az":
        alphazero.check_net_options(game, full_params, options)
    else:
        player_games.check_player(player, options)  # here rather than on every worker
    columns = AZ_COLUMNS if player == "az" else COLUMNS
    plan = ShardPlan.open(out, manifest(game, full_params, n, seed, player, options, shard_size, format, columns))

    start = time.perf_counter()
    plies = 0
    if plan.missing:
        ray = connect(address, connect_timeout)
        if player == "az":
            task = ray.remote(max_retries=TASK_RETRIES)(alphazero.play_net_file_games)
            refs = [task.remote(game, full_params, *plan.ranges[i], seed, options) for i in plan.missing]
        else:
            task = ray.remote(max_retries=TASK_RETRIES)(player_games.play_games)
            refs = [task.remote(game, full_params, *plan.ranges[i], seed, player, options) for i in plan.missing]
        from tqdm import tqdm

        with tqdm(
            total=len(plan.missing), desc=f"{game} self-play", unit="shard", disable=None if progress else True
        ) as bar:

            def on_result(k: int, data: Optional[dict[str, npt.NDArray[Any]]]) -> None:
                nonlocal plies
                if data is None:
                    return
                plan.write(plan.missing[k], data)
                plies += len(data["game"])
                bar.update()

            gather(ray, refs, on_result)
    if record is not None:
        selfplay_records(plan.directory, record)
    shards, missing = len(plan.ranges), len(plan.missing)
    return SelfPlayRun(plan.directory, shards, missing, shards - missing, plies, time.perf_counter() - start)

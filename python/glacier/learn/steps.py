"""The steps of training, each a function of its own: self-play -> shards -> trainer ->
gate -> evaluate.

- :func:`selfplay` plays games with a net and writes them as shards (the format of
  :mod:`glacier.selfplay.shards`), here or on a Ray cluster;
- :func:`load_positions` reads shards into a :class:`~glacier.learn.train.ReplayBuffer`;
- :class:`~glacier.learn.train.Trainer` fits a net to the buffer;
- :func:`gate` plays a new net against the best in a seeded match;
- :func:`evaluate` plays a net against glacier's players.

:class:`glacier.learn.run.TrainingRun` runs them on a training directory, and
:func:`glacier.learn.train` runs them iteration after iteration.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Optional, Union

from .. import nets
from ..arena import ArenaResult, arena
from ..errors import InvalidParameterError
from ..players import NetPlayer
from ..selfplay import SelfPlayRun, SelfPlaySettings, load_selfplay, play_shards
from .matches import NetSide, match
from .train import ReplayBuffer

__all__ = ["evaluate", "gate", "load_positions", "selfplay"]


def selfplay(
    net: Union[nets.Net, str, os.PathLike[str]],
    games: int,
    *,
    out: Union[str, os.PathLike[str]],
    seed: int,
    settings: Optional[SelfPlaySettings] = None,
    shard_size: int = 64,
    address: Optional[str] = None,
    progress: bool = False,
    stop: Optional[Callable[[], bool]] = None,
    threads: int = 1,
) -> SelfPlayRun:
    """Plays ``games`` self-play games with ``net`` (a :class:`~glacier.nets.Net` or a net
    file) and writes them to the directory ``out`` as shards of ``shard_size`` games (the
    format of :func:`glacier.distributed.selfplay`, columns
    :data:`~glacier.selfplay.AZ_COLUMNS`). With ``address``, on that Ray cluster (``"auto"``:
    the one ``ray start`` began here, or a new local one; the net must then be a file the
    workers can read).
    A second call with the same arguments plays only the shards still missing; ``stop()``
    is asked between shards. ``threads``: the searches' threads here (the games do not
    depend on it)."""
    settings = settings or SelfPlaySettings()
    if address is None:
        loaded = net if isinstance(net, nets.Net) else nets.load(net)
        return play_shards(
            loaded,
            games,
            out=out,
            seed=seed,
            settings=settings,
            shard_size=shard_size,
            progress=progress,
            stop=stop,
            threads=threads,
        )
    if isinstance(net, nets.Net):
        if net.path is None:
            raise InvalidParameterError("self-play on Ray needs the net as a file (save it first)")
        path = net.path
    else:
        path = Path(net)
    loaded = nets.load(path)
    from .. import distributed  # Ray's fan-out: imported only to play there

    return distributed.selfplay(
        loaded.game,
        games,
        player="az",
        seed=seed,
        out=out,
        address=None if address == "auto" else address,
        player_options={"net": str(Path(path).resolve()), "net_digest": loaded.digest(), **settings.as_dict()},
        shard_size=shard_size,
        progress=progress,
        **loaded.params,
    )


def load_positions(
    directories: list[Path],
    buffer: ReplayBuffer,
    value_mix: float = 0.0,
    allow_partial: bool = True,
    value_discount: float = 1.0,
) -> int:
    """Adds the positions of the self-play shard ``directories`` (oldest first) to ``buffer``
    (``value_mix`` and ``value_discount`` as in :class:`~glacier.learn.TrainConfig`);
    returns how many."""
    added = 0
    for directory in directories:
        data = load_selfplay(directory, allow_partial=allow_partial)
        if data:
            if "searched" not in data:
                raise InvalidParameterError(f"{directory} holds self-play without search targets (not player='az')")
            added += buffer.add(data, value_mix, value_discount)
    return added


def gate(
    candidate: Any,
    best: Any,
    game: str,
    *,
    games: int,
    simulations: int,
    seed: int,
    params: dict[str, Any],
    threads: int = 1,
) -> ArenaResult:
    """The candidate net against the best, ``games`` games at ``simulations`` each a move."""
    return match(
        game,
        [NetSide(candidate, simulations, "candidate"), NetSide(best, simulations, "best")],
        games=games,
        seed=seed,
        params=params,
        threads=threads,
    )


def evaluate(
    net: Any,
    game: str,
    opponents: tuple[str, ...],
    *,
    games: int,
    simulations: int,
    seed: int,
    params: dict[str, Any],
    seconds: Optional[float] = None,
    threads: int = 1,
    timed_games: Optional[int] = None,
) -> dict[str, ArenaResult]:
    """``net`` (MCTS, ``simulations`` a move) against each opponent spec (``{n}`` is
    replaced by ``simulations``), ``games`` games each, keyed by the opponent's name. With
    ``seconds``, the searching opponents (those with ``{n}``) are played at equal time as
    well (``timed_games`` games each, default ``games``): ``seconds`` a move for both sides,
    one game at a time (``glacier.arena``, two random opening plies), keyed ``"NAME at Ss"``."""
    out: dict[str, ArenaResult] = {}
    for spec in opponents:
        name = spec.format(n=simulations)
        sides = [NetSide(net, simulations, f"net:{simulations}"), name]
        out[name] = match(game, sides, games=games, seed=seed, params=params, threads=threads)
    if seconds is not None:
        timed_player = NetPlayer(None, None, seed, seconds=seconds, net=net, threads=threads)
        for spec in opponents:
            if "{n}" not in spec:
                continue
            timed = spec.format(n=f"{seconds:g}s")
            result = arena(
                game,
                [timed_player, timed],
                games=timed_games or games,
                seed=seed,
                threads=1,
                opening_plies=2,
                **params,
            )
            out[f"{timed} at {seconds:g}s"] = result
    return out

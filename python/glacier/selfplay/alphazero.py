"""AlphaZero-style self-play: many games at once, every move chosen by the engine's MCTS with a
net as its evaluator, every position recorded with the search's targets.

:func:`play_games` plays games ``start..stop`` of a run together: one tree per game, the
leaves of all of them evaluated in batches (PUCT, Dirichlet noise at each root, the trees
kept from move to move), each game drawing its moves from its own seeded random stream
(the visits raised to ``1 / temperature`` for its first ``temperature_moves`` moves, then
the most visited). The whole run is one call into the engine, with the GIL released. No
resignation: every game is played to its end. It returns the rows of a self-play shard
(the columns of :data:`glacier.selfplay.shards.COLUMNS`, one row per action, plus
``policy``, ``root_values`` and ``searched``; see :data:`AZ_COLUMNS`).

:func:`play_shards` plays a run into a directory of shards here; :func:`play_net_file_games`
is the same games with a net file, the task each worker of
:func:`glacier.distributed.selfplay` runs for ``player="az"``.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Callable, Optional, Union

import numpy as np
import numpy.typing as npt

from .. import _native, game_spec, nets, search
from ..errors import InvalidParameterError
from .shards import SelfPlayRun, ShardPlan, manifest

__all__ = [
    "AZ_COLUMNS",
    "GAMES_PER_THREAD_IN_ENGINE",
    "TEMPERATURE_MOVES_PER_PLAYER",
    "SelfPlaySettings",
    "check_net_options",
    "engine_evaluator",
    "mean_game_length",
    "play_games",
    "play_net_file_games",
    "play_shards",
]

#: The columns of an AlphaZero self-play shard, one row per action played: those of
#: :data:`glacier.selfplay.shards.COLUMNS`, then ``policy`` (the search's visits over actions,
#: summing to 1; one-hot on the action for the later actions of a move), ``root_values``
#: (the root's mean value for every player) and ``searched`` (whether a search chose the
#: move at this row: a move's first action).
AZ_COLUMNS = (
    "game",
    "ply",
    "player",
    "observation",
    "legal_count",
    "legal_mask",
    "action",
    "returns",
    "policy",
    "root_values",
    "searched",
)

#: Moves per player (so plies: this times the number of players) at the start of each game
#: drawn in proportion to the visits before play turns to the most visited.
TEMPERATURE_MOVES_PER_PLAYER = 8


#: Games each thread plays at once when the leaves are evaluated in the engine. A thread
#: runs a round of searches over all of its trees, a leaf from each at a time; with few
#: trees they stay in its cache (wider batches only help an evaluator in Python).
GAMES_PER_THREAD_IN_ENGINE = 8


@dataclass(frozen=True)
class SelfPlaySettings:
    """How self-play searches and picks its moves."""

    simulations: int = 64
    """Simulations per move."""
    leaves_per_tree: int = 1
    """Leaves gathered from each tree per evaluation call (``batch_size`` of the search)."""
    c_puct: float = 1.5
    dirichlet_alpha: Optional[float] = None
    """None: 10 / the mean number of legal moves at the start (AlphaZero's scaling)."""
    dirichlet_fraction: float = 0.25
    temperature: float = 1.0
    temperature_moves: Optional[int] = None
    """None: :data:`TEMPERATURE_MOVES_PER_PLAYER` times the number of players."""
    max_moves: Optional[int] = None
    """Stop a game after this many moves (its rows then get zero returns); None: play to the end."""
    evaluator: str = "net"
    """What the searches evaluate leaves with: ``"net"``, or ``"engine"``: the evaluation and
    move priors of the game's own computer player (``glacier.game_spec(game).mcts_player``),
    a warm start for games that a net knowing nothing yet would not finish."""
    heuristic_mix: float = 0.0
    """The weight of the game's heuristic in the searches' leaf values (``heuristic_mix`` of
    :class:`glacier.search.MCTS`): the root values a net learns from then carry what the
    heuristic knows (material, say) before the game's results can teach it."""

    def check(self) -> None:
        if self.simulations < 1 or self.leaves_per_tree < 1:
            raise InvalidParameterError("self-play needs at least one simulation and one leaf per tree")
        if self.evaluator not in ("net", "engine"):
            raise InvalidParameterError(f"self-play evaluates with 'net' or 'engine', not {self.evaluator!r}")
        if not (0 <= self.dirichlet_fraction <= 1) or self.temperature < 0 or self.c_puct <= 0:
            raise InvalidParameterError("self-play needs 0 <= dirichlet_fraction <= 1, temperature >= 0 and c_puct > 0")
        if (self.temperature_moves is not None and self.temperature_moves < 0) or (
            self.max_moves is not None and self.max_moves < 1
        ):
            raise InvalidParameterError("self-play needs temperature_moves >= 0 and max_moves >= 1 (or None)")
        if not 0 <= self.heuristic_mix <= 1:
            raise InvalidParameterError(f"self-play needs 0 <= heuristic_mix <= 1, got {self.heuristic_mix}")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def of(cls, options: dict[str, Any]) -> SelfPlaySettings:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise InvalidParameterError(f"unknown self-play settings {unknown}; known: {sorted(known)}")
        return cls(**options)


def engine_evaluator(net: Any) -> Any:
    """The evaluator a search gets for ``net`` (a :class:`glacier.nets.Net`)."""
    return net


#: The options of a game's computer player (``GameSpec.mcts_player``) that say how it
#: evaluates, which self-play with ``evaluator="engine"`` takes.
ENGINE_OPTIONS = ("evaluator", "rollout_plies", "priors", "prior_temperature", "rollout_policy", "rollout_temperature")


def _dirichlet_alpha(game: str, params: dict[str, Any]) -> float:
    state = _native.new_game(game, **params)
    return min(1.0, 10.0 / max(1, len(state.legal_moves())))


def play_games(
    game: str,
    params: dict[str, Any],
    start: int,
    stop: int,
    seed: int,
    evaluator: Any,
    settings: Optional[SelfPlaySettings] = None,
    concurrent: Optional[int] = None,
    on_move: Optional[Callable[[int], None]] = None,
    threads: int = 1,
) -> dict[str, npt.NDArray[Any]]:
    """Plays games ``start..stop`` of a self-play run seeded ``seed`` with ``evaluator`` (a net
    or any evaluator :mod:`glacier.search` takes; unused when ``settings.evaluator`` is
    ``"engine"``), ``concurrent`` at a time, and returns their rows as :data:`AZ_COLUMNS`
    arrays, game after game. ``on_move(k)`` is called after each round of searches with the
    number of moves made. ``threads``: the threads that play (0: every core).
    ``concurrent`` defaults to all the games for an evaluator in Python (it gets wider
    batches), and to :data:`GAMES_PER_THREAD_IN_ENGINE` a thread when the leaves are
    evaluated in the engine (a net, or ``"engine"``). The whole run is one call into the
    engine, with the GIL released; a game depends only on ``seed`` and its number, not on
    ``concurrent`` or ``threads``."""
    settings = settings or SelfPlaySettings()
    settings.check()
    if stop <= start:
        raise InvalidParameterError(f"no games to play: {start}..{stop}")
    in_engine = settings.evaluator == "engine" or isinstance(evaluator, _native.NativeNet)
    default_concurrent = GAMES_PER_THREAD_IN_ENGINE * search.thread_count(threads) if in_engine else stop - start
    probe = _native.new_game(game, **params)
    params = dict(probe.params)
    players = probe.num_players
    alpha = settings.dirichlet_alpha or _dirichlet_alpha(game, params)
    temperature_moves = (
        settings.temperature_moves if settings.temperature_moves is not None else TEMPERATURE_MOVES_PER_PLAYER * players
    )
    options: dict[str, Any] = {"evaluator": evaluator}
    if settings.evaluator == "engine":
        player = game_spec(game).mcts_player
        options = {k: v for k, v in player.items() if k in ENGINE_OPTIONS}
    searcher = search.MCTS(
        game,
        **options,
        c_puct=settings.c_puct,
        selection="puct",
        dirichlet_alpha=alpha,
        dirichlet_fraction=settings.dirichlet_fraction,
        heuristic_mix=settings.heuristic_mix,
        threads=threads,
    )
    return dict(  # type: ignore[no-any-return]
        _native.selfplay_native(
            searcher._native,
            probe,
            start,
            stop,
            seed % 2**64,
            evaluator if settings.evaluator == "net" else None,
            simulations=settings.simulations,
            batch_size=settings.leaves_per_tree,
            temperature=settings.temperature,
            temperature_moves=temperature_moves,
            max_moves=settings.max_moves,
            concurrent=min(concurrent or default_concurrent, stop - start),
            on_round=on_move,
            to_play=searcher._to_play,
        )
    )


def mean_game_length(data: dict[str, npt.NDArray[Any]]) -> float:
    """Mean moves per game of shard columns."""
    games = len(np.unique(data["game"])) if len(data["game"]) else 0
    return float(np.count_nonzero(data["searched"]) / games) if games else math.nan


def _net_file(game: str, params: dict[str, Any], options: dict[str, Any], changed: str) -> Any:
    """The net of ``options["net"]`` for ``game``, checked against ``options["net_digest"]``
    when given."""
    if "net" not in options:
        raise InvalidParameterError("player='az' needs player_options={'net': PATH, ...}: the net file to play with")
    net = nets.load(options["net"], game, **params)
    if options.get("net_digest") not in (None, net.digest()):
        raise InvalidParameterError(f"the net {options['net']} {changed}")
    return net


def _settings_of(options: dict[str, Any]) -> SelfPlaySettings:
    return SelfPlaySettings.of({k: v for k, v in options.items() if k not in ("net", "net_digest")})


def check_net_options(game: str, params: dict[str, Any], options: dict[str, Any]) -> None:
    """Checks the options of self-play with a net file (``player="az"``) before any game: a
    net file for this game, and self-play settings it knows."""
    _net_file(game, params, options, "is not the one this run was started with")
    _settings_of(options).check()


def play_net_file_games(
    game: str, params: dict[str, Any], start: int, stop: int, seed: int, options: dict[str, Any]
) -> dict[str, npt.NDArray[Any]]:
    """Games ``start..stop`` of self-play with the net file ``options["net"]`` (checked
    against ``options["net_digest"]`` when given), the other options those of
    :class:`SelfPlaySettings`: what a worker plays for ``player="az"``."""
    net = _net_file(game, params, options, "changed since the self-play run began")
    return play_games(game, params, start, stop, seed, engine_evaluator(net), _settings_of(options))


def play_shards(
    net: nets.Net,
    games: int,
    *,
    out: Union[str, os.PathLike[str]],
    seed: int,
    settings: SelfPlaySettings,
    shard_size: int,
    progress: bool = False,
    stop: Optional[Callable[[], bool]] = None,
    threads: int = 1,
) -> SelfPlayRun:
    """Plays ``games`` self-play games with ``net`` here and writes them to the directory
    ``out`` as ``.npz`` shards of ``shard_size`` games (columns :data:`AZ_COLUMNS`); a second
    call plays only the shards still missing. ``stop()`` is asked between shards."""
    options = {"net_digest": net.digest(), **settings.as_dict()}
    plan = ShardPlan.open(
        out, manifest(net.game, net.params, games, seed, "az", options, shard_size, "npz", AZ_COLUMNS)
    )
    start = time.perf_counter()
    rows = 0
    from tqdm import tqdm

    with tqdm(total=games, desc=f"{net.game} self-play", unit="game", disable=None if progress else True) as bar:
        bar.update(games - plan.missing_games())
        for i in plan.missing:
            if stop is not None and stop():
                break
            data = play_games(
                net.game, net.params, *plan.ranges[i], seed, engine_evaluator(net), settings, threads=threads
            )
            plan.write(i, data)
            rows += len(data["game"])
            bar.update(plan.ranges[i][1] - plan.ranges[i][0])
    played = sum(p.exists() for p in plan.paths) - (len(plan.ranges) - len(plan.missing))
    return SelfPlayRun(
        Path(out), len(plan.ranges), played, len(plan.ranges) - len(plan.missing), rows, time.perf_counter() - start
    )

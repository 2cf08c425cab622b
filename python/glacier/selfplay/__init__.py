"""Self-play: games played to their end and recorded action by action as training data,
in shards on disk, below both :mod:`glacier.distributed` (which plays them on Ray) and
:mod:`glacier.learn` (which trains on them).

- :mod:`~glacier.selfplay.shards`: the directory of shards, its manifest, resuming, and
  :func:`load_selfplay`, which reads it back as numpy arrays;
- :mod:`~glacier.selfplay.player_games`: games by one of glacier's players in every seat
  (``"random"``, ``"montecarlo"``, or a callable);
- :mod:`~glacier.selfplay.alphazero`: AlphaZero-style games, every move chosen by the
  engine's MCTS with a net, the search's targets recorded (:data:`AZ_COLUMNS`);
- :mod:`~glacier.selfplay.records`: a directory's games as game records.

Every function here plays in this process; a game depends only on the run's seed and its
number, so the same games come out here or on any number of Ray workers.
"""

from __future__ import annotations

from .alphazero import (
    AZ_COLUMNS,
    GAMES_PER_THREAD_IN_ENGINE,
    SelfPlaySettings,
    mean_game_length,
    play_games,
    play_net_file_games,
    play_shards,
)
from .player_games import PLAYERS, player_seed
from .records import selfplay_records
from .shards import COLUMNS, SelfPlayRun, ShardPlan, load_selfplay

__all__ = [
    "AZ_COLUMNS",
    "COLUMNS",
    "GAMES_PER_THREAD_IN_ENGINE",
    "PLAYERS",
    "SelfPlayRun",
    "SelfPlaySettings",
    "ShardPlan",
    "load_selfplay",
    "mean_game_length",
    "play_games",
    "play_net_file_games",
    "play_shards",
    "player_seed",
    "selfplay_records",
]

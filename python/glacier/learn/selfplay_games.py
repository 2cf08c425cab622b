"""The self-play that :mod:`glacier.learn` trains on: the names of
:mod:`glacier.selfplay.alphazero`, which :mod:`glacier.distributed` plays on Ray as well."""

from __future__ import annotations

from ..selfplay.alphazero import (
    AZ_COLUMNS,
    ENGINE_OPTIONS,
    GAMES_PER_THREAD_IN_ENGINE,
    TEMPERATURE_MOVES_PER_PLAYER,
    SelfPlaySettings,
    engine_evaluator,
    mean_game_length,
    play_games,
)

__all__ = [
    "AZ_COLUMNS",
    "ENGINE_OPTIONS",
    "GAMES_PER_THREAD_IN_ENGINE",
    "TEMPERATURE_MOVES_PER_PLAYER",
    "SelfPlaySettings",
    "engine_evaluator",
    "mean_game_length",
    "play_games",
]

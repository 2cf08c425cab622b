"""Learning to play: AlphaZero-style training of policy-value nets, and the nets as players.

>>> import glacier
>>> from glacier import learn, search
>>> net = learn.baseline("ice_cube_checkers")           # the net glacier ships for the game
>>> state = glacier.new_game("ice_cube_checkers")
>>> search.mcts(state, evaluator=net, simulations=64).move in state.legal_moves()
True

- :func:`load` / :func:`save`: a net file (safetensors, see :mod:`glacier.learn.netfile`),
  checked against its game; :func:`baseline` gives the net shipped for a game.
- :func:`train` (``glacier train GAME --out DIR``): self-play -> shards -> trainer -> gate ->
  evaluate, iteration after iteration, resumable (:func:`run_config` reads a run's settings).
  Each step is a function of its own:
  :func:`selfplay`, :func:`load_positions` with :class:`ReplayBuffer`, :class:`Trainer`,
  :func:`gate` and :func:`evaluate`.

Loading and playing need numpy only; training needs JAX and optax (the ``learn`` extra).
See docs/learning.md.
"""

from __future__ import annotations

from .evaluation_net import EvaluationNet, EvaluationSpec, evaluation, load_evaluation, save_evaluation
from .matches import NetSide, match
from .netfile import NetSpec
from .nets import Net, baseline, baseline_path, load, save, spec_for
from .pipeline import (
    DEFAULT_HIDDEN,
    TrainConfig,
    TrainResult,
    evaluate,
    gate,
    load_positions,
    run_config,
    selfplay,
    train,
)
from .selfplay_games import AZ_COLUMNS, GAMES_PER_THREAD_IN_ENGINE, SelfPlaySettings, play_games
from .train import ReplayBuffer, Trainer, TrainStats, moves_to_end, value_targets

__all__ = [
    "AZ_COLUMNS",
    "DEFAULT_HIDDEN",
    "EvaluationNet",
    "EvaluationSpec",
    "GAMES_PER_THREAD_IN_ENGINE",
    "Net",
    "NetSide",
    "NetSpec",
    "ReplayBuffer",
    "SelfPlaySettings",
    "TrainConfig",
    "TrainResult",
    "TrainStats",
    "Trainer",
    "baseline",
    "baseline_path",
    "evaluate",
    "evaluation",
    "gate",
    "load",
    "load_evaluation",
    "load_positions",
    "match",
    "moves_to_end",
    "play_games",
    "run_config",
    "save",
    "save_evaluation",
    "selfplay",
    "spec_for",
    "train",
    "value_targets",
]

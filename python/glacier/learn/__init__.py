"""Learning to play: AlphaZero-style training of policy-value nets, and the nets as players.

>>> import glacier
>>> from glacier import learn, search
>>> net = learn.baseline("ice_cube_checkers")           # the net glacier ships for the game
>>> state = glacier.new_game("ice_cube_checkers")
>>> search.mcts(state, evaluator=net, simulations=64).move in state.legal_moves()
True

- :func:`load` / :func:`save`: a net file (safetensors, see :mod:`glacier.nets.netfile`),
  checked against its game; :func:`baseline` gives the net shipped for a game (the names of
  :mod:`glacier.nets`, which a player loads nets from with numpy alone).
- :func:`load_evaluation` / :func:`save_evaluation` / :func:`evaluation`: the evaluation nets
  of alpha-beta (:class:`EvaluationNet`, from :mod:`glacier.nets` too);
  :mod:`glacier.learn.evaluation_training` trains one
  (``glacier train GAME --for alphabeta --out DIR``).
- :func:`train` (``glacier train GAME --out DIR``): self-play -> shards -> trainer -> gate ->
  evaluate, iteration after iteration, resumable (:func:`run_config` reads a run's settings).
  Each step is a function of its own:
  :func:`selfplay`, :func:`load_positions` with :class:`ReplayBuffer`, :class:`Trainer`,
  :func:`gate` and :func:`evaluate`; :class:`TrainingRun` runs them on a training directory
  one at a time (:meth:`~TrainingRun.selfplay`, :meth:`~TrainingRun.fit`,
  :meth:`~TrainingRun.gate`, :meth:`~TrainingRun.finish`, :meth:`~TrainingRun.evaluate`),
  as :func:`train` does.

Loading and playing need numpy only; training needs JAX and optax (the ``learn`` extra).
See docs/learning.md.
"""

from __future__ import annotations

from ..nets import (
    EvaluationNet,
    EvaluationSpec,
    Net,
    baseline,
    baseline_path,
    evaluation,
    load,
    load_evaluation,
    save,
    save_evaluation,
    spec_for,
)
from ..nets.netfile import NetSpec
from ..selfplay import AZ_COLUMNS, GAMES_PER_THREAD_IN_ENGINE, SelfPlaySettings, play_games
from . import netfile, nets
from .config import DEFAULT_HIDDEN, TrainConfig
from .matches import NetSide, match
from .pipeline import TrainResult, train
from .run import Iteration, TrainingRun, run_config
from .steps import evaluate, gate, load_positions, selfplay
from .train import ReplayBuffer, Trainer, TrainStats, moves_to_end, value_targets

__all__ = [
    "AZ_COLUMNS",
    "DEFAULT_HIDDEN",
    "EvaluationNet",
    "EvaluationSpec",
    "GAMES_PER_THREAD_IN_ENGINE",
    "Iteration",
    "Net",
    "NetSide",
    "NetSpec",
    "ReplayBuffer",
    "SelfPlaySettings",
    "TrainConfig",
    "TrainResult",
    "TrainStats",
    "Trainer",
    "TrainingRun",
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
    "netfile",
    "nets",
    "play_games",
    "run_config",
    "save",
    "save_evaluation",
    "selfplay",
    "spec_for",
    "train",
    "value_targets",
]

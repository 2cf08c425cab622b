"""The training loop of ``glacier train``: :func:`train` runs the steps of
:mod:`glacier.learn.steps` on a :class:`~glacier.learn.run.TrainingRun`, iteration after
iteration (self-play -> shards -> trainer -> gate, and every few iterations an evaluation),
until its time or its iterations are spent, and evaluates the best net once more at the end.
The run's directory (see :mod:`glacier.learn.run`) resumes from wherever it stopped.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Union

from ..errors import InvalidParameterError
from .config import DEFAULT_HIDDEN, TrainConfig
from .run import TrainingRun, run_config
from .steps import evaluate, gate, load_positions, selfplay

__all__ = [
    "DEFAULT_HIDDEN",
    "TrainConfig",
    "TrainResult",
    "evaluate",
    "gate",
    "load_positions",
    "run_config",
    "selfplay",
    "train",
]


@dataclass
class TrainResult:
    """What :func:`train` did."""

    directory: Path
    iterations: int
    """Iterations completed in all (this call and before)."""
    best_iteration: int
    positions: int
    """Self-play positions (searched moves) in all."""
    seconds: float
    """Training time in all."""
    stopped: str
    """Why it stopped: "time", "iterations" or "interrupted"."""
    log: list[dict[str, Any]] = field(default_factory=list)


def train(
    config: TrainConfig,
    out: Union[str, os.PathLike[str]],
    *,
    minutes: Optional[float] = None,
    iterations: Optional[int] = None,
    resume: bool = False,
    address: Optional[str] = None,
    progress: bool = False,
    echo: Optional[Callable[[str], None]] = None,
) -> TrainResult:
    """Trains a net for ``config.game`` in the directory ``out``, for ``minutes`` of wall
    time or ``iterations`` iterations (whichever comes first; with neither, until
    interrupted).

    ``resume=True`` goes on from what ``out`` holds (a directory of another game, other
    parameters or another net shape is refused); without it ``out`` must be empty or new.
    ``address``: play the self-play on that Ray cluster. ``echo`` receives each log line.
    Ctrl-C stops it (``KeyboardInterrupt`` propagates) leaving ``out`` resumable."""
    if minutes is not None and not (minutes > 0 and math.isfinite(minutes)):
        raise InvalidParameterError(f"minutes must be a number > 0, got {minutes}")
    if iterations is not None and iterations < 1:
        raise InvalidParameterError(f"iterations must be >= 1, got {iterations}")
    run = TrainingRun(config, out, resume=resume)
    config = run.config
    deadline = time.monotonic() + 60 * minutes if minutes is not None else math.inf

    def out_of_time() -> bool:
        return time.monotonic() >= deadline

    first = run.done
    stopped = "iterations"
    from tqdm import tqdm

    total = 60 * minutes if minutes is not None else None
    bar = tqdm(
        total=total if total is not None else iterations,
        unit="s" if total is not None else "iter",
        desc=f"train {config.game}",
        disable=None if progress else True,
        bar_format="{l_bar}{bar}| {n:.0f}/{total:.0f}{unit} [{elapsed}<{remaining}]{postfix}" if total else None,
    )
    say = (lambda line: bar.write(line)) if progress else echo

    def tick() -> None:
        if total is not None:
            bar.n = min(total, time.monotonic() - run.began)
            bar.refresh()

    try:
        while True:
            if iterations is not None and run.done - first >= iterations:
                stopped = "iterations"
                break
            if out_of_time():
                stopped = "time"
                break
            iteration = run.next_iteration()
            played = run.selfplay(iteration, address=address, stop=out_of_time)
            tick()
            # Out of time after the self-play: it is on disk, and a resumed run trains on it.
            if not played or out_of_time():
                stopped = "time"
                break
            run.fit(iteration, stop=out_of_time)
            tick()
            run.gate(iteration)
            tick()
            event = run.finish(iteration, say)
            bar.set_postfix(
                iteration=iteration.number, loss=f"{event['loss_last']:.3f}", best=run.state["best_iteration"]
            )
            if iterations is None:
                tick()
            else:
                bar.update(1)
            if config.evaluate_every and iteration.number % config.evaluate_every == 0 and not out_of_time():
                run.evaluate(iteration.seed, echo=say)
                tick()
        if config.final_evaluation and run.done > first:
            run.evaluate(config.seed, final=True, echo=say)
    finally:
        bar.close()
    state = run.state
    return TrainResult(
        run.files.directory,
        run.done,
        int(state["best_iteration"]),
        int(state["positions"]),
        float(state["seconds"]),
        stopped,
        run.log,
    )

"""A training run in its directory, step by step: :class:`TrainingRun`.

The directory holds ``config.json`` (what is trained, and how), ``state.json`` (how far it
got), ``best.safetensors`` (the gated best net), ``latest.safetensors`` with
``optimizer.npz`` (the trainer's own state), ``selfplay/iter-NNNNN/`` (the shards of each
iteration), ``log.jsonl`` (one JSON object per event) and ``train.log`` (the same, for
people). Every file is written to a temporary name and renamed, so a run stopped at any
point (Ctrl-C, the time limit) resumes from what is on disk.

An iteration is :meth:`TrainingRun.selfplay` (the best net's games, into shards and the
replay buffer), :meth:`TrainingRun.fit` (the trainer on the buffer: a candidate net),
:meth:`TrainingRun.gate` (the candidate against the best) and :meth:`TrainingRun.finish`
(the state and the log written); :meth:`TrainingRun.evaluate` plays the best net against
glacier's players. :func:`glacier.learn.train` calls them in turn; each can be called alone.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Optional, Union

import numpy as np

from .. import nets
from ..arena import ArenaResult
from ..errors import InvalidNetError, InvalidParameterError
from ..selfplay import load_selfplay
from . import steps
from .config import BUFFER_BYTES, TrainConfig
from .train import ReplayBuffer, Trainer, TrainStats

__all__ = ["Iteration", "RunFiles", "TrainingRun", "run_config"]

Echo = Optional[Callable[[str], None]]


class RunFiles:
    """The files of a training directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.config_path = directory / "config.json"
        self.state_path = directory / "state.json"
        self.best_path = directory / "best.safetensors"
        self.latest_path = directory / "latest.safetensors"
        self.optimizer_path = directory / "optimizer.npz"
        self.log_path = directory / "log.jsonl"
        self.text_log_path = directory / "train.log"

    def selfplay_dir(self, iteration: int) -> Path:
        return self.directory / "selfplay" / f"iter-{iteration:05d}"

    def write_json(self, path: Path, data: dict[str, Any]) -> None:
        partial = path.with_name(path.name + ".partial")
        try:
            partial.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
            os.replace(partial, path)
        except BaseException:  # Ctrl-C included: leave no half-written file behind
            partial.unlink(missing_ok=True)
            raise

    def log(self, event: dict[str, Any], text: str, echo: Echo) -> None:
        stamped = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), **event}
        with open(self.log_path, "a") as out:
            out.write(json.dumps(stamped, sort_keys=True) + "\n")
        line = f"{stamped['time']} {text}"
        with open(self.text_log_path, "a") as out:
            out.write(line + "\n")
        if echo is not None:
            echo(line)


def run_config(out: Union[str, os.PathLike[str]]) -> TrainConfig:
    """The settings a training directory was last run with (its ``config.json``): what a
    resumed run starts from."""
    directory = Path(out)
    path = RunFiles(directory).config_path
    if not path.exists():
        raise InvalidNetError(f"{directory} is not a training directory (it has no config.json) to resume")
    try:
        return TrainConfig.from_json(json.loads(path.read_text()))
    except (ValueError, TypeError, AttributeError) as err:
        raise InvalidNetError(f"{directory}/config.json cannot be read: {err}") from None


@dataclass
class Iteration:
    """One iteration of a run, filled in by its steps."""

    number: int
    seed: int
    """The seed of its self-play, gate and evaluation (from the run's seed and its number)."""
    games: int = 0
    positions: int = 0
    """The positions its self-play added to the buffer."""
    selfplay_complete: bool = False
    selfplay_seconds: float = 0.0
    stats: Optional[TrainStats] = None
    candidate: Optional[nets.Net] = None
    train_seconds: float = 0.0
    gate: Optional[ArenaResult] = None
    """The gate match (None: skipped, in the warm start)."""
    accepted: bool = False
    gate_seconds: float = 0.0


def _match_line(result: ArenaResult) -> str:
    p = result.players[0]
    return f"{p.wins}-{p.draws}-{p.losses} ({100 * p.score:.0f}%)"


def _match_json(result: ArenaResult) -> dict[str, Any]:
    p = result.players[0]
    return {"wins": p.wins, "draws": p.draws, "losses": p.losses, "score": p.score, "elo": p.elo}


class TrainingRun:
    """A training run of ``config`` in the directory ``out``: its state, its best net, its
    trainer and replay buffer (refilled from the newest self-play on disk).

    ``resume=True`` goes on from what ``out`` holds (a directory of another game, other
    parameters or another net shape is refused); without it ``out`` must be empty or new."""

    def __init__(self, config: TrainConfig, out: Union[str, os.PathLike[str]], *, resume: bool = False) -> None:
        config.check()
        config = config.resolved()
        assert config.hidden is not None
        self.config = config
        self.files = RunFiles(Path(out))
        self.state = _open(self.files, config, resume)
        self.began = time.monotonic()
        self.spent_before = float(self.state["seconds"])
        self.log: list[dict[str, Any]] = []
        """The events of this run (since it was opened), as logged."""
        spec = nets.spec_for(config.game, config.hidden, **config.params)
        files = self.files
        self.trainer = Trainer(
            spec,
            net=nets.load(files.latest_path) if files.latest_path.exists() else None,
            seed=config.seed,
            learning_rate=config.learning_rate,
            weight_decay=config.weight_decay,
        )
        if files.optimizer_path.exists():
            self.trainer.load_state(files.optimizer_path)
        if files.best_path.exists():
            self.best = nets.load(files.best_path, config.game, **config.params)
        else:
            nets.save(files.best_path, self.trainer.net({"iteration": 0}))
            self.best = nets.load(files.best_path)
        capacity = max(1, min(config.buffer_positions, BUFFER_BYTES // ReplayBuffer.row_bytes(spec)))
        self.buffer = ReplayBuffer(spec, capacity)
        done = self.done
        _refill(
            self.buffer, [files.selfplay_dir(i) for i in range(done, 0, -1)], config.value_mix, config.value_discount
        )
        self.rng = np.random.default_rng([config.seed, done])

    @property
    def done(self) -> int:
        """The iterations completed, in all."""
        return int(self.state["iteration"])

    def seconds(self) -> float:
        """The training time in all, this run's included."""
        return self.spent_before + time.monotonic() - self.began

    def next_iteration(self) -> Iteration:
        """The iteration after the last one completed."""
        number = self.done + 1
        seed = int(np.random.SeedSequence([self.config.seed, number]).generate_state(1, np.uint32)[0])
        return Iteration(number, seed)

    def selfplay(
        self, iteration: Iteration, *, address: Optional[str] = None, stop: Optional[Callable[[], bool]] = None
    ) -> bool:
        """Self-play with the best net into the iteration's shards (the engine's own search in
        the warm start), its positions added to the buffer; False when no game was played
        (``stop()`` said stop first)."""
        config, directory = self.config, self.files.selfplay_dir(iteration.number)
        start = time.monotonic()
        _drop_stale(directory, self.best.digest())
        warm = iteration.number <= config.warm_start
        played = steps.selfplay(
            self.best,
            config.games_per_iteration,
            out=directory,
            seed=iteration.seed,
            settings=replace(config.selfplay, evaluator="engine") if warm else config.selfplay,
            shard_size=config.concurrent_games,
            address=address,
            stop=stop,
            threads=config.threads,
        )
        data = load_selfplay(directory, allow_partial=True)
        if not data or len(data["game"]) == 0:
            return False
        iteration.selfplay_complete = played.shards == sum(
            1 for p in directory.glob("shard-*") if not p.name.endswith(".partial")
        )
        iteration.positions = self.buffer.add(data, config.value_mix, config.value_discount)
        iteration.games = len(np.unique(data["game"]))
        iteration.selfplay_seconds = time.monotonic() - start
        return True

    def fit(self, iteration: Iteration, *, stop: Optional[Callable[[], bool]] = None) -> nets.Net:
        """The trainer on the buffer (``replay_ratio`` samples per new position): the
        candidate net, saved as ``latest.safetensors`` with the optimizer's state."""
        config, start = self.config, time.monotonic()
        count = max(1, math.ceil(iteration.positions * config.replay_ratio / config.batch_size))
        iteration.stats = self.trainer.fit(self.buffer, count, config.batch_size, self.rng, stop=stop)
        candidate = self.trainer.net(
            {
                "iteration": iteration.number,
                "steps": self.trainer.steps,
                "positions": int(self.state["positions"]) + iteration.positions,
                "seconds": round(self.seconds(), 1),
                "config": config.to_json(),
            }
        )
        nets.save(self.files.latest_path, candidate)
        self.trainer.save_state(self.files.optimizer_path)
        iteration.candidate = candidate
        iteration.train_seconds = time.monotonic() - start
        return candidate

    def gate(self, iteration: Iteration) -> bool:
        """The candidate against the best; True when it scores ``gate_threshold`` or more and
        so becomes the best. In the warm start the candidate replaces the untrained net
        unmatched: a match between nets that cannot finish a game (E's) is all draws and
        tells nothing."""
        config, start = self.config, time.monotonic()
        candidate = iteration.candidate
        if candidate is None:
            raise InvalidParameterError("gate a candidate after fit() has made one")
        if iteration.number > config.warm_start:
            iteration.gate = steps.gate(
                candidate,
                self.best,
                config.game,
                games=config.gate_games,
                simulations=config.gate_simulations or config.selfplay.simulations,
                seed=iteration.seed,
                params=config.params,
                threads=config.threads,
            )
        iteration.accepted = iteration.gate is None or iteration.gate.players[0].score >= config.gate_threshold
        if iteration.accepted:
            nets.save(self.files.best_path, candidate)
            self.best = nets.load(self.files.best_path)
            self.state["best_iteration"] = iteration.number
        iteration.gate_seconds = time.monotonic() - start
        return iteration.accepted

    def finish(self, iteration: Iteration, echo: Echo = None) -> dict[str, Any]:
        """Records the iteration as done (``state.json``) and logs it; the logged event."""
        state, stats = self.state, iteration.stats
        if stats is None:
            raise InvalidParameterError("finish an iteration after fit()")
        state["iteration"] = iteration.number
        state["positions"] = int(state["positions"]) + iteration.positions
        state["games"] = int(state["games"]) + iteration.games
        state["seconds"] = round(self.seconds(), 3)
        self.files.write_json(self.files.state_path, state)
        seconds = iteration.selfplay_seconds
        result = iteration.gate
        event = {
            "event": "iteration",
            "iteration": iteration.number,
            "games": iteration.games,
            "positions": iteration.positions,
            "selfplay_complete": iteration.selfplay_complete,
            "selfplay_seconds": round(seconds, 2),
            "positions_per_second": round(iteration.positions / seconds, 1) if seconds else None,
            "train_steps": stats.steps,
            "loss_first": stats.loss_first,
            "loss_last": stats.loss_last,
            "policy_loss": stats.policy_loss,
            "value_loss": stats.value_loss,
            "train_seconds": round(iteration.train_seconds, 2),
            "gate": _match_json(result) if result is not None else None,
            "gate_seconds": round(iteration.gate_seconds, 2),
            "accepted": iteration.accepted,
            "buffer": len(self.buffer),
        }
        self.log.append(event)
        self.files.log(
            event,
            f"iteration {iteration.number}: {iteration.games} games, {iteration.positions} positions "
            f"({event['positions_per_second']}/s), {stats.steps} steps, loss {stats.loss_first:.3f} -> "
            f"{stats.loss_last:.3f} (policy {stats.policy_loss:.3f}, value {stats.value_loss:.3f}), "
            f"gate {_match_line(result) if result is not None else 'skipped (warm start)'} "
            f"{'accepted' if iteration.accepted else 'rejected'}",
            echo,
        )
        return event

    def evaluate(self, seed: int, *, final: bool = False, echo: Echo = None) -> dict[str, ArenaResult]:
        """The best net against the config's opponents at the self-play's simulations, logged;
        ``final`` plays them at equal time as well (``evaluate_seconds``)."""
        config = self.config
        results = steps.evaluate(
            self.best,
            config.game,
            config.evaluate_opponents,
            games=config.evaluate_games,
            simulations=config.selfplay.simulations,
            seed=seed,
            params=config.params,
            seconds=config.evaluate_seconds if final else None,
            threads=config.threads,
            timed_games=config.evaluate_timed_games if final else None,
        )
        kind = "final evaluation" if final else "evaluation"
        event = {
            "event": kind,
            "iteration": self.done,
            "best_iteration": self.state["best_iteration"],
            "results": {name: _match_json(r) for name, r in results.items()},
        }
        self.log.append(event)
        line = ", ".join(f"vs {name} {_match_line(r)}" for name, r in results.items())
        self.files.log(event, f"{kind} of the best net (iteration {self.state['best_iteration']}): {line}", echo)
        return results


def _drop_stale(directory: Path, digest: str) -> None:
    """Removes the self-play of an iteration that was cut short after its best net changed
    (it is played again with the best net now)."""
    manifest = directory / "manifest.json"
    if manifest.exists():
        found = json.loads(manifest.read_text())
        if found.get("player_options", {}).get("net_digest") != digest:
            shutil.rmtree(directory)


def _refill(buffer: ReplayBuffer, newest_first: list[Path], value_mix: float, value_discount: float) -> None:
    """Fills ``buffer`` with the positions of the newest self-play directories it holds."""
    kept: list[dict[str, Any]] = []
    count = 0
    for directory in newest_first:
        if count >= buffer.capacity:
            break
        if directory.exists():
            data = load_selfplay(directory, allow_partial=True)
            if data:
                kept.append(data)
                count += int(np.count_nonzero(data["searched"]))
    for data in reversed(kept):
        buffer.add(data, value_mix, value_discount)


def _open(files: RunFiles, config: TrainConfig, resume: bool) -> dict[str, Any]:
    """Creates the training directory, or checks that a resumed one is of this run; returns
    its state."""
    directory = files.directory
    state: dict[str, Any]
    if resume:
        found = run_config(directory)
        for key in ("game", "params", "hidden"):
            if getattr(found, key) != getattr(config, key):
                raise InvalidNetError(
                    f"{directory} trains {found.game} with {found.params}, hidden {list(found.hidden or ())}; "
                    f"not {config.game} with {config.params}, hidden {list(config.hidden or ())}"
                )
        state = json.loads(files.state_path.read_text()) if files.state_path.exists() else _fresh_state()
        files.write_json(files.config_path, config.to_json())
    else:
        if directory.exists() and any(directory.iterdir()):
            raise InvalidParameterError(
                f"{directory} is not empty: pass resume=True (--resume) to go on with it, or choose a new directory"
            )
        directory.mkdir(parents=True, exist_ok=True)
        files.write_json(files.config_path, config.to_json())
        state = _fresh_state()
        files.write_json(files.state_path, state)
    return state


def _fresh_state() -> dict[str, Any]:
    return {"iteration": 0, "best_iteration": 0, "positions": 0, "games": 0, "seconds": 0.0}

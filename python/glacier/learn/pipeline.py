"""The training loop of ``glacier train``: self-play -> shards -> trainer -> gate -> evaluate.

Each step is a function of its own:

- :func:`selfplay` plays games with a net and writes them as shards (the format of
  :func:`glacier.distributed.selfplay`, here or on a Ray cluster);
- :func:`load_positions` reads shards into a :class:`~glacier.learn.train.ReplayBuffer`;
- :class:`~glacier.learn.train.Trainer` fits a net to the buffer;
- :func:`gate` plays a new net against the best in a seeded match;
- :func:`evaluate` plays a net against glacier's players.

:func:`train` runs them in turn, iteration after iteration, in one directory that it can
resume: ``config.json`` (what is trained, and how), ``state.json`` (how far it got),
``best.safetensors`` (the gated best net), ``latest.safetensors`` with ``optimizer.npz``
(the trainer's own state), ``selfplay/iter-NNNNN/`` (the shards of each iteration),
``log.jsonl`` (one JSON object per event) and ``train.log`` (the same, for people). Every
file is written to a temporary name and renamed, so a run stopped at any point (Ctrl-C, the
time limit) resumes from what is on disk.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import time
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable, Optional, Union

import numpy as np

from .. import distributed
from ..arena import ArenaResult
from ..errors import InvalidNetError, InvalidParameterError
from . import nets
from .matches import NetSide, match
from .selfplay_games import AZ_COLUMNS, SelfPlaySettings, engine_evaluator, play_games
from .train import ReplayBuffer, Trainer

__all__ = [
    "DEFAULT_HIDDEN",
    "TrainConfig",
    "TrainResult",
    "evaluate",
    "gate",
    "load_positions",
    "selfplay",
    "train",
]

#: The hidden layers of a net unless told otherwise: small enough that MCTS with the net runs
#: at a good share of the speed of MCTS with a game's heuristic (docs/learning.md, "Speed").
DEFAULT_HIDDEN: tuple[int, ...] = (64, 64)

#: How much of the memory a replay buffer may take, at most.
BUFFER_BYTES = 1 << 30


@dataclass(frozen=True)
class TrainConfig:
    """Everything :func:`train` is told: the game, the net, and the settings of each step."""

    game: str
    params: dict[str, Any] = field(default_factory=dict)
    hidden: Optional[tuple[int, ...]] = None
    """None: :data:`DEFAULT_HIDDEN`."""
    seed: int = 0
    games_per_iteration: int = 128
    concurrent_games: int = 128
    selfplay: SelfPlaySettings = field(default_factory=SelfPlaySettings)
    warm_start: int = 0
    """Iterations at the start whose self-play searches as the game's own computer player
    does (``evaluator="engine"``), not with the net, and whose net becomes the best without a
    gate: a game whose random games do not end (E) then first learns from games that do."""
    buffer_positions: int = 100_000
    batch_size: int = 256
    replay_ratio: float = 16.0
    """Training samples drawn per new position."""
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    value_mix: float = 0.5
    """How much of the value target is the search's root value (the rest: the final return)."""
    value_discount: float = 1.0
    """Each move between a position and its game's end multiplies the final return in its
    value target by this (1: none). Below 1 a net values a near win above a far one, so its
    search converts a won position rather than marking time in it."""
    gate_games: int = 30
    gate_threshold: float = 0.55
    """The score in the gate match that makes a new net the best (above 1: none ever does)."""
    gate_simulations: Optional[int] = None
    """None: the self-play simulations."""
    evaluate_every: int = 5
    """Iterations between evaluations of the best net (0: none before the final one)."""
    evaluate_games: int = 20
    evaluate_opponents: tuple[str, ...] = ("random", "mcts:{n}:rollout", "mcts:{n}")
    """Player specs; ``{n}`` is the net's simulations."""
    evaluate_seconds: Optional[float] = 0.05
    """The time per move of the final evaluation's games at equal time (None: none)."""
    evaluate_timed_games: int = 10
    """Games against each opponent at equal time (one at a time, so slower)."""
    final_evaluation: bool = True
    """When the run ends (its time or iterations spent), the best net plays the opponents
    once more, at equal simulations and at equal time (``evaluate_seconds``)."""
    threads: int = 1

    def resolved(self) -> TrainConfig:
        """This config with the game's full parameters and default layer sizes filled in."""
        spec = nets.spec_for(self.game, self.hidden or DEFAULT_HIDDEN, **self.params)
        return replace(self, params=spec.params, hidden=spec.hidden)

    def check(self) -> None:
        self.selfplay.check()
        positive = {
            "games_per_iteration": self.games_per_iteration,
            "concurrent_games": self.concurrent_games,
            "buffer_positions": self.buffer_positions,
            "batch_size": self.batch_size,
            "gate_games": self.gate_games,
            "evaluate_games": self.evaluate_games,
            "evaluate_timed_games": self.evaluate_timed_games,
        }
        bad = [k for k, v in positive.items() if not isinstance(v, int) or v < 1]
        if bad:
            raise InvalidParameterError(f"these settings must be integers >= 1: {', '.join(bad)}")
        if not (self.gate_threshold > 0 and self.replay_ratio > 0 and self.learning_rate > 0):
            raise InvalidParameterError("gate_threshold, replay_ratio and learning_rate must be > 0")
        if not 0 < self.value_discount <= 1:
            raise InvalidParameterError(f"value_discount must be in (0, 1], got {self.value_discount}")
        if self.threads < 0:
            raise InvalidParameterError(f"threads must be >= 0, got {self.threads}")
        for name in ("warm_start", "evaluate_every"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise InvalidParameterError(f"{name} must be an integer >= 0, got {value}")

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["hidden"] = list(self.hidden) if self.hidden else None
        out["evaluate_opponents"] = list(self.evaluate_opponents)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrainConfig:
        known = {f.name for f in fields(cls)}
        data = {k: v for k, v in data.items() if k in known}
        data["selfplay"] = SelfPlaySettings.of(data.get("selfplay", {}))
        if data.get("hidden") is not None:
            data["hidden"] = tuple(data["hidden"])
        data["evaluate_opponents"] = tuple(data.get("evaluate_opponents", ()))
        return cls(**data)


# --- the steps -------------------------------------------------------------------------------


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
) -> distributed.SelfPlayRun:
    """Plays ``games`` self-play games with ``net`` (a :class:`~glacier.learn.Net` or a net
    file) and writes them to the directory ``out`` as shards of ``shard_size`` games (the
    format of :func:`glacier.distributed.selfplay`, columns :data:`AZ_COLUMNS`). With
    ``address``, on that Ray cluster (``"auto"``: the one ``ray start`` began here, or a
    new local one; the net must then be a file the workers can read).
    A second call with the same arguments plays only the shards still missing; ``stop()``
    is asked between shards. ``threads``: the searches' threads here (the games do not
    depend on it)."""
    settings = settings or SelfPlaySettings()
    if address is not None:
        if isinstance(net, nets.Net):
            if net.path is None:
                raise InvalidParameterError("self-play on Ray needs the net as a file (save it first)")
            path = net.path
        else:
            path = Path(net)
        loaded = nets.load(path)
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
    loaded = net if isinstance(net, nets.Net) else nets.load(net)
    fmt = "npz"
    options = {"net_digest": loaded.digest(), **settings.as_dict()}
    manifest = distributed._manifest(loaded.game, loaded.params, games, seed, "az", options, shard_size, fmt)
    manifest["columns"] = list(AZ_COLUMNS)
    directory = Path(out)
    directory.mkdir(parents=True, exist_ok=True)
    distributed._check_manifest(directory, manifest)
    ranges = distributed._ranges(games, shard_size)
    paths = [directory / distributed._shard_name(i, len(ranges), fmt) for i in range(len(ranges))]
    missing = [i for i, p in enumerate(paths) if not p.exists()]
    start = time.perf_counter()
    rows = 0
    from tqdm import tqdm

    with tqdm(total=games, desc=f"{loaded.game} self-play", unit="game", disable=None if progress else True) as bar:
        bar.update(games - sum(ranges[i][1] - ranges[i][0] for i in missing))
        for i in missing:
            if stop is not None and stop():
                break
            data = play_games(
                loaded.game,
                loaded.params,
                *ranges[i],
                seed,
                engine_evaluator(loaded),
                settings,
                threads=threads,
            )
            distributed._write_shard(paths[i], data, fmt)
            rows += len(data["game"])
            bar.update(ranges[i][1] - ranges[i][0])
    played = sum(p.exists() for p in paths) - (len(ranges) - len(missing))
    return distributed.SelfPlayRun(
        directory, len(ranges), played, len(ranges) - len(missing), rows, time.perf_counter() - start
    )


def load_positions(
    directories: list[Path],
    buffer: ReplayBuffer,
    value_mix: float = 0.0,
    allow_partial: bool = True,
    value_discount: float = 1.0,
) -> int:
    """Adds the positions of the self-play shard ``directories`` (oldest first) to ``buffer``
    (``value_mix`` and ``value_discount`` as in :class:`TrainConfig`); returns how many."""
    added = 0
    for directory in directories:
        data = distributed.load_selfplay(directory, allow_partial=allow_partial)
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
        from ..arena import arena
        from ..players import NetPlayer

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


# --- the loop ----------------------------------------------------------------------------------


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


class _Run:
    """A training directory: its files and its state."""

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

    def log(self, event: dict[str, Any], text: str, echo: Optional[Callable[[str], None]]) -> None:
        stamped = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), **event}
        with open(self.log_path, "a") as out:
            out.write(json.dumps(stamped, sort_keys=True) + "\n")
        line = f"{stamped['time']} {text}"
        with open(self.text_log_path, "a") as out:
            out.write(line + "\n")
        if echo is not None:
            echo(line)


def _match_line(result: ArenaResult) -> str:
    p = result.players[0]
    return f"{p.wins}-{p.draws}-{p.losses} ({100 * p.score:.0f}%)"


def _match_json(result: ArenaResult) -> dict[str, Any]:
    p = result.players[0]
    return {"wins": p.wins, "draws": p.draws, "losses": p.losses, "score": p.score, "elo": p.elo}


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
    config.check()
    config = config.resolved()
    assert config.hidden is not None
    run = _Run(Path(out))
    state = _open(run, config, resume)
    deadline = time.monotonic() + 60 * minutes if minutes is not None else math.inf
    began = time.monotonic()
    spec = nets.spec_for(config.game, config.hidden, **config.params)

    def out_of_time() -> bool:
        return time.monotonic() >= deadline

    trainer = Trainer(
        spec,
        net=nets.load(run.latest_path) if run.latest_path.exists() else None,
        seed=config.seed,
        learning_rate=config.learning_rate,
        weight_decay=config.weight_decay,
    )
    if run.optimizer_path.exists():
        trainer.load_state(run.optimizer_path)
    if run.best_path.exists():
        best = nets.load(run.best_path, config.game, **config.params)
    else:
        best = trainer.net({"iteration": 0})
        nets.save(run.best_path, best)
        best = nets.load(run.best_path)
    capacity = max(1, min(config.buffer_positions, BUFFER_BYTES // ReplayBuffer.row_bytes(spec)))
    buffer = ReplayBuffer(spec, capacity)
    done = first = int(state["iteration"])
    _refill(buffer, [run.selfplay_dir(i) for i in range(done, 0, -1)], config.value_mix, config.value_discount)
    rng = np.random.default_rng([config.seed, done])
    log: list[dict[str, Any]] = []
    stopped = "iterations"
    spent_before = float(state["seconds"])
    gate_sims = config.gate_simulations or config.selfplay.simulations

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

    def report(kind: str, iteration: int, results: dict[str, ArenaResult]) -> None:
        event = {
            "event": kind,
            "iteration": iteration,
            "best_iteration": state["best_iteration"],
            "results": {name: _match_json(r) for name, r in results.items()},
        }
        log.append(event)
        line = ", ".join(f"vs {name} {_match_line(r)}" for name, r in results.items())
        run.log(event, f"{kind} of the best net (iteration {state['best_iteration']}): {line}", say)

    def tick() -> None:
        if total is not None:
            bar.n = min(total, time.monotonic() - began)
            bar.refresh()

    try:
        while True:
            if iterations is not None and done - first >= iterations:
                stopped = "iterations"
                break
            if out_of_time():
                stopped = "time"
                break
            iteration = done + 1
            seed = int(np.random.SeedSequence([config.seed, iteration]).generate_state(1, np.uint32)[0])
            t0 = time.monotonic()
            _drop_stale(run.selfplay_dir(iteration), best.digest())
            run_sp = selfplay(
                best,
                config.games_per_iteration,
                out=run.selfplay_dir(iteration),
                seed=seed,
                settings=replace(config.selfplay, evaluator="engine")
                if iteration <= config.warm_start
                else config.selfplay,
                shard_size=config.concurrent_games,
                address=address,
                stop=out_of_time,
                threads=config.threads,
            )
            tick()
            data = distributed.load_selfplay(run.selfplay_dir(iteration), allow_partial=True)
            if not data or len(data["game"]) == 0:
                stopped = "time"
                break
            complete = run_sp.shards == sum(
                1 for p in run.selfplay_dir(iteration).glob("shard-*") if not p.name.endswith(".partial")
            )
            new = buffer.add(data, config.value_mix, config.value_discount)
            selfplay_seconds = time.monotonic() - t0
            if out_of_time():
                # The self-play is on disk: a resumed run trains on it.
                stopped = "time"
                break
            games_played = len(np.unique(data["game"]))
            t1 = time.monotonic()
            steps = max(1, math.ceil(new * config.replay_ratio / config.batch_size))
            stats = trainer.fit(buffer, steps, config.batch_size, rng, stop=out_of_time)
            tick()
            candidate = trainer.net(
                {
                    "iteration": iteration,
                    "steps": trainer.steps,
                    "positions": int(state["positions"]) + new,
                    "seconds": round(spent_before + time.monotonic() - began, 1),
                    "config": config.to_json(),
                }
            )
            nets.save(run.latest_path, candidate)
            trainer.save_state(run.optimizer_path)
            train_seconds = time.monotonic() - t1
            t2 = time.monotonic()
            # A net trained on the warm start's games replaces the untrained one unmatched: a
            # match between nets that cannot finish a game (E's) is all draws and tells nothing.
            result = None
            if iteration > config.warm_start:
                result = gate(
                    candidate,
                    best,
                    config.game,
                    games=config.gate_games,
                    simulations=gate_sims,
                    seed=seed,
                    params=config.params,
                    threads=config.threads,
                )
            accepted = result is None or result.players[0].score >= config.gate_threshold
            if accepted:
                nets.save(run.best_path, candidate)
                best = nets.load(run.best_path)
                state["best_iteration"] = iteration
            gate_seconds = time.monotonic() - t2
            tick()
            state["iteration"] = done = iteration
            state["positions"] = int(state["positions"]) + new
            state["games"] = int(state["games"]) + games_played
            state["seconds"] = round(spent_before + time.monotonic() - began, 3)
            run.write_json(run.state_path, state)
            event = {
                "event": "iteration",
                "iteration": iteration,
                "games": games_played,
                "positions": new,
                "selfplay_complete": complete,
                "selfplay_seconds": round(selfplay_seconds, 2),
                "positions_per_second": round(new / selfplay_seconds, 1) if selfplay_seconds else None,
                "train_steps": stats.steps,
                "loss_first": stats.loss_first,
                "loss_last": stats.loss_last,
                "policy_loss": stats.policy_loss,
                "value_loss": stats.value_loss,
                "train_seconds": round(train_seconds, 2),
                "gate": _match_json(result) if result is not None else None,
                "gate_seconds": round(gate_seconds, 2),
                "accepted": accepted,
                "buffer": len(buffer),
            }
            log.append(event)
            run.log(
                event,
                f"iteration {iteration}: {games_played} games, {new} positions "
                f"({event['positions_per_second']}/s), {stats.steps} steps, loss {stats.loss_first:.3f} -> "
                f"{stats.loss_last:.3f} (policy {stats.policy_loss:.3f}, value {stats.value_loss:.3f}), "
                f"gate {_match_line(result) if result is not None else 'skipped (warm start)'} "
                f"{'accepted' if accepted else 'rejected'}",
                say,
            )
            bar.set_postfix(iteration=iteration, loss=f"{stats.loss_last:.3f}", best=state["best_iteration"])
            if iterations is None:
                tick()
            else:
                bar.update(1)
            if config.evaluate_every and iteration % config.evaluate_every == 0 and not out_of_time():
                results = evaluate(
                    best,
                    config.game,
                    config.evaluate_opponents,
                    games=config.evaluate_games,
                    simulations=config.selfplay.simulations,
                    seed=seed,
                    params=config.params,
                    threads=config.threads,
                )
                report("evaluation", iteration, results)
                tick()
        if config.final_evaluation and done > first:
            results = evaluate(
                best,
                config.game,
                config.evaluate_opponents,
                games=config.evaluate_games,
                simulations=config.selfplay.simulations,
                seed=config.seed,
                params=config.params,
                seconds=config.evaluate_seconds,
                threads=config.threads,
                timed_games=config.evaluate_timed_games,
            )
            report("final evaluation", done, results)
    finally:
        bar.close()
    return TrainResult(
        run.directory,
        done,
        int(state["best_iteration"]),
        int(state["positions"]),
        float(state["seconds"]),
        stopped,
        log,
    )


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
            data = distributed.load_selfplay(directory, allow_partial=True)
            if data:
                kept.append(data)
                count += int(np.count_nonzero(data["searched"]))
    for data in reversed(kept):
        buffer.add(data, value_mix, value_discount)


def run_config(out: Union[str, os.PathLike[str]]) -> TrainConfig:
    """The settings a training directory was last run with (its ``config.json``): what a
    resumed run starts from."""
    directory = Path(out)
    path = _Run(directory).config_path
    if not path.exists():
        raise InvalidNetError(f"{directory} is not a training directory (it has no config.json) to resume")
    try:
        return TrainConfig.from_json(json.loads(path.read_text()))
    except (ValueError, TypeError, AttributeError) as err:
        raise InvalidNetError(f"{directory}/config.json cannot be read: {err}") from None


def _open(run: _Run, config: TrainConfig, resume: bool) -> dict[str, Any]:
    """Creates the training directory, or checks that a resumed one is of this run; returns
    its state."""
    directory = run.directory
    if resume:
        found = run_config(directory)
        for key in ("game", "params", "hidden"):
            if getattr(found, key) != getattr(config, key):
                raise InvalidNetError(
                    f"{directory} trains {found.game} with {found.params}, hidden {list(found.hidden or ())}; "
                    f"not {config.game} with {config.params}, hidden {list(config.hidden or ())}"
                )
        state: dict[str, Any] = json.loads(run.state_path.read_text()) if run.state_path.exists() else _fresh_state()
        run.write_json(run.config_path, config.to_json())
    else:
        if directory.exists() and any(directory.iterdir()):
            raise InvalidParameterError(
                f"{directory} is not empty: pass resume=True (--resume) to go on with it, or choose a new directory"
            )
        directory.mkdir(parents=True, exist_ok=True)
        run.write_json(run.config_path, config.to_json())
        state = _fresh_state()
        run.write_json(run.state_path, state)
    return state


def _fresh_state() -> dict[str, Any]:
    return {"iteration": 0, "best_iteration": 0, "positions": 0, "games": 0, "seconds": 0.0}

"""Training evaluation nets for alpha-beta (``glacier train GAME --for alphabeta``).

A run goes in rounds until its time (``minutes``) or its rounds run out, or Ctrl-C:

1. **Games.** ``games_per_round`` games of alpha-beta against itself, played by the engine
   on ``threads`` threads with the GIL released (``_native.evaluation_games_native``): each
   opens with ``random_plies`` random plies (2 to 10 by default, drawn per game), then
   every move is the best of a search of ``nodes`` nodes (the deepest iteration completed
   within them), scored by the game's heuristic in the first round and after it by the
   latest net (``teacher="net"``) or the heuristic again (``teacher="heuristic"``). Every
   position searched is kept with the search's score and, once the game is over, its
   result, both for the player to move; its features are the non-zero cells of the
   observation seen from each seat (:mod:`glacier.nets.evaluation_net`).
2. **Fit.** The net is fitted to ``(1 - result_weight) * score + result_weight * result``
   (squared error of its ``tanh`` output; with ``base="heuristic"`` the net corrects the
   game's heuristic, kept with each position, and starts as the heuristic: its value
   layer's weights start at zero) with Adam (optax's ``adamw``), on batches drawn
   from every position kept (the newest ``buffer``), ``samples_per_position`` samples per
   new position; one game in twenty is held out, and the loss on it is logged.
3. **Save.** The net goes to ``DIR/evaluation.safetensors``, the round's positions to
   ``DIR/positions/round-NNNNN.npz``, a line to ``DIR/log.jsonl`` and ``DIR/train.log``,
   each written to a temporary file and renamed; ``DIR/state.json`` says what is done,
   so that ``resume=True`` goes on from what is on disk (with a fresh optimizer).

JAX and optax are imported when a run starts (the ``learn`` extra).
"""

from __future__ import annotations

import functools
import json
import math
import os
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Optional, Union

import numpy as np
import numpy.typing as npt

from .. import _native
from ..errors import InvalidNetError, InvalidParameterError
from ..nets.evaluation_net import (
    BASE_CLAMP,
    BASES,
    EvaluationNet,
    EvaluationSpec,
    evaluation_spec_for,
    evaluation_tensor_shapes,
    load_evaluation,
    save_evaluation,
)

__all__ = [
    "BASES",
    "EvaluationRun",
    "EvaluationTrainConfig",
    "Positions",
    "fit",
    "initial_tensors",
    "jax_score",
    "play_positions",
    "train_command",
    "train_evaluation",
]

#: The columns of a batch of positions (``_native.evaluation_games_native``), by dtype.
COLUMNS = {
    "game": np.uint32,
    "ply": np.uint32,
    "mover": np.uint8,
    "score": np.float32,
    "forced": np.bool_,
    "heuristic": np.float32,
    "result": np.float32,
    "tactical": np.bool_,
}


#: What may score the games' searches (:attr:`EvaluationTrainConfig.teacher`).
TEACHERS = ("net", "heuristic")


@dataclass(frozen=True)
class EvaluationTrainConfig:
    """The settings of a training run of an evaluation net (written to ``config.json``)."""

    game: str
    params: dict[str, Any] = field(default_factory=dict)
    #: The width of each view's accumulator, and the hidden layers after it.
    features: int = 64
    hidden: tuple[int, ...] = (32,)
    games_per_round: int = 128
    #: The nodes of each move's search in the games (its depth: the deepest completed).
    nodes: int = 20_000
    random_plies: tuple[int, int] = (2, 10)
    #: What scores the games' searches after the first round: ``"net"``, the latest net
    #: (the first round's are the heuristic's), or ``"heuristic"``, the game's heuristic in
    #: every round (a teacher that does not drift with the net's errors).
    teacher: str = "net"
    #: What the net's output is added to: ``"none"``, or ``"heuristic"`` (the net learns
    #: a correction of the game's heuristic).
    base: str = "none"
    #: The weight of the game's result in the target (the search's score has the rest).
    result_weight: float = 0.3
    batch_size: int = 512
    learning_rate: float = 1e-3
    weight_decay: float = 1e-5
    samples_per_position: int = 8
    #: The most positions kept for training (the oldest go first).
    buffer: int = 2_000_000
    seed: int = 0
    threads: int = 1

    def check(self) -> None:
        bad = []
        if self.features < 1 or any(h < 1 for h in self.hidden):
            bad.append(f"layer widths must be >= 1 (features {self.features}, hidden {list(self.hidden)})")
        for name in ("games_per_round", "nodes", "batch_size", "samples_per_position", "buffer"):
            if getattr(self, name) < 1:
                bad.append(f"{name} must be >= 1, got {getattr(self, name)}")
        if not 0 <= self.result_weight <= 1:
            bad.append(f"result_weight must be in [0, 1], got {self.result_weight}")
        lo, hi = self.random_plies
        if not 0 <= lo <= hi:
            bad.append(f"random_plies must be (lowest, highest) with 0 <= lowest <= highest, got {self.random_plies}")
        if self.teacher not in TEACHERS:
            bad.append(f"teacher must be one of {', '.join(TEACHERS)}, got {self.teacher!r}")
        if self.base not in BASES:
            bad.append(f"base must be one of {', '.join(BASES)}, got {self.base!r}")
        if self.learning_rate <= 0:
            bad.append(f"learning_rate must be > 0, got {self.learning_rate}")
        if bad:
            raise InvalidParameterError("; ".join(bad))

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["hidden"], out["random_plies"] = list(self.hidden), list(self.random_plies)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EvaluationTrainConfig:
        data = dict(data)
        data["hidden"] = tuple(data.get("hidden", ()))
        data["random_plies"] = tuple(data.get("random_plies", (2, 10)))
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})


@dataclass
class Positions:
    """Positions to learn from, column by column (a row per position), the two views'
    features ragged: row ``i``'s seat-``s`` view is ``counts[i, s]`` entries of
    ``features`` and ``values``, rows in order, seat 0 first; a feature ``inputs + p`` is
    plane ``p`` holding one value in all its cells."""

    columns: dict[str, npt.NDArray[Any]]
    counts: npt.NDArray[np.uint32]
    features: npt.NDArray[np.uint32]
    values: npt.NDArray[np.float32]

    def __len__(self) -> int:
        return len(self.counts)

    @classmethod
    def empty(cls) -> Positions:
        return cls(
            {name: np.zeros(0, dtype) for name, dtype in COLUMNS.items()},
            np.zeros((0, 2), np.uint32),
            np.zeros(0, np.uint32),
            np.zeros(0, np.float32),
        )

    @classmethod
    def from_native(cls, raw: dict[str, Any]) -> Positions:
        rows = len(np.asarray(raw["counts"]).reshape(-1, 2))
        # Files written before a column existed hold NaN in it (only a net on a base reads one).
        return cls(
            {
                name: np.asarray(raw[name], dtype) if name in raw else np.full(rows, np.nan, dtype)
                for name, dtype in COLUMNS.items()
            },
            np.asarray(raw["counts"], np.uint32).reshape(-1, 2),
            np.asarray(raw["features"], np.uint32),
            np.asarray(raw["values"], np.float32),
        )

    def starts(self) -> npt.NDArray[np.int64]:
        """Where each row's views start in ``features``: ``[rows, 2]``."""
        flat = self.counts.astype(np.int64).ravel()
        return (np.cumsum(flat) - flat).reshape(-1, 2)

    def concat(self, other: Positions) -> Positions:
        return Positions(
            {name: np.concatenate([self.columns[name], other.columns[name]]) for name in COLUMNS},
            np.concatenate([self.counts, other.counts]),
            np.concatenate([self.features, other.features]),
            np.concatenate([self.values, other.values]),
        )

    def tail(self, rows: int) -> Positions:
        """The last ``rows`` rows."""
        if rows >= len(self):
            return self
        cut = len(self) - rows
        at = int(self.counts[:cut].astype(np.int64).sum())
        return Positions(
            {name: column[cut:] for name, column in self.columns.items()},
            self.counts[cut:],
            self.features[at:],
            self.values[at:],
        )

    def save(self, path: Path) -> None:
        partial = path.with_name(path.name + ".partial.npz")
        try:
            arrays: dict[str, Any] = {
                "counts": self.counts,
                "features": self.features,
                "values": self.values,
                **self.columns,
            }
            np.savez(partial, **arrays)
            os.replace(partial, path)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: Path) -> Positions:
        with np.load(path) as data:
            return cls.from_native({key: data[key] for key in data.files})

    def width(self) -> int:
        """The longest view, rounded up to a multiple of 16 (batches of one width compile once)."""
        longest = int(self.counts.max()) if len(self) else 1
        return max(16, -(-longest // 16) * 16)

    def batch(
        self, rows: npt.NDArray[np.int64], starts: npt.NDArray[np.int64], width: int
    ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float32], npt.NDArray[np.int32], npt.NDArray[np.float32]]:
        """The features of ``rows`` padded to ``width`` (at least the longest view):
        indices and values ``[B, 2, width]`` (padding: feature 0 with value 0), the
        player to move ``[B]`` and the heuristic's value for it ``[B]``."""
        counts = self.counts[rows].astype(np.int64)
        k = np.arange(width)
        present = k[None, None, :] < counts[:, :, None]
        at = np.where(present, starts[rows][:, :, None] + k[None, None, :], 0)
        index = np.where(present, self.features[at], 0).astype(np.int32)
        value = np.where(present, self.values[at], 0.0).astype(np.float32)
        mover = self.columns["mover"][rows].astype(np.int32)
        return index, value, mover, self.columns["heuristic"][rows].astype(np.float32)


def play_positions(
    game: str,
    games: int,
    *,
    seed: int,
    nodes: int,
    random_plies: tuple[int, int] = (2, 10),
    net: Optional[EvaluationNet] = None,
    threads: int = 1,
    params: Optional[dict[str, Any]] = None,
) -> Positions:
    """``games`` games of alpha-beta against itself (step 1 of the module docs), scored by
    ``net`` or, with None, by the game's heuristic; seeded by ``seed`` and each game's
    number."""
    start = _native.new_game(game, **(params or {}))
    raw = _native.evaluation_games_native(
        start,
        net,
        games=games,
        seed=seed,
        depth=64,
        nodes=nodes,
        random_plies=(int(random_plies[0]), int(random_plies[1])),
        threads=threads,
    )
    return Positions.from_native(raw)


def initial_tensors(spec: EvaluationSpec, seed: int) -> dict[str, npt.NDArray[np.float32]]:
    """He-initialised weights (the feature layer's scaled for the few cells that are on),
    zero biases; a net on a base starts as its base (zero value weights)."""
    rng = np.random.default_rng(seed)
    out = {}
    for name, shape in evaluation_tensor_shapes(spec).items():
        if name.endswith(".bias") or (name == "value.weight" and spec.base != "none"):
            out[name] = np.zeros(shape, np.float32)
        elif name == "feature.weight":
            out[name] = rng.normal(0.0, 0.1, shape).astype(np.float32)
        else:
            out[name] = rng.normal(0.0, math.sqrt(2.0 / shape[0]), shape).astype(np.float32)
    return out


def jax_score(spec: EvaluationSpec) -> Callable[..., Any]:
    """The net as a JAX function ``score(params, index, value, mover, base) -> [B]``, on
    the padded features of :meth:`Positions.batch` (what the engine computes, in JAX);
    ``base`` is the heuristic's values for the mover, read by a net on the heuristic only."""
    import jax
    import jax.numpy as jnp

    plane = spec.inputs // spec.observation_shape[0] if len(spec.observation_shape) > 1 else spec.inputs
    planes = spec.inputs // plane

    def score(params: dict[str, Any], index: Any, value: Any, mover: Any, base: Any) -> Any:
        weight = params["feature.weight"]
        plane_rows = weight.reshape(planes, plane, spec.features).sum(axis=1)
        table = jnp.concatenate([weight, plane_rows], axis=0)
        acc = params["feature.bias"] + jnp.einsum("bsk,bskf->bsf", value, table[index])
        first = jnp.where(mover[:, None] == 0, acc[:, 0], acc[:, 1])
        second = jnp.where(mover[:, None] == 0, acc[:, 1], acc[:, 0])
        h = jax.nn.relu(jnp.concatenate([first, second], axis=-1))
        for i in range(len(spec.hidden)):
            h = jax.nn.relu(h @ params[f"dense{i}.weight"] + params[f"dense{i}.bias"])
        logit = (h @ params["value.weight"] + params["value.bias"])[:, 0]
        if spec.base != "none":
            logit = logit + jnp.arctanh(jnp.clip(base, -BASE_CLAMP, BASE_CLAMP))
        return jnp.tanh(logit)

    return score


def targets(positions: Positions, result_weight: float) -> npt.NDArray[np.float32]:
    score, result = positions.columns["score"], positions.columns["result"]
    return ((1 - result_weight) * score + result_weight * result).astype(np.float32)


@dataclass
class FitStats:
    steps: int
    loss: float
    held_out_loss: float
    seconds: float


@functools.lru_cache(maxsize=8)
def _compiled(
    shape: tuple[str, tuple[int, ...], int, tuple[int, ...], str], learning_rate: float, weight_decay: float
) -> tuple[Any, Any, Any]:
    """The optimizer, and the jitted training step and loss of nets of ``shape`` (game,
    observation shape, features, hidden, base), kept so that the fitters of one shape
    compile once."""
    import jax
    import jax.numpy as jnp
    import optax  # type: ignore[import-untyped]

    game, observation_shape, features, hidden, base = shape
    spec = EvaluationSpec(game, {}, observation_shape, features, hidden, base=base)
    optimizer = optax.adamw(learning_rate, weight_decay=weight_decay)
    score = jax_score(spec)

    def loss(params: Any, index: Any, value: Any, mover: Any, heuristic: Any, target: Any) -> Any:
        return jnp.mean((score(params, index, value, mover, heuristic) - target) ** 2)

    def step(params: Any, state: Any, index: Any, value: Any, mover: Any, heuristic: Any, target: Any) -> Any:
        value_loss, grads = jax.value_and_grad(loss)(params, index, value, mover, heuristic, target)
        updates, state = optimizer.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value_loss

    return optimizer, jax.jit(step), jax.jit(loss)


class Fitter:
    """Adam on one net (JAX computes the gradients), kept from round to round."""

    def __init__(self, spec: EvaluationSpec, tensors: dict[str, Any], config: EvaluationTrainConfig) -> None:
        import jax.numpy as jnp

        self.spec = spec
        self.config = config
        self.params = {name: jnp.asarray(array) for name, array in tensors.items()}
        self.optimizer, self._step, self._loss = _compiled(
            (spec.game, spec.observation_shape, spec.features, spec.hidden, spec.base),
            config.learning_rate,
            config.weight_decay,
        )
        self.state = self.optimizer.init(self.params)

    def tensors(self) -> dict[str, npt.NDArray[np.float32]]:
        return {name: np.asarray(array, np.float32) for name, array in self.params.items()}

    def net(self, training: Optional[dict[str, Any]] = None) -> EvaluationNet:
        spec = replace(self.spec, training=dict(training or self.spec.training))
        return EvaluationNet(spec, self.tensors())

    def fit(
        self, positions: Positions, steps: int, rng: np.random.Generator, stop: Optional[Callable[[], bool]] = None
    ) -> FitStats:
        """``steps`` batches drawn from the positions not held out; returns the mean loss of
        the last tenth of the steps and the loss on the held-out games."""
        began = time.perf_counter()
        held = positions.columns["game"] % 20 == 19
        train_rows, test_rows = np.flatnonzero(~held), np.flatnonzero(held)
        if not len(train_rows):
            train_rows = np.arange(len(positions))
        target = targets(positions, self.config.result_weight)
        starts, width = positions.starts(), positions.width()
        losses = []
        done = 0
        for _ in range(steps):
            if stop is not None and stop():
                break
            rows = rng.choice(train_rows, size=min(self.config.batch_size, len(train_rows)))
            batch = positions.batch(rows, starts, width)
            self.params, self.state, step_loss = self._step(self.params, self.state, *batch, target[rows])
            losses.append(step_loss)
            done += 1
        tail = [float(x) for x in losses[-max(1, done // 10) :]] if losses else [float("nan")]
        held_out = self.loss(positions, test_rows) if len(test_rows) else float("nan")
        return FitStats(done, float(np.mean(tail)), held_out, time.perf_counter() - began)

    def loss(self, positions: Positions, rows: Optional[npt.NDArray[np.int64]] = None) -> float:
        """The mean squared error on ``rows`` of ``positions`` (all of them by default)."""
        rows = np.arange(len(positions)) if rows is None else rows
        target = targets(positions, self.config.result_weight)
        starts, width = positions.starts(), positions.width()
        total = 0.0
        for chunk in np.array_split(rows, max(1, len(rows) // 4096)):
            batch = positions.batch(chunk, starts, width)
            total += float(self._loss(self.params, *batch, target[chunk])) * len(chunk)
        return total / max(1, len(rows))


def fit(
    spec: EvaluationSpec,
    positions: Positions,
    config: EvaluationTrainConfig,
    *,
    steps: int,
    tensors: Optional[dict[str, Any]] = None,
    seed: int = 0,
) -> tuple[EvaluationNet, FitStats]:
    """A net of ``spec`` fitted to ``positions`` for ``steps`` batches (from ``tensors`` or
    from fresh weights)."""
    fitter = Fitter(spec, tensors if tensors is not None else initial_tensors(spec, seed), config)
    stats = fitter.fit(positions, steps, np.random.default_rng(seed))
    return fitter.net(), stats


@dataclass
class EvaluationRun:
    """What a run did, in all (``state.json``)."""

    rounds: int = 0
    games: int = 0
    positions: int = 0
    seconds: float = 0.0
    stopped: str = ""
    net: Optional[EvaluationNet] = None

    def to_json(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "games": self.games, "positions": self.positions, "seconds": self.seconds}


def _write_json(path: Path, data: Any) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    os.replace(partial, path)


def _append(path: Path, line: str) -> None:
    with open(path, "a") as out:
        out.write(line + "\n")


def train_evaluation(
    config: EvaluationTrainConfig,
    out: Union[str, os.PathLike[str]],
    *,
    minutes: Optional[float] = None,
    rounds: Optional[int] = None,
    resume: bool = False,
    progress: Optional[Callable[[str, int, int], None]] = None,
    log: Optional[Callable[[str], None]] = None,
) -> EvaluationRun:
    """Trains an evaluation net for ``config.game`` in the directory ``out`` (the module
    docs), for ``minutes`` of wall time or ``rounds`` rounds (or until Ctrl-C, which stops
    within a game or a batch and leaves the directory resumable). ``progress(what, done,
    total)`` is told how the round goes; ``log(line)`` gets each round's line."""
    config.check()
    if minutes is not None and not minutes > 0:
        raise InvalidParameterError(f"minutes must be > 0, got {minutes}")
    if rounds is not None and rounds < 1:
        raise InvalidParameterError(f"rounds must be >= 1, got {rounds}")
    directory = Path(out)
    config_path, state_path, net_path = (
        directory / "config.json",
        directory / "state.json",
        directory / "evaluation.safetensors",
    )
    spec = evaluation_spec_for(
        config.game,
        config.features,
        config.hidden,
        training={"command": "glacier train --for alphabeta"},
        base=config.base,
        **config.params,
    )
    run = EvaluationRun()
    if resume:
        if not config_path.exists():
            raise InvalidParameterError(f"{directory} holds no evaluation net training run to resume")
        saved = EvaluationTrainConfig.from_json(json.loads(config_path.read_text()))
        if saved.game != config.game or saved.params != spec.params:
            raise InvalidParameterError(
                f"{directory} trains {saved.game} with {saved.params}, not {config.game} with {spec.params}"
            )
        if (saved.features, saved.hidden, saved.base) != (config.features, config.hidden, config.base):
            raise InvalidParameterError(
                f"{directory} trains a net of features {saved.features}, hidden {list(saved.hidden)} and base "
                f"{saved.base}, not {config.features}, {list(config.hidden)} and {config.base}"
            )
        done = json.loads(state_path.read_text()) if state_path.exists() else {}
        run = EvaluationRun(
            done.get("rounds", 0), done.get("games", 0), done.get("positions", 0), done.get("seconds", 0.0)
        )
    elif directory.exists() and any(directory.iterdir()):
        raise InvalidParameterError(f"{directory} is not empty: give an empty directory, or resume=True to go on")
    (directory / "positions").mkdir(parents=True, exist_ok=True)
    _write_json(config_path, {**config.to_json(), "params": spec.params})
    say = log or (lambda line: None)
    tensors: Optional[dict[str, Any]] = None
    if resume and net_path.exists():
        tensors = load_evaluation(net_path, config.game).tensors
    fitter = Fitter(spec, tensors if tensors is not None else initial_tensors(spec, config.seed), config)
    kept = Positions.empty()
    for path in sorted((directory / "positions").glob("round-*.npz")):
        kept = kept.concat(Positions.load(path)).tail(config.buffer)
    began = time.monotonic()
    deadline = began + minutes * 60 if minutes is not None else None
    rng = np.random.default_rng([config.seed, run.rounds])

    def out_of_time() -> bool:
        return deadline is not None and time.monotonic() >= deadline

    net = fitter.net() if run.rounds and config.teacher == "net" else None
    chunk = max(2, 4 * max(1, config.threads))
    while (rounds is None or run.rounds < rounds) and not out_of_time():
        round_began = time.monotonic()
        number = run.rounds
        played = Positions.empty()
        games = 0
        while games < config.games_per_round and not out_of_time():
            size = min(chunk, config.games_per_round - games)
            batch = play_positions(
                config.game,
                size,
                seed=(config.seed * 1_000_003 + number) * 1_000_003 + games,
                nodes=config.nodes,
                random_plies=config.random_plies,
                net=net,
                threads=config.threads,
                params=spec.params,
            )
            # Game numbers unique in the run, so that a game is held out or not as a whole.
            batch.columns["game"] = batch.columns["game"] + np.uint32((run.games + games) % 2**32)
            played = played.concat(batch)
            games += size
            if progress:
                progress("games", games, config.games_per_round)
        if not len(played):
            break
        kept = kept.concat(played).tail(config.buffer)
        steps = max(1, math.ceil(len(played) * config.samples_per_position / config.batch_size))
        stats = fitter.fit(kept, steps, rng, stop=None)
        training = {
            "command": "glacier train --for alphabeta",
            "rounds": number + 1,
            "positions": run.positions + len(played),
            "config": config.to_json(),
        }
        trained = fitter.net(training)
        trained.path = net_path
        save_evaluation(net_path, trained)
        if config.teacher == "net":
            net = trained
        played.save(directory / "positions" / f"round-{number:05d}.npz")
        seconds = time.monotonic() - round_began
        run.rounds += 1
        run.games += games
        run.positions += len(played)
        run.seconds += seconds
        _write_json(state_path, run.to_json())
        scored = "heuristic" if number == 0 or config.teacher == "heuristic" else "net"
        record = {
            "round": number,
            "games": games,
            "positions": len(played),
            "kept": len(kept),
            "scored_by": scored,
            "steps": stats.steps,
            "loss": stats.loss,
            "held_out_loss": stats.held_out_loss,
            "seconds": seconds,
            "fit_seconds": stats.seconds,
        }
        _append(directory / "log.jsonl", json.dumps(record, sort_keys=True))
        line = (
            f"round {number}: {games} games scored by the {scored}, {len(played)} positions ({len(kept)} kept); "
            f"{stats.steps} steps, loss {stats.loss:.4f}, held out {stats.held_out_loss:.4f}; {seconds:.0f} s"
        )
        _append(directory / "train.log", line)
        say(line)
    run.net = load_evaluation(net_path, config.game) if net_path.exists() else None
    if run.net is None:
        raise InvalidNetError(f"the run in {directory} ended before its first round was done")
    run.stopped = "time" if out_of_time() else "rounds"
    return run


def train_command(
    game: str,
    out_dir: str,
    *,
    minutes: Optional[float] = None,
    rounds: Optional[int] = None,
    resume: bool = False,
    threads: int = 1,
    params: Optional[dict[str, Any]] = None,
    seed: int = 0,
    quiet: bool = False,
    hidden: Optional[str] = None,
    games: Optional[int] = None,
    nodes: Optional[int] = None,
    teacher: Optional[str] = None,
    random_plies: Optional[str] = None,
    base: Optional[str] = None,
    echo: Callable[[str], None] = print,
) -> EvaluationRun:
    """``glacier train GAME --for alphabeta --out DIR``: the run of :func:`train_evaluation`
    with a progress bar (unless ``quiet``) and a line per round through ``echo``.
    ``hidden`` is ``"F,H1,..."``: the feature width, then the hidden layers (default
    ``64,32``); ``games`` the games a round, ``nodes`` each move's search, ``teacher``
    what scores the searches after the first round, ``random_plies`` ``"LO,HI"`` the random
    plies each game opens with, ``base`` what the net corrects (``none`` or ``heuristic``).
    Resumed, the
    options not given are the run's. Raises :class:`glacier.errors.GlacierError` for bad
    options or a directory that does not fit."""
    from tqdm import tqdm

    widths: Optional[tuple[int, ...]] = None
    if hidden:
        try:
            widths = tuple(int(w) for w in hidden.split(","))
        except ValueError:
            raise InvalidParameterError(
                f"expected widths such as 64,32 (features, then hidden), got {hidden!r}"
            ) from None
    plies: Optional[tuple[int, int]] = None
    if random_plies:
        try:
            low, high = (int(p) for p in random_plies.split(","))
        except ValueError:
            raise InvalidParameterError(
                f"expected random plies such as 2,10 (lowest, highest), got {random_plies!r}"
            ) from None
        plies = (low, high)
    config_path = Path(out_dir) / "config.json"
    if resume and config_path.exists():
        config = EvaluationTrainConfig.from_json(json.loads(config_path.read_text()))
        if config.game != game:
            raise InvalidParameterError(f"{out_dir} trains {config.game}, not {game}")
        config = replace(config, threads=threads)
    else:
        config = EvaluationTrainConfig(game, params=dict(params or {}), seed=seed, threads=threads)
    if widths:
        config = replace(config, features=widths[0], hidden=widths[1:])
    if games is not None:
        config = replace(config, games_per_round=games)
    if nodes is not None:
        config = replace(config, nodes=nodes)
    if teacher is not None:
        config = replace(config, teacher=teacher)
    if plies is not None:
        config = replace(config, random_plies=plies)
    if base is not None:
        config = replace(config, base=base)
    bar = None if quiet else tqdm(total=config.games_per_round, unit="game", desc="round 0")

    def progress(what: str, done: int, total: int) -> None:
        if bar is not None:
            bar.n = done
            bar.refresh()

    def log(line: str) -> None:
        if bar is not None:
            bar.write(line)
            bar.set_description(f"round {int(line.split()[1].rstrip(':')) + 1}")
            bar.n = 0
        else:
            echo(line)

    try:
        run = train_evaluation(
            config, out_dir, minutes=minutes, rounds=rounds, resume=resume, progress=progress, log=log
        )
    finally:
        if bar is not None:
            bar.close()
    echo(
        f"{run.rounds} rounds, {run.games:,} games, {run.positions:,} positions, {run.seconds / 60:.1f} minutes; "
        f"the net: {Path(out_dir) / 'evaluation.safetensors'} (play it: alphabeta:0.2s:net=PATH)"
    )
    return run

"""What a training run is told (:class:`TrainConfig`): the game, the net, and the settings of
each step, saved in the run's directory as ``config.json``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Optional

from .. import nets
from ..errors import InvalidParameterError
from ..selfplay import SelfPlaySettings

__all__ = ["BUFFER_BYTES", "DEFAULT_HIDDEN", "TrainConfig"]

#: The hidden layers of a net unless told otherwise: small enough that MCTS with the net runs
#: at a good share of the speed of MCTS with a game's heuristic (docs/learning.md, "Speed").
DEFAULT_HIDDEN: tuple[int, ...] = (64, 64)

#: How much of the memory a replay buffer may take, at most.
BUFFER_BYTES = 1 << 30


@dataclass(frozen=True)
class TrainConfig:
    """Everything :func:`~glacier.learn.train` is told: the game, the net, and the settings of each step."""

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

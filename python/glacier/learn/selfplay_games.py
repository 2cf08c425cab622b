"""AlphaZero-style self-play: many games at once, every move chosen by the engine's MCTS with a
net as its evaluator, every position recorded with the search's targets.

:func:`play_games` plays games ``start..stop`` of a run together: one tree per game, all
searched in one batched call (:meth:`glacier.search.MCTS.search_batch`, PUCT, Dirichlet
noise at each root, the trees kept from move to move), each game drawing its moves from its
own seeded generator (the visits raised to ``1 / temperature`` for its first
``temperature_moves`` moves, then the most visited). No resignation: every game is played
to its end. It returns the rows of a self-play shard (the columns of
:func:`glacier.distributed.selfplay`, one row per action, plus ``policy``, ``root_values``
and ``searched``; see :data:`AZ_COLUMNS`).
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass, fields
from typing import Any, Callable, Optional

import numpy as np
import numpy.typing as npt

from .. import _native, game_spec, search
from ..errors import InvalidParameterError

__all__ = [
    "AZ_COLUMNS",
    "TEMPERATURE_MOVES_PER_PLAYER",
    "SelfPlaySettings",
    "engine_evaluator",
    "mean_game_length",
    "play_games",
    "player_seed",
]

#: The columns of an AlphaZero self-play shard, one row per action played: those of
#: ``glacier.distributed.COLUMNS``, then ``policy`` (the search's visits over actions,
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

    def check(self) -> None:
        if self.simulations < 1 or self.leaves_per_tree < 1:
            raise InvalidParameterError("self-play needs at least one simulation and one leaf per tree")
        if self.evaluator not in ("net", "engine"):
            raise InvalidParameterError(f"self-play evaluates with 'net' or 'engine', not {self.evaluator!r}")
        if not (0 <= self.dirichlet_fraction <= 1) or self.temperature < 0 or self.c_puct <= 0:
            raise InvalidParameterError("self-play needs 0 <= dirichlet_fraction <= 1, temperature >= 0 and c_puct > 0")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def of(cls, options: dict[str, Any]) -> SelfPlaySettings:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise InvalidParameterError(f"unknown self-play settings {unknown}; known: {sorted(known)}")
        return cls(**options)


def player_seed(seed: int, game_index: int) -> int:
    """The seed of game ``game_index`` of a run seeded ``seed`` (as ``glacier.distributed``'s)."""
    return int(np.random.SeedSequence([seed, game_index]).generate_state(1, np.uint64)[0])


def engine_evaluator(net: Any) -> Any:
    """The evaluator a search gets for ``net`` (a :class:`glacier.learn.Net`)."""
    return net


#: The options of a game's computer player (``GameSpec.mcts_player``) that say how it
#: evaluates, which self-play with ``evaluator="engine"`` takes.
ENGINE_OPTIONS = ("evaluator", "rollout_plies", "priors", "prior_temperature", "rollout_policy", "rollout_temperature")


def _dirichlet_alpha(game: str, params: dict[str, Any]) -> float:
    state = _native.new_game(game, **params)
    return min(1.0, 10.0 / max(1, len(state.legal_moves())))


def _pick(result: search.SearchResult, rng: random.Random, temperature: float) -> str:
    """The search's move, or with ``temperature`` > 0 one drawn by visits ** (1 / temperature)."""
    if temperature <= 0:
        return result.move
    moves = list(result.visits)
    weights = [result.visits[m] ** (1.0 / temperature) for m in moves]
    if sum(weights) <= 0:
        return result.move
    return rng.choices(moves, weights)[0]


class _Game:
    """One game being played, with its rows so far."""

    def __init__(self, index: int, game: str, params: dict[str, Any], seed: int) -> None:
        self.index = index
        self.state = _native.new_game(game, **params)
        self.rng = random.Random(player_seed(seed, index))
        self.rows: dict[str, list[Any]] = {c: [] for c in AZ_COLUMNS if c != "returns"}
        self.moves = 0


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
    ``"engine"``), ``concurrent`` at a time (default: all),
    and returns their rows as :data:`AZ_COLUMNS` arrays, game after game. ``on_move(k)`` is
    called after each round of searches with the number of moves made. ``threads``: the
    search's threads (the trees split among them; the games do not depend on it)."""
    settings = settings or SelfPlaySettings()
    settings.check()
    if stop <= start:
        raise InvalidParameterError(f"no games to play: {start}..{stop}")
    probe = _native.new_game(game, **params)
    params = dict(probe.params)
    actions, players = probe.num_distinct_actions, probe.num_players
    obs_shape = tuple(probe.observation_shape)
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
        # The trees' seeds (Dirichlet noise) follow from the run's seed and the first game.
        seed=int(np.random.SeedSequence([seed, start, 1]).generate_state(1, np.uint64)[0]),
        c_puct=settings.c_puct,
        selection="puct",
        dirichlet_alpha=alpha,
        dirichlet_fraction=settings.dirichlet_fraction,
        reuse=True,
        threads=threads,
    )
    width = min(concurrent or (stop - start), stop - start)
    waiting = iter(range(start, stop))
    playing = [_Game(next(waiting), game, params, seed) for _ in range(width)]
    finished: dict[int, tuple[_Game, list[float]]] = {}
    while playing:
        results = searcher.search_batch(
            [g.state for g in playing],
            simulations=settings.simulations,
            temperature=0.0,
            batch_size=settings.leaves_per_tree,
        )
        still: list[_Game] = []
        for g, result in zip(playing, results):
            state = g.state
            temperature = settings.temperature if g.moves < temperature_moves else 0.0
            move = _pick(result, g.rng, temperature)
            policy = result.action_policy(actions)
            root_values = list(result.values)
            for k, action in enumerate(state.move_to_actions(move)):
                rows = g.rows
                rows["game"].append(g.index)
                rows["ply"].append(len(state.moves))
                rows["player"].append(state.current_player)
                rows["observation"].append(state.observation())
                mask = state.legal_action_mask()
                rows["legal_mask"].append(mask)
                rows["legal_count"].append(int(mask.sum()))
                rows["action"].append(action)
                if k == 0:
                    rows["policy"].append(policy)
                else:
                    one_hot = np.zeros(actions, np.float32)
                    one_hot[action] = 1.0
                    rows["policy"].append(one_hot)
                rows["root_values"].append(root_values)
                rows["searched"].append(k == 0)
                state.apply_action(action)
            g.moves += 1
            over = state.is_terminal()
            if over or (settings.max_moves is not None and g.moves >= settings.max_moves):
                returns = list(state.returns()) if over else [0.0] * players
                finished[g.index] = (g, returns)
                fresh = next(waiting, None)
                if fresh is not None:
                    still.append(_Game(fresh, game, params, seed))
            else:
                still.append(g)
        if on_move is not None:
            on_move(len(playing))
        playing = still
    return _columns([finished[i] for i in sorted(finished)], obs_shape, actions, players)


def _columns(
    done: list[tuple[_Game, list[float]]], obs_shape: tuple[int, ...], actions: int, players: int
) -> dict[str, npt.NDArray[Any]]:
    def gather(name: str) -> list[Any]:
        return [value for g, _ in done for value in g.rows[name]]

    returns = [r for g, r in done for _ in g.rows["game"]]
    count = len(returns)
    return {
        "game": np.asarray(gather("game"), dtype=np.int64),
        "ply": np.asarray(gather("ply"), dtype=np.uint32),
        "player": np.asarray(gather("player"), dtype=np.int32),
        "observation": np.asarray(gather("observation"), dtype=np.float32).reshape((count, *obs_shape)),
        "legal_count": np.asarray(gather("legal_count"), dtype=np.uint32),
        "legal_mask": np.asarray(gather("legal_mask"), dtype=np.bool_).reshape(count, actions),
        "action": np.asarray(gather("action"), dtype=np.int64),
        "returns": np.asarray(returns, dtype=np.float64).reshape(count, players),
        "policy": np.asarray(gather("policy"), dtype=np.float32).reshape(count, actions),
        "root_values": np.asarray(gather("root_values"), dtype=np.float32).reshape(count, players),
        "searched": np.asarray(gather("searched"), dtype=np.bool_),
    }


def mean_game_length(data: dict[str, npt.NDArray[Any]]) -> float:
    """Mean moves per game of shard columns."""
    games = len(np.unique(data["game"])) if len(data["game"]) else 0
    return float(np.count_nonzero(data["searched"]) / games) if games else math.nan

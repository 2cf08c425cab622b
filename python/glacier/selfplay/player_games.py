"""Self-play by glacier's players: every seat taken by the same kind of player, every
action recorded (the rows of :data:`glacier.selfplay.shards.COLUMNS`)."""

from __future__ import annotations

from typing import Any, Callable, Union

import numpy as np
import numpy.typing as npt

import glacier

from ..errors import InvalidParameterError
from ..players import MonteCarloPlayer, RandomPlayer
from .shards import COLUMNS

__all__ = ["PLAYERS", "check_player", "make_player", "play_games", "player_seed"]

#: The players self-play knows by name; a callable taking ``seed=`` (and the options) works too.
PLAYERS: dict[str, Callable[..., Any]] = {"random": RandomPlayer, "montecarlo": MonteCarloPlayer}

Chooser = Union[str, Callable[..., Any]]


def player_seed(seed: int, game_index: int) -> int:
    """The seed the player of game ``game_index`` of a run seeded ``seed`` gets."""
    return int(np.random.SeedSequence([seed, game_index]).generate_state(1, np.uint64)[0])


def make_player(player: Chooser, options: dict[str, Any], seed: int) -> Any:
    """The player ``player`` (a name of :data:`PLAYERS` or a callable) with ``options``."""
    factory = PLAYERS[player] if isinstance(player, str) else player
    return factory(seed=seed, **options)


def check_player(player: Chooser, options: dict[str, Any]) -> None:
    """Makes ``player`` with ``options`` once, so that bad options fail here rather than in
    every game."""
    try:
        make_player(player, options, 0)
    except TypeError as err:
        raise InvalidParameterError(f"player_options {options!r} do not suit the player {player!r}: {err}") from None


def play_games(
    game: str,
    params: dict[str, Any],
    start: int,
    stop: int,
    seed: int,
    player: Chooser,
    options: dict[str, Any],
) -> dict[str, npt.NDArray[Any]]:
    """Games ``start..stop`` of a run seeded ``seed``, every seat taken by ``player``, every
    action recorded: the rows of a shard."""
    rows: dict[str, list[Any]] = {c: [] for c in COLUMNS}
    probe = glacier.new_game(game, **params)
    for index in range(start, stop):
        state = glacier.new_game(game, **params)
        chooser = make_player(player, options, player_seed(seed, index))
        first_row = len(rows["game"])
        while not state.is_terminal():
            # A move of several actions (a jump chain, a drop order) is a row per action: each
            # row is one decision of the fixed action space, as a learner sees it.
            for action in state.move_to_actions(chooser.choose(state)):
                rows["game"].append(index)
                rows["ply"].append(len(state.moves))
                rows["player"].append(state.current_player)
                rows["observation"].append(state.observation())
                rows["legal_count"].append(len(state.legal_actions()))
                rows["legal_mask"].append(state.legal_action_mask())
                rows["action"].append(action)
                state.apply_action(action)
        rows["returns"].extend([state.returns()] * (len(rows["game"]) - first_row))
    obs_shape = tuple(probe.observation_shape)
    return {
        "game": np.asarray(rows["game"], dtype=np.int64),
        "ply": np.asarray(rows["ply"], dtype=np.uint32),
        "player": np.asarray(rows["player"], dtype=np.int32),
        "observation": np.asarray(rows["observation"], dtype=np.float32).reshape((-1, *obs_shape)),
        "legal_count": np.asarray(rows["legal_count"], dtype=np.uint32),
        "legal_mask": np.asarray(rows["legal_mask"], dtype=np.bool_).reshape(-1, probe.num_distinct_actions),
        "action": np.asarray(rows["action"], dtype=np.int64),
        "returns": np.asarray(rows["returns"], dtype=np.float64).reshape(-1, probe.num_players),
    }

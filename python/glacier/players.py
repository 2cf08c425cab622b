"""Simple computer players for any glacier game (used by ``glacier play``)."""

from __future__ import annotations

import random
from typing import Any, Optional

import numpy as np

from .batch import playouts

__all__ = ["MonteCarloPlayer", "RandomPlayer"]


class RandomPlayer:
    """Plays a uniformly random legal move."""

    def __init__(self, seed: Optional[int] = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: Any) -> str:
        moves: list[str] = state.legal_moves()
        return self._rng.choice(moves)


class MonteCarloPlayer:
    """Flat Monte Carlo search: every legal move is scored by the mean return, for the player
    making it, of ``playouts`` random games played out in Rust from the position it leads to."""

    def __init__(self, playouts: int = 200, seed: Optional[int] = None) -> None:
        self.playouts = playouts
        self._rng = random.Random(seed)

    def choose(self, state: Any) -> str:
        me = state.current_player
        best: list[str] = []
        best_score = -np.inf
        for move in state.legal_moves():
            child = state.copy()
            child.play(move)
            if child.is_terminal():
                score = child.returns()[me]
            else:
                result = playouts(
                    state.game, self.playouts, seed=self._rng.randrange(2**63), position=child.text(), **state.params
                )
                score = float(result.returns[:, me].mean())
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return self._rng.choice(best)

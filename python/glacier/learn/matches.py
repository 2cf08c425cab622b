"""Matches of nets, played many games at once: gating (a new net against the best) and
evaluation (a net against glacier's players).

A net's moves in every game are searched together, one batched call per round
(:meth:`glacier.search.MCTS.search_batch`), so a match costs little more than a search of
one game per move; other players (``"random"``, ``"mcts:64:rollout"``, ...) choose game by
game. Seats are rotated as in :func:`glacier.arena` (with fewer sides than seats the last
side fills the rest), game ``i`` is seeded from ``seed`` and ``i``, and each game begins
with ``opening_moves`` moves drawn in proportion to the searches' visits (or at random, for
a player that is not a net) from the game's own generator, so that two deterministic
players do not play one game over and over. The result is a
:class:`glacier.arena.ArenaResult`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence, Union

import numpy as np

from .. import _native, search
from ..arena import ArenaResult, GameResult, distinct_names, fresh_player, player_name, seed_for, summarise
from ..errors import InvalidParameterError

__all__ = ["NetSide", "match"]


@dataclass(frozen=True)
class NetSide:
    """A net playing by batched MCTS: ``simulations`` a move, PUCT with ``c_puct``."""

    evaluator: Any
    simulations: int = 64
    name: str = "net"
    c_puct: float = 1.5
    leaves_per_tree: int = 1


Side = Union[NetSide, str, Any]


def match(
    game: str,
    sides: Sequence[Side],
    *,
    games: int,
    seed: int = 0,
    opening_moves: int = 2,
    params: Optional[dict[str, Any]] = None,
    threads: int = 1,
) -> ArenaResult:
    """Plays ``games`` games of ``game`` between ``sides`` (:class:`NetSide` or any player
    :func:`glacier.arena` takes) and returns the results. ``threads``: the nets' searches'
    threads (the games do not depend on it)."""
    if games < 1:
        raise InvalidParameterError(f"games must be >= 1, got {games}")
    if not sides:
        raise InvalidParameterError("a match needs at least one side")
    start = _native.new_game(game, **(params or {}))
    seats = start.num_players
    if len(sides) > seats:
        raise InvalidParameterError(f"{game} has {seats} seats, got {len(sides)} sides")
    entries = list(sides) + [sides[-1]] * (seats - len(sides))
    names = distinct_names([s.name if isinstance(s, NetSide) else player_name(s) for s in entries])
    searchers = {
        id(s): search.MCTS(
            game, evaluator=s.evaluator, seed=seed_for(seed, p), c_puct=s.c_puct, reuse=False, threads=threads
        )
        for p, s in enumerate(entries)
        if isinstance(s, NetSide)
    }

    class Table:
        def __init__(self, index: int) -> None:
            self.index = index
            self.order = tuple((seat + index) % seats for seat in range(seats))
            self.state = start.copy()
            self.rng = np.random.default_rng(seed_for(seed, index, 999))
            self.players = [
                None if isinstance(entries[p], NetSide) else fresh_player(entries[p], seed_for(seed, index, p))
                for p in self.order
            ]

        def side(self) -> Side:
            return entries[self.order[self.state.current_player]]

    tables = [Table(i) for i in range(games)]
    done: list[GameResult] = []
    while tables:
        by_net: dict[int, list[Table]] = {}
        for t in tables:
            side = t.side()
            if isinstance(side, NetSide):
                by_net.setdefault(id(side), []).append(t)
            else:
                opening = len(t.state.moves) < opening_moves
                player = t.players[t.state.current_player]
                assert player is not None
                moves = t.state.legal_moves()
                t.state.play(moves[int(t.rng.integers(len(moves)))] if opening else player.choose(t.state))
        for key, group in by_net.items():
            side = next(s for s in entries if id(s) == key)
            assert isinstance(side, NetSide)
            results = searchers[key].search_batch(
                [t.state for t in group], simulations=side.simulations, batch_size=side.leaves_per_tree
            )
            for t, result in zip(group, results):
                move = result.move
                if len(t.state.moves) < opening_moves:
                    moves = list(result.visits)
                    visits = np.asarray([result.visits[m] for m in moves], dtype=np.float64)
                    move = moves[int(t.rng.choice(len(moves), p=visits / visits.sum()))]
                t.state.play(move)
        still = []
        for t in tables:
            if t.state.is_terminal():
                returns = t.state.returns()
                winner = next((t.order[s] for s, r in enumerate(returns) if r > 0), None)
                done.append(GameResult(t.index, t.order, winner, len(t.state.moves), t.state, opening_moves))
            else:
                still.append(t)
        tables = still
    done.sort(key=lambda r: r.number)
    return summarise(game, names, done, start.params.get("max_plies"), opening_moves)

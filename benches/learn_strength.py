"""The strength of the shipped nets (docs/learning.md, "Baselines"): seeded matches of each
game's baseline, or of any net file, against

- ``mcts:64:rollout`` at equal simulations (64 a move; the targets of ``glacier train``:
  85% in Ice Cube Checkers after 5 minutes, 75% in King's Court and Kuba after 30);
- the game's default MCTS player (``mcts:N``, the one ``glacier play`` uses) at equal time
  per move (0.2 s each);
- ``alphabeta`` at the same time per move, in the two-player games.

Games at equal simulations are played all at once (:func:`glacier.learn.match`, the net's
searches batched), with two opening moves drawn from the searches' visits (or at random for
the other player) so that deterministic players do not repeat one game; games at equal time
one at a time (``glacier.arena``, one thread, so that each player has the core it is timed
on), with the same random opening moves. Prints one line per match.

    python benches/learn_strength.py [--only ice_cube_checkers,kuba] [--games 100]
        [--timed-games 20] [--net PATH] [--parts sims,time]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import glacier
from glacier import learn, players
from glacier.arena import ArenaResult

#: (label, game, params)
GAMES = [
    ("ice_age_chess", "ice_age_chess", {}),
    ("ice_cube_checkers", "ice_cube_checkers", {}),
    ("kings_court", "kings_court", {}),
    ("kuba", "kuba", {}),
    ("e2", "martian_chinese_checkers", {"players": 2}),
    ("e3", "martian_chinese_checkers", {"players": 3}),
    ("e6", "martian_chinese_checkers", {"players": 6}),
]


def line(label: str, what: str, result: ArenaResult, seconds: float) -> str:
    p = result.players[0]
    return (
        f"{label}: {what}: {p.wins}-{p.draws}-{p.losses} of {len(result.games)} "
        f"({100 * p.wins / len(result.games):.0f}% won, score {p.score:.3f}) [{seconds:.0f} s]"
    )


class Opening:
    """A player that makes ``plies`` random moves first (seeded), then leaves it to ``inner``."""

    def __init__(self, inner: Any, plies: int, seed: int) -> None:
        self.inner = inner
        self.plies = plies
        self.seed = seed
        self.rng = random.Random(seed)

    @property
    def name(self) -> str:
        return str(self.inner.name)

    def choose(self, state: Any) -> str:
        if len(state.moves) < self.plies:
            return self.rng.choice(state.legal_moves())
        return str(self.inner.choose(state))

    def spawn(self, seed: int) -> Opening:
        return Opening(self.inner.spawn(seed), self.plies, seed)


def timed(
    label: str, game: str, params: dict[str, int], net: learn.Net, opponent: str, seconds: float, games: int
) -> None:
    start = time.perf_counter()
    ours = players.NetPlayer(None, None, 0, seconds=seconds, net=net)
    ours.path = str(net.path) if net.path else None
    theirs = players.from_spec(opponent)
    result = glacier.arena(
        game, [Opening(ours, 2, 0), Opening(theirs, 2, 1)], games=games, seed=2026, threads=1, **params
    )
    print(line(label, f"net at {seconds:g}s vs {opponent}", result, time.perf_counter() - start), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default=",".join(g[0] for g in GAMES))
    parser.add_argument("--games", type=int, default=100, help="games at equal simulations")
    parser.add_argument("--timed-games", type=int, default=20, help="games at equal time")
    parser.add_argument("--simulations", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--net", help="a net file instead of the game's baseline (one game)")
    parser.add_argument("--parts", default="sims,time")
    args = parser.parse_args()
    parts = args.parts.split(",")
    for label, game, params in GAMES:
        if label not in args.only.split(","):
            continue
        net = learn.load(args.net) if args.net else learn.baseline(game, **params)
        n = args.simulations
        if "sims" in parts:
            start = time.perf_counter()
            side = learn.NetSide(net, n, f"net:{n}")
            result = learn.match(game, [side, f"mcts:{n}:rollout"], games=args.games, seed=2026, params=params)
            print(line(label, f"net vs mcts:{n}:rollout at {n} simulations", result, time.perf_counter() - start))
        if "time" in parts:
            timed(label, game, params, net, f"mcts:{args.seconds:g}s", args.seconds, args.timed_games)
            if glacier.new_game(game, **params).num_players == 2:
                timed(label, game, params, net, f"alphabeta:{args.seconds:g}s", args.seconds, args.timed_games)


if __name__ == "__main__":
    main()

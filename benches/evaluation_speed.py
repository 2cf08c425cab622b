"""Alpha-beta's nodes per second with an evaluation net beside the same search with the game's
heuristic: one thread, the same positions, the two taking turns.

    python benches/evaluation_speed.py                       # the shipped nets, every game that has one
    python benches/evaluation_speed.py --games GAME --features 64 --hidden 32   # a random net of that size

For each game, ``--positions`` positions (seeded random plies from the start, 4 to 20) are
searched for ``--seconds`` each, once with the heuristic and once with the net, round after
round (``--rounds``); a round's figure is its nodes over its seconds. Prints each round's
ratio and the median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from typing import Any, Optional

import numpy as np

import glacier
from glacier import nets, search
from glacier.nets.evaluation_net import EvaluationNet, evaluation_path
from glacier.testing import random_evaluation_net, random_states

#: The games whose default start has two players.
TWO_PLAYER_GAMES = [g for g in glacier.GAMES if glacier.new_game(g).num_players == 2]


def measure(states: list[Any], seconds: float, net: Optional[EvaluationNet]) -> float:
    nodes = 0
    spent = 0.0
    for state in states:
        result = search.alphabeta(state, seconds=seconds, evaluation=net)
        nodes += result.nodes
        spent += result.seconds
    return nodes / spent


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=None, help="games (default: those with a shipped net)")
    parser.add_argument("--net", default=None, help="an evaluation net file (one game)")
    parser.add_argument("--features", type=int, default=None, help="measure a random net this wide instead")
    parser.add_argument("--hidden", default="32", help="the random net's hidden layers, e.g. 32,32")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.net:
        net0 = nets.load_evaluation(args.net)
        games = [net0.game]
    else:
        games = args.games or [g for g in TWO_PLAYER_GAMES if evaluation_path(g).exists() or args.features]
    hidden = tuple(int(h) for h in args.hidden.split(",") if h)
    print(f"alpha-beta, one thread, {args.positions} positions x {args.seconds:g} s, {args.rounds} rounds")
    for game in games:
        if args.net:
            net = net0
        elif args.features:
            # A trained net's speed is the same but for how many units its ReLUs leave at zero.
            net = random_evaluation_net(
                game, args.features, hidden, 0, lambda _, shape: 1.0 / np.sqrt(shape[0] if len(shape) > 1 else 8)
            )
        else:
            net = nets.evaluation(game)
        states = random_states(game, args.positions, args.seed, plies=(4, 20))
        ratios, with_net, with_heuristic = [], [], []
        for _ in range(args.rounds):
            h = measure(states, args.seconds, None)
            n = measure(states, args.seconds, net)
            with_heuristic.append(h)
            with_net.append(n)
            ratios.append(n / h)
        print(
            f"{game}: net features={net.spec.features} hidden={list(net.spec.hidden)}: "
            f"{statistics.median(with_net):,.0f} nodes/s, heuristic {statistics.median(with_heuristic):,.0f}; "
            f"ratio {statistics.median(ratios):.2f} (rounds {', '.join(f'{r:.2f}' for r in ratios)})"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

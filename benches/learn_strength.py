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
on; ``--threads N`` plays N at once, for as many idle cores), each from two random opening
plies (``opening_plies=2``). The net's player searches as the game declares
(``glacier.game_spec(game).net_player``), under any ``--option``. Prints one line per match,
with the net's wins-draws-losses from each seat (seat 0 moves first).

    python benches/learn_strength.py [--only GAME,GAME-3p] [--games 100]
        [--timed-games 20] [--net PATH] [--parts sims,mcts,alphabeta] [--option NAME=VALUE]
        [--threads N]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import glacier
from glacier import learn, players
from glacier.arena import ArenaResult


def matches() -> list[tuple[str, str, dict[str, int]]]:
    """(label, game, params): every game, and a game of several player counts with each
    count it lists seats for (labelled ``GAME-Np``)."""
    out = []
    for game in glacier.GAMES:
        counts = sorted(glacier.game_spec(game).seats)
        if len(counts) == 1:
            out.append((game, game, {}))
        else:
            out.extend((f"{game}-{n}p", game, {"players": n}) for n in counts)
    return out


def line(label: str, what: str, result: ArenaResult, seconds: float) -> str:
    p = result.players[0]
    seats = ", ".join(map(str, result.by_seat(0)))
    return (
        f"{label}: {what}: {p.wins}-{p.draws}-{p.losses} of {len(result.games)} "
        f"({100 * p.wins / len(result.games):.0f}% won, score {p.score:.3f}; by seat {seats}) [{seconds:.0f} s]"
    )


def timed(
    label: str,
    game: str,
    params: dict[str, int],
    net: learn.Net,
    opponent: str,
    seconds: float,
    games: int,
    options: dict[str, Any],
    threads: int = 1,
) -> None:
    start = time.perf_counter()
    ours = players.NetPlayer(None, None, 0, seconds=seconds, net=net, **options)
    ours.path = str(net.path) if net.path else None
    theirs = players.from_spec(opponent)
    result = glacier.arena(game, [ours, theirs], games=games, seed=2026, threads=threads, opening_plies=2, **params)
    with_options = "".join(f" {name}={value}" for name, value in options.items())
    what = f"net at {seconds:g}s{with_options} vs {opponent}"
    print(line(label, what, result, time.perf_counter() - start), flush=True)


def option_value(text: str) -> Any:
    """A search option's value as given: a whole number, a number or a word."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default=",".join(label for label, _, _ in matches()))
    parser.add_argument("--games", type=int, default=100, help="games at equal simulations")
    parser.add_argument("--timed-games", type=int, default=20, help="games at equal time")
    parser.add_argument("--simulations", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument(
        "--threads", type=int, default=1, help="games at equal time played at once, each on one thread (one per core)"
    )
    parser.add_argument("--net", help="a net file instead of the game's baseline (one game)")
    parser.add_argument("--parts", default="sims,mcts,alphabeta", help="sims, mcts (at equal time), alphabeta")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a search option of the net's player at equal time, e.g. rollout_mix=1 or rollout_plies=20",
    )
    args = parser.parse_args()
    parts = args.parts.split(",")
    options = {name: option_value(value) for name, value in (o.split("=", 1) for o in args.option)}
    for label, game, params in matches():
        if label not in args.only.split(","):
            continue
        net = learn.load(args.net) if args.net else learn.baseline(game, **params)
        n = args.simulations
        if "sims" in parts:
            start = time.perf_counter()
            side = learn.NetSide(net, n, f"net:{n}")
            result = learn.match(game, [side, f"mcts:{n}:rollout"], games=args.games, seed=2026, params=params)
            print(line(label, f"net vs mcts:{n}:rollout at {n} simulations", result, time.perf_counter() - start))
        if "mcts" in parts:
            opponent = f"mcts:{args.seconds:g}s"
            timed(label, game, params, net, opponent, args.seconds, args.timed_games, options, args.threads)
        if "alphabeta" in parts and glacier.new_game(game, **params).num_players == 2:
            opponent = f"alphabeta:{args.seconds:g}s"
            timed(label, game, params, net, opponent, args.seconds, args.timed_games, options, args.threads)


if __name__ == "__main__":
    main()

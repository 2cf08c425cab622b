"""The strength of the searches (docs/search.md, "Strength"): MCTS at 400 simulations
against the random player and against flat Monte Carlo with the same playouts, alpha-beta
for 0.2 s a move against random, and how often games of E between two MCTS players finish.
Fixed seeds; one game at a time (``--threads`` to change). Prints one line per match. In E,
``flat:400`` cuts its playouts after 20 plies and scores them by the heuristic (the
player's default there: whole random games of E run to the ply limit).

    python benches/search_strength.py [--games 20] [--only kuba,e3]
        [--mcts mcts:400:rollout20:priors=heuristic]

``--mcts`` names the MCTS player to measure (``glacier.players.from_spec``; ``mcts:400``, each
game's default, unless given), to try other settings against the same opponents.
"""

from __future__ import annotations

import argparse
import time

import glacier

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


def match(label: str, game: str, params: dict[str, int], players: list[str], games: int, threads: int) -> None:
    start = time.perf_counter()
    result = glacier.arena(game, players, games=games, seed=2026, threads=threads, **params)
    first = result.players[0]
    finished = result.finished_before_limit
    mean_plies = sum(g.plies for g in result.games) / len(result.games)
    print(
        f"{label:18} {' vs '.join(players):28} wins {first.wins:3}/{games} draws {first.draws:3} "
        f"score {first.score:.3f} finished {finished}/{games} plies {mean_plies:6.1f} "
        f"({time.perf_counter() - start:.0f} s)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated labels (default: all)")
    parser.add_argument("--parts", default="random,flat,alphabeta,selfplay")
    parser.add_argument("--mcts", default="mcts:400", help="the MCTS player (a player spec)")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    parts = set(args.parts.split(","))
    for label, game, params in GAMES:
        if only and label not in only:
            continue
        two = glacier.new_game(game, **params).num_players == 2
        if "random" in parts:
            match(label, game, params, [args.mcts, "random"], args.games, args.threads)
        if "flat" in parts:
            match(label, game, params, [args.mcts, "flat:400"], args.games, args.threads)
        if "alphabeta" in parts and two:
            match(label, game, params, ["alphabeta:0.2s", "random"], args.games, args.threads)
        if "selfplay" in parts and game == "martian_chinese_checkers":
            match(label, game, params, [args.mcts, args.mcts], args.games, args.threads)


if __name__ == "__main__":
    main()

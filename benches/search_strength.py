"""The strength of the searches (docs/search.md, "Strength"): MCTS at 400 simulations
against the random player and against flat Monte Carlo with the same playouts, alpha-beta
for 0.2 s a move against random, and how often games of E between two MCTS players finish.
Fixed seeds; one game at a time (``--threads`` to change). Prints one line per match. In E,
``flat:400`` cuts its playouts after 20 plies and scores them by the heuristic (the
player's default there: whole random games of E run to the ply limit).

    python benches/search_strength.py [--games 20] [--only kuba,e3]
        [--mcts mcts:400:rollout20:priors=heuristic] [--seats alternate]

``--mcts`` names the MCTS player to measure (``glacier.players.from_spec``; ``mcts:400``, each
game's default, unless given), to try other settings against the same opponents.

Seats: with more than two players of E, ``--seats last`` (the default) gives the MCTS player
one seat and its opponent all the others (the arena fills the rest with the last player
listed: 1 against 2, 1 against 5). ``--seats alternate`` shares the seats of the match
against flat Monte Carlo as evenly as possible, alternating (6 players: mcts, flat, mcts,
flat, mcts, flat), and counts a game as the MCTS player's win when any of its seats wins,
so a win has the same 50% baseline as with two players; seats still rotate game by game.
It applies to the flat matches only (against random and in self-play the seats stay as
with ``last``).
"""

from __future__ import annotations

import argparse
import time

import glacier
from glacier.arena import GameResult


def variants(game: str) -> list[tuple[str, str, dict[str, int]]]:
    """``game`` as (label, game, params): by its name, or, for a game with a number of players
    (E), with the fewest, one more and the most, labelled by the first word of its title and
    the number (``e2``, ``e3``, ``e6``)."""
    spec = glacier.game_spec(game)
    players = next((p for p in spec.params if p.name == "players"), None)
    if players is None:
        return [(game, game, {})]
    short = spec.title.split()[0].lower()
    counts = sorted({players.min, players.min + 1, players.max})
    return [(f"{short}{n}", game, {"players": n}) for n in counts]


#: (label, game, params)
GAMES = [variant for game in glacier.GAMES for variant in variants(game)]


def alternate(first: str, second: str, seats: int) -> list[str]:
    """``first`` and ``second`` in turn over ``seats`` seats (``first`` has the odd one out)."""
    return [first if seat % 2 == 0 else second for seat in range(seats)]


def match(
    label: str, game: str, params: dict[str, int], players: list[str], games: int, threads: int, verbose: bool
) -> None:
    """Plays the match and prints it. ``players`` may name the same spec in several seats:
    the first spec's wins are then the games any of its seats won."""
    start = time.perf_counter()
    # ``winner`` indexes the players as listed (the arena's seat rotation is its own).
    team = {i for i, spec in enumerate(players) if spec == players[0]}
    if len(team) == len(players):  # self-play: the first seat's own wins
        team = {0}

    def report(game_result: GameResult) -> None:
        # One line per game as it ends (in order with one thread), so a run stopped early
        # still tells its first games.
        outcome = "draw" if game_result.winner is None else ("won" if game_result.winner in team else "lost")
        print(
            f"  game {game_result.number:3} {outcome:4} plies {game_result.plies:5} "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )

    result = glacier.arena(
        game, players, games=games, seed=2026, threads=threads, progress=report if verbose else None, **params
    )
    wins = sum(g.winner in team for g in result.games)
    draws = sum(g.winner is None for g in result.games)
    finished = result.finished_before_limit
    mean_plies = sum(g.plies for g in result.games) / len(result.games)
    shown = (
        " vs ".join(players)
        if len(team) == 1
        else f"{players[0]} x{len(team)} vs {players[1]} x{len(players) - len(team)}"
    )
    print(
        f"{label:18} {shown:28} wins {wins:3}/{games} draws {draws:3} "
        f"finished {finished}/{games} plies {mean_plies:6.1f} "
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
    parser.add_argument("--verbose", action="store_true", help="also print each game as it ends")
    parser.add_argument(
        "--seats",
        choices=["last", "alternate"],
        default="last",
        help="against flat Monte Carlo with 3+ players: one MCTS seat (last) or seats shared alternately",
    )
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    parts = set(args.parts.split(","))
    for label, game, params in GAMES:
        if only and label not in only:
            continue
        seats = glacier.new_game(game, **params).num_players
        two = seats == 2
        if "random" in parts:
            match(label, game, params, [args.mcts, "random"], args.games, args.threads, args.verbose)
        if "flat" in parts:
            flat = alternate(args.mcts, "flat:400", seats) if args.seats == "alternate" else [args.mcts, "flat:400"]
            match(label, game, params, flat, args.games, args.threads, args.verbose)
        if "alphabeta" in parts and two:
            match(label, game, params, ["alphabeta:0.2s", "random"], args.games, args.threads, args.verbose)
        # Self-play where whole random games run to the ply limit (E: its flat player cuts
        # its playouts), to see how often MCTS players finish a game.
        if "selfplay" in parts and glacier.game_spec(game).playout_plies > 0:
            match(label, game, params, [args.mcts, args.mcts], args.games, args.threads, args.verbose)


if __name__ == "__main__":
    main()

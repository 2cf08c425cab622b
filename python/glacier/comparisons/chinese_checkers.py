"""E (two players) beside OpenSpiel's ``chinese_checkers``, the game of other programs it
plays (``glacier.kin(KIN)``), measured in the same run; OpenSpiel's rows are
left out when it is not installed."""

from __future__ import annotations

from typing import Callable

import glacier

from ..bench import (
    Measurement,
    best_rate,
    interleaved_best_rates,
    optional_module,
    python_action_steps,
    python_api_steps,
    spiel_random_plies,
)

__all__ = ["KIN", "measure"]

#: The game of other programs these rows are about.
KIN = "chinese_checkers"


def measure(*, quick: bool = False) -> list[Measurement]:
    """E (two players) beside OpenSpiel's ``chinese_checkers`` (a similar game on a similar
    board, two players, its 1000-move limit), when OpenSpiel is installed, in the same run:
    random playouts inside the engines, and random games through Python per move."""
    game, _ = glacier.kin(KIN)
    rows: list[Measurement] = []
    games = 10 if quick else 100
    plies = 2000 if quick else 20000
    rows.append(
        Measurement(
            "E vs chinese_checkers",
            "random playouts",
            "glacier inside Rust, 1 thread",
            best_rate(lambda: int(glacier.playouts(game, games, seed=1, threads=1).length.sum())),
            "plies/s",
        )
    )
    pyspiel = optional_module("pyspiel")
    if pyspiel is not None:
        spiel_game = pyspiel.load_game("chinese_checkers")
        bots = [pyspiel.make_uniform_random_bot(player, 1 + player) for player in range(2)]

        def spiel_playout_plies() -> int:
            # evaluate_bots plays the whole game in C++ (uniform random bots) on the state.
            done = 0
            for i in range(games):
                state = spiel_game.new_initial_state()
                pyspiel.evaluate_bots(state, bots, i)
                done += state.move_number()
            return done

        rows.append(
            Measurement(
                "E vs chinese_checkers",
                "random playouts",
                "OpenSpiel chinese_checkers in C++ (evaluate_bots, uniform random bots)",
                best_rate(spiel_playout_plies),
                "plies/s",
            )
        )
    # Random games through Python, the engines' rounds interleaved (their ratio is the figure).
    works: list[tuple[str, Callable[[], int]]] = [
        (
            "glacier through Python: legal_moves() + play() per ply",
            lambda: python_api_steps(lambda: glacier.new_game(game), plies),
        ),
        (
            "glacier through Python: legal_actions() + apply_action() per action",
            lambda: python_action_steps(lambda: glacier.new_game(game), plies),
        ),
    ]
    if pyspiel is not None:
        works.append(
            (
                "OpenSpiel chinese_checkers through Python: legal_actions() + apply_action()",
                lambda: spiel_random_plies(spiel_game, plies),
            )
        )
    rates = interleaved_best_rates([work for _, work in works], rounds=2 if quick else 5)
    for (how, _), rate in zip(works, rates):
        rows.append(Measurement("E vs chinese_checkers", "random games", how, rate, "steps/s"))
    return rows

"""Standard chess (the start of the game that plays chess, ``glacier.kin(KIN)``) beside
the programs that play chess, measured in the same run: python-chess and OpenSpiel's chess
(perft and random games), OpenSpiel's MCTS and mctx (the searches, :mod:`glacier.search_bench`).
A row is left out when its library is not installed."""

from __future__ import annotations

from typing import Any

import glacier

from .. import search_bench
from ..bench import Measurement, best_rate, optional_module, python_api_steps, spiel_random_plies

__all__ = ["KIN", "engines", "measure"]

#: The game of other programs these rows are about.
KIN = "chess"


def measure(*, quick: bool = False) -> list[Measurement]:
    """Every row: :func:`engines`, then the searches (:func:`glacier.search_bench.search_comparisons`)."""
    return [*engines(quick=quick), *search_bench.search_comparisons(quick=quick)]


def engines(*, quick: bool = False) -> list[Measurement]:
    """Standard chess (the game that plays it, from its named start: Ice Age Chess with
    ``ice_age_period=0``) beside python-chess and OpenSpiel chess, when they are installed,
    on the same position in the same run."""
    rows: list[Measurement] = []
    game = "standard chess"
    depth = 3 if quick else 4
    plies = 2000 if quick else 20000
    chess_game, chess_start = glacier.kin(KIN)

    def make() -> Any:
        return glacier.new_game(chess_game, start=chess_start)

    start = make()
    rows.append(
        Measurement(
            game,
            f"perft({depth})",
            "glacier inside Rust, bulk-counted",
            best_rate(lambda: start.perft(depth)),
            "leaves/s",
        )
    )
    chess = optional_module("chess")
    if chess is not None:
        board = chess.Board(make().text())

        def python_chess_perft(d: int) -> int:
            if d == 1:
                return int(board.legal_moves.count())
            total = 0
            for move in board.legal_moves:
                board.push(move)
                total += python_chess_perft(d - 1)
                board.pop()
            return total

        rows.append(
            Measurement(
                game,
                f"perft({depth})",
                "python-chess, bulk-counted (legal_moves.count())",
                best_rate(lambda: python_chess_perft(depth), max_rounds=2),
                "leaves/s",
            )
        )
    rows.append(
        Measurement(
            game,
            "random games",
            "glacier through Python: legal_moves() + play() per ply",
            best_rate(lambda: python_api_steps(make, plies)),
            "steps/s",
        )
    )
    pyspiel = optional_module("pyspiel")
    if pyspiel is not None:
        spiel_game = pyspiel.load_game("chess")

        def openspiel_plies() -> int:
            return spiel_random_plies(spiel_game, plies)

        rows.append(
            Measurement(
                game,
                "random games",
                "OpenSpiel chess through Python: legal_actions() + apply_action()",
                best_rate(openspiel_plies),
                "steps/s",
            )
        )
    return rows

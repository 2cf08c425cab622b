"""The per-move Python API: random games driven from Python, one ``legal_moves()`` and one
``play()`` per ply, for the engine and the reference of every built game. Rates are plies
per second: ``extra_info["plies"] / mean time``."""

from __future__ import annotations

from typing import Any

import pytest

import glacier
from glacier import reference
from glacier.bench import python_api_steps

PLIES = {"native": 20_000, "reference": 500}


@pytest.mark.parametrize("impl", ["native", "reference"])
@pytest.mark.parametrize("game", glacier.GAMES)
def test_python_api_random_games(benchmark: Any, game: str, impl: str) -> None:
    module = glacier if impl == "native" else reference
    plies = PLIES[impl]
    benchmark.group = f"{game} per-move Python API"
    benchmark.extra_info["counting"] = f"{impl}: legal_moves() + play() per ply of random games, driven from Python"
    benchmark.extra_info["plies"] = plies
    done = benchmark.pedantic(lambda: python_api_steps(lambda: module.new_game(game), plies), rounds=3, iterations=1)
    assert done == plies
    if benchmark.stats is not None:
        benchmark.extra_info["plies_per_second"] = round(plies / benchmark.stats.stats.mean)

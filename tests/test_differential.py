"""The engine and the reference, side by side over many seeded random games.

Each game runs at least 1000 random games (cut after MAX_PLIES plies), split in chunks so
pytest-xdist can spread them over cores. Per-game parameter sets make sure every variant
of the rules is exercised; ``glacier diff <game>`` runs the same check by hand.
"""

from __future__ import annotations

from typing import Any

import pytest

from glacier.testing import differential
from conftest import BUILT_GAMES

GAMES_PER_GAME = 1000
CHUNKS = 4
MAX_PLIES = 300

#: Parameter sets cycled over the games of each game (game i uses PARAMS[i % len]).
PARAMS: dict[str, list[dict[str, Any]]] = {
    "kings_court": [{}, {"max_plies": 40}, {}, {"max_plies": 3}],
    "kuba": [{}, {"max_plies": 40}],
}


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_differential(game: str, chunk: int) -> None:
    per_chunk = GAMES_PER_GAME // CHUNKS
    report = differential(
        game,
        games=per_chunk,
        seed=chunk * per_chunk,
        max_plies=MAX_PLIES,
        params=PARAMS.get(game),
    )
    assert report.games == per_chunk
    assert report.plies > per_chunk  # the games really were played
    assert report.perft_checks >= per_chunk

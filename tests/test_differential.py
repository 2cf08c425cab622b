"""The engine and the reference, side by side over many seeded random games.

Each game runs at least 1000 random games (cut after MAX_PLIES plies), split in chunks so
pytest-xdist can spread them over cores. Per-game parameter sets make sure every variant
of the rules is exercised; ``glacier diff <game>`` runs the same check by hand.
"""

from __future__ import annotations

from typing import Any

import pytest

from glacier.testing import differential

GAMES_PER_GAME = 1000
CHUNKS = 4
MAX_PLIES = 300

#: Parameter sets cycled over the games of each game (game i uses PARAMS[i % len]).
PARAMS: dict[str, list[dict[str, Any]]] = {
    "ice_age_chess": [
        {},
        {"ice_age_period": 2},
        {"ice_age_period": 0},
        {"ice_age_period": 3, "max_plies": 120},
        {"ice_age_period": 1},
    ],
    "ice_cube_checkers": [{}, {"max_plies": 12}, {"max_plies": 5}, {"max_plies": 30}],
    "kings_court": [{}, {"max_plies": 40}, {}, {"max_plies": 3}],
    "kuba": [{}, {"max_plies": 40}],
    "martian_chinese_checkers": [
        {"players": 2},
        {"players": 3},
        {"players": 4},
        {"players": 5},
        {"players": 6},
        {"players": 2, "stack_limit": 2},
        {"players": 4, "stack_limit": 3},
        {"players": 3, "max_plies": 50},
        {"players": 6, "stack_limit": 1, "max_plies": 120},
    ],
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

"""The engine and the reference, side by side over many seeded random games.

Each game runs at least 1000 random games (cut after MAX_PLIES plies), split in chunks so
pytest-xdist can spread them over cores. Each game's declared variants
(``glacier.game_spec(game).variants``) make sure every variant of the rules is exercised;
``glacier diff <game>`` runs the same check by hand.
"""

from __future__ import annotations

import pytest

import glacier
from glacier.testing import differential

GAMES_PER_GAME = 1000
CHUNKS = 4
MAX_PLIES = 200


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_differential(game: str, chunk: int) -> None:
    per_chunk = GAMES_PER_GAME // CHUNKS
    report = differential(
        game,
        games=per_chunk,
        seed=chunk * per_chunk,
        max_plies=MAX_PLIES,
        # Cycled over the games (game i uses variant i % len): each game's declared variants.
        params=[dict(v) for v in glacier.game_spec(game).variants],
    )
    assert report.games == per_chunk
    assert report.plies > per_chunk  # the games really were played
    assert report.perft_checks >= per_chunk

"""glacier measured beside other programs, in the same run (``glacier bench``): one module
per game of other programs (a *kin*) that one of glacier's games plays, as the games
declare it (``glacier.game_spec(game).kin``, ``glacier.kin``).

A game whose facts name a kin gets that kin's rows from :func:`measure`; the tools that
measure (``glacier bench``, :mod:`glacier.bench`) name no game and no kin.
"""

from __future__ import annotations

from typing import Callable

import glacier

from ..bench import Measurement
from . import chess, chinese_checkers

__all__ = ["BY_KIN", "measure"]

#: The comparisons by kin: each measures the glacier game that plays it beside the
#: programs that play it (``measure(quick=...)`` gives the rows).
BY_KIN: dict[str, Callable[..., list[Measurement]]] = {
    chess.KIN: chess.measure,
    chinese_checkers.KIN: chinese_checkers.measure,
}


def measure(game: str, *, quick: bool = False) -> list[Measurement]:
    """The rows of every comparison registered for a kin that ``game`` declares (none for
    a game that plays no other program's game)."""
    rows: list[Measurement] = []
    for kin in glacier.game_spec(game).kin:
        compare = BY_KIN.get(kin)
        if compare is not None:
            rows.extend(compare(quick=quick))
    return rows

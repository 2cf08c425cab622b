"""The computer players of a game in the web app: one per computer seat, each move searched
in a worker thread of a pool of their own, so that no number of analyses (which have theirs,
:mod:`glacier.web.analysis`) keeps a computer from answering."""

from __future__ import annotations

from typing import Any, Callable, Optional

import anyio
import anyio.lowlevel
import anyio.to_thread

from glacier import play

__all__ = ["COMPUTER_THREADS", "Computers"]

#: Computers thinking at once (a game's are one at a time): one per game the server keeps.
COMPUTER_THREADS = 64

_LIMITER: anyio.lowlevel.RunVar[anyio.CapacityLimiter] = anyio.lowlevel.RunVar("glacier_web_computers")


def _pool() -> anyio.CapacityLimiter:
    """The computers' threads (one limiter per event loop: a limiter belongs to its loop)."""
    try:
        return _LIMITER.get()
    except LookupError:
        limiter = anyio.CapacityLimiter(COMPUTER_THREADS)
        _LIMITER.set(limiter)
        return limiter


class Computers:
    """The computer players of a game's seats: ``levels[p]`` is seat ``p``'s level, or None
    for a person."""

    def __init__(self, game: str, levels: list[Optional[str]], seed: int) -> None:
        self.players = {p: play.computer(level, game, seed + p) for p, level in enumerate(levels) if level is not None}

    def plays(self, seat: int) -> bool:
        return seat in self.players

    async def choose(self, seat: int, position: Any, stop: Callable[[], bool]) -> str:
        """Seat ``seat``'s move in ``position`` (a copy the search may keep), searched in a
        worker thread; raises :class:`glacier.play.Cancelled` once ``stop()`` says so."""
        player = self.players[seat]
        return await anyio.to_thread.run_sync(player.choose, position, stop, limiter=_pool())

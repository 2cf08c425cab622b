"""The games of a self-play directory as game records (:mod:`glacier.records`)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Union

import numpy as np

import glacier

from .. import records
from .shards import load_selfplay

__all__ = ["selfplay_records"]


def selfplay_records(
    directory: Union[str, os.PathLike[str]],
    path: Union[str, os.PathLike[str]],
    *,
    allow_partial: bool = False,
    append: bool = False,
) -> int:
    """Writes every game of a self-play directory to ``path`` as game records
    (:mod:`glacier.records`, tags ``Event "glacier selfplay"`` and ``Round`` the game's
    number + 1), each game replayed from its ``action`` column; returns the number of games.
    ``allow_partial`` as in :func:`~glacier.selfplay.shards.load_selfplay`; ``append`` adds
    them after the file's games instead of replacing the file."""
    directory = Path(directory)
    data = load_selfplay(directory, allow_partial=allow_partial)
    manifest = json.loads((directory / "manifest.json").read_text())
    games = data["game"] if data else np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.diff(games, prepend=-1) != 0).tolist()
    played = []
    for first, stop in zip(starts, [*starts[1:], len(games)]):
        state = glacier.new_game(manifest["game"], **manifest["params"])
        for action in data["action"][first:stop].tolist():
            state.apply_action(action)
        played.append(records.Record.of(state, Event="glacier selfplay", Round=str(int(games[first]) + 1)))
    return records.write(Path(path), played, append=append)

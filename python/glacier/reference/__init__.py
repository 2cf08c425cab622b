"""The pure-Python reference implementation of every glacier game.

It exists for differential testing: written for clarity, it must agree exactly with the
native engine on legal moves, notation, hashes, outcomes and perft counts. The states it
returns have the same methods as the native ones.

>>> from glacier import reference
>>> reference.new_game("kuba").perft(2)
64
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from ..errors import UnknownGameError
from ._base import State, take_text_params

__all__ = ["GAMES", "State", "from_text", "game_module", "new_game"]

#: Every game, by the name the API takes (the same tuple as ``glacier.GAMES``).
GAMES: tuple[str, ...] = (
    "ice_age_chess",
    "ice_cube_checkers",
    "kings_court",
    "kuba",
    "martian_chinese_checkers",
)


def game_module(name: str) -> ModuleType:
    """The reference module of the game called ``name``."""
    if name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r}; glacier has: {', '.join(GAMES)}")
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{name}":
            raise
        raise UnknownGameError(f"game {name!r} has no reference implementation yet") from None


def new_game(name: str, **params: Any) -> State:
    """The start position of ``name``."""
    module = game_module(name)
    return State(module, module.start(module.resolve(params)))


def from_text(name: str, text: str, **params: Any) -> State:
    """The position of ``name`` written as ``text``; parameters the text states for itself
    (E's number of players) need not be given."""
    module = game_module(name)
    stated = module.text_params(text) if hasattr(module, "text_params") else {}
    return State(module, module.parse(text, take_text_params(module.resolve(params), params, stated)))


def _restore(name: str, params: dict[str, Any], text: str, moves: list[str]) -> State:
    state = from_text(name, text, **params)
    for move in moves:
        state.play(move)
    return state

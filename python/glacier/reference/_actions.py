"""Moves as short sequences of actions: the reference twin of the engine's action-level
state machine (``rust/glacier-core/src/actions.rs``).

A game module numbers the choices of a move (``move_actions(position, move)``, a list of
action numbers per legal move, none the beginning of another). The actions taken so far in
the move being made form a path; the legal actions are the next actions of the moves that
begin with it. Taking an action either completes a move or leaves the same player to take
another, with two rules that keep moves short: when only one move begins with the path it
is played at once, and when all of them go on with the same action, that action is taken
by itself (it is forced, not chosen).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Optional, Union

from ._base import Position


def move_lists(module: ModuleType, position: Position) -> dict[str, tuple[int, ...]]:
    """Every legal move of ``position`` with its action list (cached on the position)."""
    cached: Optional[dict[str, tuple[int, ...]]] = getattr(position, "_action_lists", None)
    if cached is None:
        cached = {move: tuple(module.move_actions(position, move)) for move in position.successors()}
        position._action_lists = cached  # type: ignore[attr-defined]
    return cached


def candidates(module: ModuleType, position: Position, path: tuple[int, ...]) -> dict[str, tuple[int, ...]]:
    """The legal moves whose action lists begin with ``path``."""
    return {m: a for m, a in move_lists(module, position).items() if a[: len(path)] == path}


@dataclass(frozen=True)
class Partial:
    """The actions of the move being made: ``path`` (chosen and forced) and, per action,
    whether the player chose it."""

    path: tuple[int, ...] = ()
    chosen: tuple[bool, ...] = ()

    def chosen_actions(self) -> list[int]:
        return [a for a, c in zip(self.path, self.chosen) if c]

    def legal_actions(self, module: ModuleType, position: Position) -> list[int]:
        depth = len(self.path)
        return sorted({a[depth] for a in candidates(module, position, self.path).values() if len(a) > depth})

    def take(self, module: ModuleType, position: Position, action: int) -> Optional[Union[str, Partial]]:
        """The move ``action`` completes (its text), or the partial move it leaves; None when
        it is not legal."""
        if position.outcome is not None:
            return None
        path, chosen = (*self.path, action), (*self.chosen, True)
        while True:
            left = candidates(module, position, path)
            if not left:
                return None
            if len(left) == 1:
                return next(iter(left))
            nexts = {a[len(path)] if len(a) > len(path) else -1 for a in left.values()}
            if len(nexts) == 1 and -1 not in nexts:
                path, chosen = (*path, nexts.pop()), (*chosen, False)
                continue
            return Partial(path, chosen)

    def allows(self, module: ModuleType, position: Position, move: str) -> bool:
        actions = move_lists(module, position).get(move)
        return actions is not None and actions[: len(self.path)] == self.path


def chosen_actions(module: ModuleType, position: Position, move: str) -> list[int]:
    """The actions a player chooses to make ``move``, in order."""
    actions = move_lists(module, position)[move]
    partial = Partial()
    out: list[int] = []
    while True:
        action = actions[len(partial.path)]
        out.append(action)
        after = partial.take(module, position, action)
        if not isinstance(after, Partial):
            return out
        partial = after


def fraction(part: int, whole: int) -> float:
    """``part / whole`` capped at 1 (1 when ``whole`` is 0), as the engine computes it for
    observations (divided in double precision, then stored as a float32)."""
    if whole == 0 or part >= whole:
        return 1.0
    return part / whole

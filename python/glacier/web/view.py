"""What the page is sent of a game: the board's picture, what can be clicked on it, the
moves, the seats, the result and the analysis.

The page knows no rules: for the position shown, every legal action of the action API
(``legal_actions``) becomes a gesture on the board by its text (``action_to_string``): a
move from one cell to another (a chess move, a push, a step or jump, an E movement), a
click on one cell (an Ice Cube Checkers cup), or a button (a drop, a level, an exchange,
``stop``, ``no exchange``, ``pass``); actions that share a gesture (the promotions of one
pawn move) become buttons once it is made. A button says what it does in words and names
the cells it acts on, as the game's ``choice_label`` play hook says.

The analysis's arrows are sent apart from the board (``arrows``: the arrows' own SVG
elements, in the board's coordinates), so that the page lays them over the board without
drawing it again while the analysis goes on.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, Optional

import glacier
from glacier import play, records, reference
from glacier.svg import View, choice_picture, render_position

__all__ = ["EMPTY", "arrows_markup", "board_markup", "clickable", "gesture", "result_of", "seat_views", "title"]

#: The elements of an arrow in a picture (``Svg.arrow`` draws each as a path and a head).
_ARROW = re.compile(r'<(?:path|polygon) [^>]*class="arrow"[^>]*/>')


def gesture(game: str, text: str) -> tuple[str, ...]:
    """How a person makes the action named ``text``: ``("move", from, to)``, ``("cell",
    cell)`` or ``("choice",)`` (a button), as the game's reference module says (its
    ``gesture`` hook)."""
    return tuple(str(part) for part in reference.game_module(game).gesture(text))


@lru_cache(maxsize=256)
def board_markup(
    game: str,
    text: str,
    params: tuple[tuple[str, Any], ...],
    last: Optional[str],
    partial: tuple[str, ...],
    perspective: Optional[int],
    flipped: bool,
) -> str:
    """The picture of a position with its last move marked and the way an unfinished move
    has gone so far drawn as an arrow (the same arguments draw the same text: kept)."""
    arrows = (partial,) if len(partial) > 1 else ()
    return render_position(game, text, dict(params), View(last, arrows, perspective, flipped, True))


@lru_cache(maxsize=256)
def arrows_markup(
    game: str,
    text: str,
    params: tuple[tuple[str, Any], ...],
    moves: tuple[str, ...],
    perspective: Optional[int],
    flipped: bool,
) -> str:
    """The arrows of ``moves`` alone, as SVG elements in the coordinates of the board's picture."""
    if not moves:
        return ""
    drawn = render_position(game, text, dict(params), View(None, moves, perspective, flipped, True))
    return "".join(_ARROW.findall(drawn))


def _choice_label(module: Any, pending: tuple[str, ...], text: str) -> dict[str, Any]:
    """A button's words and the cells it acts on (the game's ``choice_label`` hook), and a
    picture where the game's drawing has one (a promotion's piece)."""
    hook = getattr(module, "choice_label", None)
    label, cells = (text, ()) if hook is None else hook(pending, text)
    entry: dict[str, Any] = {"label": str(label), "cells": [str(c) for c in cells]}
    picture = choice_picture(module.NAME, text)
    if picture is not None:
        entry["picture"] = picture
    return entry


def clickable(state: Any, continuing: Optional[list[int]]) -> dict[str, Any]:
    """What a person can click in ``state`` (a person to move): ``moves`` from a cell to a
    cell (each a list of actions with their texts; in a stack, which ``piece`` each moves),
    ``cells`` to click, ``choices`` (buttons), the cell ``selected`` in the middle of a
    chain, the cells an unfinished move has gone through (``partial``). ``continuing`` are
    the actions of the line's next move, when the position shown is not the line's end: an
    action that is not the next of them gets ``leaves: true`` (it leaves the line)."""
    game = state.game
    module = reference.game_module(game)
    moves: dict[str, dict[str, list[dict[str, Any]]]] = {}
    cells: dict[str, int] = {}
    choices = []
    pieces = _pieces(state)
    pending = tuple(state.pending_actions)
    pending_texts = tuple(state.action_to_string(a) for a in pending)
    follows = None
    if continuing is not None and list(pending) == continuing[: len(pending)] and len(pending) < len(continuing):
        follows = continuing[len(pending)]

    def entry_of(action: int, text: str) -> dict[str, Any]:
        entry: dict[str, Any] = {"action": action, "text": text}
        if continuing is not None and action != follows:
            entry["leaves"] = True
        return entry

    for action in state.legal_actions():
        text = state.action_to_string(action)
        shape = gesture(game, text)
        if shape[0] == "move":
            entry = entry_of(action, text)
            if pieces is not None:
                entry["piece"] = pieces(shape[1], shape[2])
            moves.setdefault(shape[1], {}).setdefault(shape[2], []).append(entry)
        elif shape[0] == "cell":
            cells[shape[1]] = action
        else:
            choices.append({**entry_of(action, text), **_choice_label(module, pending_texts, text)})
    for targets in moves.values():
        for entries in targets.values():
            if len(entries) > 1:  # one gesture, several actions: buttons say which
                for entry in entries:
                    entry.update(_choice_label(module, pending_texts, entry["text"]))
    leaves = {cell: True for cell, action in cells.items() if continuing is not None and action != follows}
    # The cells of an unfinished move (an action's name is the same in every position).
    partial: list[str] = []
    for text in pending_texts:
        shape = gesture(game, text)
        partial += [c for c in shape[1:] if not partial or partial[-1] != c]
    # In the middle of a chain every jump starts from the latest landing: it stays selected.
    selected = next(iter(moves)) if pending and len(moves) == 1 else None
    return {
        "moves": moves,
        "cells": cells,
        "cells_leave": leaves,
        "choices": choices,
        "selected": selected,
        "partial": partial,
    }


EMPTY: dict[str, Any] = {"moves": {}, "cells": {}, "cells_leave": {}, "choices": [], "selected": None, "partial": []}


def _pieces(state: Any) -> Optional[Callable[[str, str], str]]:
    """Where one cell may hold several pieces its player can move (E's stacks): which piece a
    move from one cell to another moves, as ``large, level 1`` (the game's ``piece_label``
    hook); None in the other games."""
    module = reference.game_module(state.game)
    if not hasattr(module, "piece_label"):
        return None
    position = reference.from_text(state.game, state.text(), **state.params).position
    return lambda frm, to: str(module.piece_label(position, frm, to))


def seat_views(state: Any, names: list[str], seats: list[str]) -> list[dict[str, Any]]:
    goals = play.goals(state)
    notes = play.seat_notes(state)
    terminal = state.is_terminal()
    return [
        {
            "name": name,
            "player": seats[i],
            "goal": goals[i] if goals else None,
            "note": notes[i],
            "to_move": not terminal and state.current_player == i,
        }
        for i, name in enumerate(names)
    ]


def title(game: str) -> str:
    return glacier.game_spec(game).title


def result_of(state: Any) -> dict[str, Any]:
    return {
        "status": play.result_text(state),
        "result": records.result_of(state),
        "reason": play.end_reason(state),
    }

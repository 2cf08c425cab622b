"""Drawing a position: the game's drawing module, by name (``glacier.svg.<game>``), with the
view options. The package re-exports :func:`render` and :func:`render_position`; the gallery
imports them from here, so no module of the package imports the package itself."""

from __future__ import annotations

import importlib
from typing import Any, Literal, Optional, Sequence, Union

from .. import reference
from ..errors import InvalidParameterError
from ._canvas import CELLS, Arrow, View

__all__ = ["choice_picture", "render", "render_position"]

_LAST: Any = object()


def render(
    state: Any,
    last_move: Optional[str] = _LAST,
    arrows: Sequence[Arrow] = (),
    perspective: Optional[int] = None,
    flipped: bool = False,
    coordinates: Union[bool, Literal["cells"]] = True,
) -> str:
    """An SVG document picturing ``state`` (a native or reference state of any game).

    ``last_move`` is marked on the board (by default the state's last move, if any; ``None``
    marks nothing). ``arrows`` are moves in the game's notation or (from, to) pairs of cell
    names. ``perspective`` puts that player's side at the bottom (for E: its home
    territory), ``flipped`` turns the board half round; ``coordinates`` True writes the
    names of the rows and columns along the edges, ``"cells"`` writes every
    cell's name in the cell, False neither.
    """
    if not (isinstance(coordinates, bool) or coordinates == CELLS):
        raise InvalidParameterError(f"coordinates must be True, False or {CELLS!r}, got {coordinates!r}")
    if last_move is _LAST:
        moves = state.moves
        last_move = moves[-1] if moves else None
    return render_position(
        state.game,
        state.text(),
        state.params,
        View(last_move, tuple(arrows), perspective, flipped, coordinates),
    )


def render_position(game: str, text: str, params: dict[str, Any], view: Optional[View] = None) -> str:
    """The picture of the position ``text`` of ``game`` (see :func:`render`)."""
    position = reference.from_text(game, text, **params).position
    view = view or View()
    if view.perspective is not None and not (
        isinstance(view.perspective, int) and 0 <= view.perspective < position.num_players
    ):
        raise InvalidParameterError(
            f"perspective must be a player number 0..{position.num_players - 1}, got {view.perspective!r}"
        )
    drawing = importlib.import_module(f"{__package__}.{game}")
    return drawing.draw(position, view)  # type: ignore[no-any-return]


def choice_picture(game: str, action: str) -> Optional[str]:
    """A picture of what the action named ``action`` chooses, where ``game``'s drawing has
    one (its ``choice_picture``: a promotion's piece), else None."""
    drawing = importlib.import_module(f"{__package__}.{game}")
    hook = getattr(drawing, "choice_picture", None)
    return None if hook is None else hook(action)  # type: ignore[no-any-return]

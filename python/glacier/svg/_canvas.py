"""The small SVG writer every drawing uses, the view options they share, and shared marks
(the last move, arrows, the status line)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape
from typing import Any, Optional, Sequence, Union

from ..errors import IllegalMoveError

__all__ = ["ARROW_COLOUR", "CELL_LABEL_COLOUR", "CELLS", "LAST_MOVE_COLOUR", "Arrow", "Svg", "View", "status"]

#: The tint of the squares of the last move (drawn under the pieces).
LAST_MOVE_COLOUR = "#f5d142"
#: Arrows, drawn over the pieces, half transparent so the pieces show through.
ARROW_COLOUR = "#1f6fd1"

#: ``coordinates=CELLS`` writes every cell's name in the cell instead of along the edges.
CELLS = "cells"
#: The colour of a cell's name written in the cell.
CELL_LABEL_COLOUR = "#3d3d3d"

#: An arrow: a move in the game's notation, or a pair of cell names (from, to).
Arrow = Union[str, Sequence[str]]


@dataclass(frozen=True)
class View:
    """How to draw a position: the move to mark as the last one, arrows, which player's
    side is at the bottom (``perspective``; ``None`` draws the board as the rules page does),
    ``flipped`` (turned half round after that) and the board coordinates: True names the
    rows and columns along the edges, :data:`CELLS` (``"cells"``) writes every cell's name
    in the cell (as the game's notation names it: ``e4``, E's ``k5``, a cup's ``c``), False
    neither. Every cell of every picture carries ``data-cell="<name>"`` whatever the view."""

    last_move: Optional[str] = None
    arrows: tuple[Arrow, ...] = ()
    perspective: Optional[int] = None
    flipped: bool = False
    coordinates: Union[bool, str] = True
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def edge_labels(self) -> bool:
        """Whether the rows and columns are named along the board's edges."""
        return bool(self.coordinates) and self.coordinates != CELLS

    @property
    def cell_labels(self) -> bool:
        """Whether every cell's name is written in it."""
        return self.coordinates == CELLS

    def turned(self, num_players: int = 2) -> bool:
        """For a two-sided board: whether it is drawn from the second player's side."""
        second = self.perspective is not None and self.perspective % num_players == 1
        return second != self.flipped


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


def _attrs(attrs: dict[str, Any]) -> str:
    return " ".join(f'{k.rstrip("_").replace("_", "-")}="{escape(_value(v))}"' for k, v in attrs.items())


def _value(v: Any) -> str:
    return _number(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else str(v)


class Svg:
    """A tiny SVG writer: elements are appended in drawing order (later ones on top)."""

    def __init__(self, width: float, height: float, background: str = "#ffffff") -> None:
        self.width, self.height = width, height
        self.parts: list[str] = [
            f'<rect x="0" y="0" width="{_number(width)}" height="{_number(height)}" fill="{background}"/>'
        ]

    def add(self, element: str, **attrs: Any) -> None:
        self.parts.append(f"<{element} {_attrs(attrs)}/>")

    def open(self, element: str = "g", **attrs: Any) -> None:
        self.parts.append(f"<{element} {_attrs(attrs)}>" if attrs else f"<{element}>")

    def close(self, element: str = "g") -> None:
        self.parts.append(f"</{element}>")

    def raw(self, markup: str) -> None:
        self.parts.append(markup)

    def text(self, x: float, y: float, content: str, size: float = 12, anchor: str = "middle", **attrs: Any) -> None:
        extra = (" " + _attrs(attrs)) if attrs else ""
        self.parts.append(
            f'<text x="{_number(x)}" y="{_number(y)}" font-size="{_number(size)}" font-family="sans-serif" '
            f'text-anchor="{anchor}" dominant-baseline="central"{extra}>{escape(content)}</text>'
        )

    def arrow(
        self,
        points: Sequence[tuple[float, float]],
        width: float = 7.0,
        colour: str = ARROW_COLOUR,
        opacity: float = 0.7,
        shorten: float = 0.0,
    ) -> None:
        """A thick arrow along ``points`` (at least two), its head at the last point, drawn
        as one path so every renderer shows the same shape. ``shorten`` stops the head that
        far before the last point."""
        pts = [(float(x), float(y)) for x, y in points]
        (x1, y1), (x2, y2) = pts[-2], pts[-1]
        length = math.hypot(x2 - x1, y2 - y1)
        if length == 0:
            return
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        x2, y2 = x2 - ux * shorten, y2 - uy * shorten
        head = min(width * 2.6, length * 0.6)
        bx, by = x2 - ux * head, y2 - uy * head  # where the head begins
        line = [*pts[:-1], (bx, by)]
        d = "M " + " L ".join(f"{_number(x)} {_number(y)}" for x, y in line)
        self.add(
            "path",
            d=d,
            fill="none",
            stroke=colour,
            stroke_width=width,
            stroke_linecap="round",
            stroke_linejoin="round",
            opacity=opacity,
            class_="arrow",
        )
        nx, ny = -uy, ux
        spread = width * 1.5
        tip = [(x2, y2), (bx + nx * spread, by + ny * spread), (bx - nx * spread, by - ny * spread)]
        self.add(
            "polygon",
            points=" ".join(f"{_number(x)},{_number(y)}" for x, y in tip),
            fill=colour,
            opacity=opacity,
            class_="arrow",
        )

    def __str__(self) -> str:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_number(self.width)}" '
            f'height="{_number(self.height)}" viewBox="0 0 {_number(self.width)} {_number(self.height)}">'
            + "".join(self.parts)
            + "</svg>"
        )


def status(position: Any, names: Sequence[str]) -> str:
    outcome = position.outcome
    if outcome is None:
        return f"{names[position.current_player]} to move"
    if outcome == "draw":
        return "draw"
    return f"{names[outcome]} wins"


def arrow_cells(arrow: Arrow, move_cells: Any) -> list[list[str]]:
    """The cell-name paths an arrow draws: a move's paths (``move_cells(move)``), or one
    path for a (from, to) pair."""
    if isinstance(arrow, str):
        return move_cells(arrow)  # type: ignore[no-any-return]
    cells = list(arrow)
    if len(cells) < 2 or not all(isinstance(c, str) for c in cells):
        raise IllegalMoveError(f"an arrow is a move or a sequence of at least two cell names, got {arrow!r}")
    return [cells]

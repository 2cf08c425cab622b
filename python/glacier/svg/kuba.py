"""The picture of a Kuba position."""

from __future__ import annotations

from typing import Any

from ..errors import IllegalMoveError
from ..reference import kuba
from ._canvas import Svg, View, status
from ._squares import SquareBoard

__all__ = ["draw", "move_cells"]

_MARBLES = {"W": ("#fdfdfd", "#6b6b6b"), "B": ("#222222", "#000000"), "R": ("#c0392b", "#7b241c")}
_NAMES = ("White", "Black")


def move_cells(move: str) -> list[list[str]]:
    """The squares of a push (from, to), as arrow paths; a pass has none."""
    if move == "pass":
        return []
    if len(move) != 4 or kuba.parse_square(move[:2]) is None or kuba.parse_square(move[2:]) is None:
        raise IllegalMoveError(f"'{move}' is not a Kuba move (like 'a1a2' or 'pass')")
    return [[move[:2], move[2:]]]


def marble(svg: Svg, colour: str, x: float, y: float, r: float, kind: str = "marble") -> None:
    """A marble on the board (``kind`` "marble") or in the captures panel ("icon")."""
    fill, edge = _MARBLES[colour]
    svg.add("circle", cx=x, cy=y, r=r, fill=fill, stroke=edge, stroke_width=1.5, class_=kind, data_colour=colour)
    # A highlight, so the marbles read as balls.
    svg.add(
        "circle", cx=x - r * 0.35, cy=y - r * 0.35, r=r * 0.22, fill="#ffffff", opacity=0.45 if colour != "W" else 0.9
    )


def draw(position: Any, view: View) -> str:
    """The 7 x 7 board from White's side (Black's when turned), a panel per player with the
    marbles it has captured, the forbidden ko push marked."""
    cell, margin = 48, 28
    board = SquareBoard(7, cell, margin, view.turned(), kuba.parse_square, kuba.square_name, "a Kuba square")
    size = board.size
    panel_top = size + 2 * margin
    svg = Svg(size + 2 * margin, panel_top + 96, "#f4ead5")
    marked = board.last_move(view, move_cells)
    svg.add("rect", x=margin, y=margin, width=size, height=size, fill="#c9a66b", stroke="#5b4423", stroke_width=2)
    for sq in board.squares:
        x, y = board.corner(sq)
        svg.add(
            "rect",
            x=x,
            y=y,
            width=cell,
            height=cell,
            fill="none",
            stroke="#8a6a3a",
            stroke_width=1,
            data_cell=kuba.square_name(sq),
        )
        if sq in marked:
            board.tint(svg, sq)
    for sq in board.squares:
        content = position.board[sq]
        if content != ".":
            x, y = board.corner(sq)
            marble(svg, content, x + cell / 2, y + cell / 2, cell * 0.4)
    if position.ko is not None:
        frm, _ = position.ko
        x, y = board.corner(frm)
        svg.add(
            "rect",
            x=x + 2,
            y=y + 2,
            width=cell - 4,
            height=cell - 4,
            fill="none",
            stroke="#2e86c1",
            stroke_width=3,
            stroke_dasharray="6 4",
            class_="ko",
        )
    board.arrows(svg, view, move_cells, width=0.16, shorten=0.1)
    board.labels(svg, view, 13)

    # One panel per player: its marble, its name, then what it has captured.
    line = status(position, _NAMES) + (" (bonus push)" if position.bonus else "")
    if position.ko is not None:
        line += f"; ko forbids {kuba.push_name(*position.ko)}"
    svg.text(svg.width / 2, panel_top + 4, line, 14)
    opponent = ("B", "W")
    for player in (0, 1):
        y = panel_top + 32 + player * 30
        x = margin
        if position.outcome is None and position.current_player == player:
            svg.add(
                "polygon", points=f"{x - 16},{y - 6} {x - 16},{y + 6} {x - 6},{y}", fill="#333333", class_="to-move"
            )
        marble(svg, "WB"[player], x + 10, y, 10, "icon")
        svg.text(x + 26, y, f"{_NAMES[player]} has taken", 13, anchor="start")
        marble(svg, "R", x + 150, y, 10, "icon")
        reds = f"{position.reds[player]} of 7 Red"
        svg.text(x + 164, y, reds, 14, anchor="start", class_="captured", font_weight="bold")
        marble(svg, opponent[player], x + 262, y, 10, "icon")
        taken = f"{position.captured[player]} of 8"
        svg.text(x + 276, y, taken, 14, anchor="start", class_="captured", font_weight="bold")
    return str(svg)

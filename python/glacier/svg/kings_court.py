"""The picture of a King's Court position."""

from __future__ import annotations

import re
from typing import Any

from ..errors import IllegalMoveError
from ..reference import kings_court
from ._canvas import Svg, View, status
from ._squares import SquareBoard

__all__ = ["PIECE_COLOURS", "draw", "move_cells"]

#: Fill and edge of each side's discs. Red is a light vermilion and Green a dark bluish
#: green: they differ in lightness as well as hue, so players with any form of colour
#: blindness (and a grey print) tell them apart; the inner marks (a ring for Red, a
#: diamond for Green) differ in shape as well.
PIECE_COLOURS = {"R": ("#e8702a", "#8a3a0c"), "G": ("#00705a", "#00382d")}


def move_cells(move: str) -> list[list[str]]:
    """The squares a move visits (a step, or a chain of jumps), as one arrow path."""
    cells = re.split(r"[-x]", move)
    if len(cells) < 2 or any(kings_court.parse_square(c) is None for c in cells):
        raise IllegalMoveError(f"'{move}' is not a King's Court move (like 'd2-d3' or 'd4xd6xf6')")
    return [cells]


def disc(svg: Svg, letter: str, x: float, y: float, r: float) -> None:
    fill, edge = PIECE_COLOURS[letter]
    svg.add("circle", cx=x, cy=y, r=r, fill=fill, stroke=edge, stroke_width=2, class_="piece", data_colour=letter)
    if letter == "R":
        svg.add("circle", cx=x, cy=y, r=r * 0.55, fill="none", stroke="#ffe9d6", stroke_width=2.2)
    else:
        d = r * 0.55
        svg.add(
            "polygon",
            points=f"{x},{y - d} {x + d},{y} {x},{y + d} {x - d},{y}",
            fill="none",
            stroke="#d9f7ef",
            stroke_width=2.2,
            stroke_linejoin="round",
        )


def draw(position: Any, view: View) -> str:
    """The beige playing squares as an 8x8 grid seen from Red's side (Green's when turned),
    the Center Court (c3-f6) framed in gold."""
    cell, margin = 48, 26
    board = SquareBoard(
        8, cell, margin, view.turned(), kings_court.parse_square, kings_court.square_name, "a King's Court square"
    )
    size = board.size
    svg = Svg(size + 2 * margin, size + 2 * margin + 48, "#fbf6ec")
    marked = board.last_move(view, move_cells)
    for sq in board.squares:
        x, y = board.corner(sq)
        fill = "#f3e2b3" if sq in kings_court.COURT else "#e8d5a3"
        svg.add(
            "rect",
            x=x,
            y=y,
            width=cell,
            height=cell,
            fill=fill,
            stroke="#b9a06a",
            stroke_width=1,
            data_cell=kings_court.square_name(sq),
        )
        if sq in marked:
            board.tint(svg, sq)
    svg.add(
        "rect",
        x=margin + 2 * cell,
        y=margin + 2 * cell,
        width=4 * cell,
        height=4 * cell,
        fill="none",
        stroke="#b7950b",
        stroke_width=4,
    )
    for sq in board.squares:
        content = position.board[sq]
        if content != ".":
            x, y = board.corner(sq)
            disc(svg, content, x + cell / 2, y + cell / 2, cell * 0.38)
    board.arrows(svg, view, move_cells, width=0.15, shorten=0.1)
    board.labels(svg, view, 12)
    line = status(position, kings_court.NAMES)
    svg.text(svg.width / 2, size + 2 * margin + 8, f"{line}, ply {position.ply}", 14)
    # The legend: which disc is which side, and how many each has left.
    for player, letter in enumerate("RG"):
        x = svg.width / 2 - 120 + player * 140
        y = size + 2 * margin + 32
        disc(svg, letter, x, y, 10)
        left = position.board.count(letter)
        court = sum(1 for sq in kings_court.COURT if position.board[sq] == letter)
        svg.text(x + 16, y, f"{kings_court.NAMES[player]}: {left} ({court} in court)", 12, anchor="start")
    return str(svg)

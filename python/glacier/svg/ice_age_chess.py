"""The picture of an Ice Age Chess position."""

from __future__ import annotations

from typing import Any

from ._canvas import Svg, status

__all__ = ["draw"]


#: Unicode chess figures (filled shapes for both sides, coloured by fill and outline).
_CHESS_FIGURES = {"K": "\u265a", "Q": "\u265b", "R": "\u265c", "B": "\u265d", "N": "\u265e", "P": "\u265f"}


def draw(position: Any) -> str:
    """The chess board from White's side; ice as pale blue blocks with a frosted edge."""
    cell, margin = 48, 26
    size = 8 * cell
    svg = Svg(size + 2 * margin, size + 2 * margin + 24, "#ffffff")
    for rank in range(8):
        for file in range(8):
            x, y = margin + file * cell, margin + (7 - rank) * cell
            light = (rank + file) % 2 == 1
            svg.add("rect", x=x, y=y, width=cell, height=cell, fill="#f0d9b5" if light else "#b58863")
            piece = position.board[rank * 8 + file]
            if piece == "*":
                svg.add(
                    "rect",
                    x=x + 3,
                    y=y + 3,
                    width=cell - 6,
                    height=cell - 6,
                    rx=6,
                    fill="#d6f0ff",
                    stroke="#7fb3d5",
                    stroke_width=2,
                    opacity=0.95,
                )
                svg.add("line", x1=x + 10, y1=y + 12, x2=x + 22, y2=y + 12, stroke="#ffffff", stroke_width=2)
            elif piece != ".":
                white = piece.isupper()
                svg.text(
                    x + cell / 2,
                    y + cell / 2 + 2,
                    _CHESS_FIGURES[piece.upper()],
                    cell * 0.78,
                    fill="#ffffff" if white else "#1b1b1b",
                    stroke="#1b1b1b" if white else "#000000",
                    stroke_width=1.2,
                )
    for i in range(8):
        svg.text(margin + i * cell + cell / 2, margin + size + 11, "abcdefgh"[i], 11)
        svg.text(margin - 11, margin + (7 - i) * cell + cell / 2, str(i + 1), 11)
    line = status(position, ("White", "Black"))
    rights = position.castling or "-"
    svg.text(svg.width / 2, size + 2 * margin + 10, f"{line}, move {position.fullmove}, castling {rights}", 13)
    return str(svg)


#: Pyramid colours by territory (colour digit), after the seed's red, yellow, green, blue,
#: black and clear.

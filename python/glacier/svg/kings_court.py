"""The picture of a King's Court position."""

from __future__ import annotations

from typing import Any

from ._canvas import Svg, status

__all__ = ["draw"]


def draw(position: Any) -> str:
    """The beige playing squares as an 8x8 grid seen from Red's side, the Center Court
    (c3-f6) framed in gold, Red and Green pieces as checkers-style discs."""
    cell, margin = 46, 26
    size = 8 * cell
    svg = Svg(size + 2 * margin, size + 2 * margin + 24, "#fbf6ec")
    for rank in range(8):
        for file in range(8):
            x, y = margin + file * cell, margin + (7 - rank) * cell
            court = 2 <= rank <= 5 and 2 <= file <= 5
            svg.add(
                "rect",
                x=x,
                y=y,
                width=cell,
                height=cell,
                fill="#f3e2b3" if court else "#e8d5a3",
                stroke="#b9a06a",
                stroke_width=1,
            )
            piece = position.board[rank * 8 + file]
            if piece != ".":
                fill, edge = ("#c0392b", "#7b241c") if piece == "R" else ("#27ae60", "#145a32")
                svg.add(
                    "circle", cx=x + cell / 2, cy=y + cell / 2, r=cell * 0.38, fill=fill, stroke=edge, stroke_width=2
                )
                svg.add(
                    "circle", cx=x + cell / 2, cy=y + cell / 2, r=cell * 0.24, fill="none", stroke=edge, stroke_width=1
                )
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
    for i in range(8):
        svg.text(margin + i * cell + cell / 2, margin + size + 11, "abcdefgh"[i], 11)
        svg.text(margin - 11, margin + (7 - i) * cell + cell / 2, str(i + 1), 11)
    line = status(position, ("Red", "Green"))
    svg.text(svg.width / 2, size + 2 * margin + 10, f"{line}, ply {position.ply}", 13)
    return str(svg)

"""The picture of a Kuba position."""

from __future__ import annotations

from typing import Any

from ._canvas import Svg, status

__all__ = ["draw"]


def draw(position: Any) -> str:
    """An SVG document picturing ``position`` (a parsed reference position)."""
    cell, margin = 44, 28
    size = 7 * cell
    svg = Svg(size + 2 * margin, size + 2 * margin + 40, "#f4ead5")
    svg.add("rect", x=margin, y=margin, width=size, height=size, fill="#c9a66b", stroke="#5b4423", stroke_width=2)
    colours = {"W": ("#fdfdfd", "#777"), "B": ("#222", "#000"), "R": ("#c0392b", "#7b241c")}
    for rank in range(7):
        for file in range(7):
            x, y = margin + file * cell, margin + (6 - rank) * cell
            svg.add("rect", x=x, y=y, width=cell, height=cell, fill="none", stroke="#8a6a3a", stroke_width=1)
            marble = position.board[rank * 7 + file]
            if marble != ".":
                fill, edge = colours[marble]
                svg.add(
                    "circle", cx=x + cell / 2, cy=y + cell / 2, r=cell * 0.4, fill=fill, stroke=edge, stroke_width=1.5
                )
    for i in range(7):
        svg.text(margin + i * cell + cell / 2, margin + size + 12, "abcdefg"[i], 11)
        svg.text(margin - 12, margin + (6 - i) * cell + cell / 2, str(i + 1), 11)
    if position.ko is not None:
        sq = position.ko[0]
        x, y = margin + (sq % 7) * cell, margin + (6 - sq // 7) * cell
        svg.add(
            "rect", x=x + 2, y=y + 2, width=cell - 4, height=cell - 4, fill="none", stroke="#2e86c1", stroke_width=3
        )
    line = status(position, ("White", "Black")) + (" (bonus push)" if position.bonus else "")
    captures = (
        f"White: {position.reds[0]} Red, {position.captured[0]} Black   "
        f"Black: {position.reds[1]} Red, {position.captured[1]} White"
    )
    svg.text(svg.width / 2, size + 2 * margin + 6, line, 13)
    svg.text(svg.width / 2, size + 2 * margin + 24, captures, 11)
    return str(svg)

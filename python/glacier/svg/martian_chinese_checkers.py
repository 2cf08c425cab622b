"""The picture of an E (Martian Chinese Checkers) position."""

from __future__ import annotations

import math
from typing import Any

from ..reference import martian_chinese_checkers as e
from ._canvas import Svg, status

__all__ = ["draw"]


_E_COLOURS = ("#d62728", "#f1c40f", "#2ca02c", "#1f77b4", "#222222", "#f8f9f9")
_E_TINTS = ("#f6d5d5", "#fbf0c6", "#d6efd6", "#d3e4f3", "#d9d9d9", "#f2f3f4")


def draw(position: Any) -> str:
    """The 127-hex board, territories tinted by their colour, border lines and centre grey,
    each stack drawn bottom to top as pyramids of three sizes (a number gives its height)."""
    radius, margin = 19.0, 30.0
    width = radius * 3**0.5 * 13 + 2 * margin
    svg = Svg(width, radius * 1.5 * 12 + 2 * radius + 2 * margin + 26, "#ffffff")
    cx, cy = width / 2, margin + radius + radius * 1.5 * 6

    def centre(q: int, r: int) -> tuple[float, float]:
        return cx + radius * 3**0.5 * (q + r / 2), cy + radius * 1.5 * r

    for i, (q, r) in enumerate(e.HEXES):
        x, y = centre(q, r)
        corners = " ".join(
            f"{x + radius * 0.98 * _cos(60 * k + 30):.1f},{y + radius * 0.98 * _sin(60 * k + 30):.1f}" for k in range(6)
        )
        territory = e.TERRITORY[i]
        fill = "#e5e7e9" if territory is None else _E_TINTS[territory]
        svg.add("polygon", points=corners, fill=fill, stroke="#aab7b8", stroke_width=1)
        svg.text(x, y + radius * 0.72, e.HEX_NAMES[i], 5.5, fill="#99a3a4")
        stack = position.board[i]
        for level, (colour, size) in enumerate(stack):
            half = radius * (0.28 + 0.17 * size)
            base = y + half * 0.75 - level * 3
            svg.add(
                "polygon",
                points=f"{x:.1f},{base - 2 * half * 0.9:.1f} {x - half:.1f},{base:.1f} {x + half:.1f},{base:.1f}",
                fill=_E_COLOURS[colour],
                stroke="#555555" if colour != 4 else "#999999",
                stroke_width=1,
            )
        if len(stack) > 1:
            svg.text(x + radius * 0.62, y - radius * 0.5, str(len(stack)), 9, fill="#000000")
    names = tuple(f"player {p} (colour {c})" for p, c in enumerate(position.seats))
    line = status(position, names)
    svg.text(width / 2, svg.height - 14, f"{position.num_players} players: {line}, ply {position.ply}", 13)
    return str(svg)


def _cos(degrees: float) -> float:
    return math.cos(math.radians(degrees))


def _sin(degrees: float) -> float:
    return math.sin(math.radians(degrees))

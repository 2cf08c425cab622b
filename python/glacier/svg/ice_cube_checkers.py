"""The picture of an Ice Cube Checkers position."""

from __future__ import annotations

from typing import Any

from ._canvas import Svg, status

__all__ = ["draw"]


def draw(position: Any) -> str:
    """Two rows of six cups: White's row a-f along the bottom, Black's row g-l along the top
    (seen from White, so sowing runs counter-clockwise a..f, g..l)."""
    cup, gap, margin = 86, 10, 24
    svg = Svg(6 * cup + 5 * gap + 2 * margin, 2 * cup + gap + 2 * margin + 56, "#eaf4fb")
    colours = {"W": ("#ffffff", "#7f8c8d"), "B": ("#2c3e50", "#17202a"), "K": ("#f1c40f", "#9a7d0a")}
    for slot in range(12):
        column, row = (slot, 1) if slot < 6 else (11 - slot, 0)
        x = margin + column * (cup + gap)
        y = margin + 18 + row * (cup + gap)
        w, b, _ = position.slots[slot]
        owner = 0 if w and not b else 1 if b and not w else None
        ring = {0: "#7f8c8d", 1: "#17202a", None: "#85c1e9"}[owner]
        svg.add(
            "rect",
            x=x,
            y=y,
            width=cup,
            height=cup,
            rx=18,
            fill="#d6eaf8",
            stroke=ring,
            stroke_width=3 if owner is not None else 1.5,
        )
        label_y = y + cup + 11 if row else y - 9
        svg.text(x + cup / 2, label_y, "abcdefghijkl"[slot], 11)
        pieces = [kind for kind, count in zip("WBK", position.slots[slot]) for _ in range(count)]
        per_row = 4
        for i, kind in enumerate(pieces):
            px = x + 14 + (i % per_row) * 19
            py = y + 14 + (i // per_row) * 19
            fill, edge = colours[kind]
            svg.add("rect", x=px, y=py, width=16, height=16, rx=3, fill=fill, stroke=edge, stroke_width=1.2)
    line = status(position, ("White", "Black"))
    svg.text(svg.width / 2, svg.height - 30, f"{line}, ply {position.ply}", 13)
    svg.text(svg.width / 2, svg.height - 12, "white, dark: cubes; gold: King Kubes; a ring marks a controlled cup", 10)
    return str(svg)

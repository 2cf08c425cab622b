"""A picture of ratings with their intervals, as ``glacier ladder --picture`` draws them."""

from __future__ import annotations

import math
from typing import Sequence

from ._canvas import Svg

__all__ = ["draw"]


def draw(ratings: Sequence[tuple[str, float, float, float]], title: str = "") -> str:
    """An SVG picture of ``ratings`` (name, Elo, low, high): one line per player, strongest
    on top, its interval as a bar and its rating as a dot."""
    rows = sorted(ratings, key=lambda r: -r[1])
    label = 7.0 * max(len(r[0]) for r in rows) + 20
    width, plot = label + 460.0, 420.0
    top = 40.0 if title else 16.0
    bottom = top + 22.0 * len(rows)
    low = min(r[2] for r in rows)
    high = max(r[3] for r in rows)
    step = _tick_step(high - low)
    first, last = math.floor(low / step) * step, math.ceil(high / step) * step

    def x(elo: float) -> float:
        return label + plot * (elo - first) / (last - first or 1.0)

    svg = Svg(width, bottom + 36)
    if title:
        svg.text(width / 2, 22, title, size=15)
    tick = first
    while tick <= last + 1e-9:
        svg.add("line", x1=x(tick), y1=top - 6, x2=x(tick), y2=bottom, stroke="#dddddd")
        svg.text(x(tick), bottom + 16, f"{tick:+.0f}" if tick else "0", size=11, fill="#555555")
        tick += step
    svg.text(label + plot / 2, bottom + 32, "Elo (random = 0), 95% intervals", size=11, fill="#555555")
    for k, (name, elo, low_end, high_end) in enumerate(rows):
        y = top + 22.0 * k + 8
        svg.text(label - 10, y, name, size=12, anchor="end")
        svg.add("line", x1=x(low_end), y1=y, x2=x(high_end), y2=y, stroke="#1f6fd1", stroke_width=3)
        svg.add("circle", cx=x(elo), cy=y, r=4, fill="#0b3d91")
    return str(svg)


def _tick_step(span: float) -> float:
    for step in (50.0, 100.0, 200.0, 250.0, 500.0, 1000.0):
        if span / step <= 8:
            return step
    return 2000.0

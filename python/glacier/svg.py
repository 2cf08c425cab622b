"""SVG pictures of positions, one look per game (``_repr_svg_`` in notebooks, ``glacier show --svg``).

Pictures are drawn from the position text, read by the reference implementation, so a
native and a reference state of the same position give the same picture.
"""

from __future__ import annotations

from html import escape
from typing import Any, Callable

from . import reference

__all__ = ["render"]

_RENDERERS: dict[str, Callable[[Any], str]] = {}


def _renderer(game: str) -> Callable[[Callable[[Any], str]], Callable[[Any], str]]:
    def register(fn: Callable[[Any], str]) -> Callable[[Any], str]:
        _RENDERERS[game] = fn
        return fn

    return register


def render(state: Any) -> str:
    """An SVG document picturing ``state`` (a native or reference state of any game)."""
    position = reference.from_text(state.game, state.text(), **state.params).position
    return _RENDERERS[state.game](position)


class _Svg:
    """A tiny SVG writer."""

    def __init__(self, width: float, height: float, background: str = "#ffffff") -> None:
        self.width, self.height = width, height
        self.parts: list[str] = [f'<rect x="0" y="0" width="{width:g}" height="{height:g}" fill="{background}"/>']

    def add(self, element: str, **attrs: Any) -> None:
        text = " ".join(f'{k.rstrip("_").replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items())
        self.parts.append(f"<{element} {text}/>")

    def text(self, x: float, y: float, content: str, size: float = 12, **attrs: Any) -> None:
        extra = " ".join(f'{k.replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items())
        self.parts.append(
            f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" font-family="sans-serif" '
            f'text-anchor="middle" dominant-baseline="central" {extra}>{escape(content)}</text>'
        )

    def __str__(self) -> str:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:g}" height="{self.height:g}" '
            f'viewBox="0 0 {self.width:g} {self.height:g}">' + "".join(self.parts) + "</svg>"
        )


def _status(position: Any, names: tuple[str, ...]) -> str:
    outcome = position.outcome
    if outcome is None:
        return f"{names[position.current_player]} to move"
    if outcome == "draw":
        return "draw"
    return f"{names[outcome]} wins"


@_renderer("kuba")
def _kuba(position: Any) -> str:
    cell, margin = 44, 28
    size = 7 * cell
    svg = _Svg(size + 2 * margin, size + 2 * margin + 40, "#f4ead5")
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
    status = _status(position, ("White", "Black")) + (" (bonus push)" if position.bonus else "")
    captures = (
        f"White: {position.reds[0]} Red, {position.captured[0]} Black   "
        f"Black: {position.reds[1]} Red, {position.captured[1]} White"
    )
    svg.text(svg.width / 2, size + 2 * margin + 6, status, 13)
    svg.text(svg.width / 2, size + 2 * margin + 24, captures, 11)
    return str(svg)


@_renderer("ice_cube_checkers")
def _ice_cube_checkers(position: Any) -> str:
    """Two rows of six cups: White's row a-f along the bottom, Black's row g-l along the top
    (seen from White, so sowing runs counter-clockwise a..f, g..l)."""
    cup, gap, margin = 86, 10, 24
    svg = _Svg(6 * cup + 5 * gap + 2 * margin, 2 * cup + gap + 2 * margin + 56, "#eaf4fb")
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
    status = _status(position, ("White", "Black"))
    svg.text(svg.width / 2, svg.height - 30, f"{status}, ply {position.ply}", 13)
    svg.text(svg.width / 2, svg.height - 12, "white, dark: cubes; gold: King Kubes; a ring marks a controlled cup", 10)
    return str(svg)


#: Unicode chess figures (filled shapes for both sides, coloured by fill and outline).
_CHESS_FIGURES = {"K": "\u265a", "Q": "\u265b", "R": "\u265c", "B": "\u265d", "N": "\u265e", "P": "\u265f"}


@_renderer("ice_age_chess")
def _ice_age_chess(position: Any) -> str:
    """The chess board from White's side; ice as pale blue blocks with a frosted edge."""
    cell, margin = 48, 26
    size = 8 * cell
    svg = _Svg(size + 2 * margin, size + 2 * margin + 24, "#ffffff")
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
    status = _status(position, ("White", "Black"))
    rights = position.castling or "-"
    svg.text(svg.width / 2, size + 2 * margin + 10, f"{status}, move {position.fullmove}, castling {rights}", 13)
    return str(svg)


#: Pyramid colours by territory (colour digit), after the seed's red, yellow, green, blue,
#: black and clear.
_E_COLOURS = ("#d62728", "#f1c40f", "#2ca02c", "#1f77b4", "#222222", "#f8f9f9")
_E_TINTS = ("#f6d5d5", "#fbf0c6", "#d6efd6", "#d3e4f3", "#d9d9d9", "#f2f3f4")


@_renderer("martian_chinese_checkers")
def _martian_chinese_checkers(position: Any) -> str:
    """The 127-hex board, territories tinted by their colour, border lines and centre grey,
    each stack drawn bottom to top as pyramids of three sizes (a number gives its height)."""
    from .reference import martian_chinese_checkers as e

    radius, margin = 19.0, 30.0
    width = radius * 3**0.5 * 13 + 2 * margin
    svg = _Svg(width, radius * 1.5 * 12 + 2 * radius + 2 * margin + 26, "#ffffff")
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
    status = _status(position, names)
    svg.text(width / 2, svg.height - 14, f"{position.num_players} players: {status}, ply {position.ply}", 13)
    return str(svg)


def _cos(degrees: float) -> float:
    import math

    return math.cos(math.radians(degrees))


def _sin(degrees: float) -> float:
    import math

    return math.sin(math.radians(degrees))


@_renderer("kings_court")
def _kings_court(position: Any) -> str:
    """The beige playing squares as an 8x8 grid seen from Red's side, the Center Court
    (c3-f6) framed in gold, Red and Green pieces as checkers-style discs."""
    cell, margin = 46, 26
    size = 8 * cell
    svg = _Svg(size + 2 * margin, size + 2 * margin + 24, "#fbf6ec")
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
    status = _status(position, ("Red", "Green"))
    svg.text(svg.width / 2, size + 2 * margin + 10, f"{status}, ply {position.ply}", 13)
    return str(svg)

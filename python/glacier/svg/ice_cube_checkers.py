"""The picture of an Ice Cube Checkers position."""

from __future__ import annotations

import math
from typing import Any

from ..errors import IllegalMoveError
from ..reference import ice_cube_checkers as icc
from ._canvas import CELL_LABEL_COLOUR, LAST_MOVE_COLOUR, Svg, View, arrow_cells, status

__all__ = ["CUP", "cube_layout", "draw", "move_cells"]

#: The side of a cup, and the room its cubes may take (a margin inside the cup's edge).
CUP = 88
CUP_PAD = 7
_CUBE_GAP = 3
_CUBES = {"W": ("#ffffff", "#7f8c8d"), "B": ("#2c3e50", "#17202a"), "K": ("#f1c40f", "#9a7d0a")}


def move_cells(move: str) -> list[list[str]]:
    """The cups of a move: the lifted cup, then every cup a piece is dropped into."""
    slot = icc.LETTERS.find(move[:1])
    if len(move) < 3 or move[1] != ":" or slot < 0 or not all(c in icc.KINDS for c in move[2:]):
        raise IllegalMoveError(f"'{move}' is not an Ice Cube Checkers move (like 'c:W' or 'd:KW')")
    return [[icc.LETTERS[(slot + i) % icc.SLOTS] for i in range(len(move) - 1)]]


def cube_layout(count: int) -> tuple[int, int, float]:
    """(columns, rows, cube side) for ``count`` cubes filling a cup: the grid nearest a
    square, with cubes as large as the cup allows (a full cup of 12 is 4 x 3)."""
    columns = max(1, math.ceil(math.sqrt(count)))
    rows = max(1, math.ceil(count / columns))
    room = CUP - 2 * CUP_PAD
    side = min(34.0, (room - (columns - 1) * _CUBE_GAP) / columns, (room - (rows - 1) * _CUBE_GAP) / rows)
    return columns, rows, side


def draw(position: Any, view: View) -> str:
    """Two rows of six cups: White's row a-f along the bottom, Black's row g-l along the top
    (seen from White; from Black the board turns half round), with the sowing direction
    drawn as a counter-clockwise track between the rows."""
    gap, track, margin = 10, 44, 26
    width = 6 * CUP + 5 * gap + 2 * margin
    top = margin + 22
    svg = Svg(width, top + 2 * CUP + track + 30 + 70, "#eaf4fb")
    turned = view.turned()

    def cup_corner(slot: int) -> tuple[float, float]:
        column, row = (slot, 1) if slot < 6 else (11 - slot, 0)
        if turned:
            column, row = 5 - column, 1 - row
        return margin + column * (CUP + gap), top + row * (CUP + track)

    def centre(name: str) -> tuple[float, float]:
        slot = icc.LETTERS.find(name)
        if len(name) != 1 or slot < 0:
            raise IllegalMoveError(f"'{name}' is not a cup (a..l)")
        x, y = cup_corner(slot)
        return x + CUP / 2, y + CUP / 2

    lifted, dropped = None, set()
    if view.last_move:
        (path,) = move_cells(view.last_move)
        lifted, dropped = path[0], set(path[1:])
    # The sowing track: right along the lower row, left along the upper one.
    y_low, y_high = top + CUP + track * 0.72, top + CUP + track * 0.28
    x_left, x_right = margin + CUP * 0.3, width - margin - CUP * 0.3
    if turned:
        y_low, y_high = y_high, y_low
    r = (y_low - y_high) / 2
    svg.add(
        "path",
        d=f"M{x_left:g} {y_low:g} L{x_right:g} {y_low:g} A{abs(r):g} {abs(r):g} 0 0 {0 if r > 0 else 1} "
        f"{x_right:g} {y_high:g} L{x_left:g} {y_high:g} A{abs(r):g} {abs(r):g} 0 0 {0 if r > 0 else 1} "
        f"{x_left:g} {y_low:g}",
        fill="none",
        stroke="#85c1e9",
        stroke_width=3,
        class_="sowing",
    )
    for k in range(1, 6):
        for y, step in ((y_low, 1), (y_high, -1)):
            if turned:
                step = -step
            x = margin + k * (CUP + gap) - gap / 2
            svg.add(
                "polygon",
                points=f"{x + 7 * step:g},{y:g} {x - 5 * step:g},{y - 6:g} {x - 5 * step:g},{y + 6:g}",
                fill="#5dade2",
                class_="sowing",
            )

    for slot in range(12):
        x, y = cup_corner(slot)
        name = icc.LETTERS[slot]
        w, b, _ = position.slots[slot]
        owner = 0 if w and not b else 1 if b and not w else None
        fill = "#d6eaf8"
        if name in dropped:
            fill = LAST_MOVE_COLOUR
        svg.add(
            "rect",
            x=x,
            y=y,
            width=CUP,
            height=CUP,
            rx=16,
            fill=fill,
            fill_opacity=0.55 if name in dropped else 1,
            stroke="#85c1e9",
            stroke_width=1.5,
            class_="cup",
            data_slot=name,
            data_cell=name,
        )
        if owner is not None:
            _control_ring(svg, x, y, CUP, CUP, owner)
        if name == lifted:
            svg.add(
                "rect",
                x=x - 4,
                y=y - 4,
                width=CUP + 8,
                height=CUP + 8,
                rx=19,
                fill="none",
                stroke="#d4ac0d",
                stroke_width=3,
                stroke_dasharray="7 4",
                class_="last-move",
            )
        if view.cell_labels:
            svg.text(x + 9, y + 11, name, 11, fill=CELL_LABEL_COLOUR, class_="cell-name")
        elif view.coordinates:
            below = (slot < 6) != turned
            svg.text(x + CUP / 2, y + CUP + 16 if below else y - 15, name, 13)
        pieces = [kind for kind, count in zip(icc.KINDS, position.slots[slot]) for _ in range(count)]
        if not pieces:
            continue
        columns, rows, side = cube_layout(len(pieces))
        grid_w = columns * side + (columns - 1) * _CUBE_GAP
        grid_h = rows * side + (rows - 1) * _CUBE_GAP
        x0, y0 = x + (CUP - grid_w) / 2, y + (CUP - grid_h) / 2
        for i, kind in enumerate(pieces):
            row, column = divmod(i, columns)
            # The last row is centred when it is not full.
            in_row = min(columns, len(pieces) - row * columns)
            shift = (columns - in_row) * (side + _CUBE_GAP) / 2
            px = x0 + shift + column * (side + _CUBE_GAP)
            py = y0 + row * (side + _CUBE_GAP)
            fill, edge = _CUBES[kind]
            svg.add(
                "rect",
                x=px,
                y=py,
                width=side,
                height=side,
                rx=side * 0.18,
                fill=fill,
                stroke=edge,
                stroke_width=1.4,
                class_="cube",
                data_kind=kind,
            )
            if kind == "K":  # a crown mark, so a King Kube is told by shape as well as colour
                s = side
                svg.add(
                    "polygon",
                    points=f"{px + s * 0.2:g},{py + s * 0.72:g} {px + s * 0.2:g},{py + s * 0.32:g} "
                    f"{px + s * 0.37:g},{py + s * 0.5:g} {px + s * 0.5:g},{py + s * 0.26:g} "
                    f"{px + s * 0.63:g},{py + s * 0.5:g} {px + s * 0.8:g},{py + s * 0.32:g} "
                    f"{px + s * 0.8:g},{py + s * 0.72:g}",
                    fill="#9a7d0a",
                )
    for arrow in view.arrows:
        for path in arrow_cells(arrow, move_cells):
            svg.arrow([centre(name) for name in path], width=7, shorten=12)
    line = status(position, icc.PLAYER_NAMES)
    base = top + 2 * CUP + track + 30
    svg.text(width / 2, base + 14, f"{line}, ply {position.ply}", 14)
    legend_y = base + 42
    x = width / 2 - 296
    svg.add("polygon", points=f"{x + 14},{legend_y} {x + 2},{legend_y - 6} {x + 2},{legend_y + 6}", fill="#5dade2")
    svg.text(x + 20, legend_y, "sowing", 12, anchor="start")
    x += 66
    for kind, label in (("W", "White's cube"), ("B", "Black's cube"), ("K", "King Kube")):
        fill, edge = _CUBES[kind]
        svg.add("rect", x=x, y=legend_y - 8, width=16, height=16, rx=3, fill=fill, stroke=edge, stroke_width=1.2)
        svg.text(x + 22, legend_y, label, 12, anchor="start")
        x += 110
    for owner in (0, 1):
        _control_ring(svg, x + owner * 24, legend_y - 9, 18, 18, owner, radius=5)
    svg.text(x + 48, legend_y, "cups White, Black control", 12, anchor="start")
    return str(svg)


def _control_ring(svg: Svg, x: float, y: float, w: float, h: float, owner: int, radius: float = 16) -> None:
    """The ring of a cup a player controls: white edged in grey for White, dark for Black."""
    if owner == 0:
        svg.add(
            "rect",
            x=x,
            y=y,
            width=w,
            height=h,
            rx=radius,
            fill="none",
            stroke="#5d6d7e",
            stroke_width=7,
            class_="control",
            data_owner=0,
        )
        svg.add("rect", x=x, y=y, width=w, height=h, rx=radius, fill="none", stroke="#ffffff", stroke_width=3.5)
    else:
        svg.add(
            "rect",
            x=x,
            y=y,
            width=w,
            height=h,
            rx=radius,
            fill="none",
            stroke="#17202a",
            stroke_width=5,
            class_="control",
            data_owner=1,
        )

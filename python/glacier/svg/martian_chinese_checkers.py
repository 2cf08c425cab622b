"""The picture of an E (Martian Chinese Checkers) position."""

from __future__ import annotations

import math
from typing import Any, Optional

from ..errors import IllegalMoveError
from ..reference import martian_chinese_checkers as e
from ._canvas import CELL_LABEL_COLOUR, LAST_MOVE_COLOUR, Svg, View, arrow_cells, status

__all__ = [
    "BORDER_FILL",
    "COLOUR_NAMES",
    "PIECE_COLOURS",
    "RADIUS",
    "TERRITORY_TINTS",
    "draw",
    "move_cells",
    "piece_shapes",
    "rotation",
]

#: The colours of the six territories and their pieces (the rules number them 0..5).
COLOUR_NAMES = ("Red", "Yellow", "Green", "Blue", "Black", "Clear")
PIECE_COLOURS = ("#d62728", "#f1c40f", "#2ca02c", "#1f77b4", "#222222", "#f8f9f9")
_PIECE_EDGES = ("#7a1414", "#8a6d00", "#145214", "#0d3d63", "#000000", "#5d6d7e")
#: Pip colour on each piece, chosen to show on its fill.
_PIP_COLOURS = ("#ffffff", "#5c4a00", "#ffffff", "#ffffff", "#ffffff", "#34495e")
#: Territory tints: clearly apart from one another and from the border lines' sand.
TERRITORY_TINTS = ("#f3b9b9", "#f9e79f", "#b9e3b9", "#b7d3f2", "#a6a6a6", "#eef9fc")
#: The border lines and the centre.
BORDER_FILL = "#d8c7a3"
#: The hexes' circumradius in pixels.
RADIUS = 24.0
_ROOT3 = math.sqrt(3.0)
#: Each piece drawn alone: (height, base width) by size, in hex radii; the largest stays
#: inside the hex's inscribed circle (radius sqrt(3)/2).
_ALONE = {1: (0.78, 0.62), 2: (1.04, 0.8), 3: (1.3, 0.96)}
#: In a stack every piece but the top one shows this part of its height.
_SHOWN = 0.45
#: The tallest a stack is drawn, in hex radii.
_STACK_ROOM = 1.36


def move_cells(move: str) -> list[list[str]]:
    """The hexes of a move as arrow paths: the movement, then the exchange both ways."""
    if move == "pass":
        return []
    parsed = e.parse_move_text(move)
    if parsed is None:
        raise IllegalMoveError(f"'{move}' is not an E move (like 'k5/0-i7', 'xh3/1=i3/1' or 'pass')")
    movement, exchange = parsed
    paths = []
    if movement is not None:
        (frm, _), to = movement
        paths.append([e.HEX_NAMES[frm], e.HEX_NAMES[to]])
    if exchange is not None:
        x, g = exchange
        if x[0] != g[0]:
            paths += [[e.HEX_NAMES[x[0]], e.HEX_NAMES[g[0]]], [e.HEX_NAMES[g[0]], e.HEX_NAMES[x[0]]]]
    return paths


def rotation(position: Any, view: View) -> float:
    """The board's turn in degrees: none by default (colour 0 on the right, as the rules
    page draws it), else the perspective player's territory at the bottom; then flipped."""
    degrees = 0.0
    if view.perspective is not None:
        colour = position.seats[view.perspective]
        # On screen (y down) territory k's middle lies 30 + 60k degrees anticlockwise from
        # the right; turning it by this many degrees clockwise brings it to the bottom.
        degrees = 120.0 + 60.0 * colour
    if view.flipped:
        degrees += 180.0
    return degrees % 360.0


def piece_shapes(
    stack: tuple[tuple[int, int], ...], x: float, y: float
) -> list[tuple[int, int, list[tuple[float, float]]]]:
    """(colour, size, triangle corners) of every piece of ``stack`` (bottom first) drawn in
    the hex centred on (x, y): each piece stands on the one below, covering its upper part,
    so every piece shows its colour and its size (its width) and the whole stays inside the
    hex."""
    if not stack:
        return []
    heights = [_ALONE[size][0] for _, size in stack]
    widths = [_ALONE[size][1] for _, size in stack]
    total = sum(h * _SHOWN for h in heights[:-1]) + heights[-1]
    scale = min(1.0, _STACK_ROOM / total) if len(stack) > 1 else 1.0
    drawn = total * scale
    base = y + drawn / 2 * RADIUS
    shapes = []
    for (colour, size), h, w in zip(stack, heights, widths):
        # Only the heights give way in a tall stack: a piece keeps the width of its size.
        h_px, half = h * scale * RADIUS, w * RADIUS / 2
        apex = base - h_px
        shapes.append((colour, size, [(x, apex), (x - half, base), (x + half, base)]))
        base -= h_px * _SHOWN
    return shapes


def _points(corners: list[tuple[float, float]]) -> str:
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in corners)


def draw(position: Any, view: View) -> str:
    """The 127-hex board, territories tinted by their colour and the border lines sand;
    every stack drawn bottom to top as pyramids of three sizes (with 1, 2 or 3 pips), its
    height in a badge; hex names along the rim; a legend of the players' colours."""
    radius, margin = RADIUS, 34.0
    board_w = radius * _ROOT3 * 13
    width = board_w + 2 * margin
    n = position.num_players
    legend_rows = (n + 1) // 2
    board_h = radius * 1.5 * 12 + 2 * radius
    height = board_h + 2 * margin + 34 + legend_rows * 24 + 10
    svg = Svg(width, height, "#ffffff")
    cx, cy = width / 2, margin + board_h / 2
    turn = math.radians(rotation(position, view))
    cos_t, sin_t = math.cos(turn), math.sin(turn)

    def at(q: float, r: float) -> tuple[float, float]:
        px, py = radius * _ROOT3 * (q + r / 2), radius * 1.5 * r
        return cx + px * cos_t - py * sin_t, cy + px * sin_t + py * cos_t

    def centre(name: str) -> tuple[float, float]:
        index = e.HEX_BY_NAME.get(name)
        if index is None:
            raise IllegalMoveError(f"'{name}' is not a hex of the board")
        return at(*e.HEXES[index])

    def corners(x: float, y: float, scale: float = 0.98) -> str:
        return " ".join(
            f"{x + radius * scale * math.cos(math.radians(60 * k + 30)):.1f},"
            f"{y + radius * scale * math.sin(math.radians(60 * k + 30)):.1f}"
            for k in range(6)
        )

    marked: set[int] = set()
    if view.last_move:
        marked = {e.HEX_BY_NAME[name] for path in move_cells(view.last_move) for name in path}
        parsed = e.parse_move_text(view.last_move)
        if parsed is not None:
            marked |= {place[0] for place in (parsed[1] or ())}
    # Pass 1: the hexes.
    centres = [at(q, r) for q, r in e.HEXES]
    for i, (x, y) in enumerate(centres):
        territory = e.TERRITORY[i]
        fill = BORDER_FILL if territory is None else TERRITORY_TINTS[territory]
        svg.add(
            "polygon",
            points=corners(x, y),
            fill=fill,
            stroke="#8c8c8c",
            stroke_width=1,
            class_="hex",
            data_hex=e.HEX_NAMES[i],
            data_cell=e.HEX_NAMES[i],
        )
    for i in sorted(marked):
        x, y = centres[i]
        svg.add(
            "polygon",
            points=corners(x, y, 0.86),
            fill="none",
            stroke=LAST_MOVE_COLOUR,
            stroke_width=4,
            class_="last-move",
            data_hex=e.HEX_NAMES[i],
        )
    # Pass 2: the pieces, each stack inside its own hex.
    for i, stack in enumerate(position.board):
        x, y = centres[i]
        for level, (colour, size, triangle) in enumerate(piece_shapes(stack, x, y)):
            svg.add(
                "polygon",
                points=_points(triangle),
                fill=PIECE_COLOURS[colour],
                stroke=_PIECE_EDGES[colour],
                stroke_width=1.1,
                stroke_linejoin="round",
                class_="piece",
                data_hex=e.HEX_NAMES[i],
                data_level=level,
                data_colour=colour,
                data_size=size,
            )
            _pips(svg, colour, size, triangle, topmost=level == len(stack) - 1)
    # Pass 3: what must never be covered: stack heights, arrows, the rim's hex names.
    for i, stack in enumerate(position.board):
        if len(stack) > 1:
            x, y = centres[i]
            bx, by = x + radius * 0.56, y - radius * 0.6
            svg.add("circle", cx=bx, cy=by, r=7.5, fill="#ffffff", stroke="#333333", stroke_width=1.2, class_="height")
            svg.text(
                bx, by, str(len(stack)), 10 if len(stack) < 10 else 8.5, font_weight="bold", data_hex=e.HEX_NAMES[i]
            )
    for arrow in view.arrows:
        for path in arrow_cells(arrow, move_cells):
            svg.arrow([centre(name) for name in path], width=6, shorten=6)
    if view.cell_labels:
        # Below the stacks' middle, where a piece rarely reaches: the name stays readable.
        for i, (x, y) in enumerate(centres):
            svg.text(x, y + radius * 0.81, e.HEX_NAMES[i], 6.5, fill=CELL_LABEL_COLOUR, class_="cell-name")
    elif view.edge_labels:
        _rim_labels(svg, at, centres)
    _legend(svg, position, board_h + 2 * margin, width)
    return str(svg)


def _pips(svg: Svg, colour: int, size: int, triangle: list[tuple[float, float]], topmost: bool) -> None:
    """One, two or three dots near the base of a piece, as Icehouse pyramids carry them."""
    (ax, ay), (lx, ly), (rx, _) = triangle
    height = ly - ay
    shown = height if topmost else height * _SHOWN
    if shown < 7:
        return
    r = max(1.3, min(2.4, (rx - lx) / 14))
    y = ly - min(shown * 0.45, r * 2.6)
    spacing = r * 2.6
    for k in range(size):
        svg.add("circle", cx=ax + (k - (size - 1) / 2) * spacing, cy=y, r=r, fill=_PIP_COLOURS[colour], class_="pip")


def _rim_labels(svg: Svg, at: Any, centres: list[tuple[float, float]]) -> None:
    """Each letter (a line of constant q) at its line's lower end, each number (a row of
    constant r) at its row's left end: a hex's name is read off the rim as on a chess board.
    Turned to a seat's side, a row's left end can fall where a letter stands: the number then
    goes to the row's other end."""
    letters = []
    for k in range(13):
        q = k - 6
        ends = [(float(q), max(-6, -6 - q) - 0.78), (float(q), min(6, 6 - q) + 0.78)]
        x, y = max((at(*end) for end in ends), key=lambda p: (p[1], p[0]))
        letters.append((x, y))
        svg.text(x, y, e.LETTERS[k], 12, fill="#444444", class_="rim")
    for k in range(13):
        r = k - 6
        ends = [at(max(-6, -6 - r) - 0.78, float(r)), at(min(6, 6 - r) + 0.78, float(r))]
        ends.sort(key=lambda p: (p[0], p[1]))

        def room(point: tuple[float, float]) -> float:
            return min(math.dist(point, letter) for letter in letters)

        x, y = next((end for end in ends if room(end) >= _LABEL_ROOM), max(ends, key=room))
        svg.text(x, y, str(r + 7), 12, fill="#444444", class_="rim")


#: How far apart (in px) a rim's number and letter must stand to be read apart.
_LABEL_ROOM = 16.0


def _legend(svg: Svg, position: Any, top: float, width: float) -> None:
    n = position.num_players
    outcome: Optional[Any] = position.outcome
    names = tuple(f"player {p} ({COLOUR_NAMES[c]})" for p, c in enumerate(position.seats))
    svg.text(width / 2, top + 6, f"{n} players: {status(position, names)}, ply {position.ply}", 14)
    column_w = width / 2
    for player, colour in enumerate(position.seats):
        row, column = player // 2, player % 2
        x = 24 + column * column_w
        y = top + 34 + row * 24
        if (outcome is None and position.current_player == player) or outcome == player:
            mark = "wins" if outcome == player else "to move"
            svg.add(
                "polygon", points=f"{x - 14},{y - 6} {x - 14},{y + 6} {x - 4},{y}", fill="#333333", class_="to-move"
            )
            note = f", {mark}"
        else:
            note = ""
        svg.add(
            "polygon",
            points=f"{x + 8},{y - 9} {x},{y + 8} {x + 16},{y + 8}",
            fill=PIECE_COLOURS[colour],
            stroke=_PIECE_EDGES[colour],
            stroke_width=1.2,
            class_="legend",
        )
        goal = COLOUR_NAMES[e.goal_of(colour)]
        svg.text(x + 24, y, f"player {player}: {COLOUR_NAMES[colour]}, goal {goal}{note}", 12, anchor="start")

"""The picture of an Ice Age Chess position."""

from __future__ import annotations

from typing import Any, Optional

from ..errors import IllegalMoveError
from ..reference import ice_age_chess as chess
from ._canvas import Svg, View, status
from ._squares import SquareBoard

__all__ = ["PIECE_BOX", "choice_picture", "draw", "move_cells"]

#: Every piece is drawn in a 100 x 100 box (then scaled to the square): its base rests at
#: y = 90 and its top reaches y = 10 at most, centred on x = 50, so a piece sits in the
#: middle of its square whatever renderer draws it.
PIECE_BOX = 100

_BASE = '<rect x="24" y="80" width="52" height="10" rx="3"/>'
#: The pieces' outlines (paths of our own), filled with the side's colour; ``_DETAILS`` are
#: the lines drawn over them in the contrasting colour.
_SHAPES = {
    "P": '<circle cx="50" cy="29" r="13"/>'
    '<path d="M34 81 C36 64 43 55 44 47 L56 47 C57 55 64 64 66 81 Z"/>'
    '<rect x="37" y="41" width="26" height="7" rx="3.5"/>' + _BASE,
    "R": '<path d="M32 81 L35 45 L65 45 L68 81 Z"/>'
    '<path d="M28 45 L28 20 L38 20 L38 28 L45 28 L45 20 L55 20 L55 28 L62 28 L62 20 L72 20 L72 45 Z"/>' + _BASE,
    "N": '<path d="M30 81 C30 68 36 60 42 53 L28 58 C21 60 16 55 19 49 C24 38 30 28 44 20 L47 10 L55 19 '
    'C69 24 77 40 75 58 C74 68 72 75 70 81 Z"/>' + _BASE,
    "B": '<circle cx="50" cy="14" r="6"/>'
    '<path d="M50 19 C63 28 68 40 59 53 L41 53 C32 40 37 28 50 19 Z"/>'
    '<path d="M36 81 C37 69 41 60 43 53 L57 53 C59 60 63 69 64 81 Z"/>' + _BASE,
    "Q": '<path d="M30 81 L20 32 L35 56 L36 24 L45 53 L50 18 L55 53 L64 24 L65 56 L80 32 L70 81 Z"/>'
    '<circle cx="20" cy="30" r="5"/><circle cx="36" cy="22" r="5"/><circle cx="50" cy="16" r="5"/>'
    '<circle cx="64" cy="22" r="5"/><circle cx="80" cy="30" r="5"/>' + _BASE,
    "K": '<path d="M30 81 C18 64 20 46 33 44 C42 43 47 50 50 57 C53 50 58 43 67 44 C80 46 82 64 70 81 Z"/>'
    '<path d="M46 10 L54 10 L54 19 L62 19 L62 26 L54 26 L54 42 L46 42 L46 26 L38 26 L38 19 L46 19 Z"/>' + _BASE,
}
_DETAILS = {
    "P": "",
    "R": '<path fill="none" d="M34 52 L66 52 M33 73 L67 73"/>',
    "N": '<circle cx="38" cy="35" r="4.5" stroke="none"/><path fill="none" d="M58 27 C66 36 68 50 65 64"/>',
    "B": '<path fill="none" d="M54 30 L46 42 M42 61 L58 61"/>',
    "Q": '<path fill="none" d="M33 70 L67 70"/>',
    "K": '<path fill="none" d="M50 57 L50 76 M33 70 L67 70"/>',
}
_COLOURS = {True: ("#fafafa", "#1b1b1b", "#1b1b1b"), False: ("#2b2b2b", "#000000", "#f2f2f2")}

_LIGHT, _DARK = "#f0d9b5", "#b58863"


def move_cells(move: str) -> list[list[str]]:
    """The squares a UCI move goes between, as arrow paths."""
    if chess.parse_square(move[:2]) is None or chess.parse_square(move[2:4]) is None or len(move) not in (4, 5):
        raise IllegalMoveError(f"'{move}' is not a UCI move (like 'e2e4')")
    return [[move[:2], move[2:4]]]


def piece(svg: Svg, letter: str, x: float, y: float, size: float) -> None:
    """Draws the piece ``letter`` (FEN letter) in the square whose top left is (x, y)."""
    white = letter.isupper()
    fill, edge, detail = _COLOURS[white]
    role = letter.upper()
    scale = size / PIECE_BOX
    svg.raw(
        f'<g class="piece" data-piece="{letter}" transform="translate({x:g} {y:g}) scale({scale:g})">'
        f'<g fill="{fill}" stroke="{edge}" stroke-width="3" stroke-linejoin="round">{_SHAPES[role]}</g>'
        f'<g fill="{detail}" stroke="{detail}" stroke-width="3" stroke-linecap="round">'
        f"{_DETAILS[role]}</g></g>"
    )


def draw(position: Any, view: View) -> str:
    """The board with White at the bottom (Black when turned); ice as pale blue blocks with
    a frosted edge; the last move's squares tinted, a king in check ringed in red."""
    cell, margin = 52, 26
    board = SquareBoard(8, cell, margin, view.turned(), chess.parse_square, chess.square_name)
    size = board.size
    svg = Svg(size + 2 * margin, size + 2 * margin + 40, "#ffffff")
    marked = board.last_move(view, move_cells)
    check = position.in_check()
    king = chess.PIECES[position.current_player][5]
    for sq in board.squares:
        x, y = board.corner(sq)
        light = (sq // 8 + sq % 8) % 2 == 1
        svg.add(
            "rect",
            x=x,
            y=y,
            width=cell,
            height=cell,
            fill=_LIGHT if light else _DARK,
            class_="square",
            data_cell=chess.square_name(sq),
        )
        if sq in marked:
            board.tint(svg, sq)
    # Pieces after every square, so nothing drawn later can cover part of a piece.
    for sq in board.squares:
        x, y = board.corner(sq)
        content = position.board[sq]
        if check and content == king:
            svg.add("circle", cx=x + cell / 2, cy=y + cell / 2, r=cell * 0.47, fill="#e53935", opacity=0.55)
        if content == chess.ICE:
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
                class_="ice",
            )
            svg.add(
                "path",
                d=f"M{x + 10} {y + 13} L{x + 24} {y + 13} M{x + 10} {y + 19} L{x + 17} {y + 19}",
                stroke="#ffffff",
                stroke_width=2.2,
                stroke_linecap="round",
            )
        elif content != chess.EMPTY:
            piece(svg, content, x, y, cell)
    board.arrows(svg, view, move_cells, width=0.16, shorten=0.12)
    board.labels(svg, view, 12, fill="#555555")
    line = status(position, chess.COLOUR_NAMES)
    white_gone, black_gone = position.kings_missing()
    if white_gone and black_gone:
        line += " (both kings frozen)"
    elif white_gone or black_gone:
        line += f" ({'White' if white_gone else 'Black'}'s king frozen)"
    elif position.outcome == 1 - position.current_player and check:
        line += " by checkmate"
    elif check:
        line += " (in check)"
    rights = position.castling or "-"
    period = position.params["ice_age_period"]
    ice_age = ""
    if period:
        next_age = -(-position.fullmove // period) * period
        ice_age = f", next Ice Age after Black's move {next_age}"
    svg.text(svg.width / 2, size + 2 * margin + 8, line, 14)
    svg.text(svg.width / 2, size + 2 * margin + 27, f"move {position.fullmove}, castling {rights}{ice_age}", 12)
    return str(svg)


def choice_picture(action: str) -> Optional[str]:
    """The piece a promotion (``b7b8q``) makes, pictured alone (the web app's buttons)."""
    if len(action) != 5 or action[4] not in "qrbn":
        return None
    letter = action[4].upper() if action[3] == "8" else action[4]
    svg = Svg(PIECE_BOX, PIECE_BOX, "none")
    piece(svg, letter, 0, 0, PIECE_BOX)
    return str(svg)

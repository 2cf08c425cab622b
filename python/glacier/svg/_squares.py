"""The geometry of the square boards (the chess, King's Court and Kuba pictures): an n x n
grid of cells at a margin, the first player's side at the bottom (the second's when the
view is turned), with the marks every such board draws the same way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..errors import IllegalMoveError
from ._canvas import CELL_LABEL_COLOUR, LAST_MOVE_COLOUR, Svg, View, arrow_cells

__all__ = ["SquareBoard"]

#: The file letters of the boards' edges, from the first player's left.
FILES = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class SquareBoard:
    """A board of ``files`` x ``files`` cells of ``cell`` pixels at ``margin`` from the
    picture's top left; square ``sq`` is file ``sq % files``, rank ``sq // files`` (rank 0
    at the first player's side). ``parse_square`` and ``square_name`` are the game's
    notation for them; ``what`` names a square in an error (``"a Kuba square"``)."""

    files: int
    cell: float
    margin: float
    turned: bool
    parse_square: Callable[[str], Optional[int]]
    square_name: Callable[[int], str]
    what: str = "a square"

    @property
    def size(self) -> float:
        """The board's side in pixels."""
        return self.files * self.cell

    @property
    def squares(self) -> range:
        return range(self.files * self.files)

    def corner(self, sq: int) -> tuple[float, float]:
        """The top left of square ``sq``."""
        last = self.files - 1
        file, rank = sq % self.files, sq // self.files
        if self.turned:
            file, rank = last - file, last - rank
        return self.margin + file * self.cell, self.margin + (last - rank) * self.cell

    def centre(self, name: str) -> tuple[float, float]:
        """The centre of the square called ``name``."""
        sq = self.parse_square(name)
        if sq is None:
            raise IllegalMoveError(f"'{name}' is not {self.what}")
        x, y = self.corner(sq)
        return x + self.cell / 2, y + self.cell / 2

    def last_move(self, view: View, move_cells: Callable[[str], list[list[str]]]) -> set[Optional[int]]:
        """The squares of the view's last move (none without one)."""
        if not view.last_move:
            return set()
        return {self.parse_square(name) for path in move_cells(view.last_move) for name in path}

    def tint(self, svg: Svg, sq: int) -> None:
        """The tint of a square of the last move, over the square and under its piece."""
        x, y = self.corner(sq)
        cell = self.cell
        svg.add("rect", x=x, y=y, width=cell, height=cell, fill=LAST_MOVE_COLOUR, opacity=0.55, class_="last-move")

    def arrows(
        self, svg: Svg, view: View, move_cells: Callable[[str], list[list[str]]], width: float, shorten: float
    ) -> None:
        """The view's arrows, ``width`` and ``shorten`` in cells."""
        for arrow in view.arrows:
            for path in arrow_cells(arrow, move_cells):
                svg.arrow([self.centre(name) for name in path], width=self.cell * width, shorten=self.cell * shorten)

    def labels(self, svg: Svg, view: View, edge_offset: float, **edge_attrs: Any) -> None:
        """The names the view asks for: each square's in its top left corner, or the files
        and ranks along the bottom and left edges, ``edge_offset`` pixels off the board."""
        if view.cell_labels:
            for sq in self.squares:
                x, y = self.corner(sq)
                name = self.square_name(sq)
                svg.text(x + 3, y + 8, name, 9, anchor="start", fill=CELL_LABEL_COLOUR, class_="cell-name")
        if view.edge_labels:
            n, margin, cell = self.files, self.margin, self.cell
            for i in range(n):
                file_label = FILES[n - 1 - i] if self.turned else FILES[i]
                rank_label = str(i + 1) if self.turned else str(n - i)
                svg.text(margin + i * cell + cell / 2, margin + self.size + edge_offset, file_label, 12, **edge_attrs)
                svg.text(margin - edge_offset, margin + i * cell + cell / 2, rank_label, 12, **edge_attrs)

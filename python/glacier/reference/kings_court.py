"""King's Court, the reference implementation (RULINGS.md section 4; docs/rules/kings_court.md).

Squares are numbered ``rank * 8 + file`` from 0 (a1 = 0, h8 = 63); the Center Court is
c3-f6. After two opening steps, a move is a step onto an empty neighbouring square or a
chain of jumps over pieces of either colour; jumped opponent pieces leave the board when
the move ends. A player must keep a piece in the Court and wins by leaving the opponent
none there.

Jump chains are found by plain recursion over a copy of the board on which the moving
piece has already left its start square, exactly as the rules describe the move.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

from . import _zobrist
from ._base import (
    InvalidPositionError,
    Outcome,
    Param,
    Position,
    max_plies,
    parse_count,
    parse_placement,
    resolve_params,
    write_placement,
)

NAME = "kings_court"
TITLE = "King's Court"
PARAMS: tuple[Param, ...] = (max_plies(300),)

SIZE = 8
START = "GRGRGRGR/RGRGRGRG/GR4GR/RG4RG/GR4GR/RG4RG/GRGRGRGR/RGRGRGRG r 0"
COLOURS = "RG"  # player 0 is Red, player 1 Green
NAMES = ("Red", "Green")
PIECES = 24  # each side starts with 24 and never gains one
FILES = "abcdefgh"
#: (file, rank) steps: towards rank 8, towards file h, towards rank 1, towards file a.
DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))
#: The Center Court c3-f6.
COURT = frozenset(rank * SIZE + file for rank in range(2, 6) for file in range(2, 6))

# Zobrist keys: seed and indices as in docs/rules/kings_court.md.
SEED = 0x4B435254  # "KCRT"
PIECE_KEYS = _zobrist.table(SEED, 0, 64 * 2)  # sq * 2 + "RG".index(colour)
GREEN_TO_MOVE_KEY = _zobrist.key(SEED, 128)
#: The ply count's phase: the first opening ply is due (ply 0), the second (ply 1).
OPENING_KEYS = (_zobrist.key(SEED, 129), _zobrist.key(SEED, 130))

#: A move: the squares it visits (start first) and whether it is a jump chain.
Move = tuple[tuple[int, ...], bool]


def neighbour(sq: int, d: int, distance: int = 1) -> Optional[int]:
    """The square ``distance`` squares from ``sq`` in direction ``d``, or None off the board."""
    file = sq % SIZE + distance * DIRS[d][0]
    rank = sq // SIZE + distance * DIRS[d][1]
    return rank * SIZE + file if 0 <= file < SIZE and 0 <= rank < SIZE else None


def square_name(sq: int) -> str:
    return FILES[sq % SIZE] + str(sq // SIZE + 1)


def parse_square(text: str) -> Optional[int]:
    if len(text) == 2 and text[0] in FILES and text[1] in "12345678":
        return (int(text[1]) - 1) * SIZE + FILES.index(text[0])
    return None


def move_text(squares: tuple[int, ...], is_jump: bool) -> str:
    return ("x" if is_jump else "-").join(square_name(sq) for sq in squares)


def resolve(params: dict[str, Any]) -> dict[str, Optional[int]]:
    return resolve_params(NAME, PARAMS, params)


_UNJUDGED: Any = object()


class KingsCourtPosition(Position):
    num_players = 2

    def __init__(self, params: dict[str, Optional[int]], board: tuple[str, ...], side: int, ply: int) -> None:
        self.params = params
        self.board = board  # 64 entries: "R", "G" or "." (empty)
        self.current_player = side
        self.ply = ply
        self._outcome: Outcome = _UNJUDGED
        self._hash: Optional[int] = None

    # --- rules -------------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """Judged on first use (most positions a search builds are never asked)."""
        if self._outcome is _UNJUDGED:
            self._outcome = self.judge()
        return self._outcome

    def judge(self) -> Outcome:
        """The end checks, in order: a win, the ply limit, a player who cannot move.

        The same checks serve a position reached by a move and one read from a text: the
        move that led here was made under the Court rule exactly when the ply count is 3
        or more, and then its mover (the player not to move) wins if the player to move
        has no piece in the Court.
        """
        side = self.current_player
        if self.ply >= 3 and not self.court_pieces(side):
            return 1 - side
        if self.ply >= self.params["max_plies"]:  # type: ignore[operator]
            return "draw"
        if next(self.moves(), None) is None:
            return 1 - side
        return None

    def court_pieces(self, player: int) -> list[int]:
        return [sq for sq in COURT if self.board[sq] == COLOURS[player]]

    def moves(self) -> Iterator[Move]:
        """Every legal move of the player to move (whether or not the game is over)."""
        mine = COLOURS[self.current_player]
        if self.ply < 2:
            # The opening plies: Red steps from rank 2 onto rank 3, then Green from 7 onto 6.
            from_rank, d = (1, 0) if self.ply == 0 else (6, 2)
            for file in range(SIZE):
                frm = from_rank * SIZE + file
                to = neighbour(frm, d)
                if self.board[frm] == mine and to is not None and self.board[to] == ".":
                    yield (frm, to), False
            return
        court = self.court_pieces(self.current_player)
        for frm in range(64):
            if self.board[frm] != mine:
                continue
            # Court rule: the move must leave a piece of the mover in the Court.
            keeps_court = any(sq != frm for sq in court)
            for d in range(4):
                to = neighbour(frm, d)
                if to is not None and self.board[to] == "." and (keeps_court or to in COURT):
                    yield (frm, to), False
            # During the move the piece has left its start square; jumped pieces stay.
            during = list(self.board)
            during[frm] = "."
            for path in self.jump_chains(during, (frm,)):
                if keeps_court or path[-1] in COURT:
                    yield path, True

    def jump_chains(self, during: list[str], path: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Every chain extending ``path`` by at least one jump (each prefix is a move)."""
        sq = path[-1]
        for d in range(4):
            mid, land = neighbour(sq, d), neighbour(sq, d, 2)
            if land is None or during[mid] == "." or during[land] != "." or land in path:  # type: ignore[index]
                continue
            longer = (*path, land)
            yield longer
            yield from self.jump_chains(during, longer)

    def after(self, squares: tuple[int, ...], is_jump: bool) -> KingsCourtPosition:
        mine, theirs = COLOURS[self.current_player], COLOURS[1 - self.current_player]
        board = list(self.board)
        if is_jump:
            # Every jumped opponent piece leaves the board at the end of the move, once.
            for a, b in zip(squares, squares[1:]):
                mid = (a + b) // 2
                if board[mid] == theirs:
                    board[mid] = "."
        board[squares[0]] = "."
        board[squares[-1]] = mine
        return KingsCourtPosition(self.params, tuple(board), 1 - self.current_player, self.ply + 1)

    def _generate(self) -> dict[str, Position]:
        if self.outcome is not None:
            return {}
        return {move_text(squares, jump): self.after(squares, jump) for squares, jump in self.moves()}

    def explain_illegal(self, move: str) -> str:
        return f"illegal move '{move}': {self.why_illegal(move)}"

    def why_illegal(self, move: str) -> str:
        is_jump = move[2:3] == "x"
        parts = move.split("x" if is_jump else "-")
        squares = [parse_square(p) for p in parts]
        if len(parts) < 2 or (not is_jump and len(parts) != 2) or None in squares:
            return (
                f"'{move}' is not a King's Court move: expected a step like 'd2-d3' "
                "or a jump chain like 'd4xd6xf6' (squares a1-h8)"
            )
        side = self.current_player
        frm = squares[0]
        assert frm is not None
        if self.board[frm] != COLOURS[side]:
            return f"there is no {NAMES[side]} piece on {square_name(frm)} (it is {NAMES[side]}'s move)"
        during = list(self.board)
        during[frm] = "."
        if not is_jump:
            to = squares[1]
            dirs = [d for d in range(4) if neighbour(frm, d) == to]
            if not dirs:
                return "a step goes one square up, down, left or right"
            if self.ply < 2:
                from_rank, to_rank, d = (2, 3, 0) if self.ply == 0 else (7, 6, 2)
                if dirs[0] != d or frm // SIZE + 1 != from_rank:
                    return (
                        f"in this opening ply {NAMES[side]} must step a piece from rank {from_rank} onto rank {to_rank}"
                    )
            if during[to] != ".":  # type: ignore[index]
                return f"{square_name(to)} is not empty"  # type: ignore[arg-type]
        else:
            if self.ply < 2:
                return "there are no jumps in the two opening plies"
            for i, (a, b) in enumerate(zip(squares, squares[1:])):
                dirs = [d for d in range(4) if neighbour(a, d, 2) == b]  # type: ignore[arg-type]
                if not dirs:
                    return (
                        f"{square_name(a)} to {square_name(b)} is not a jump: a jump goes two squares "  # type: ignore[arg-type]
                        "up, down, left or right, over the piece between"
                    )
                mid = neighbour(a, dirs[0])  # type: ignore[arg-type]
                if during[mid] == ".":  # type: ignore[index]
                    return f"there is no piece on {square_name(mid)} to jump over"  # type: ignore[arg-type]
                if b in squares[: i + 1]:
                    return (
                        f"the chain lands on {square_name(b)} a second time "  # type: ignore[arg-type]
                        "(a move may not revisit a square, its start included)"
                    )
                if during[b] != ".":  # type: ignore[index]
                    return f"the landing square {square_name(b)} is not empty"  # type: ignore[arg-type]
        if self.ply >= 2:
            keeps_court = any(sq != frm for sq in self.court_pieces(side))
            if not keeps_court and squares[-1] not in COURT:
                return f"it would leave {NAMES[side]} with no piece in the Center Court (c3-f6)"
        return "it is not legal here"

    # --- text and hash -----------------------------------------------------------------

    def placement(self) -> str:
        return write_placement(self.board, SIZE)

    def text(self) -> str:
        return f"{self.placement()} {'rg'[self.current_player]} {self.ply}"

    def hash(self) -> int:
        if self._hash is None:
            h = 0
            for sq, c in enumerate(self.board):
                if c != ".":
                    h ^= PIECE_KEYS[sq * 2 + COLOURS.index(c)]
            if self.current_player == 1:
                h ^= GREEN_TO_MOVE_KEY
            if self.ply < 2:
                h ^= OPENING_KEYS[self.ply]
            self._hash = h
        return self._hash

    def board_string(self) -> str:
        lines = []
        for rank in range(SIZE - 1, -1, -1):
            cells = []
            for file in range(SIZE):
                sq = rank * SIZE + file
                c = self.board[sq]
                cells.append(c if c != "." else (":" if sq in COURT else "."))
            lines.append(f"{rank + 1}  " + " ".join(cells))
        lines.append("   a b c d e f g h   (':' an empty Court square)")
        if self.outcome is None:
            status = f"{NAMES[self.current_player]} to move"
            if self.ply == 0:
                status += " (opening: a step from rank 2 onto rank 3)"
            elif self.ply == 1:
                status += " (opening: a step from rank 7 onto rank 6)"
        elif self.outcome == "draw":
            status = "draw"
        else:
            status = f"{NAMES[self.outcome]} wins"  # type: ignore[index]
        lines.append(f"{status}, ply {self.ply}")
        counts = [
            f"{NAMES[p]} {self.board.count(COLOURS[p])} pieces ({len(self.court_pieces(p))} in the Court)"
            for p in (0, 1)
        ]
        lines.append(", ".join(counts))
        return "\n".join(lines)


def start(params: dict[str, Optional[int]]) -> KingsCourtPosition:
    return parse(START, params)


def _parse_placement(text: str) -> list[str]:
    hint = "pieces are 'R' and 'G', digits 1-8 count empty squares"
    return parse_placement(text, SIZE, COLOURS, "King's Court placement", hint)


def parse(text: str, params: dict[str, Optional[int]]) -> KingsCourtPosition:
    if not isinstance(text, str):
        raise TypeError(f"position text must be a str, got {type(text).__name__}")
    fields = text.split(" ")
    if len(fields) != 3:
        raise InvalidPositionError(
            "a King's Court position has 3 fields separated by single spaces "
            f"(placement, side to move, ply count), got {len(fields)}: '{text}'"
        )
    placement, side_text, ply_text = fields
    board = _parse_placement(placement)
    if side_text not in ("r", "g"):
        raise InvalidPositionError(f"side to move must be 'r' or 'g', got '{side_text}'")
    side = "rg".index(side_text)
    ply = parse_count(ply_text)
    if ply is None:
        raise InvalidPositionError(f"ply count must be a number, got '{ply_text}'")
    for colour in (0, 1):
        n = board.count(COLOURS[colour])
        if n > PIECES:
            raise InvalidPositionError(f"{n} {NAMES[colour]} pieces: a side has at most {PIECES}")
        if ply <= 2 and n != PIECES:
            raise InvalidPositionError(
                f"{n} {NAMES[colour]} pieces at ply count {ply}: nothing can be captured "
                f"before the third ply, so each side has all {PIECES}"
            )
    if ply < 2 and side != ply:
        raise InvalidPositionError(
            f"at ply count {ply} {NAMES[ply]} is to move (opening ply {ply + 1}), not {NAMES[side]}"
        )
    position = KingsCourtPosition(params, tuple(board), side, ply)
    if ply >= 3:
        # The last move was made under the Court rule, by the player not to move: it must
        # have kept a piece in the Court.
        mover = 1 - side
        if not position.court_pieces(mover):
            if not position.court_pieces(side):
                raise InvalidPositionError(
                    "neither side has a piece in the Center Court (c3-f6): after the opening "
                    "the player who just moved must keep one there"
                )
            raise InvalidPositionError(
                f"{NAMES[mover]} has no piece in the Center Court (c3-f6), "
                f"but {NAMES[mover]} just moved and must keep one there"
            )
    return position

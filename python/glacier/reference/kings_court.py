"""King's Court, the reference implementation (docs/rules/kings_court.md).

Squares are numbered ``rank * 8 + file`` from 0 (a1 = 0, h8 = 63); the Center Court is
c3-f6. After two opening steps into the Court (Red's from any side, Green's from the
opposite one), a move is a step onto an empty neighbouring square or a chain of jumps over
pieces of either colour; jumped opponent pieces leave the board when the move ends. A move
that leaves a side with no piece in the Court ends the game: that side loses, and when
neither side has one left it is a draw.

Jump chains are found by plain recursion over a copy of the board on which the moving
piece has already left its start square, exactly as the rules describe the move.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

from . import _zobrist
from ._actions import fraction
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
from ._checks import quoted
from ._facts import BenchDepths, Facts, PerftCase, Picture

NAME = "kings_court"
TITLE = "King's Court"
PARAMS: tuple[Param, ...] = (max_plies(300),)

#: What the tools around the game need to know of it (the engine's facts.rs says the same).
FACTS = Facts(
    seats={2: ("Red", "Green")},
    mcts_player={"evaluator": "heuristic"},
    net_player={},
    playout_plies=0,
    bench=BenchDepths(perft=(7, 3), playouts=1000, perft_bench=(7, 5, 4), hashed_perft=(7, 334_122_388)),
    table_checks=(PerftCase(None, {}, 5), PerftCase(None, {"max_plies": 5}, 6)),
    starts={},
    kin={},
    pictures=(
        Picture("kings_court-start", "King's Court: the start"),
        Picture(
            "kings_court-jumps",
            "King's Court: Red's double jump a3xc3xe3",
            "GRGR1RR1/R3GGG1/G3RGGR/1GR5/G1R1GG2/1R1RR1RG/G2R2G1/RG1G1GR1 g 27",
            last_move="a3xc3xe3",
        ),
        Picture(
            "kings_court-won",
            "King's Court, finished: Green has no piece left in the Court, seen from Green",
            "GR1R4/R1G2G1G/6G1/4R3/GR4R1/3R1R1G/1G1R4/R1G4G g 59",
            last_move="c8xe8xe6xe4xg4",
            flipped=True,
        ),
    ),
    variants=({}, {"max_plies": 40}, {}, {"max_plies": 3}),
)

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
#: The start: every square outside the Court full, Red where file + rank (from 0) is even.
START_BOARD = tuple("." if sq in COURT else "RG"[(sq % SIZE + sq // SIZE) % 2] for sq in range(SIZE * SIZE))

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


#: The ring of 16 squares beside the Court, one side per direction ``d``: the squares from
#: which a step in direction ``d`` enters the Court (c2-f2, b3-b6, c7-f7, g3-g6).
RING = tuple(
    frozenset(sq for sq in range(SIZE * SIZE) if sq not in COURT and neighbour(sq, d) in COURT) for d in range(4)
)
RING_NAMES = ("rank 2 (c2-f2)", "file b (b3-b6)", "rank 7 (c7-f7)", "file g (g3-g6)")


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
        """The end checks, in order: the Court rule, the ply limit, a player who cannot move.

        The same checks serve a position reached by a move and one read from a text: the
        move that led here was made by the player not to move, under the Court rule exactly
        when the ply count is 3 or more. Then a side with no piece in the Court has lost,
        and when neither side has one the game is a draw.
        """
        side = self.current_player
        if self.ply >= 3:
            mover_in, mine_in = bool(self.court_pieces(1 - side)), bool(self.court_pieces(side))
            if not mover_in and not mine_in:
                return "draw"
            if not mover_in:
                return side
            if not mine_in:
                return 1 - side
        if self.ply >= self.params["max_plies"]:  # type: ignore[operator]
            return "draw"
        if next(self.moves(), None) is None:
            return 1 - side
        return None

    def court_pieces(self, player: int) -> list[int]:
        return [sq for sq in COURT if self.board[sq] == COLOURS[player]]

    def red_entry(self) -> int:
        """The side of the ring Red's opening step came from, as its direction into the Court
        (ply counts 1 and 2: the one Red start square of the ring that is empty)."""
        return next(d for d in range(4) for sq in RING[d] if START_BOARD[sq] == "R" and self.board[sq] != "R")

    def opening_directions(self) -> list[int]:
        """The directions of the opening steps allowed now: any for Red's first step, then
        Green's the opposite way to Red's (from the opposite side of the ring)."""
        return [0, 1, 2, 3] if self.ply == 0 else [self.red_entry() ^ 2]

    def moves(self) -> Iterator[Move]:
        """Every legal move of the player to move (whether or not the game is over)."""
        mine = COLOURS[self.current_player]
        if self.ply < 2:
            # The opening plies: a step from the ring onto the Court square beside it.
            for d in self.opening_directions():
                for frm in sorted(RING[d]):
                    to = neighbour(frm, d)
                    if self.board[frm] == mine and self.board[to] == ".":  # type: ignore[index]
                        yield (frm, to), False  # type: ignore[misc]
            return
        # Every step and every chain is legal; the Court rule judges the position after it.
        for frm in range(64):
            if self.board[frm] != mine:
                continue
            for d in range(4):
                to = neighbour(frm, d)
                if to is not None and self.board[to] == ".":
                    yield (frm, to), False
            # During the move the piece has left its start square; jumped pieces stay.
            during = list(self.board)
            during[frm] = "."
            for path in self.jump_chains(during, (frm,)):
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
        return f"illegal move {quoted(move)}: {self.why_illegal(move)}"

    def why_illegal(self, move: str) -> str:
        is_jump = move[2:3] == "x"
        parts = move.split("x" if is_jump else "-")
        squares = [parse_square(p) for p in parts]
        if len(parts) < 2 or (not is_jump and len(parts) != 2) or None in squares:
            return (
                f"{quoted(move)} is not a King's Court move: expected a step like 'd2-d3' "
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
            if self.ply < 2 and (frm not in RING[dirs[0]] or dirs[0] not in self.opening_directions()):
                if self.ply == 0:
                    return (
                        "in the first opening ply Red must step a piece from beside the Court "
                        "(c2-f2, c7-f7, b3-b6 or g3-g6) onto the Court square next to it"
                    )
                return (
                    f"in the second opening ply Green must step a piece from {RING_NAMES[self.red_entry() ^ 2]}, "
                    "the side opposite Red's entry, onto the Court square next to it"
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
                status += " (opening: a step from beside the Court onto the Court square next to it)"
            elif self.ply == 1:
                status += f" (opening: a step from {RING_NAMES[self.red_entry() ^ 2]} onto the Court square next to it)"
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
            f"(placement, side to move, ply count), got {len(fields)}: {quoted(text)}"
        )
    placement, side_text, ply_text = fields
    board = _parse_placement(placement)
    if side_text not in ("r", "g"):
        raise InvalidPositionError(f"side to move must be 'r' or 'g', got {quoted(side_text)}")
    side = "rg".index(side_text)
    ply = parse_count(ply_text)
    if ply is None:
        raise InvalidPositionError(f"ply count must be a number, got {quoted(ply_text)}")
    for colour in (0, 1):
        n = board.count(COLOURS[colour])
        if n > PIECES:
            raise InvalidPositionError(f"{n} {NAMES[colour]} pieces: a side has at most {PIECES}")
        if ply <= 2 and n != PIECES:
            raise InvalidPositionError(
                f"{n} {NAMES[colour]} pieces at ply count {ply}: nothing can be captured "
                f"before the third ply, so each side has all {PIECES}"
            )
    if ply <= 2:
        check_opening(board, side, ply)
    return KingsCourtPosition(params, tuple(board), side, ply)


def opening_step_of(colour: str, board: list[str]) -> Optional[int]:
    """The direction of a colour's opening step when its pieces on ``board`` are its start
    pieces with one piece moved from the ring onto the Court square beside it; else None."""
    gone = [sq for sq in range(SIZE * SIZE) if START_BOARD[sq] == colour and board[sq] != colour]
    came = [sq for sq in range(SIZE * SIZE) if START_BOARD[sq] != colour and board[sq] == colour]
    if len(gone) != 1:
        return None
    for d in range(4):
        if gone[0] in RING[d] and came == [neighbour(gone[0], d)]:
            return d
    return None


def check_opening(board: list[str], side: int, ply: int) -> None:
    """A text at ply count 0, 1 or 2 must show a position the opening reaches: the start,
    the start after one of Red's opening steps, or after that and Green's."""
    to_move = ply % 2
    if side != to_move:
        when = ("opening ply 1", "opening ply 2", "the first ply after the opening")[ply]
        raise InvalidPositionError(f"at ply count {ply} {NAMES[to_move]} is to move ({when}), not {NAMES[side]}")
    if ply == 0:
        if tuple(board) != START_BOARD:
            raise InvalidPositionError(
                f"a position at ply count 0 must be the start, '{START}' (no move has been made)"
            )
        return
    red = opening_step_of("R", board)
    if red is None:
        raise InvalidPositionError(
            f"at ply count {ply} Red's pieces must stand as after Red's opening step: the start with "
            "one Red piece moved from beside the Court (c2-f2, c7-f7, b3-b6 or g3-g6) onto the Court "
            "square next to it"
        )
    if ply == 1:
        if [c == "G" for c in board] != [c == "G" for c in START_BOARD]:
            raise InvalidPositionError("at ply count 1 only Red has moved: Green's pieces must stand as at the start")
        return
    green = opening_step_of("G", board)
    if green is None:
        raise InvalidPositionError(
            "at ply count 2 Green's pieces must stand as after Green's opening step: the start with "
            f"one Green piece moved from {RING_NAMES[red ^ 2]} (opposite Red's entry) onto the Court "
            "square next to it"
        )
    if green != red ^ 2:
        raise InvalidPositionError(
            "at ply count 2 Green's opening step must come from the side opposite Red's: Red entered "
            f"from {RING_NAMES[red]}, so Green enters from {RING_NAMES[red ^ 2]}, not {RING_NAMES[green]}"
        )


# --- actions and observation (docs/rules/kings_court.md) -------------------------------------

#: Action ``STEP + from * 4 + d`` steps, ``JUMP + from * 4 + d`` jumps, ``STOP`` ends a chain.
STEP, JUMP, STOP = 0, 64 * 4, 2 * 64 * 4
NUM_DISTINCT_ACTIONS = STOP + 1
#: At most 15 jumps; ``stop`` only after at most 14 (when another jump is possible).
MAX_CHOSEN_ACTIONS = 15
OBSERVATION_SHAPE = (9, SIZE, SIZE)


def _direction(a: int, b: int, distance: int) -> int:
    return next(d for d in range(4) if neighbour(a, d, distance) == b)


def move_actions(position: KingsCourtPosition, move: str) -> list[int]:
    """A step is one action; a chain is one action per jump, then ``stop``."""
    is_jump = move[2:3] == "x"
    squares = [parse_square(part) for part in move.split("x" if is_jump else "-")]
    if not is_jump:
        a, b = squares
        return [STEP + a * 4 + _direction(a, b, 1)]  # type: ignore[operator, arg-type]
    jumps = [JUMP + a * 4 + _direction(a, b, 2) for a, b in zip(squares, squares[1:])]  # type: ignore[arg-type, operator]
    return [*jumps, STOP]


def action_text(action: int) -> Optional[str]:
    if action == STOP:
        return "stop"
    if not 0 <= action < STOP:
        return None
    frm, d = (action % JUMP) // 4, action % 4
    is_jump = action >= JUMP
    to = neighbour(frm, d, 2 if is_jump else 1)
    return None if to is None else move_text((frm, to), is_jump)


def ended_by_ply_limit(position: KingsCourtPosition) -> bool:
    """A draw at the ply limit that the Court rule (checked first) did not decide."""
    court = position.ply >= 3 and not (position.court_pieces(0) and position.court_pieces(1))
    return position.outcome == "draw" and not court and position.ply >= position.params["max_plies"]  # type: ignore[operator]


def observation(position: KingsCourtPosition, pending: tuple[int, ...], player: int) -> list[float]:
    """Nine planes of 8x8 from ``player``'s side (ranks flipped for Green): the player's and
    the opponent's pieces as they stand, the Court, the opening, the ply fraction, whether
    ``player`` is to move, and in a jump chain its current square, the squares it visited
    and the opponent pieces it jumped."""
    board = list(position.board)
    mover = COLOURS[position.current_player]
    at, visited, jumped = set(), set(), set()
    if pending:
        sq = (pending[0] - JUMP) // 4
        board[sq] = "."
        visited.add(sq)
        for action in pending:
            d = action % 4
            jumped.add(neighbour(sq, d))
            sq = neighbour(sq, d, 2)  # type: ignore[assignment]
            visited.add(sq)
        board[sq] = mover
        at.add(sq)
        jumped = {j for j in jumped if board[j] not in (".", mover)}  # type: ignore[index]
    me = COLOURS[player]
    out = [0.0] * (9 * 64)

    def mark(plane: int, squares: Any) -> None:
        for sq in squares:
            out[plane * 64 + (sq if player == 0 else sq ^ 56)] = 1.0

    mark(0, [sq for sq in range(64) if board[sq] == me])
    mark(1, [sq for sq in range(64) if board[sq] not in (".", me)])
    mark(2, COURT)
    mark(6, at)
    mark(7, visited)
    mark(8, jumped)
    constants = {
        3: 1.0 if position.ply < 2 else 0.0,
        4: fraction(position.ply, position.params["max_plies"]),  # type: ignore[arg-type]
        5: 1.0 if position.current_player == player else 0.0,
    }
    for plane, value in constants.items():
        out[plane * 64 : (plane + 1) * 64] = [value] * 64
    return out


# --- what a person is shown (the play hooks: glacier.play, the web app) ----------------------


def seat_notes(position: KingsCourtPosition) -> list[str]:
    return [f"{position.board.count('RG'[p])} pieces, {len(position.court_pieces(p))} in the Court" for p in range(2)]


def end_reason(position: KingsCourtPosition) -> str:
    names = FACTS.seats[2]
    if position.ply >= 3:
        empty = [p for p in (0, 1) if not position.court_pieces(p)]
        if len(empty) == 2:
            return "no piece of either side left in the Court"
        if empty:
            return f"no {names[empty[0]]} piece left in the Court"
    if ended_by_ply_limit(position):
        return "the ply limit"
    return f"{names[position.current_player]} cannot move"


def gesture(action: str) -> tuple[str, ...]:
    """A step ``d4-d5`` or a jump ``d4xd6`` (one of a chain) goes from a square to a square;
    ``stop`` ends a chain that could go on: a button."""
    cells = action.replace("x", "-").split("-")
    return ("move", cells[0], cells[1]) if len(cells) == 2 else ("choice",)


def choice_label(pending: tuple[str, ...], action: str) -> tuple[str, tuple[str, ...]]:
    """``stop`` ends the chain on the square of its last jump."""
    if action == "stop" and pending:
        landing = pending[-1].replace("x", "-").split("-")[-1]
        return f"stop the chain on {landing}", (landing,)
    return action, ()

"""Kuba, the reference implementation (the rules: docs/rules/kuba.md).

Squares are numbered ``rank * 7 + file`` from 0 (a1 = 0, g7 = 48). A push moves one of the
mover's marbles one square and carries the contiguous row in front of it along; a marble
pushed off the board is captured and earns an optional bonus push.
"""

from __future__ import annotations

from typing import Any, Optional

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

NAME = "kuba"
TITLE = "Kuba"
PARAMS: tuple[Param, ...] = (max_plies(1000),)

#: What the tools around the game need to know of it (the engine's facts.rs says the same).
FACTS = Facts(
    seats={2: ("White", "Black")},
    mcts_player={"evaluator": "rollout"},
    net_player={},
    playout_plies=0,
    bench=BenchDepths(perft=(7, 4), playouts=1000, perft_bench=(6, 3, 4), hashed_perft=(8, 111_245_108)),
    table_checks=(PerftCase(None, {}, 5), PerftCase(None, {"max_plies": 4}, 6)),
    starts={},
    kin={},
    pictures=(
        Picture("kuba-start", "Kuba: the start"),
        Picture(
            "kuba-captures",
            "Kuba: captures so far, and the push that may not be answered (ko)",
            "7/3W3/4W1R/R1R1WB1/1BWR1BR/1R3RW/3R3 w 3,5 2,3 - e4f4 103",
            last_move="g4f4",
        ),
        Picture(
            "kuba-won",
            "Kuba, finished: White has pushed off seven Red marbles",
            "3W3/3B3/7/5W1/R1B2W1/2W1B2/RW5 b 7,5 4,3 - - 187",
            last_move="c1b1",
        ),
    ),
    variants=({}, {"max_plies": 40}),
)

SIZE = 7
START = "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0,0 0,0 - - 0"
COLOURS = "WBR"  # player 0 is White, player 1 Black; Red is neutral
MARBLES = {"W": 8, "B": 8, "R": 13}
REDS_TO_WIN = 7
#: (file, rank) steps: towards rank 7, towards file g, towards rank 1, towards file a.
DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))

# Zobrist keys: seed and indices as in docs/rules/kuba.md.
SEED = 0x4B554241
MARBLE_KEYS = _zobrist.table(SEED, 0, 49 * 3)  # sq * 3 + "WBR".index(colour)
BLACK_TO_MOVE_KEY = _zobrist.key(SEED, 147)
BONUS_KEY = _zobrist.key(SEED, 148)
KO_KEYS = _zobrist.table(SEED, 149, 49 * 4)  # from * 4 + dir
RED_KEYS = _zobrist.table(SEED, 345, 16)  # player * 8 + reds captured (1..7)


def neighbour(sq: int, d: int) -> Optional[int]:
    file, rank = sq % SIZE + DIRS[d][0], sq // SIZE + DIRS[d][1]
    return rank * SIZE + file if 0 <= file < SIZE and 0 <= rank < SIZE else None


def square_name(sq: int) -> str:
    return "abcdefg"[sq % SIZE] + str(sq // SIZE + 1)


def parse_square(text: str) -> Optional[int]:
    if len(text) == 2 and text[0] in "abcdefg" and text[1] in "1234567":
        return (int(text[1]) - 1) * SIZE + "abcdefg".index(text[0])
    return None


def push_name(sq: int, d: int) -> str:
    to = neighbour(sq, d)
    assert to is not None
    return square_name(sq) + square_name(to)


def resolve(params: dict[str, Any]) -> dict[str, Optional[int]]:
    return resolve_params(NAME, PARAMS, params)


class KubaPosition(Position):
    num_players = 2

    def __init__(
        self,
        params: dict[str, Optional[int]],
        board: list[str],
        side: int,
        reds: tuple[int, int],
        captured: tuple[int, int],
        bonus: bool,
        ko: Optional[tuple[int, int]],
        ply: int,
        outcome: Outcome,
    ) -> None:
        self.params = params
        self.board = board  # 49 entries: "W", "B", "R" or "." (empty)
        self.current_player = side
        self.reds = reds  # Reds captured by White, by Black
        self.captured = captured  # opponent marbles captured by White, by Black
        self.bonus = bonus
        self.ko = ko  # the forbidden push (from, dir), or None
        self.ply = ply
        self.outcome = outcome

    # --- rules -------------------------------------------------------------------------

    def push_row(self, sq: int, d: int) -> Optional[tuple[list[int], bool]]:
        """The squares of the row a push from ``sq`` in ``d`` moves, pusher first, and
        whether its front marble leaves the board; None when the push is not allowed."""
        behind = neighbour(sq, (d + 2) % 4)
        if behind is not None and self.board[behind] != ".":
            return None
        row = [sq]
        while True:
            nxt = neighbour(row[-1], d)
            if nxt is None:
                if self.board[row[-1]] == self.board[sq]:
                    return None  # never push your own marble off
                return row, True
            if self.board[nxt] == ".":
                return row, False
            row.append(nxt)

    def pushes(self) -> list[tuple[int, int]]:
        mine = COLOURS[self.current_player]
        return [
            (sq, d)
            for sq in range(49)
            if self.board[sq] == mine
            for d in range(4)
            if (sq, d) != self.ko and self.push_row(sq, d) is not None
        ]

    def _generate(self) -> dict[str, Position]:
        if self.outcome is not None:
            return {}
        moves: dict[str, Position] = {push_name(sq, d): self.after_push(sq, d) for sq, d in self.pushes()}
        if self.bonus:
            moves["pass"] = self.after_pass()
        return moves

    def _next(self, **changes: Any) -> KubaPosition:
        fields: dict[str, Any] = {
            "params": self.params,
            "board": self.board,
            "side": self.current_player,
            "reds": self.reds,
            "captured": self.captured,
            "bonus": False,
            "ko": None,
            "ply": self.ply + 1,
            "outcome": None,
        }
        fields.update(changes)
        return KubaPosition(**fields)

    def _turn_end_outcome(self, child: KubaPosition, mover: int) -> Outcome:
        """After a ply that hands the turn on: the ply limit, then a stuck player loses."""
        if child.ply >= self.params["max_plies"]:  # type: ignore[operator]
            return "draw"
        if not child.pushes():
            return mover
        return None

    def after_pass(self) -> KubaPosition:
        mover = self.current_player
        child = self._next(side=1 - mover)
        child.outcome = self._turn_end_outcome(child, mover)
        return child

    def after_push(self, sq: int, d: int) -> KubaPosition:
        mover = self.current_player
        result = self.push_row(sq, d)
        assert result is not None
        row, leaves = result
        board = list(self.board)
        front = board[row[-1]]
        # Shift the row one square along, front first.
        for s in reversed(row):
            to = neighbour(s, d)
            if to is not None:
                board[to] = board[s]
            board[s] = "."
        if not leaves:
            front_sq = neighbour(row[-1], d)
            assert front_sq is not None
            ko = (front_sq, (d + 2) % 4) if front == COLOURS[1 - mover] else None
            child = self._next(board=board, side=1 - mover, ko=ko)
            child.outcome = self._turn_end_outcome(child, mover)
            return child

        reds = list(self.reds)
        captured = list(self.captured)
        if front == "R":
            reds[mover] += 1
        else:
            captured[mover] += 1
        child = self._next(board=board, reds=tuple(reds), captured=tuple(captured))
        opponent_left = board.count(COLOURS[1 - mover])
        if reds[mover] >= REDS_TO_WIN or opponent_left == 0:
            child.outcome = mover
        elif child.ply >= self.params["max_plies"]:  # type: ignore[operator]
            child.outcome = "draw"
        else:
            child.bonus = True
            return child
        child.current_player = 1 - mover  # the game is over: the turn passes on, no bonus
        return child

    def explain_illegal(self, move: str) -> str:
        if move == "pass":
            return "'pass' is only legal in a bonus turn, after a capture"
        frm, to = parse_square(move[:2]), parse_square(move[2:])
        if len(move) != 4 or frm is None or to is None:
            return f"{quoted(move)} is not a Kuba move: expected a push like 'a1a2' (from-square, to-square) or 'pass'"
        dirs = [d for d in range(4) if neighbour(frm, d) == to]
        if not dirs:
            return f"{quoted(move)} is not a Kuba move: a push goes to a neighbouring square along a file or rank"
        d = dirs[0]
        if self.board[frm] != COLOURS[self.current_player]:
            why = "there is no marble of the side to move on its from-square"
        elif (frm, d) == self.ko:
            why = "the ko rule forbids pushing that marble straight back this turn"
        elif self.push_row(frm, d) is None:
            why = "the square behind is occupied, or it would push the mover's own marble off"
        else:
            why = "it is not legal here"
        return f"illegal push {quoted(move)}: {why}"

    # --- text and hash -----------------------------------------------------------------

    def placement(self) -> str:
        return write_placement(self.board, SIZE)

    def text(self) -> str:
        ko = "-" if self.ko is None else push_name(*self.ko)
        return (
            f"{self.placement()} {'wb'[self.current_player]} "
            f"{self.reds[0]},{self.captured[0]} {self.reds[1]},{self.captured[1]} "
            f"{'+' if self.bonus else '-'} {ko} {self.ply}"
        )

    def hash(self) -> int:
        h = 0
        for sq, c in enumerate(self.board):
            if c != ".":
                h ^= MARBLE_KEYS[sq * 3 + COLOURS.index(c)]
        if self.current_player == 1:
            h ^= BLACK_TO_MOVE_KEY
        if self.bonus:
            h ^= BONUS_KEY
        if self.ko is not None:
            h ^= KO_KEYS[self.ko[0] * 4 + self.ko[1]]
        for player in (0, 1):
            if self.reds[player]:
                h ^= RED_KEYS[player * 8 + self.reds[player]]
        return h

    def board_string(self) -> str:
        lines = []
        for rank in range(SIZE - 1, -1, -1):
            cells = " ".join(self.board[rank * SIZE + f] for f in range(SIZE))
            lines.append(f"{rank + 1}  {cells}")
        lines.append("   a b c d e f g")
        names = ("White", "Black")
        if self.outcome is None:
            status = f"{names[self.current_player]} to move" + (" (bonus push)" if self.bonus else "")
        elif self.outcome == "draw":
            status = "draw"
        else:
            status = f"{names[self.outcome]} wins"  # type: ignore[index]
        lines.append(f"{status}, ply {self.ply}")
        last = (
            f"White captured {self.reds[0]} Red, {self.captured[0]} Black; "
            f"Black captured {self.reds[1]} Red, {self.captured[1]} White"
        )
        if self.ko is not None:
            last += f"; ko forbids {push_name(*self.ko)}"
        lines.append(last)
        return "\n".join(lines)


def start(params: dict[str, Optional[int]]) -> KubaPosition:
    return parse(START, params)


def _parse_placement(text: str) -> list[str]:
    return parse_placement(text, SIZE, COLOURS, "Kuba placement")


def _parse_pair(field: str, what: str) -> tuple[int, int]:
    parts = field.split(",")
    values = [parse_count(p) for p in parts] if len(parts) == 2 else []
    numbers = [v for v in values if v is not None and v <= 255]
    if len(numbers) != 2:
        raise InvalidPositionError(f"{what} must be '<reds>,<marbles>' with two numbers, got {quoted(field)}")
    return numbers[0], numbers[1]


def parse(text: str, params: dict[str, Optional[int]]) -> KubaPosition:
    if not isinstance(text, str):
        raise TypeError(f"position text must be a str, got {type(text).__name__}")
    fields = text.split(" ")
    if len(fields) != 7:
        raise InvalidPositionError(
            "a Kuba position has 7 fields separated by single spaces "
            f"(placement, side, White's captures, Black's captures, bonus, ko, ply), got {len(fields)}: {quoted(text)}"
        )
    placement, side_text, white, black, bonus_text, ko_text, ply_text = fields
    board = _parse_placement(placement)
    if side_text not in ("w", "b"):
        raise InvalidPositionError(f"side to move must be 'w' or 'b', got {quoted(side_text)}")
    side = "wb".index(side_text)
    white_reds, blacks_captured = _parse_pair(white, "White's captures")
    black_reds, whites_captured = _parse_pair(black, "Black's captures")
    if bonus_text not in ("+", "-"):
        raise InvalidPositionError(f"bonus flag must be '+' or '-', got {quoted(bonus_text)}")
    bonus = bonus_text == "+"
    ply = parse_count(ply_text)
    if ply is None:
        raise InvalidPositionError(f"ply count must be a number, got {quoted(ply_text)}")

    whites, blacks, reds = board.count("W"), board.count("B"), board.count("R")
    if whites + whites_captured != MARBLES["W"]:
        raise InvalidPositionError(
            f"{whites} White marbles on the board and {whites_captured} captured by Black: they must make 8"
        )
    if blacks + blacks_captured != MARBLES["B"]:
        raise InvalidPositionError(
            f"{blacks} Black marbles on the board and {blacks_captured} captured by White: they must make 8"
        )
    if white_reds > REDS_TO_WIN or black_reds > REDS_TO_WIN:
        raise InvalidPositionError(f"no player can have captured more than {REDS_TO_WIN} Reds")
    if reds + white_reds + black_reds != MARBLES["R"]:
        raise InvalidPositionError(
            f"{reds} Reds on the board and {white_reds + black_reds} captured: they must make 13"
        )

    ko: Optional[tuple[int, int]] = None
    if ko_text != "-":
        frm, to = parse_square(ko_text[:2]), parse_square(ko_text[2:])
        if len(ko_text) != 4 or frm is None or to is None:
            raise InvalidPositionError(f"ko must be '-' or a push like 'c4c3', got {quoted(ko_text)}")
        dirs = [d for d in range(4) if neighbour(frm, d) == to]
        if not dirs:
            raise InvalidPositionError(f"ko push {quoted(ko_text)} does not go to a neighbouring square")
        if bonus:
            raise InvalidPositionError("a bonus turn cannot have a ko (only a turn-ending push sets one)")
        if board[frm] != COLOURS[side] or board[to] == ".":
            raise InvalidPositionError(
                f"ko push {quoted(ko_text)} must push back a marble of the side to move into an occupied square"
            )
        ko = (frm, dirs[0])

    position = KubaPosition(
        params, board, side, (white_reds, black_reds), (blacks_captured, whites_captured), bonus, ko, ply, None
    )
    # Judge the position as read: a win, then the ply limit, then a player who cannot move.
    won = [position.reds[p] >= REDS_TO_WIN or board.count(COLOURS[1 - p]) == 0 for p in (0, 1)]
    if all(won):
        raise InvalidPositionError("both players have already won")
    if won[0] or won[1]:
        position.outcome = won.index(True)
    elif ply >= params["max_plies"]:  # type: ignore[operator]
        position.outcome = "draw"
    elif not bonus and not position.pushes():
        position.outcome = 1 - side
    return position


# --- actions and observation (docs/rules/kuba.md) --------------------------------------------

#: ``from * 4 + dir`` for a push, 196 for ``pass``.
PASS = 49 * 4
NUM_DISTINCT_ACTIONS = PASS + 1
MAX_CHOSEN_ACTIONS = 1
OBSERVATION_SHAPE = (10, SIZE, SIZE)


def move_actions(position: KubaPosition, move: str) -> list[int]:
    if move == "pass":
        return [PASS]
    frm, to = parse_square(move[:2]), parse_square(move[2:])
    assert frm is not None
    return [frm * 4 + next(d for d in range(4) if neighbour(frm, d) == to)]


def action_text(action: int) -> Optional[str]:
    if action == PASS:
        return "pass"
    if 0 <= action < PASS and neighbour(action // 4, action % 4) is not None:
        return push_name(action // 4, action % 4)
    return None


def ended_by_ply_limit(position: KubaPosition) -> bool:
    """Kuba's only draw is the ply limit's."""
    return position.outcome == "draw"


def observation(position: KubaPosition, pending: tuple[int, ...], player: int) -> list[float]:
    """Ten planes of 7x7 from ``player``'s side (files mirrored for Black, which puts its
    marbles where White's stand): the player's marbles, the opponent's, Reds, a bonus turn,
    the ko push's from-square and the square it would push to, the Reds each side captured
    / 7, the ply fraction, whether ``player`` is to move."""
    out = [0.0] * (10 * 49)

    def at(plane: int, sq: int) -> int:
        file = sq % SIZE if player == 0 else SIZE - 1 - sq % SIZE
        return plane * 49 + sq // SIZE * SIZE + file

    mine, theirs = COLOURS[player], COLOURS[1 - player]
    for sq, marble in enumerate(position.board):
        if marble != ".":
            out[at({mine: 0, theirs: 1, "R": 2}[marble], sq)] = 1.0
    if position.ko is not None:
        frm, d = position.ko
        out[at(4, frm)] = 1.0
        out[at(5, neighbour(frm, d))] = 1.0  # type: ignore[arg-type]
    constants = {
        3: 1.0 if position.bonus else 0.0,
        6: position.reds[player] / REDS_TO_WIN,
        7: position.reds[1 - player] / REDS_TO_WIN,
        8: fraction(position.ply, position.params["max_plies"]),  # type: ignore[arg-type]
        9: 1.0 if position.current_player == player else 0.0,
    }
    for plane, value in constants.items():
        out[plane * 49 : (plane + 1) * 49] = [value] * 49
    return out


# --- what a person is shown (the play hooks: glacier.play, the web app) ----------------------


def seat_notes(position: KubaPosition) -> list[str]:
    names = FACTS.seats[2]
    notes = []
    for p in range(2):
        theirs = f"{position.captured[p]} of {MARBLES[COLOURS[1 - p]]} {names[1 - p]}"
        notes.append(f"has taken {position.reds[p]} of {REDS_TO_WIN} Red, {theirs}")
    return notes


def end_reason(position: KubaPosition) -> str:
    names = FACTS.seats[2]
    winner = position.outcome
    if isinstance(winner, int):
        if position.reds[winner] >= REDS_TO_WIN:
            return "seven Reds captured"
        if position.board.count(COLOURS[1 - winner]) == 0:
            return f"every {names[1 - winner]} marble captured"
        return f"{names[1 - winner]} cannot push"
    return "the ply limit"


def gesture(action: str) -> tuple[str, ...]:
    """A push ``b1a1`` goes from the marble's square to the next one; ``pass`` is a button."""
    return ("choice",) if action == "pass" else ("move", action[:2], action[2:])


def choice_label(pending: tuple[str, ...], action: str) -> tuple[str, tuple[str, ...]]:
    """``pass`` declines the bonus push a capture earned."""
    return ("pass: no bonus push", ()) if action == "pass" else (action, ())

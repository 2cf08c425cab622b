"""Ice Cube Checkers, the reference implementation (the rules: docs/rules/ice_cube_checkers.md).

Twelve slots ``a``..``l`` form a counter-clockwise ring. A slot is stored as its counts
``(white cubes, black cubes, kings)``: identical pieces are indistinguishable, so a move is
a slot plus the sequence of piece kinds dropped, and the moves of a slot are the distinct
orders of its pieces that end with one of the mover's cubes.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Optional

from . import _zobrist
from ._actions import fraction
from ._base import InvalidPositionError, Outcome, Param, Position, max_plies, parse_count, resolve_params
from ._checks import quoted
from ._facts import BenchDepths, Facts, PerftCase, Picture

NAME = "ice_cube_checkers"
TITLE = "Ice Cube Checkers"
PARAMS: tuple[Param, ...] = (max_plies(200),)

#: What the tools around the game need to know of it (the engine's facts.rs says the same).
FACTS = Facts(
    seats={2: ("White", "Black")},
    mcts_player={"evaluator": "heuristic"},
    net_player={},
    playout_plies=0,
    bench=BenchDepths(perft=(11, 5), playouts=1000, perft_bench=(11, 8, 7), hashed_perft=(13, 327_519_216)),
    table_checks=(PerftCase(None, {}, 9), PerftCase(None, {"max_plies": 7}, 9)),
    starts={},
    kin={},
    pictures=(
        Picture("ice_cube_checkers-start", "Ice Cube Checkers: the start"),
        Picture(
            "ice_cube_checkers-sown",
            "Ice Cube Checkers: White has sown cup k into l, a and b",
            "BBK/WWWBB/W/K/-/-/-/-/-/-/-/WB b 11",
            last_move="k:BKW",
        ),
        Picture(
            "ice_cube_checkers-full-cup",
            "Ice Cube Checkers: all twelve pieces in one cup, seen from Black",
            "WWWWWBBBBBKK/-/-/-/-/-/-/-/-/-/-/- b 9",
            flipped=True,
        ),
        Picture(
            "ice_cube_checkers-won",
            "Ice Cube Checkers, finished: White controls the cup holding both Kings",
            "-/-/-/B/WKK/B/WBB/WW/-/-/-/WB w 16",
            last_move="c:BWB",
        ),
    ),
    variants=({}, {"max_plies": 12}, {"max_plies": 5}, {"max_plies": 30}),
)

SLOTS = 12
LETTERS = "abcdefghijkl"
KINDS = "WBK"  # index 0 is White's cube (player 0), 1 Black's (player 1), 2 a King Kube
KING = 2
TOTALS = (5, 5, 2)
KIND_NAMES = ("White cubes", "Black cubes", "King Kubes")
PLAYER_NAMES = ("White", "Black")
START = "W/W/W/K/W/W/B/B/B/K/B/B w 0"

# Zobrist keys: seed and indices as in docs/rules/ice_cube_checkers.md.
SEED = 0x0049434543554245  # "ICECUBE"
COUNT_KEYS = _zobrist.table(SEED, 0, SLOTS * 3 * 6)  # (slot * 3 + kind) * 6 + count, count >= 1
BLACK_TO_MOVE_KEY = _zobrist.key(SEED, SLOTS * 3 * 6)

Counts = tuple[int, int, int]


def resolve(params: dict[str, Any]) -> dict[str, Optional[int]]:
    return resolve_params(NAME, PARAMS, params)


@cache
def drop_orders(counts: Counts) -> tuple[str, ...]:
    """Every distinct order of the multiset ``counts`` (W, B, K), each exactly once.

    A distinct order is a first piece (one per kind present) followed by a distinct order
    of the rest, so nothing is produced twice and nothing needs filtering.
    """
    if sum(counts) == 0:
        return ("",)
    orders: list[str] = []
    for kind in range(3):
        if counts[kind]:
            rest = list(counts)
            rest[kind] -= 1
            orders.extend(KINDS[kind] + tail for tail in drop_orders(tuple(rest)))  # type: ignore[arg-type]
    return tuple(orders)


def slot_text(counts: Counts) -> str:
    return "".join(KINDS[kind] * counts[kind] for kind in range(3)) or "-"


def controls(slots: tuple[Counts, ...], player: int, slot: int) -> bool:
    """A player controls a slot with at least one of its cubes and none of the opponent's."""
    return slots[slot][player] > 0 and slots[slot][1 - player] == 0


def holds_the_kings(slots: tuple[Counts, ...], player: int) -> bool:
    """Whether ``player`` controls every slot that holds a King."""
    opponent = 1 - player
    return all(counts[player] and not counts[opponent] for counts in slots if counts[KING])


def controlled_slots(slots: tuple[Counts, ...], player: int) -> int:
    return sum(1 for s in range(SLOTS) if controls(slots, player, s))


def judge(slots: tuple[Counts, ...], first: int, ply: int, params: dict[str, Optional[int]]) -> Outcome:
    """``first`` (the player who just moved) wins if it holds the Kings, then the other
    player; then the ply limit, where more controlled slots wins and equal is a draw."""
    for player in (first, 1 - first):
        if holds_the_kings(slots, player):
            return player
    if ply >= params["max_plies"]:  # type: ignore[operator]
        white, black = controlled_slots(slots, 0), controlled_slots(slots, 1)
        return 0 if white > black else 1 if black > white else "draw"
    return None


def illegal(move: str, why: str) -> str:
    return f"illegal move {quoted(move)}: {why}"


class IceCubeCheckersPosition(Position):
    num_players = 2

    def __init__(
        self, params: dict[str, Optional[int]], slots: tuple[Counts, ...], side: int, ply: int, outcome: Outcome
    ) -> None:
        self.params = params
        self.slots = slots
        self.current_player = side
        self.ply = ply
        self.outcome = outcome

    # --- rules -------------------------------------------------------------------------

    def _generate(self) -> dict[str, Position]:
        if self.outcome is not None:
            return {}
        mover = self.current_player
        moves: dict[str, Position] = {}
        for slot in range(SLOTS):
            counts = self.slots[slot]
            if not counts[mover]:
                continue
            rest = list(counts)
            rest[mover] -= 1  # the last piece dropped is one of the mover's cubes
            for order in drop_orders(tuple(rest)):  # type: ignore[arg-type]
                drops = order + KINDS[mover]
                moves[f"{LETTERS[slot]}:{drops}"] = self.after(slot, drops)
        return moves

    def after(self, slot: int, drops: str) -> IceCubeCheckersPosition:
        """The position after lifting ``slot`` and dropping ``drops`` one per slot onwards."""
        board = list(self.slots)
        board[slot] = (0, 0, 0)
        for i, piece in enumerate(drops):
            to = (slot + 1 + i) % SLOTS
            w, b, k = board[to]
            board[to] = (w + (piece == "W"), b + (piece == "B"), k + (piece == "K"))
        slots = tuple(board)
        mover = self.current_player
        outcome = judge(slots, mover, self.ply + 1, self.params)
        return IceCubeCheckersPosition(self.params, slots, 1 - mover, self.ply + 1, outcome)

    def explain_illegal(self, move: str) -> str:
        if len(move) < 2 or move[1] != ":":
            return (
                f"{quoted(move)} is not an Ice Cube Checkers move: expected a slot letter, ':' and "
                "the pieces dropped in order, like 'd:KW'"
            )
        letter, pieces = move[0], move[2:]
        if letter not in LETTERS:
            return illegal(move, f"unknown slot '{letter}' (the slots are a..l)")
        for c in pieces:
            if c not in KINDS:
                return illegal(move, f"unknown piece '{c}' (pieces are W, B and K)")
        slot = LETTERS.index(letter)
        mover = self.current_player
        counts = self.slots[slot]
        if not counts[mover]:
            return illegal(move, f"slot {letter} holds no {PLAYER_NAMES[mover]} cube of the side to move")
        if len(pieces) != sum(counts):
            return illegal(
                move, f"wrong number of pieces: slot {letter} holds {sum(counts)}, the move drops {len(pieces)}"
            )
        for kind in range(3):
            dropped = pieces.count(KINDS[kind])
            if dropped != counts[kind]:
                return illegal(
                    move,
                    f"the pieces dropped are not the pieces in slot {letter}: "
                    f"it holds {counts[kind]} '{KINDS[kind]}', the move drops {dropped}",
                )
        if pieces[-1] != KINDS[mover]:
            return illegal(move, f"the last piece dropped must be a {PLAYER_NAMES[mover]} cube ('{KINDS[mover]}')")
        return illegal(move, "it is not legal here")

    # --- text and hash -----------------------------------------------------------------

    def text(self) -> str:
        return f"{'/'.join(slot_text(c) for c in self.slots)} {'wb'[self.current_player]} {self.ply}"

    def hash(self) -> int:
        h = 0
        for slot, counts in enumerate(self.slots):
            for kind, count in enumerate(counts):
                if count:
                    h ^= COUNT_KEYS[(slot * 3 + kind) * 6 + count]
        if self.current_player == 1:
            h ^= BLACK_TO_MOVE_KEY
        return h

    def board_string(self) -> str:
        cells = [slot_text(c).replace("-", ".") for c in self.slots]
        width = max(len(c) for c in cells)

        def row(order: range, label: bool) -> str:
            return "  ".join(f"{LETTERS[s] if label else cells[s]:<{width}}" for s in order).rstrip()

        black_row = range(SLOTS - 1, 5, -1)  # g..l runs right to left seen from White's side
        lines = [row(black_row, True), row(black_row, False), row(range(6), False), row(range(6), True)]
        if self.outcome is None:
            status = f"{PLAYER_NAMES[self.current_player]} to move"
        elif self.outcome == "draw":
            status = "draw"
        else:
            status = f"{PLAYER_NAMES[self.outcome]} wins"  # type: ignore[index]
        lines.append(
            f"{status}, ply {self.ply}; White controls {controlled_slots(self.slots, 0)} slots, "
            f"Black {controlled_slots(self.slots, 1)}"
        )
        return "\n".join(lines)


def start(params: dict[str, Optional[int]]) -> IceCubeCheckersPosition:
    return parse(START, params)


def _parse_slots(text: str) -> tuple[Counts, ...]:
    parts = text.split("/")
    if len(parts) != SLOTS:
        raise InvalidPositionError(
            f"an Ice Cube Checkers position needs 12 slots a..l separated by '/', got {len(parts)}"
        )
    slots = []
    totals = [0, 0, 0]
    for slot, part in enumerate(parts):
        letter = LETTERS[slot]
        counts = [0, 0, 0]
        if part == "-":
            slots.append((0, 0, 0))
            continue
        if not part:
            raise InvalidPositionError(f"slot {letter} is blank: write '-' for an empty slot")
        last_kind = 0
        for c in part:
            if c not in KINDS:
                raise InvalidPositionError(
                    f"unexpected '{c}' in slot {letter} ({quoted(part)}): a slot holds W, B and K, or is '-'"
                )
            kind = KINDS.index(c)
            if kind < last_kind:
                raise InvalidPositionError(f"slot {letter} ({quoted(part)}) must list its pieces in the order W, B, K")
            last_kind = kind
            totals[kind] += 1
            if totals[kind] > TOTALS[kind]:
                raise InvalidPositionError(
                    f"too many {KIND_NAMES[kind]}: the position must have exactly {TOTALS[kind]} in all"
                )
            counts[kind] += 1
        slots.append((counts[0], counts[1], counts[2]))
    for kind in range(3):
        if totals[kind] != TOTALS[kind]:
            raise InvalidPositionError(
                f"the position has {totals[kind]} {KIND_NAMES[kind]} ('{KINDS[kind]}'), "
                f"it must have exactly {TOTALS[kind]}"
            )
    return tuple(slots)


def parse(text: str, params: dict[str, Optional[int]]) -> IceCubeCheckersPosition:
    if not isinstance(text, str):
        raise TypeError(f"position text must be a str, got {type(text).__name__}")
    fields = text.split(" ")
    if len(fields) != 3:
        raise InvalidPositionError(
            "an Ice Cube Checkers position has 3 fields separated by single spaces "
            f"(slots, side to move, ply count), got {len(fields)}: {quoted(text)}"
        )
    slots_text, side_text, ply_text = fields
    slots = _parse_slots(slots_text)
    if side_text not in ("w", "b"):
        raise InvalidPositionError(f"side to move must be 'w' or 'b', got {quoted(side_text)}")
    side = "wb".index(side_text)
    ply = parse_count(ply_text)
    if ply is None:
        raise InvalidPositionError(f"ply count must be a number (no sign or leading zeros), got {quoted(ply_text)}")
    # Judged as after a move: the player not to move (who made the last move) first.
    return IceCubeCheckersPosition(params, slots, side, ply, judge(slots, 1 - side, ply, params))


# --- actions and observation (docs/rules/ice_cube_checkers.md) -------------------------------

#: Actions 0-11 pick a slot, 12-14 drop a White cube, a Black cube, a King.
DROP = SLOTS
NUM_DISTINCT_ACTIONS = SLOTS + 3
#: The slot and at most 10 drops (the last two of a slot's drops are always forced).
MAX_CHOSEN_ACTIONS = 11
OBSERVATION_SHAPE = (10, SLOTS)


def move_actions(position: IceCubeCheckersPosition, move: str) -> list[int]:
    """The slot, then every piece dropped, in order."""
    return [LETTERS.index(move[0])] + [DROP + KINDS.index(piece) for piece in move[2:]]


def action_text(action: int) -> Optional[str]:
    if 0 <= action < SLOTS:
        return f"slot {LETTERS[action]}"
    if DROP <= action < DROP + 3:
        return f"drop {KINDS[action - DROP]}"
    return None


def ended_by_ply_limit(position: IceCubeCheckersPosition) -> bool:
    """The ply limit's tie-break decided the game: nobody holds the Kings."""
    return position.outcome is not None and not any(holds_the_kings(position.slots, p) for p in (0, 1))


def observation(position: IceCubeCheckersPosition, pending: tuple[int, ...], player: int) -> list[float]:
    """Ten rows over the slots, counted from ``player``'s first slot: the board as it stands
    (player's cubes / 5, opponent's / 5, Kings / 2), the slot sown from, the next slot to
    drop into, the pieces in hand (constant rows), the ply fraction, and whether ``player``
    is to move."""
    slots = [list(c) for c in position.slots]
    hand = [0, 0, 0]
    sowing: Optional[tuple[int, int]] = None
    if pending:
        frm = pending[0]
        hand = slots[frm]
        slots[frm] = [0, 0, 0]
        to = frm
        for drop in pending[1:]:
            to = (to + 1) % SLOTS
            hand[drop - DROP] -= 1
            slots[to][drop - DROP] += 1
        sowing = (frm, (to + 1) % SLOTS)
    me, them = player, 1 - player
    out = [0.0] * (10 * SLOTS)

    def put(row: int, slot: int, value: float) -> None:
        out[row * SLOTS + (slot - 6 * me) % SLOTS] = value

    for slot, counts in enumerate(slots):
        put(0, slot, counts[me] / TOTALS[me])
        put(1, slot, counts[them] / TOTALS[them])
        put(2, slot, counts[KING] / TOTALS[KING])
    if sowing is not None:
        put(3, sowing[0], 1.0)
        put(4, sowing[1], 1.0)
    constants = [
        hand[me] / TOTALS[me],
        hand[them] / TOTALS[them],
        hand[KING] / TOTALS[KING],
        fraction(position.ply, position.params["max_plies"]),  # type: ignore[arg-type]
        1.0 if position.current_player == me else 0.0,
    ]
    for row, value in enumerate(constants, start=5):
        out[row * SLOTS : (row + 1) * SLOTS] = [value] * SLOTS
    return out


# --- what a person is shown (the play hooks: glacier.play, the web app) ----------------------


def seat_notes(position: IceCubeCheckersPosition) -> list[str]:
    return [f"controls {controlled_slots(position.slots, p)} cups" for p in range(2)]


def end_reason(position: IceCubeCheckersPosition) -> str:
    names = FACTS.seats[2]
    winner = position.outcome if isinstance(position.outcome, int) else None
    if winner is not None and holds_the_kings(position.slots, winner):
        return f"{names[winner]} controls every cup holding a King"
    counts = f"{controlled_slots(position.slots, 0)} cups to {controlled_slots(position.slots, 1)}"
    if winner is None:
        return f"the ply limit, {counts}"
    return f"the ply limit, {names[winner]} controls more cups ({counts})"


def gesture(action: str) -> tuple[str, ...]:
    """A sowing begins with a click on its cup (``slot c``: the cell ``c``); each drop is a
    button."""
    return ("cell", action[5:]) if action.startswith("slot ") else ("choice",)


#: A drop's piece in words, by its letter (``drop W``).
DROP_NAMES = {"W": "a White cube", "B": "a Black cube", "K": "a King Kube"}


def choice_label(pending: tuple[str, ...], action: str) -> tuple[str, tuple[str, ...]]:
    """A drop names its piece and marks the cup it falls into: the one after the cups
    already sown."""
    if not (action.startswith("drop ") and pending and pending[0].startswith("slot ")):
        return action, ()
    into = LETTERS[(LETTERS.index(pending[0][5:]) + len(pending)) % SLOTS]
    return f"drop {DROP_NAMES[action[5:]]} into cup {into}", (into,)

"""Martian Chinese Checkers, "E", the reference implementation
(docs/rules/martian_chinese_checkers.md).

The board is the hexagon of side 7 in axial coordinates ``(q, r)`` (``s = -q - r``); hexes are
numbered 0..126 in board order (``q`` first, then ``r``), which is also the order of the
position text. A board is a tuple of 127 stacks; a stack is a tuple of pieces bottom to top;
a piece is ``(colour, size)`` with the colour a territory number 0..5 and the size 1 (small),
2 (medium) or 3 (large).

Children in the move dict are built lazily: a child keeps a recipe for its board and only
builds it when something looks at it, so generating the moves of a position costs little
more than testing them.
"""

from __future__ import annotations

from functools import cache, partial
from typing import Any, Callable, Iterator, Optional

from . import _zobrist
from ._actions import fraction
from ._base import (
    U32_MAX,
    InvalidPositionError,
    Outcome,
    Param,
    Position,
    max_plies,
    parse_count,
    resolve_params,
    text_disagrees,
)
from ._checks import quoted
from ._facts import BenchDepths, Facts, PerftCase, Picture

NAME = "martian_chinese_checkers"
TITLE = "E (Martian Chinese Checkers)"
PARAMS: tuple[Param, ...] = (
    Param("players", 2, 2, 6),
    Param("stack_limit", None, 1, U32_MAX, optional=True),
    max_plies(2000),
)

_WON = (
    "2 1 211 a7=3l a8=0l3s a9=0l3m a10=0l3s a11=0l a12=0l b8=0m b9=0m b10=0m b11=0m b12=3l c8=0s c9=0m "
    "c10=0s d7=3l d8=0s d9=0s e8=0s e9=3l g1=3l g4=3m g7=3m g10=3m g13=3m i5=3s j7=3s l2=3s"
)
_THREE = (
    "3 0 192 b11=4s c5=2l4m4m c6=2m c10=4m d8=2s2m2s d13=4l e3=2l e4=2s e5=2s e8=4s e9=4s e10=4l e12=4m "
    "e13=4l f3=2m f5=2m f7=0m f8=0s4m g6=2s g8=0s4s g11=4s i2=2l i5=0m i7=4l j1=2l j2=0l j4=0s j6=0m j8=0l "
    "j9=0l k2=2m k5=0s k6=2l l2=0m l4=0s l7=4l m4=0l m6=0l m7=0m"
)
_SIX = (
    "6 2 266 a8=3l a12=3l a13=3l b6=2l b8=2m b9=3m b11=2m3s b12=3m b13=4l c5=2l c6=2s c8=3s c9=2m c10=4m "
    "c11=4s c12=4m c13=4l d7=2l3m d8=1s3s d9=3l d10=3s d12=4m5s d13=4l5m e4=2m e5=2s e6=2l e9=3m e11=4s "
    "e12=5l e13=4l f2=1m1m f4=3m2s f6=2s f8=3s f10=4s f13=4l g5=0l3l5s g6=1m g8=4s g12=4m h2=2s h3=1s "
    "h4=1l2m2l h5=1s h7=1s i1=1l i2=1m i3=1s i5=1m i8=5m0s i9=4m j4=0l j6=5s j7=0s j8=5s j9=5m j10=5l "
    "k1=1l k4=4s0s k6=0s k9=5l0m l1=1l l3=0m l4=0m l5=5l l6=0m l7=0m5s l8=5l0s m1=1l m3=0l m4=5m m5=0l "
    "m6=0l m7=5m"
)

#: What the tools around the game need to know of it (the engine's facts.rs says the same).
FACTS = Facts(
    # The territories' colours (the pictures use the same): Red, Yellow, Green, Blue, Black,
    # Clear; each number of players sits in the territories the rules page lists.
    seats={
        2: ("Red", "Blue"),
        3: ("Red", "Green", "Black"),
        4: ("Red", "Yellow", "Blue", "Black"),
        5: ("Red", "Yellow", "Green", "Blue", "Black"),
        6: ("Red", "Yellow", "Green", "Blue", "Black", "Clear"),
    },
    # Rollouts cut after 20 plies, PUCT over the engine's priors (the work toward the goal
    # each move saves): with the priors the simulations go deep on the few moves that matter
    # instead of one visit to each of some 60 moves.
    mcts_player={"evaluator": "rollout", "rollout_plies": 20, "priors": "heuristic"},
    # A net's priors, and the values of 20-ply rollouts that draw their moves by the game's
    # move priority: E's nets judge a position worse than such rollouts do, and rate its
    # moves well at a fraction of the cost of the engine's priors.
    net_player={"rollout_mix": 1.0, "rollout_plies": 20, "rollout_policy": "move_priority"},
    # Random games of E never finish, so whole ones score 0.
    playout_plies=20,
    bench=BenchDepths(perft=(5, 2), playouts=100, perft_bench=(5, 3, 3), hashed_perft=None),
    table_checks=(PerftCase(None, {}, 4), PerftCase(None, {"max_plies": 3}, 4)),
    starts={},
    # OpenSpiel's Chinese checkers: a similar game on a similar board.
    kin={"chinese_checkers": None},
    pictures=(
        Picture("e2-start", "E, two players: the start"),
        Picture("e2-hex-names", "E: the name of every hex", cell_names=True),
        Picture(
            "e3-stacks",
            "E, three players: stacks, and a move ending in an exchange",
            _THREE,
            {"players": 3},
            last_move="b10/0-d8xd8/1=c5/2",
        ),
        Picture(
            "e6-tall-stacks",
            "E, six players: tall stacks, seen from player 2 (Green), two arrows",
            _SIX,
            {"players": 6},
            last_move="h6/0-h4xh4/2=f2/1",
            arrows=("h4/2-e7", "d7/0-g4"),
            perspective=2,
        ),
        Picture("e2-won", "E, two players, finished: Red fills Blue's corner", _WON),
    ),
    variants=(
        {"players": 2},
        {"players": 3},
        {"players": 4},
        {"players": 5},
        {"players": 6},
        {"players": 2, "stack_limit": 2},
        {"players": 4, "stack_limit": 3},
        {"players": 3, "max_plies": 50},
        {"players": 6, "stack_limit": 1, "max_plies": 120},
    ),
)

Piece = tuple[int, int]
Stack = tuple[Piece, ...]
Board = tuple[Stack, ...]
Place = tuple[int, int]  # (hex, level)

LETTERS = "abcdefghijklm"
SIZE_LETTERS = "sml"  # size 1, 2, 3
SIZE_NAMES = ("small", "medium", "large")
#: Axial steps (dq, dr), in the order the rules page lists them.
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
#: The sign pattern of (q, r, s) of each territory, numbered clockwise.
SIGNS = ((1, -1, -1), (1, -1, 1), (-1, -1, 1), (-1, 1, 1), (-1, 1, -1), (1, 1, -1))
#: The territories (colours) of the seats, player i taking the i-th one.
SEATS = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 5: (0, 1, 2, 3, 4), 6: (0, 1, 2, 3, 4, 5)}
PIECES_PER_SIZE = 5
PIECES = 3 * PIECES_PER_SIZE
#: A stack never holds more than every piece of six players.
MAX_LEVELS = 6 * PIECES


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


HEXES = [(q, r) for q in range(-6, 7) for r in range(-6, 7) if max(abs(q), abs(r), abs(q + r)) <= 6]
INDEX = {qr: i for i, qr in enumerate(HEXES)}
HEX_NAMES = [LETTERS[q + 6] + str(r + 7) for q, r in HEXES]
HEX_BY_NAME = {name: i for i, name in enumerate(HEX_NAMES)}
CUBE = [(q, r, -q - r) for q, r in HEXES]
NEIGHBOURS = [tuple(INDEX.get((q + dq, r + dr)) for dq, dr in DIRS) for q, r in HEXES]
DISTANCE = [max(abs(c) for c in cube) for cube in CUBE]


def _ray(hex_: Optional[int], d: int) -> list[int]:
    out = []
    for _ in range(3):
        hex_ = NEIGHBOURS[hex_][d] if hex_ is not None else None
        if hex_ is None:
            break
        out.append(hex_)
    return out


#: RAYS[hex][d]: the (up to 3) hexes from ``hex`` in direction ``d``, nearest first.
RAYS = [[_ray(h, d) for d in range(6)] for h in range(len(HEXES))]
#: The ways to split a movement of 1, 2 or 3 hexes into steps (1) and jumps (2).
SPLITS = {1: ((1,),), 2: ((1, 1), (2,)), 3: ((1, 1, 1), (1, 2), (2, 1))}
#: The territory a hex lies in, or None on the border lines and the centre.
TERRITORY: list[Optional[int]] = [
    SIGNS.index(tuple(_sign(c) for c in cube)) if 0 not in cube else None  # type: ignore[arg-type]
    for cube in CUBE
]
#: The territories whose home (its 15 hexes, its two border rays and the centre) holds a hex:
#: every coordinate is 0 or has the territory's sign.
HOME = [
    frozenset(t for t in range(6) if all(c == 0 or _sign(c) == SIGNS[t][j] for j, c in enumerate(cube)))
    for cube in CUBE
]
TERRITORY_HEXES = [[i for i in range(len(HEXES)) if TERRITORY[i] == t] for t in range(6)]


def start_size(i: int) -> int:
    """The size of the piece on territory hex ``i`` at the start: large on the outer row,
    medium on the next, small-medium-small (medium on the axis, where two coordinates are
    equal), then 2 small and 1 small at the tip."""
    d = DISTANCE[i]
    if d == 6:
        return 3
    if d == 5:
        return 2
    q, r, s = CUBE[i]
    if d == 4 and (q == r or s in (q, r)):
        return 2
    return 1


def goal_of(colour: int) -> int:
    return (colour + 3) % 6


# Zobrist keys: seed and indices as in docs/rules/martian_chinese_checkers.md.
SEED = 0x4D415253  # "MARS"
SIDE_BASE = len(HEXES) * MAX_LEVELS * 6 * 3  # 205740


@cache
def piece_key(hex_: int, level: int, colour: int, size: int) -> int:
    return _zobrist.key(SEED, ((hex_ * MAX_LEVELS + level) * 6 + colour) * 3 + size - 1)


SIDE_KEYS = _zobrist.table(SEED, SIDE_BASE, 6)


def resolve(params: dict[str, Any]) -> dict[str, Optional[int]]:
    return resolve_params(NAME, PARAMS, params)


def place_name(place: Place) -> str:
    return f"{HEX_NAMES[place[0]]}/{place[1]}"


def exchange_text(x: Place, g: Place) -> str:
    return f"x{place_name(x)}={place_name(g)}"


# --- board operations (boards are immutable tuples) ----------------------------------------


def is_trapped(stack: Stack, level: int) -> bool:
    """Some piece above is at least as large."""
    size = stack[level][1]
    return any(s >= size for _, s in stack[level + 1 :])


def trapped_colours(stack: Stack, level: int) -> set[int]:
    """The colours of the pieces the piece at ``level`` traps (below it, at most its size)."""
    size = stack[level][1]
    return {c for c, s in stack[:level] if s <= size}


def lift_and_drop(board: Board, frm: int, level: int, to: int) -> Board:
    """The piece at ``frm``/``level`` with everything above it moved onto ``to``."""
    b = list(board)
    b[to] = board[to] + board[frm][level:]
    b[frm] = board[frm][:level]
    return tuple(b)


def swap(board: Board, x: Place, g: Place) -> Board:
    """The pieces at places ``x`` and ``g`` trade places (the two may share a stack)."""
    (hx, lx), (hg, lg) = x, g
    piece_x, piece_g = board[hx][lx], board[hg][lg]
    stacks = list(board)
    stack = list(stacks[hx])
    stack[lx] = piece_g
    stacks[hx] = tuple(stack)
    stack = list(stacks[hg])  # the updated stack when they share one
    stack[lg] = piece_x
    stacks[hg] = tuple(stack)
    return tuple(stacks)


def guards_on(hex_: int, stack: Stack, me: int) -> list[tuple[Place, int]]:
    """The pieces of ``stack`` (on ``hex_``) of another colour than ``me`` that trap a piece
    of ``me``, with their colours: the possible partners G of an exchange."""
    return [
        ((hex_, level), colour)
        for level, (colour, _) in enumerate(stack)
        if colour != me and me in trapped_colours(stack, level)
    ]


def guards_of(board: Board, me: int) -> list[tuple[Place, int]]:
    return [guard for hex_, stack in enumerate(board) if len(stack) > 1 for guard in guards_on(hex_, stack, me)]


def exchange_partners(board: Board, me: int, x: Place, guards: list[tuple[Place, int]]) -> list[Place]:
    """Every G the mover (colour ``me``) may exchange with its piece at ``x``: G has a colour
    c other than ``me`` that X traps, and G traps a piece of ``me`` (``guards``)."""
    wanted = trapped_colours(board[x[0]], x[1])
    return [g for g, colour in guards if colour in wanted]


def goal_complete(board: Board, colour: int) -> bool:
    """Each of the 15 hexes of the colour's goal holds exactly one piece of that colour."""
    return all(sum(1 for c, _ in board[h] if c == colour) == 1 for h in TERRITORY_HEXES[goal_of(colour)])


class MartianPosition(Position):
    def __init__(
        self,
        params: dict[str, Optional[int]],
        player: int,
        ply: int,
        board: Optional[Board] = None,
        recipe: Optional[Callable[[], Board]] = None,
        judge_from: int = 0,
    ) -> None:
        self.params = params
        self.num_players = params["players"]  # type: ignore[assignment]
        self.seats = SEATS[self.num_players]
        self.current_player = player
        self.ply = ply
        self._board = board
        self._recipe = recipe
        self._judge_from = judge_from  # the first player whose goal is checked
        self._judged = False
        self._outcome: Outcome = None
        self._landing: Optional[list[int]] = None

    # --- lazily built state ------------------------------------------------------------

    @property
    def board(self) -> Board:
        if self._board is None:
            assert self._recipe is not None
            self._board = self._recipe()
            self._recipe = None
        return self._board

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        if not self._judged:
            self._outcome = self._judge()
            self._judged = True
        return self._outcome

    def _judge(self) -> Outcome:
        """The goal check, from ``judge_from`` on clockwise, then the ply limit."""
        n = self.num_players
        for k in range(n):
            player = (self._judge_from + k) % n
            if goal_complete(self.board, self.seats[player]):
                return player
        if self.ply >= self.params["max_plies"]:  # type: ignore[operator]
            return "draw"
        return None

    def _child(self, board: Optional[Board] = None, recipe: Optional[Callable[[], Board]] = None) -> MartianPosition:
        mover = self.current_player
        return MartianPosition(
            self.params, (mover + 1) % self.num_players, self.ply + 1, board, recipe, judge_from=mover
        )

    # --- rules -------------------------------------------------------------------------

    def landing_sizes(self) -> list[int]:
        """Per hex, the largest moved piece of the player to move that may touch down there,
        0 when none may: not directly on its own colour, and smaller than every piece there
        whose owner's home territory holds the hex (the moving pieces are never on it)."""
        if self._landing is None:
            me = self.seats[self.current_player]
            sizes = []
            for hex_, stack in enumerate(self.board):
                if not stack:
                    sizes.append(3)
                elif stack[-1][0] == me:
                    sizes.append(0)
                else:
                    home = HOME[hex_]
                    sizes.append(min((s for c, s in stack if c in home), default=4) - 1)
            self._landing = sizes
        return self._landing

    def landable(self, hex_: int, size: int, moving: int) -> bool:
        """Whether the player to move may touch down on ``hex_`` with a moved piece of ``size``
        carrying ``moving`` pieces in all (itself and its riders)."""
        if self.landing_sizes()[hex_] < size:
            return False
        limit = self.params["stack_limit"]
        return limit is None or len(self.board[hex_]) + moving <= limit

    def walkable(self, path: list[int], size: int, moving: int) -> bool:
        """Whether the straight ``path`` (the hexes at distance 1..size) splits into steps and
        jumps (each over an occupied hex) that touch down only on landable hexes."""
        board = self.board
        sizes = self.landing_sizes()
        limit = self.params["stack_limit"]

        def landable(hex_: int) -> bool:  # as self.landable(hex_, size, moving)
            return sizes[hex_] >= size and (limit is None or len(board[hex_]) + moving <= limit)

        for split in SPLITS[size]:
            done = 0
            for length in split:
                if length == 2 and not board[path[done]]:
                    break  # a jump needs a piece to jump over
                done += length
                if not landable(path[done - 1]):
                    break
            else:
                return True
        return False

    def movements(self) -> Iterator[tuple[int, int, int]]:
        """Every legal movement ``(from hex, level, to hex)`` of the player to move."""
        board = self.board
        me = self.seats[self.current_player]
        for hex_, stack in enumerate(board):
            for level, (colour, size) in enumerate(stack):
                if colour != me or is_trapped(stack, level):
                    continue
                moving = len(stack) - level
                for ray in RAYS[hex_]:
                    if len(ray) >= size and self.walkable(ray[:size], size, moving):
                        yield hex_, level, ray[size - 1]

    def exchanges(self, guards: list[tuple[Place, int]]) -> Iterator[tuple[Place, Place]]:
        """Every whole-turn guard exchange ``(X, G)`` of the player to move (``guards``: the
        pieces that trap one of its pieces)."""
        board = self.board
        me = self.seats[self.current_player]
        if not guards:
            return
        for hex_, stack in enumerate(board):
            for level, (colour, _) in enumerate(stack):
                if colour == me:
                    for g in exchange_partners(board, me, (hex_, level), guards):
                        yield (hex_, level), g

    def _generate(self) -> dict[str, Position]:
        if self.outcome is not None:
            return {}
        board = self.board
        me = self.seats[self.current_player]
        moves: dict[str, Position] = {}
        guards = guards_of(board, me)
        for frm, level, to in self.movements():
            text = f"{HEX_NAMES[frm]}/{level}-{HEX_NAMES[to]}"
            moves[text] = self._child(recipe=partial(lift_and_drop, board, frm, level, to))
            size = board[frm][level][1]
            # An exchange can end the move only if X now traps a piece of another colour.
            if any(c != me and s <= size for c, s in board[to]):
                after = lift_and_drop(board, frm, level, to)
                x = (to, len(board[to]))
                # Only the two stacks the movement touched have new guards.
                guards_after = [g for g in guards if g[0][0] not in (frm, to)]
                guards_after += guards_on(frm, after[frm], me) + guards_on(to, after[to], me)
                for g in exchange_partners(after, me, x, guards_after):
                    moves[text + exchange_text(x, g)] = self._child(recipe=partial(swap, after, x, g))
        for x, g in self.exchanges(guards):
            moves[exchange_text(x, g)] = self._child(recipe=partial(swap, board, x, g))
        if not moves:
            moves["pass"] = self._child(board=board)
        return moves

    def explain_illegal(self, move: str) -> str:
        return explain_illegal(self, move)

    # --- text and hash -----------------------------------------------------------------

    def text(self) -> str:
        stacks = [
            f"{HEX_NAMES[h]}={''.join(f'{c}{SIZE_LETTERS[s - 1]}' for c, s in stack)}"
            for h, stack in enumerate(self.board)
            if stack
        ]
        return " ".join([str(self.num_players), str(self.current_player), str(self.ply), *stacks])

    def hash(self) -> int:
        h = SIDE_KEYS[self.current_player]
        for hex_, stack in enumerate(self.board):
            for level, (colour, size) in enumerate(stack):
                h ^= piece_key(hex_, level, colour, size)
        return h

    def board_string(self) -> str:
        return board_string(self)


# --- explaining illegal moves ------------------------------------------------------------


def parse_place(text: str) -> Optional[Place]:
    """``<hex>/<level>`` with a canonical level, or None."""
    name, sep, level_text = text.partition("/")
    level = parse_count(level_text)
    if not sep or name not in HEX_BY_NAME or level is None:
        return None
    return HEX_BY_NAME[name], level


def parse_move_text(text: str) -> Optional[tuple[Optional[tuple[Place, int]], Optional[tuple[Place, Place]]]]:
    """Splits a move into its movement ``((from, level), to)`` and its exchange ``(X, G)``,
    either of which may be absent; None when the text is not in the notation."""
    movement_text, sep, exchange_part = text.partition("x")
    movement = None
    if movement_text:
        frm_text, dash, to_text = movement_text.partition("-")
        frm = parse_place(frm_text)
        if not dash or frm is None or to_text not in HEX_BY_NAME:
            return None
        movement = (frm, HEX_BY_NAME[to_text])
    exchange = None
    if sep:
        x_text, eq, g_text = exchange_part.partition("=")
        x, g = parse_place(x_text), parse_place(g_text)
        if not eq or x is None or g is None:
            return None
        exchange = (x, g)
    if movement is None and exchange is None:
        return None
    return movement, exchange


def explain_illegal(position: MartianPosition, move: str) -> str:
    if move == "pass":
        return "'pass' is only legal when the player to move has no other move"
    parsed = parse_move_text(move)
    if parsed is None:
        return (
            f"{quoted(move)} is not an E move: expected '<hex>/<level>-<hex>' (e.g. 'd5/0-e5'), optionally "
            "followed by an exchange 'x<hex>/<level>=<hex>/<level>', a lone exchange, or 'pass'"
        )
    movement, exchange = parsed
    board = position.board
    me = position.seats[position.current_player]
    if movement is not None:
        (frm, level), to = movement
        stack = board[frm]
        if level >= len(stack):
            return f"illegal move {quoted(move)}: there is no piece at {place_name((frm, level))}"
        colour, size = stack[level]
        if colour != me:
            return (
                f"illegal move {quoted(move)}: the piece at {place_name((frm, level))} "
                f"has colour {colour}, not the mover's {me}"
            )
        if is_trapped(stack, level):
            return (
                f"illegal move {quoted(move)}: the piece at {place_name((frm, level))} "
                "is trapped (a piece above it is at least as large)"
            )
        path = next((ray[:size] for ray in RAYS[frm] if len(ray) >= size and ray[size - 1] == to), None)
        if path is None:
            return (
                f"illegal move {quoted(move)}: a {SIZE_NAMES[size - 1]} piece moves exactly {size} "
                f"hex{'es' if size > 1 else ''} in a straight line"
            )
        if not position.walkable(path, size, len(stack) - level):
            return (
                f"illegal move {quoted(move)}: no split of the path into steps and jumps touches down only on "
                "landable hexes (empty or topped by another colour, no trap in a home territory, "
                "within the stack limit)"
            )
        if exchange is None:
            return f"illegal move {quoted(move)}: it is not legal here"
        return f"illegal move {quoted(move)}: that guard exchange cannot end this move"
    return f"illegal move {quoted(move)}: not a guard exchange the player to move can make"


# --- reading and writing -------------------------------------------------------------------


def board_string(position: MartianPosition) -> str:
    """The board as rows of constant r (number 1 at the top), each hex showing its top piece,
    with the number and the first and last letter of every row on the rim."""
    board = position.board
    lines = []
    for r in range(-6, 7):
        cells = []
        for q in range(-6, 7):
            i = INDEX.get((q, r))
            if i is None:
                continue
            stack = board[i]
            if not stack:
                cells.append(" . " if TERRITORY[i] is None else " - ")
            else:
                c, s = stack[-1]
                cells.append(f"{c}{SIZE_LETTERS[s - 1]}{'+' if len(stack) > 1 else ' '}")
        # Each row starts with its number and the letter of its first hex and ends with the
        # letter of its last one: letters grow by one per hex along a row.
        first, last = "abcdefghijklm"[max(-6, -6 - r) + 6], "abcdefghijklm"[min(6, 6 - r) + 6]
        lines.append(f"{r + 7:>2} {first} " + " " * (2 * abs(r)) + " ".join(cells) + f" {last}")
    tall = [
        f"{HEX_NAMES[h]}={''.join(f'{c}{SIZE_LETTERS[s - 1]}' for c, s in st)}"
        for h, st in enumerate(board)
        if len(st) > 1
    ]
    if tall:
        lines.append("stacks (bottom to top): " + " ".join(tall))
    outcome = position.outcome
    if outcome is None:
        status = f"player {position.current_player} (colour {position.seats[position.current_player]}) to move"
    elif outcome == "draw":
        status = "draw"
    else:
        status = f"player {outcome} (colour {position.seats[outcome]}) wins"  # type: ignore[index]
    lines.append(f"{position.num_players} players, {status}, ply {position.ply}")
    return "\n".join(lines)


def start(params: dict[str, Optional[int]]) -> MartianPosition:
    n = params["players"]
    assert n is not None
    stacks: list[Stack] = [() for _ in HEXES]
    for colour in SEATS[n]:
        for h in TERRITORY_HEXES[colour]:
            stacks[h] = ((colour, start_size(h)),)
    position = MartianPosition(params, 0, 0, tuple(stacks), judge_from=n - 1)
    return position


def text_params(text: str) -> dict[str, int]:
    """The number of players, the text's first field (when it is one: 2 to 6)."""
    n = parse_count(text.split(" ")[0]) if isinstance(text, str) else None
    return {"players": n} if n is not None and 2 <= n <= 6 else {}


def parse(text: str, params: dict[str, Optional[int]]) -> MartianPosition:
    if not isinstance(text, str):
        raise TypeError(f"position text must be a str, got {type(text).__name__}")
    fields = text.split(" ")
    if len(fields) < 4:
        raise InvalidPositionError(
            "an E position is '<players> <player to move> <ply> <hex>=<stack> ...' separated by "
            f"single spaces, got {quoted(text)}"
        )
    players_text, player_text, ply_text = fields[:3]
    n = parse_count(players_text)
    if n is None or not 2 <= n <= 6:
        raise InvalidPositionError(f"the number of players must be 2 to 6, got {quoted(players_text)}")
    if n != params["players"]:
        raise text_disagrees("players", n, params["players"])
    player = parse_count(player_text)
    if player is None or player >= n:
        raise InvalidPositionError(f"the player to move must be a number from 0 to {n - 1}, got {quoted(player_text)}")
    ply = parse_count(ply_text)
    if ply is None:
        raise InvalidPositionError(f"the ply count must be a number, got {quoted(ply_text)}")
    seats = SEATS[n]
    stacks: list[Stack] = [() for _ in HEXES]
    seen = [False] * len(HEXES)
    counts: dict[Piece, int] = {}
    limit = params["stack_limit"]
    for field in fields[3:]:
        name, eq, stack_text = field.partition("=")
        if not eq:
            raise InvalidPositionError(f"expected '<hex>=<stack>', got {quoted(field)}")
        hex_ = HEX_BY_NAME.get(name)
        if hex_ is None:
            raise InvalidPositionError(f"{quoted(name)} is not a hex of the board (a1..m13, within the hexagon)")
        if seen[hex_]:
            raise InvalidPositionError(f"hex {name} is listed twice")
        seen[hex_] = True
        if not stack_text or len(stack_text) % 2 or not stack_text.isascii():
            raise InvalidPositionError(
                f"the stack on {name} must be pieces like '0s3l' (colour digit, size s/m/l), got {quoted(stack_text)}"
            )
        pieces = []
        for k in range(0, len(stack_text), 2):
            digit, letter = stack_text[k], stack_text[k + 1]
            if digit not in "012345" or letter not in SIZE_LETTERS:
                raise InvalidPositionError(
                    f"bad piece '{stack_text[k : k + 2]}' on {name}: a piece is a colour digit 0-5 and a size s/m/l"
                )
            colour = int(digit)
            if colour not in seats:
                raise InvalidPositionError(
                    f"a piece of colour {colour} on {name}, "
                    f"but with {n} players the colours are {', '.join(map(str, seats))}"
                )
            piece = (colour, SIZE_LETTERS.index(letter) + 1)
            counts[piece] = counts.get(piece, 0) + 1
            pieces.append(piece)
        if limit is not None and len(pieces) > limit:
            raise InvalidPositionError(
                f"the stack on {name} has {len(pieces)} pieces, more than the stack_limit {limit}"
            )
        stacks[hex_] = tuple(pieces)
    for colour in seats:
        for size in (1, 2, 3):
            count = counts.get((colour, size), 0)
            if count != PIECES_PER_SIZE:
                raise InvalidPositionError(
                    f"colour {colour} has {count} {SIZE_NAMES[size - 1]} pieces; every seated colour has exactly "
                    f"{PIECES_PER_SIZE} small, {PIECES_PER_SIZE} medium and {PIECES_PER_SIZE} large"
                )
    # Judged as read: the goal check from the player before the one to move, then the ply limit.
    return MartianPosition(params, player, ply, tuple(stacks), judge_from=(player - 1) % n)


# --- actions and observation (docs/rules/martian_chinese_checkers.md) ------------------------

#: A movement is ``MOVE + hex * 18 + (size - 1) * 6 + dir``: the mover's untrapped piece of
#: that size on that hex (there is at most one) moves ``size`` hexes in direction ``dir``.
MOVE = 0
#: ``XAT + hex``: a whole-turn exchange with the mover's piece on that hex; ``WITH + hex``: the
#: exchange partner on that hex; ``LEVEL + level``: the level of the piece just named.
XAT = MOVE + len(HEXES) * 18
WITH = XAT + len(HEXES)
LEVEL = WITH + len(HEXES)
#: Ends a movement that could end in an exchange, without one.
NO_EXCHANGE = LEVEL + MAX_LEVELS
PASS = NO_EXCHANGE + 1
NUM_DISTINCT_ACTIONS = PASS + 1
#: A whole-turn exchange: X's hex and level, G's hex and level.
MAX_CHOSEN_ACTIONS = 4
GRID = 13
PLANES = 68
OBSERVATION_SHAPE = (PLANES, GRID, GRID)


def move_actions(position: MartianPosition, move: str) -> list[int]:
    """A movement, then ``no exchange`` or the partner's hex and level; a whole-turn exchange
    as X's hex and level, then G's; ``pass``."""
    if move == "pass":
        return [PASS]
    parsed = parse_move_text(move)
    assert parsed is not None
    movement, exchange = parsed
    if movement is None:
        assert exchange is not None
        (hx, lx), (hg, lg) = exchange
        return [XAT + hx, LEVEL + lx, WITH + hg, LEVEL + lg]
    (frm, level), to = movement
    size = position.board[frm][level][1]
    d = next(d for d in range(6) if len(RAYS[frm][d]) >= size and RAYS[frm][d][size - 1] == to)
    first = MOVE + frm * 18 + (size - 1) * 6 + d
    if exchange is None:
        return [first, NO_EXCHANGE]
    (hg, lg) = exchange[1]
    return [first, WITH + hg, LEVEL + lg]


def action_text(action: int) -> Optional[str]:
    if MOVE <= action < XAT:
        frm, rest = divmod(action - MOVE, 18)
        size, d = rest // 6 + 1, rest % 6
        ray = RAYS[frm][d]
        return f"{HEX_NAMES[frm]}-{HEX_NAMES[ray[size - 1]]}" if len(ray) >= size else None
    if XAT <= action < WITH:
        return f"x{HEX_NAMES[action - XAT]}"
    if WITH <= action < LEVEL:
        return f"={HEX_NAMES[action - WITH]}"
    if LEVEL <= action < NO_EXCHANGE:
        return f"/{action - LEVEL}"
    return {NO_EXCHANGE: "no exchange", PASS: "pass"}.get(action)


def ended_by_ply_limit(position: MartianPosition) -> bool:
    """E's only draw is the ply limit's."""
    return position.outcome == "draw"


@cache
def _turned(colour: int) -> tuple[int, ...]:
    """The cell of every hex on the observer's 13x13 grid: the board turned by multiples of
    60 degrees, ``(q, r) -> (-r, q + r)`` once per territory, until the observer's colour
    sits on territory 0."""
    cells = []
    for q, r in HEXES:
        for _ in range(colour):
            q, r = -r, q + r
        cells.append((q + 6) * GRID + r + 6)
    return tuple(cells)


CELLS = GRID * GRID


@cache
def _fixed_planes(seats: tuple[int, ...], player: int) -> tuple[float, ...]:
    """The planes that only depend on the seats and the observer: the board (43), every
    player's goal (44 + j) and home (50 + j)."""
    n = len(seats)
    cells = _turned(seats[player])
    out = [0.0] * (PLANES * CELLS)
    for hex_ in range(len(HEXES)):
        out[43 * CELLS + cells[hex_]] = 1.0
        for j in range(n):
            colour = seats[(player + j) % n]
            if TERRITORY[hex_] == goal_of(colour):
                out[(44 + j) * CELLS + cells[hex_]] = 1.0
            if colour in HOME[hex_]:
                out[(50 + j) * CELLS + cells[hex_]] = 1.0
    return tuple(out)


def observation(position: MartianPosition, pending: tuple[int, ...], player: int) -> list[float]:
    """68 planes over a 13x13 grid turned so that ``player``'s territory is territory 0 (see
    the rules page for every plane)."""
    n = position.num_players
    seats = position.seats
    board = position.board
    moved_from = x_hex = x_level = g_hex = None
    rest_actions: tuple[int, ...] = ()
    if pending and pending[0] < XAT:
        # After a movement the board is shown with it made: X is the moved piece.
        frm, rest = divmod(pending[0] - MOVE, 18)
        size, d = rest // 6 + 1, rest % 6
        mine = seats[position.current_player]
        level = next(
            lv for lv, (c, s) in enumerate(board[frm]) if c == mine and s == size and not is_trapped(board[frm], lv)
        )
        to = RAYS[frm][d][size - 1]
        moved_from, x_hex, x_level = frm, to, len(board[to])
        board = lift_and_drop(board, frm, level, to)
        rest_actions = pending[1:]
    elif pending:
        x_hex = pending[0] - XAT
        rest_actions = pending[1:]
        if rest_actions and rest_actions[0] >= LEVEL:
            x_level = rest_actions[0] - LEVEL
            rest_actions = rest_actions[1:]
    if rest_actions:
        g_hex = rest_actions[0] - WITH
    cells = _turned(seats[player])
    relative = {seats[(player + j) % n]: j for j in range(n)}
    out = list(_fixed_planes(seats, player))

    def put(plane: int, hex_: int, value: float) -> None:
        out[plane * CELLS + cells[hex_]] = value

    for hex_, stack in enumerate(board):
        if not stack:
            continue
        counts: dict[tuple[int, int], list[int]] = {}
        for level, (colour, size) in enumerate(stack):
            count = counts.setdefault((relative[colour], size), [0, 0])
            count[0] += 1
            count[1] += not is_trapped(stack, level)
        for (j, size), (total, free) in counts.items():
            plane = (j * 3 + size - 1) * 2
            put(plane, hex_, total / PIECES_PER_SIZE)
            put(plane + 1, hex_, free / PIECES_PER_SIZE)
        put(36 + relative[stack[-1][0]], hex_, 1.0)
        put(42, hex_, fraction(len(stack), PIECES * n))
    if moved_from is not None:
        put(64, moved_from, 1.0)
    if x_hex is not None:
        put(65, x_hex, 1.0)
        if x_level is not None:
            put(66, x_hex, fraction(x_level + 1, len(board[x_hex])))
    if g_hex is not None:
        put(67, g_hex, 1.0)
    limit = position.params["stack_limit"]
    constants = {
        56 + (position.current_player - player) % n: 1.0,
        62: fraction(position.ply, position.params["max_plies"]),  # type: ignore[arg-type]
        63: 1.0 if limit is None else fraction(limit, MAX_LEVELS),
    }
    for plane, value in constants.items():
        start = plane * CELLS
        for cell in cells:
            out[start + cell] = value
    return out


# --- what a person is shown (the play hooks: glacier.play, the web app) ----------------------

#: The name of each territory's colour, by colour number (a seat is named by its territory).
COLOUR_NAMES = dict(zip(SEATS[6], FACTS.seats[6]))


def goals(num_players: int) -> tuple[str, ...]:
    """The colour of the territory each seat must fill."""
    return tuple(COLOUR_NAMES[goal_of(colour)] for colour in SEATS[num_players])


def legend(num_players: int) -> str:
    """The board text writes each piece's colour number (its home territory), not its player."""
    names = FACTS.seats[num_players]
    return "colours: " + ", ".join(
        f"{colour} = {name} (player {p})" for p, (colour, name) in enumerate(zip(SEATS[num_players], names))
    )


def seat_notes(position: MartianPosition) -> list[str]:
    return [f"goal: fill the {goal} territory" for goal in goals(position.num_players)]


def end_reason(position: MartianPosition) -> str:
    if isinstance(position.outcome, int):
        return f"every {FACTS.seats[position.num_players][position.outcome]} pyramid home in its goal"
    return "the ply limit"


def gesture(action: str) -> tuple[str, ...]:
    """A movement ``k5-i7`` is made from cell to cell; the exchanges (``xh3``, ``=i3``), the
    levels (``/1``), ``no exchange`` and ``pass`` are buttons."""
    if "-" in action and not action.startswith(("x", "=", "/")) and " " not in action:
        frm, to = action.split("-")
        return ("move", frm, to)
    return ("choice",)


def piece_label(position: MartianPosition, frm: str, to: str) -> str:
    """Which piece the player to move moves from hex ``frm`` to ``to`` (its size is the
    distance; a player's movable pieces in one stack differ in size): ``large, level 1``."""
    (q1, r1), (q2, r2) = HEXES[HEX_BY_NAME[frm]], HEXES[HEX_BY_NAME[to]]
    size = max(abs(q1 - q2), abs(r1 - r2), abs(q1 + r1 - q2 - r2))
    stack = position.board[HEX_BY_NAME[frm]]
    colour = position.seats[position.current_player]
    level = next(i for i, (c, s) in enumerate(stack) if c == colour and s == size and not is_trapped(stack, i))
    return f"{SIZE_NAMES[size - 1]}, level {level}"


def read_move(position: MartianPosition, text: str) -> Optional[str]:
    """A movement written without its level (``i6-g6``, ``i6-g6xg6/1=h5/1``): the pieces of a
    stack that a player may move differ in size, so they never reach the same hex, and the
    hex and the destination name one movement."""
    head, _, rest = text.partition("-")
    if not rest or "/" in head:
        return None
    matches = []
    for move in position.successors():
        frm, dash, to = move.partition("-")
        if dash and frm.split("/")[0] == head and to == rest:
            matches.append(move)
    return matches[0] if len(matches) == 1 else None


def choice_label(pending: tuple[str, ...], action: str) -> tuple[str, tuple[str, ...]]:
    """A guard exchange is chosen a hex and a level at a time: after a movement the partner
    (``=h5``, then its level), as a whole turn the player's own piece (``xh3``, its level),
    then the partner's; each button says which and marks the hex."""
    if action == "pass":
        return "pass: no move is possible", ()
    if action == "no exchange":
        landing = pending[0].split("-")[1] if pending else ""
        return f"no exchange: the move ends on {landing}", (landing,) if landing else ()
    if action.startswith("x"):
        return f"guard exchange: your piece on {action[1:]}", (action[1:],)
    if action.startswith("="):
        whose = "the moved piece" if pending and "-" in pending[0] else "it"
        return f"swap {whose} with the guard on {action[1:]}", (action[1:],)
    if action.startswith("/") and pending and pending[-1][:1] in "x=":
        hex_name = pending[-1][1:]
        who = "your piece" if pending[-1][0] == "x" else "the guard"
        return f"{who} at level {action[1:]} of {hex_name} (0 is the bottom)", (hex_name,)
    return action, ()

"""Ice Age Chess, the reference implementation (the rules: docs/rules/ice_age_chess.md).

Standard chess plus ice (``*``): a neutral, immobile piece that blocks sliders, pawn pushes
and castling, that either side may capture, and that never attacks. Every
``ice_age_period`` full moves, after Black's move, the Ice Age freezes every isolated piece
and fills every unsheltered empty square with ice.

The board is a list of 64 one-letter strings, square ``rank * 8 + file`` (a1 = 0, h8 = 63):
FEN letters for pieces, ``*`` for ice and ``.`` for an empty square. Moves are generated
pseudo-legally and kept when the mover's king is not attacked afterwards: slow and plain.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Optional

from ..errors import IllegalMoveError
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
    parse_placement,
    resolve_params,
    write_placement,
)
from ._checks import quoted
from ._facts import BenchDepths, Facts, PerftCase, Picture

NAME = "ice_age_chess"
TITLE = "Ice Age Chess"
PARAMS: tuple[Param, ...] = (max_plies(1000), Param("ice_age_period", 20, 0, U32_MAX))

#: What the tools around the game need to know of it (the engine's facts.rs says the same).
FACTS = Facts(
    seats={2: ("White", "Black")},
    mcts_player={"evaluator": "rollout", "rollout_plies": 40},
    # A net's priors, and its values half and half with the heuristic's (material, mobility,
    # the coming Ice Age): searched with its own values alone, the net loses material that a
    # 2-ply alpha-beta wins (docs/learning.md).
    net_player={"heuristic_mix": 0.5},
    playout_plies=0,
    bench=BenchDepths(perft=(6, 3), playouts=1000, perft_bench=(6, 4, 3), hashed_perft=None),
    table_checks=(
        PerftCase(None, {}, 4),
        # Ended by the halfmove clock (at 100, reached at ply 4 along the lines without a capture).
        PerftCase("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 96 40", {"ice_age_period": 0}, 5),
    ),
    # Standard chess: the usual array without ice, and no Ice Age to bring any.
    starts={"standard": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"ice_age_period": 0})},
    # The standard start is chess: its records are PGN, and it is measured beside chess programs.
    kin={"chess": "standard"},
    pictures=(
        Picture("ice_age_chess-start", "Ice Age Chess: the start, ice on ranks 3-6"),
        Picture(
            "ice_age_chess-in-check",
            "Ice Age Chess after an Ice Age: White in check after Bf6-e5, two arrows",
            "rnb1**nr/ppNkp**p/*****2*/***1bp1*/P**K**P*/*1B*1P*P/Pq*****1/1*****NR w - - 0 27",
            last_move="f6e5",
            arrows=("d4c4", ("c7", "a8")),
        ),
        Picture(
            "ice_age_chess-frozen-king",
            "Ice Age Chess, finished: Black's king was frozen by the Ice Age",
            "********/********/p******r/*rp****K/p*****P*/*N****B*/******N*/******** w - - 0 81",
            last_move="h7h6",
        ),
        Picture(
            "chess-mate-from-black",
            "Standard chess (ice_age_period=0), checkmate, seen from Black's side",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            {"ice_age_period": 0},
            last_move="d8h4",
            flipped=True,
        ),
    ),
    variants=(
        {},
        {"ice_age_period": 2},
        {"ice_age_period": 0},
        {"ice_age_period": 3, "max_plies": 120},
        {"ice_age_period": 1},
    ),
)

START = "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

WHITE, BLACK = 0, 1
COLOUR_NAMES = ("White", "Black")
EMPTY, ICE = ".", "*"
#: Each side's pieces, in the order P N B R Q K.
PIECES = ("PNBRQK", "pnbrqk")
#: What each side may capture: the opponent's pieces and ice.
CAPTURABLE = ("pnbrqk*", "PNBRQK*")
ROLE_NAMES = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen", "K": "king"}
HALFMOVE_LIMIT = 100
#: Castling rights in text order, each with its king square and rook square.
CASTLING = (("K", 4, 7), ("Q", 4, 0), ("k", 60, 63), ("q", 60, 56))

# Zobrist keys: seed and indices as in docs/rules/ice_age_chess.md.
SEED = 0x494345414745  # "ICEAGE"
SQUARE_CODES = "PNBRQKpnbrqk*"  # code * 64 + sq
SQUARE_KEYS = _zobrist.table(SEED, 0, 13 * 64)
BLACK_TO_MOVE_KEY = _zobrist.key(SEED, 832)
CASTLE_KEYS = dict(zip("KQkq", _zobrist.table(SEED, 833, 4)))
EP_KEYS = _zobrist.table(SEED, 837, 8)  # by file of the en-passant square
HALFMOVE_KEY = _zobrist.key(SEED, 845)


def _targets(sq: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    file, rank = sq % 8, sq // 8
    return tuple((rank + dr) * 8 + file + df for df, dr in steps if 0 <= file + df < 8 and 0 <= rank + dr < 8)


def _rays(sq: int, dirs: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    rays = []
    for df, dr in dirs:
        ray, f, r = [], sq % 8 + df, sq // 8 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            ray.append(r * 8 + f)
            f, r = f + df, r + dr
        if ray:
            rays.append(tuple(ray))
    return tuple(rays)


ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONAL = ((1, 1), (-1, -1), (1, -1), (-1, 1))
KNIGHT_TARGETS = [
    _targets(s, ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))) for s in range(64)
]
KING_TARGETS = [_targets(s, ORTHOGONAL + DIAGONAL) for s in range(64)]
ORTHOGONAL_NEIGHBOURS = [_targets(s, ORTHOGONAL) for s in range(64)]
#: PAWN_CAPTURES[colour][sq]: the squares a pawn of ``colour`` on ``sq`` attacks.
PAWN_CAPTURES = (
    [_targets(s, ((-1, 1), (1, 1))) for s in range(64)],
    [_targets(s, ((-1, -1), (1, -1))) for s in range(64)],
)
ROOK_RAYS = [_rays(s, ORTHOGONAL) for s in range(64)]
BISHOP_RAYS = [_rays(s, DIAGONAL) for s in range(64)]
SLIDER_RAYS = {"B": BISHOP_RAYS, "R": ROOK_RAYS, "Q": [ROOK_RAYS[s] + BISHOP_RAYS[s] for s in range(64)]}


def square_name(sq: int) -> str:
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def parse_square(text: str) -> Optional[int]:
    if len(text) == 2 and text[0] in "abcdefgh" and text[1] in "12345678":
        return (int(text[1]) - 1) * 8 + "abcdefgh".index(text[0])
    return None


def is_attacked(board: list[str], sq: int, by: int) -> bool:
    """Whether a piece of colour ``by`` attacks ``sq`` (ice blocks and never attacks)."""
    pawn, knight, bishop, rook, queen, king = tuple(PIECES[by])
    for t in KNIGHT_TARGETS[sq]:
        if board[t] == knight:
            return True
    for t in KING_TARGETS[sq]:
        if board[t] == king:
            return True
    for t in PAWN_CAPTURES[1 - by][sq]:  # a pawn of `by` there attacks sq
        if board[t] == pawn:
            return True
    for rays, slider in ((ROOK_RAYS, rook), (BISHOP_RAYS, bishop)):
        for ray in rays[sq]:
            for t in ray:
                q = board[t]
                if q != EMPTY:
                    if q in (slider, queen):
                        return True
                    break
    return False


def ep_capturable(board: list[str], side: int, ep: int) -> bool:
    """Whether an en-passant capture onto ``ep`` is pseudo-legal for ``side`` (from the board
    alone): the square empty, the opponent's pawn just past it, and a pawn of ``side`` beside
    that pawn."""
    behind = ep - 8 if side == WHITE else ep + 8
    return (
        board[ep] == EMPTY
        and board[behind] == PIECES[1 - side][0]
        and any(board[s] == PIECES[side][0] for s in PAWN_CAPTURES[1 - side][ep])
    )


def castling_kept(board: list[str], castling: str) -> str:
    """The rights whose king and rook still stand on their original squares."""
    kept = ""
    for right, king_sq, rook_sq in CASTLING:
        colour = WHITE if right.isupper() else BLACK
        if right in castling and board[king_sq] == PIECES[colour][5] and board[rook_sq] == PIECES[colour][3]:
            kept += right
    return kept


def ice_age(board: list[str]) -> None:
    """Freezes, all at once: every isolated piece, and every empty square that has an
    on-board orthogonal neighbour holding no piece (ice is not a piece)."""
    is_piece = [c != EMPTY and c != ICE for c in board]
    freezing = []
    for sq in range(64):
        if is_piece[sq]:
            for n in KING_TARGETS[sq]:
                if is_piece[n]:
                    break
            else:
                freezing.append(sq)  # isolated
        elif board[sq] == EMPTY:
            for n in ORTHOGONAL_NEIGHBOURS[sq]:
                if not is_piece[n]:
                    freezing.append(sq)  # unsheltered
                    break
    for sq in freezing:
        board[sq] = ICE


def resolve(params: dict[str, Any]) -> dict[str, Optional[int]]:
    return resolve_params(NAME, PARAMS, params)


_UNJUDGED: Any = object()


class IceAgeChessPosition(Position):
    num_players = 2

    def __init__(
        self,
        params: dict[str, Optional[int]],
        board: list[str],
        side: int,
        castling: str,
        ep: Optional[int],
        halfmove: int,
        fullmove: int,
    ) -> None:
        self.params = params
        self.board = board
        self.current_player = side
        self.castling = castling  # a subsequence of "KQkq"
        self.ep = ep  # kept only while an en-passant capture is pseudo-legal
        self.halfmove = halfmove
        self.fullmove = fullmove
        self._outcome: Outcome = _UNJUDGED
        self._hash: Optional[int] = None

    # --- rules -------------------------------------------------------------------------

    def plies(self) -> int:
        return 2 * (self.fullmove - 1) + self.current_player

    def kings_missing(self) -> tuple[bool, bool]:
        return "K" not in self.board, "k" not in self.board

    def over(self) -> bool:
        """A king is frozen, or a counter ended the game (mate and stalemate aside)."""
        return (
            any(self.kings_missing()) or self.halfmove >= HALFMOVE_LIMIT or self.plies() >= self.params["max_plies"]  # type: ignore[operator]
        )

    def in_check(self) -> bool:
        king = PIECES[self.current_player][5]
        return king in self.board and is_attacked(self.board, self.board.index(king), 1 - self.current_player)

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """Judged on first use, in the order of precedence of the rules page (section End)."""
        if self._outcome is _UNJUDGED:
            self._outcome = self._judge()
        return self._outcome

    def _judge(self) -> Outcome:
        white_gone, black_gone = self.kings_missing()
        if white_gone or black_gone:
            return "draw" if white_gone and black_gone else (BLACK if white_gone else WHITE)
        has_move = next(self._legal(), None) is not None
        if not has_move:
            return 1 - self.current_player if self.in_check() else "draw"
        return "draw" if self.over() else None

    def pseudo_moves(self) -> Iterator[tuple[int, int, str]]:
        """(from, to, promotion letter or "") for every pseudo-legal move."""
        board, side = self.board, self.current_player
        own, capturable = PIECES[side], CAPTURABLE[side]
        up = 8 if side == WHITE else -8
        for sq in range(64):
            p = board[sq]
            if p not in own:
                continue
            role = p.upper()
            if role == "P":
                targets = []
                t = sq + up
                if board[t] == EMPTY:
                    targets.append(t)
                    if sq // 8 == (1 if side == WHITE else 6) and board[t + up] == EMPTY:
                        targets.append(t + up)
                for t in PAWN_CAPTURES[side][sq]:
                    if board[t] in capturable or t == self.ep:
                        targets.append(t)
                for t in targets:
                    if t // 8 in (0, 7):
                        for letter in "qrbn":
                            yield sq, t, letter
                    else:
                        yield sq, t, ""
            elif role == "N" or role == "K":
                for t in (KNIGHT_TARGETS if role == "N" else KING_TARGETS)[sq]:
                    if board[t] not in own:
                        yield sq, t, ""
            else:
                for ray in SLIDER_RAYS[role][sq]:
                    for t in ray:
                        q = board[t]
                        if q == EMPTY:
                            yield sq, t, ""
                            continue
                        if q in capturable:
                            yield sq, t, ""
                        break
        # Castling: the right, empty squares between king and rook, and the king neither in
        # check nor passing or landing on an attacked square.
        them = 1 - side
        for right, king_sq, rook_sq in CASTLING[2 * side : 2 * side + 2]:
            if right not in self.castling:
                continue
            step = 1 if rook_sq > king_sq else -1
            between = range(king_sq + step, rook_sq, step)
            if all(board[s] == EMPTY for s in between) and not any(
                is_attacked(board, king_sq + i * step, them) for i in range(3)
            ):
                yield king_sq, king_sq + 2 * step, ""

    def _legal(self) -> Iterator[tuple[str, IceAgeChessPosition]]:
        for frm, to, promotion in self.pseudo_moves():
            child = self.after(frm, to, promotion)
            if child is not None:
                yield square_name(frm) + square_name(to) + promotion, child

    def _generate(self) -> dict[str, Position]:
        if self.over():
            return {}
        return dict(self._legal())

    def after(self, frm: int, to: int, promotion: str) -> Optional[IceAgeChessPosition]:
        """The position after a pseudo-legal move, or None when it leaves the mover's king
        attacked."""
        side = self.current_player
        board = list(self.board)
        piece, captured = board[frm], board[to]
        role = piece.upper()
        board[frm] = EMPTY
        board[to] = piece
        if role == "P":
            if to == self.ep:  # en passant: the captured pawn stands beside the mover
                board[to - 8 if side == WHITE else to + 8] = EMPTY
            if promotion:
                board[to] = promotion.upper() if side == WHITE else promotion
        elif role == "K" and abs(to - frm) == 2:  # castling: the rook jumps over the king
            rook_from, rook_to = (to + 1, to - 1) if to > frm else (to - 2, to + 1)
            board[rook_to], board[rook_from] = board[rook_from], EMPTY
        king_sq = to if role == "K" else board.index(PIECES[side][5])
        if is_attacked(board, king_sq, 1 - side):
            return None

        halfmove = 0 if role == "P" or captured != EMPTY else self.halfmove + 1
        castling = "".join(
            r for r, k, rk in CASTLING if r in self.castling and frm not in (k, rk) and to not in (k, rk)
        )
        ep = None
        if role == "P" and abs(to - frm) == 16:
            passed = (frm + to) // 2
            if ep_capturable(board, 1 - side, passed):
                ep = passed
        fullmove = self.fullmove
        if side == BLACK:
            period = self.params["ice_age_period"]
            if period and fullmove % period == 0:  # type: ignore[operator]
                ice_age(board)
                castling = castling_kept(board, castling)
                if ep is not None and not ep_capturable(board, WHITE, ep):
                    ep = None
            fullmove += 1
        return IceAgeChessPosition(self.params, board, 1 - side, castling, ep, halfmove, fullmove)

    def explain_illegal(self, move: str) -> str:
        frm, to = parse_square(move[:2]), parse_square(move[2:4])
        promotion = move[4:]
        if len(move) not in (4, 5) or frm is None or to is None or promotion not in ("", "q", "r", "b", "n"):
            return (
                f"{quoted(move)} is not a UCI move: expected from-square, to-square and an optional "
                "promotion letter (q, r, b, n), like 'e2e4' or 'e7e8q'"
            )
        side = self.current_player
        piece = self.board[frm]
        if piece not in PIECES[side]:
            return f"illegal move {quoted(move)}: no {COLOUR_NAMES[side]} piece on {square_name(frm)}"
        role = piece.upper()
        reach = {t for f, t, _ in self.pseudo_moves() if f == frm}
        if role == "K":  # castling is judged below; a king's reach is its one-square steps
            reach = {t for t in KING_TARGETS[frm] if self.board[t] not in PIECES[side]}
        promotes = role == "P" and to // 8 in (0, 7)
        if role == "K" and frm == 4 + 56 * side and abs(to - frm) == 2:
            why = (
                "castling needs the right to castle, empty squares between king and rook, "
                "and no attacked square on the king's way (nor a king in check)"
            )
        elif to not in reach:
            why = f"the {ROLE_NAMES[role]} on {square_name(frm)} cannot move to {square_name(to)}"
        elif promotes and not promotion:
            why = "a pawn reaching the last rank must promote: add q, r, b or n"
        elif not promotes and promotion:
            why = "only a pawn move to the last rank takes a promotion letter"
        else:
            why = "it would leave the king in check"
        return f"illegal move {quoted(move)}: {why}"

    # --- text and hash -----------------------------------------------------------------

    def placement(self) -> str:
        return write_placement(self.board, 8)

    def text(self) -> str:
        ep = "-" if self.ep is None else square_name(self.ep)
        side = "wb"[self.current_player]
        return f"{self.placement()} {side} {self.castling or '-'} {ep} {self.halfmove} {self.fullmove}"

    def hash(self) -> int:
        if self._hash is None:
            h = 0
            for sq, c in enumerate(self.board):
                if c != EMPTY:
                    h ^= SQUARE_KEYS[SQUARE_CODES.index(c) * 64 + sq]
            if self.current_player == BLACK:
                h ^= BLACK_TO_MOVE_KEY
            for right in self.castling:
                h ^= CASTLE_KEYS[right]
            if self.ep is not None:
                h ^= EP_KEYS[self.ep % 8]
            if self.halfmove >= HALFMOVE_LIMIT:
                h ^= HALFMOVE_KEY
            self._hash = h
        return self._hash

    def board_string(self) -> str:
        lines = []
        for rank in range(7, -1, -1):
            lines.append(f"{rank + 1}  " + " ".join(self.board[rank * 8 : rank * 8 + 8]))
        lines.append("   a b c d e f g h")
        if self.outcome is None:
            status = f"{COLOUR_NAMES[self.current_player]} to move" + (" (in check)" if self.in_check() else "")
        elif self.outcome == "draw":
            status = "draw"
        else:
            status = f"{COLOUR_NAMES[self.outcome]} wins"  # type: ignore[index]
        ep = "-" if self.ep is None else square_name(self.ep)
        lines.append(
            f"{status}; move {self.fullmove}, halfmove clock {self.halfmove}; "
            f"castling {self.castling or '-'}; en passant {ep}"
        )
        period = self.params["ice_age_period"]
        if period:
            nxt = -(-self.fullmove // period) * period  # type: ignore[operator]
            lines.append(f"next Ice Age after Black's move {nxt}")
        return "\n".join(lines)


def start(params: dict[str, Optional[int]]) -> IceAgeChessPosition:
    return parse(START, params)


def _parse_placement(text: str) -> list[str]:
    return parse_placement(text, 8, SQUARE_CODES, "the placement")


def parse(text: str, params: dict[str, Optional[int]]) -> IceAgeChessPosition:
    if not isinstance(text, str):
        raise TypeError(f"position text must be a str, got {type(text).__name__}")
    fields = text.split(" ")
    if len(fields) != 6:
        raise InvalidPositionError(
            "an Ice Age Chess position (FEN) has 6 fields separated by single spaces "
            "(placement, side, castling, en passant, halfmove clock, fullmove number), "
            f"got {len(fields)}: {quoted(text)}"
        )
    placement, side_text, castling, ep_text, halfmove_text, fullmove_text = fields
    board = _parse_placement(placement)
    if side_text not in ("w", "b"):
        raise InvalidPositionError(f"side to move must be 'w' or 'b', got {quoted(side_text)}")
    side = "wb".index(side_text)
    if castling == "-":
        castling = ""
    else:
        rest = "KQkq"
        for c in castling:
            if c not in rest:
                raise InvalidPositionError(
                    f"castling must be '-' or some of 'KQkq' in that order, got {quoted(castling)}"
                )
            rest = rest[rest.index(c) + 1 :]
        if not castling:
            raise InvalidPositionError("castling must be '-' or some of 'KQkq' in that order, got ''")
    ep: Optional[int] = None
    if ep_text != "-":
        ep = parse_square(ep_text)
        if ep is None:
            raise InvalidPositionError(f"en passant must be '-' or a square like 'e3', got {quoted(ep_text)}")
    halfmove = parse_count(halfmove_text)
    if halfmove is None:
        raise InvalidPositionError(f"the halfmove clock must be a number, got {quoted(halfmove_text)}")
    fullmove = parse_count(fullmove_text)
    if fullmove is None or fullmove < 1:
        raise InvalidPositionError(f"the fullmove number must be a number >= 1, got {quoted(fullmove_text)}")

    # What chess can reach.
    for colour, name in enumerate(COLOUR_NAMES):
        pawn, king = PIECES[colour][0], PIECES[colour][5]
        if board.count(king) > 1:
            raise InvalidPositionError(f"{name} has {board.count(king)} kings")
        if board.count(pawn) > 8:
            raise InvalidPositionError(f"{name} has {board.count(pawn)} pawns; chess allows at most 8")
        men = sum(board.count(p) for p in PIECES[colour])
        if men > 16:
            raise InvalidPositionError(f"{name} has {men} pieces; chess allows at most 16")
    for sq in list(range(8)) + list(range(56, 64)):
        if board[sq] in ("P", "p"):
            raise InvalidPositionError(f"a pawn stands on {square_name(sq)} (pawns never stand on rank 1 or 8)")
    for right, king_sq, rook_sq in CASTLING:
        if right in castling and castling_kept(board, right) != right:
            owner = COLOUR_NAMES[0 if right.isupper() else 1]
            raise InvalidPositionError(
                f"castling right '{right}' needs the {owner} king on {square_name(king_sq)} "
                f"and a {owner} rook on {square_name(rook_sq)}"
            )
    if ep is not None:
        rank = 5 if side == WHITE else 2
        if ep // 8 != rank:
            raise InvalidPositionError(
                f"en passant square {ep_text} is on the wrong rank: "
                f"with {COLOUR_NAMES[side]} to move it must be on rank {rank + 1}"
            )
        # The pawn that just moved two squares stands in front of it; the square it passed
        # and the one it came from are empty.
        pushed, origin = (ep - 8, ep + 8) if side == WHITE else (ep + 8, ep - 8)
        if board[pushed] != PIECES[1 - side][0] or board[ep] != EMPTY or board[origin] != EMPTY:
            raise InvalidPositionError(
                f"en passant square {ep_text} needs a {COLOUR_NAMES[1 - side]} pawn on {square_name(pushed)} "
                f"that just moved two squares from {square_name(origin)} "
                f"(with {ep_text} and {square_name(origin)} empty)"
            )
        if not ep_capturable(board, side, ep):
            ep = None  # consistent, but no pseudo-legal capture: normalised away
    not_to_move = 1 - side
    king = PIECES[not_to_move][5]
    if king in board and is_attacked(board, board.index(king), side):
        raise InvalidPositionError(
            f"the side not to move is in check ({COLOUR_NAMES[not_to_move]}'s king on "
            f"{square_name(board.index(king))} is attacked)"
        )
    return IceAgeChessPosition(params, board, side, castling, ep, halfmove, fullmove)


# --- SAN (Standard Algebraic Notation), as PGN records write moves: the twin of the engine's
# `IceAgeChess::san` and `parse_san` (rust/glacier-core/src/games/ice_age_chess/text.rs) ---

SAN_LETTERS = "PNBRQK"
_SAN_SYNTAX_HELP = (
    "expected a piece letter (K, Q, R, B, N; none for a pawn), an optional from-file or rank, an optional 'x', "
    "the target square and for a promotion '=' and a piece letter, like 'e4', 'Nbd7', 'exd5', 'e8=Q', 'O-O'"
)


def _legal_child(position: IceAgeChessPosition, move: str) -> IceAgeChessPosition:
    child = position.successors().get(move)
    if child is None:
        raise IllegalMoveError(position.explain_illegal(move))
    return child  # type: ignore[return-value]


def _is_castling(position: IceAgeChessPosition, move: str) -> bool:
    frm, to = parse_square(move[:2]), parse_square(move[2:4])
    return position.board[frm].upper() == "K" and abs(to - frm) == 2  # type: ignore[index,operator]


def _san_body(position: IceAgeChessPosition, move: str) -> str:
    frm, to = parse_square(move[:2]), parse_square(move[2:4])
    assert frm is not None and to is not None
    if _is_castling(position, move):
        return "O-O" if to > frm else "O-O-O"
    piece = position.board[frm]
    role = piece.upper()
    capture = position.board[to] != EMPTY or (role == "P" and frm % 8 != to % 8)
    if role == "P":
        out = (move[0] + "x" if capture else "") + move[2:4]
        return out + ("=" + move[4].upper() if len(move) == 5 else "")
    rivals = [
        f
        for other in position.successors()
        if other[2:4] == move[2:4]
        and (f := parse_square(other[:2])) != frm
        and position.board[f] == piece  # type: ignore[index]
        and not _is_castling(position, other)
    ]
    out = role
    if rivals:
        same_file = any(f % 8 == frm % 8 for f in rivals)  # type: ignore[operator]
        same_rank = any(f // 8 == frm // 8 for f in rivals)  # type: ignore[operator]
        out += move[0] if not same_file else move[1] if not same_rank else move[:2]
    return out + ("x" if capture else "") + move[2:4]


def is_plain_chess(params: Mapping[str, Optional[int]], text: str) -> bool:
    """Whether a game with ``params`` from the position ``text`` is standard chess: no Ice
    Age to come (``ice_age_period=0``) and no ice on the board. Its game record is then
    plain PGN, which any chess program reads (:mod:`glacier.records`)."""
    return params.get("ice_age_period") == 0 and ICE not in text.split(" ")[0]


def first_move_number(text: str) -> int:
    """The number of the first move of a game record from the position ``text``: its
    fullmove number, as in PGN."""
    return int(text.split(" ")[-1])


def san(position: IceAgeChessPosition, move: str) -> str:
    """The SAN of the UCI move ``move``, legal in ``position``: ``e4``, ``Nbd2``, ``exd6``,
    ``e8=Q``, ``O-O``, with ``+`` for a check and ``#`` for a checkmate. Ice is taken like a
    piece (``Bxe5``); an Ice Age that freezes the other king wins but is no mate."""
    child = _legal_child(position, move)
    out = _san_body(position, move)
    if child.in_check():
        out += "#" if child.outcome == position.current_player else "+"
    return out


def parse_san(position: IceAgeChessPosition, text: str) -> str:
    """The UCI text of the legal move written in SAN as ``text``. Read as PGN readers do:
    check and mate marks and ``!``/``?`` annotations are ignored, so is the capture mark,
    ``0-0`` is castling too, and a move may name more of its from-square than it needs to."""
    body = text.rstrip("+#!?")
    legal = position.successors()
    if body in ("O-O", "0-0", "O-O-O", "0-0-0"):
        king_side = len(body) == 3
        for move in legal:
            if _is_castling(position, move) and (move[2] > move[0]) == king_side:
                return move
        raise IllegalMoveError(f"illegal move {quoted(text)}: castling is not allowed here")
    pattern = _read_san(body)
    if pattern is None:
        raise IllegalMoveError(f"{quoted(text)} is not a SAN move: {_SAN_SYNTAX_HELP}")
    role, from_file, from_rank, to, promotion = pattern
    if role == "P" and from_file is None:
        from_file = to[0]  # a pawn move without a from-file is a push: it stays on its file
    found = [
        move
        for move in legal
        if move[2:4] == to
        and not _is_castling(position, move)
        and position.board[parse_square(move[:2])].upper() == role  # type: ignore[index]
        and move[4:] == promotion
        and (from_file is None or move[0] == from_file)
        and (from_rank is None or move[1] == from_rank)
    ]
    if not found:
        raise IllegalMoveError(f"illegal move {quoted(text)}: no legal move of the side to move fits it")
    if len(found) > 1:
        names = sorted(san(position, move) for move in found)
        raise IllegalMoveError(f"ambiguous move {quoted(text)}: it could be {' or '.join(names)}")
    return found[0]


def _read_san(body: str) -> Optional[tuple[str, Optional[str], Optional[str], str, str]]:
    """(role, from-file, from-rank, target square, promotion letter or "") of a SAN text
    other than castling, or None when it is not one."""
    if not body:
        return None
    role = "P"
    if body[0] in SAN_LETTERS[1:]:
        role, body = body[0], body[1:]
    promotion = ""
    if role == "P" and body and body[-1] in "NBRQ":
        promotion, body = body[-1].lower(), body[:-1]
        body = body.removesuffix("=")
    if len(body) < 2 or parse_square(body[-2:]) is None:
        return None
    head, to = body[:-2], body[-2:]
    if head.endswith("x"):
        head = head[:-1]
    files, ranks = "abcdefgh", "12345678"
    if head == "":
        return role, None, None, to, promotion
    if len(head) == 1 and head in files:
        return role, head, None, to, promotion
    if len(head) == 1 and head in ranks:
        return role, None, head, to, promotion
    if len(head) == 2 and head[0] in files and head[1] in ranks:
        return role, head[0], head[1], to, promotion
    return None


# --- actions and observation (docs/rules/ice_age_chess.md) -----------------------------------

#: ``from * 64 + to`` for every move that does not promote; then the promotions.
PROMOTION_ACTIONS = 64 * 64
NUM_DISTINCT_ACTIONS = PROMOTION_ACTIONS + 2 * 8 * 3 * 4
MAX_CHOSEN_ACTIONS = 1
OBSERVATION_SHAPE = (22, 8, 8)
PROMOTION_PIECES = "nbrq"


def move_actions(position: IceAgeChessPosition, move: str) -> list[int]:
    """One action per move: ``from * 64 + to``, or for a promotion ``4096 + ((colour * 8 +
    from_file) * 3 + file_step) * 4 + piece`` (colour 1 for Black's, ``file_step`` 0, 1, 2 for
    a capture towards file a, a push, a capture towards file h; ``piece`` n, b, r, q)."""
    frm, to = parse_square(move[:2]), parse_square(move[2:4])
    assert frm is not None and to is not None
    if len(move) == 4:
        return [frm * 64 + to]
    colour = 1 if frm // 8 == 1 else 0
    file_step = to % 8 + 1 - frm % 8
    return [PROMOTION_ACTIONS + ((colour * 8 + frm % 8) * 3 + file_step) * 4 + PROMOTION_PIECES.index(move[4])]


def action_text(action: int) -> Optional[str]:
    if 0 <= action < PROMOTION_ACTIONS:
        frm, to = divmod(action, 64)
        return None if frm == to else square_name(frm) + square_name(to)
    if not PROMOTION_ACTIONS <= action < NUM_DISTINCT_ACTIONS:
        return None
    rest, piece = divmod(action - PROMOTION_ACTIONS, 4)
    rest, file_step = divmod(rest, 3)
    colour, file = divmod(rest, 8)
    to_file = file + file_step - 1
    if not 0 <= to_file < 8:
        return None
    from_rank, to_rank = (6, 7) if colour == 0 else (1, 0)
    return square_name(from_rank * 8 + file) + square_name(to_rank * 8 + to_file) + PROMOTION_PIECES[piece]


def ended_by_ply_limit(position: IceAgeChessPosition) -> bool:
    """A draw by the ply limit alone: both kings there, a legal move left, the halfmove
    clock below 100 (all of which take precedence)."""
    return (
        position.outcome == "draw"
        and not any(position.kings_missing())
        and position.halfmove < HALFMOVE_LIMIT
        and next(position._legal(), None) is not None
        and position.plies() >= position.params["max_plies"]  # type: ignore[operator]
    )


def observation(position: IceAgeChessPosition, pending: tuple[int, ...], player: int) -> list[float]:
    """22 planes of 8x8 from ``player``'s side (ranks flipped for Black): the player's six
    kinds of piece, the opponent's, ice, four castling rights, the en-passant square, the
    halfmove clock, the Ice Age period gone, the ply limit used, whether ``player`` moves."""
    out = [0.0] * (22 * 64)
    flip = 0 if player == WHITE else 56
    mine, theirs = PIECES[player], PIECES[1 - player]
    for sq, code in enumerate(position.board):
        if code in mine:
            plane = mine.index(code)
        elif code in theirs:
            plane = 6 + theirs.index(code)
        elif code == ICE:
            plane = 12
        else:
            continue
        out[plane * 64 + (sq ^ flip)] = 1.0
    if position.ep is not None:
        out[17 * 64 + (position.ep ^ flip)] = 1.0
    rights = "KQkq" if player == WHITE else "kqKQ"
    period = position.params["ice_age_period"]
    constants = {
        **{13 + i: 1.0 if right in position.castling else 0.0 for i, right in enumerate(rights)},
        18: fraction(position.halfmove, HALFMOVE_LIMIT),
        19: fraction((position.fullmove - 1) % period, period) if period else 0.0,
        20: fraction(position.plies(), position.params["max_plies"]),  # type: ignore[arg-type]
        21: 1.0 if position.current_player == player else 0.0,
    }
    for plane, value in constants.items():
        out[plane * 64 : (plane + 1) * 64] = [value] * 64
    return out


# --- what a person is shown (the play hooks: glacier.play, the web app) ----------------------


def seat_notes(position: IceAgeChessPosition) -> list[str]:
    return ["", ""]


def end_reason(position: IceAgeChessPosition) -> str:
    """The checks in the order the rules page makes them: a king frozen by the Ice Age, mate,
    stalemate (before the counters: a stalemate on the 100th halfmove is a stalemate), the
    halfmove clock, the ply limit."""
    names = FACTS.seats[2]
    white_gone, black_gone = position.kings_missing()
    if white_gone and black_gone:
        return "both kings frozen by the Ice Age"
    if white_gone or black_gone:
        return f"{names[0] if white_gone else names[1]}'s king frozen by the Ice Age"
    if isinstance(position.outcome, int):
        return "checkmate"
    if next(position._legal(), None) is None:
        return "stalemate"
    if position.halfmove >= HALFMOVE_LIMIT:
        return "fifty moves without a capture or pawn move"
    return "the ply limit"


def gesture(action: str) -> tuple[str, ...]:
    """Every move goes from a square to a square (a promotion's piece is chosen after)."""
    return ("move", action[:2], action[2:4])


def choice_label(pending: tuple[str, ...], action: str) -> tuple[str, tuple[str, ...]]:
    """A pawn move to the last rank is one gesture for four promotions: each button names
    its piece and marks the promotion square."""
    if len(action) == 5:
        return f"promote to a {ROLE_NAMES[action[4].upper()]}", (action[2:4],)
    return action, (action[2:4],)

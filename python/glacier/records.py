"""Game records: whole games as text, to save, share, replay and open in other programs.

A record is modelled on PGN (the format of chess games): tag pairs, then the moves in the
game's notation, numbered, with optional ``{comments}``, and the result. A file may hold
several records. For Ice Age Chess without ice (``ice_age_period=0`` and no ice on the
board) a record is plain PGN with SAN moves that any chess program reads; with ice it is a
PGN with a ``Variant`` and a ``FEN`` tag. docs/records.md describes the format.

>>> import glacier
>>> from glacier import records
>>> state = glacier.new_game("kuba")
>>> state.play("f1f2")
>>> text = records.dumps(state, players=["Ann", "Bob"], Date="2024.05.01")
>>> print(text)  # doctest: +NORMALIZE_WHITESPACE
[Event "?"]
[Site "?"]
[Date "2024.05.01"]
[Round "?"]
[White "Ann"]
[Black "Bob"]
[Result "*"]
[Game "kuba"]
[Parameters "max_plies=1000"]
<BLANKLINE>
1. f1f2 *
>>> records.loads(text).moves
['f1f2']

Both implementations read and write records: a state of ``glacier.reference`` is written
with the reference's own notation code, and ``loads(text, impl=glacier.reference)`` reads
into the reference. A bad record raises :class:`glacier.errors.InvalidRecordError` naming
the line and the move.
"""

from __future__ import annotations

import bisect
import datetime
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable, Iterator, Mapping, Optional, Sequence, Union

import glacier
from glacier import _native, reference
from glacier.errors import GlacierError, InvalidRecordError

__all__ = [
    "STANDARD_CHESS_START",
    "Record",
    "dumps",
    "loads",
    "parse",
    "read",
    "read_records",
    "result_of",
    "seat_names",
    "write",
]

#: The game whose records are PGN: the one that plays chess, from a named start (Ice Age
#: Chess, whose start "standard" is chess with ``ice_age_period=0``).
CHESS, _CHESS_START_NAME = glacier.kin("chess")
_CHESS_SPEC = glacier.game_spec(CHESS)
#: The start of standard chess, and the parameters that make a game of :data:`CHESS` from it
#: plain chess (``ice_age_period=0``), whose record is plain PGN.
STANDARD_CHESS_START, _PLAIN_PARAMS = (
    _CHESS_SPEC.starts[_CHESS_START_NAME] if _CHESS_START_NAME else (glacier.new_game(CHESS).text(), {})
)
#: The Variant tag of an Ice Age Chess record that plain chess programs cannot replay.
ICE_VARIANT = _CHESS_SPEC.title
#: Variant tags other programs write for plain chess.
CHESS_VARIANTS = ("", "standard", "chess", "chess960 off")

#: The tags every record begins with, in this order (PGN's "seven tag roster", with one tag
#: per seat where chess has White and Black).
ROSTER_BEFORE_SEATS = ("Event", "Site", "Date", "Round")
#: Tags a record writes from the game itself; a caller cannot set them.
COMPUTED_TAGS = ("Game", "Parameters", "Variant", "SetUp", "FEN", "Position", "PlyCount")

Implementation = ModuleType
State = Any


def seat_names(game: str, num_players: int = 2) -> tuple[str, ...]:
    """The tag that names each player of ``game``: ``("White", "Black")`` for chess,
    ``("Red", "Green")`` for King's Court, the territory colours for E (as each game
    declares them: ``glacier.game_spec(game).seats``)."""
    return glacier.game_spec(game).seats[num_players]


def result_of(state: State) -> str:
    """The result token of ``state``: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (still going) for
    two players; one score per player for more (``0-1-0``, ``1/3-1/3-1/3``)."""
    if not state.is_terminal():
        return "*"
    returns = state.returns()
    n = len(returns)
    if any(r > 0 for r in returns):
        return "-".join("1" if r > 0 else "0" for r in returns)
    return "-".join([f"1/{n}"] * n)


def _scores(result: str, num_players: int) -> Optional[tuple[Fraction, ...]]:
    """The scores a result token gives each player, or None when it is not one for
    ``num_players`` players (``*`` gives an empty tuple)."""
    if result == "*":
        return ()
    parts = result.split("-")
    if len(parts) != num_players or not all(re.fullmatch(r"\d+(/[1-9]\d*)?", p) for p in parts):
        return None
    scores = tuple(Fraction(p) for p in parts)
    return scores if sum(scores) == 1 else None


def _is_reference(state: State) -> bool:
    return isinstance(state, reference.State)


def _move_text(state: State, move: str) -> str:
    """``move`` (legal in ``state``) in the record's notation: SAN for chess, else as played."""
    if state.game != CHESS:
        return move
    if _is_reference(state):
        return str(reference.game_module(CHESS).san(state.position, move))
    return _native.chess_san(state.text(), move, **state.params)


def _read_move(state: State, text: str) -> str:
    """The move that ``text``, in the record's notation, names in ``state``."""
    if state.game != CHESS:
        return text
    if _is_reference(state):
        return str(reference.game_module(CHESS).parse_san(state.position, text))
    return _native.chess_uci(state.text(), text, **state.params)


def _params_text(params: Mapping[str, Optional[int]]) -> str:
    return " ".join(f"{name}={'none' if value is None else value}" for name, value in params.items())


def _check_tag(name: str, value: object) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_]+", name):
        raise InvalidRecordError(f"a tag name is letters, digits and '_', got {name!r}")
    if not isinstance(value, str):
        raise InvalidRecordError(f"tag {name!r} must be a str, got {type(value).__name__}")
    if "\n" in value or "\r" in value:
        raise InvalidRecordError(f"tag {name!r} must be one line, got {value!r}")
    return value


@dataclass
class Record:
    """One game of a record file: its tags (in order), its final state (with the history,
    so ``undo()`` works), the moves as the record writes them, and the comments by ply
    (0 before the first move, ``k`` after the ``k``-th)."""

    state: State
    tags: dict[str, str]
    notation: list[str]
    comments: dict[int, str] = field(default_factory=dict)
    line: int = 1
    """The line of the file where the record begins."""

    @property
    def game(self) -> str:
        return str(self.state.game)

    @property
    def result(self) -> str:
        return self.tags.get("Result", "*")

    def start(self) -> State:
        """A copy of the state before the first move."""
        start = self.state.copy(history=True)
        while start.moves:
            start.undo()
        return start

    def positions(self) -> list[State]:
        """The state before the first move and after every move (copies, with histories)."""
        current = self.start()
        out = [current.copy(history=True)]
        for move in self.state.moves:
            current.play(move)
            out.append(current.copy(history=True))
        return out

    @classmethod
    def of(
        cls,
        state: State,
        players: Optional[Sequence[str]] = None,
        comments: Optional[Mapping[int, str]] = None,
        **tags: str,
    ) -> Record:
        """The record of ``state``'s game from its start; ``players`` names the players in
        seat order, ``tags`` adds or replaces tags (``Event``, ``Date``, ``Result`` of a game
        decided off the board, ...)."""
        for name in tags:
            if name in COMPUTED_TAGS:
                raise InvalidRecordError(f"tag {name!r} is written from the game itself and cannot be given")
        seats = seat_names(state.game, state.num_players)
        if players is not None:
            if len(players) != len(seats):
                raise InvalidRecordError(f"{state.game} has {len(seats)} players, got {len(players)} names")
            tags = {**dict(zip(seats, players)), **tags}
        start = state.copy(history=True)
        while start.moves:
            start.undo()
        start_text = start.text()
        notation = []
        for move in state.moves:
            notation.append(_move_text(start, move))
            start.play(move)
        result = tags.get("Result", result_of(state))
        _check_result(state, _check_tag("Result", result))

        written: dict[str, str] = dict.fromkeys(ROSTER_BEFORE_SEATS, "?")
        written["Date"] = datetime.date.today().strftime("%Y.%m.%d")
        written.update(dict.fromkeys(seats, "?"))
        written["Result"] = result
        written["Game"] = state.game
        params = state.params
        written["Parameters"] = _params_text(params)
        if state.game == CHESS:
            plain = reference.game_module(CHESS).is_plain_chess(params, start_text)
            if not plain:
                written["Variant"] = ICE_VARIANT
            if not plain or start_text != STANDARD_CHESS_START:
                written["SetUp"] = "1"
                written["FEN"] = start_text
        elif start_text != _implementation(state).new_game(state.game, **params).text():
            written["Position"] = start_text
        for name, value in tags.items():
            written[name] = _check_tag(name, value)
        comments = dict(comments or {})
        for ply, comment in comments.items():
            if not isinstance(ply, int) or not 0 <= ply <= len(notation):
                raise InvalidRecordError(f"a comment goes after ply 0..{len(notation)}, got {ply!r}")
            if "}" in comment:
                raise InvalidRecordError(f"a comment cannot hold '}}': {comment!r}")
        return cls(state.copy(history=True), written, notation, comments)

    def numbers(self) -> list[Optional[str]]:
        """The move number written before each move (``12.`` or ``12...``), or None. As in
        PGN a number starts each round of the first player's moves (a chess game's from its
        start's fullmove number), and another player's move after the start or after a
        comment takes the number with ``...``."""
        replay = self.start()
        first_number = getattr(reference.game_module(self.game), "first_move_number", None)
        number = first_number(replay.text()) if first_number is not None else 1
        last_player: Optional[int] = None
        out: list[Optional[str]] = []
        for ply, move in enumerate(self.state.moves, start=1):
            player = replay.current_player
            if player == 0 and last_player not in (None, 0):
                number += 1
            if player == 0 and last_player != 0:
                out.append(f"{number}.")
            elif player != 0 and (last_player is None or self.comments.get(ply - 1)):
                out.append(f"{number}...")
            else:
                out.append(None)
            replay.play(move)
            last_player = player
        return out

    def text(self) -> str:
        """The record as text: tag pairs, a blank line, the numbered moves and the result."""
        lines = [f'[{name} "{_escape(value)}"]' for name, value in self.tags.items()]
        tokens = []
        if self.comments.get(0):
            tokens.append("{" + self.comments[0] + "}")
        for ply, (number, written) in enumerate(zip(self.numbers(), self.notation), start=1):
            if number:
                tokens.append(number)
            tokens.append(written)
            if self.comments.get(ply):
                tokens.append("{" + self.comments[ply] + "}")
        tokens.append(self.result)
        return "\n".join(lines) + "\n\n" + "\n".join(_wrap(tokens)) + "\n"


def _implementation(state: State) -> Implementation:
    return reference if _is_reference(state) else glacier


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(tokens: list[str], width: int = 79) -> list[str]:
    """Movetext lines of at most ``width`` characters (PGN's export limit), breaking only
    between tokens (a long comment keeps its own line)."""
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return lines


def _check_result(state: State, result: str, where: str = "") -> None:
    scores = _scores(result, state.num_players)
    if scores is None:
        n = state.num_players
        example = (
            "1-0, 0-1, 1/2-1/2 or *" if n == 2 else f"one score per player like {'-'.join(['1'] + ['0'] * (n - 1))}"
        )
        raise InvalidRecordError(f"{where}{result!r} is not a result for {n} players ({example})")
    actual = result_of(state)
    if actual != "*" and result != actual:
        raise InvalidRecordError(f"{where}the result is {result} but the game ended {actual}")


def dumps(
    state: State,
    players: Optional[Sequence[str]] = None,
    comments: Optional[Mapping[int, str]] = None,
    **tags: str,
) -> str:
    """The record of ``state``'s game, from its start to now (see :meth:`Record.of`)."""
    return Record.of(state, players, comments, **tags).text()


# --- reading -------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<tag>\[\s*(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\\n]|\\.)*)"\s*\])
  | (?P<comment>\{[^}]*\})
  | (?P<line_comment>;[^\n]*)
  | (?P<escape>(?<![^\n])%[^\n]*)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<nag>\$\d+)
  | (?P<number>\d+\s*\.+)
  | (?P<result>(?:\*|\d+(?:/\d+)?(?:-\d+(?:/\d+)?)+)(?=[\s{};()\[]|$))
  | (?P<move>[^\s{}();\[\].$]+)
  | (?P<bad>.)
    """,
    re.VERBOSE,
)


@dataclass
class _Raw:
    """A record as read, before its moves are replayed."""

    line: int
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[tuple[str, int]] = field(default_factory=list)  # (text, line)
    comments: dict[int, str] = field(default_factory=dict)
    result: Optional[tuple[str, int]] = None
    in_movetext: bool = False


def _split(text: str) -> Iterator[_Raw]:
    """The records of ``text``, tokenised."""
    line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def line_of(pos: int) -> int:
        return bisect.bisect_right(line_starts, pos)

    raw: Optional[_Raw] = None
    depth = 0  # inside a variation, which is skipped
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind in ("space", "line_comment", "escape"):
            continue
        line = line_of(match.start())
        if kind == "bad":
            raise InvalidRecordError(f"line {line}: unexpected {match.group()!r}")
        if depth:
            depth += 1 if kind == "open" else -1 if kind == "close" else 0
            continue
        if kind == "open":
            depth = 1
            continue
        if kind == "close":
            raise InvalidRecordError(f"line {line}: ')' without a '(' before it")
        if kind == "tag":
            if raw is not None and (raw.in_movetext or raw.result is not None):
                yield raw
                raw = None
            if raw is None:
                raw = _Raw(line)
            value = re.sub(r"\\(.)", r"\1", match.group("value"))
            raw.tags[match.group("name")] = value
            continue
        if raw is not None and raw.result is not None and kind == "comment":
            pass  # a comment after the result still belongs to that game
        elif raw is None or raw.result is not None:
            if raw is not None:
                yield raw
            raw = _Raw(line)
        raw.in_movetext = True
        if kind == "comment":
            ply = len(raw.moves)
            body = match.group()[1:-1].strip()
            raw.comments[ply] = f"{raw.comments[ply]} {body}" if ply in raw.comments else body
        elif kind == "result":
            raw.result = (match.group(), line)
        elif kind == "move":
            raw.moves.append((match.group().rstrip("!?"), line))
        # Move numbers and NAGs ($1) carry nothing a replay needs.
    if depth:
        raise InvalidRecordError(f"line {line_of(len(text))}: a '(' variation is never closed")
    if raw is not None:
        yield raw


def _game_and_start(raw: _Raw, impl: Implementation) -> State:
    """The start state a record's tags describe."""
    tags = raw.tags
    where = f"line {raw.line}: "
    variant = tags.get("Variant", "")
    game = tags.get("Game")
    if game is None:
        if variant.lower() in CHESS_VARIANTS or variant == ICE_VARIANT:
            game = CHESS
        else:
            raise InvalidRecordError(f"{where}no Game tag, and Variant {variant!r} is no game glacier knows")
    if game not in glacier.GAMES:
        raise InvalidRecordError(f"{where}unknown game {game!r}; glacier has: {', '.join(glacier.GAMES)}")
    params: dict[str, Optional[int]] = {}
    for pair in tags.get("Parameters", "").split():
        name, sep, value = pair.partition("=")
        if not sep or not (value == "none" or re.fullmatch(r"-?\d+", value)):
            raise InvalidRecordError(
                f"{where}Parameters holds NAME=VALUE pairs (VALUE an integer or none), got {pair!r}"
            )
        params[name] = None if value == "none" else int(value)
    if game == CHESS and "Parameters" not in tags and variant != ICE_VARIANT:
        params.update(_PLAIN_PARAMS)  # a chess program's PGN: standard chess
    if game == CHESS:
        start = tags.get("FEN")
        defaults = {p.name: p.default for p in _CHESS_SPEC.params}
        if (
            start is None
            and variant != ICE_VARIANT
            and all(params.get(name, defaults[name]) == value for name, value in _PLAIN_PARAMS.items())
        ):
            start = STANDARD_CHESS_START
    else:
        start = tags.get("Position")
    try:
        return impl.from_text(game, start, **params) if start is not None else impl.new_game(game, **params)
    except GlacierError as err:
        raise InvalidRecordError(f"{where}{err}") from None


def _build(raw: _Raw, impl: Implementation) -> Record:
    state = _game_and_start(raw, impl)
    notation = []
    for ply, (written, line) in enumerate(raw.moves, start=1):
        try:
            move = _read_move(state, written)
            state.play(move)
        except GlacierError as err:
            message = str(err) if written in str(err) else f"{written!r}: {err}"
            raise InvalidRecordError(f"line {line}, ply {ply}: {message}") from None
        notation.append(written)
    tag_result = raw.tags.get("Result")
    if raw.result is not None:
        token, line = raw.result
        if tag_result is not None and tag_result != token:
            raise InvalidRecordError(f"line {line}: the moves end with {token} but the Result tag says {tag_result}")
    else:
        token, line = tag_result or "*", raw.line
    _check_result(state, token, f"line {line}: ")
    tags = dict(raw.tags)
    tags["Result"] = token
    return Record(state, tags, notation, raw.comments, raw.line)


def parse(text: str, impl: Implementation = glacier) -> list[Record]:
    """Every record in ``text``, replayed with ``impl`` (``glacier`` or ``glacier.reference``)."""
    if not isinstance(text, str):
        raise TypeError(f"a record must be a str, got {type(text).__name__}")
    return [_build(raw, impl) for raw in _split(text)]


def loads(text: str, impl: Implementation = glacier) -> State:
    """The final state of the one game recorded in ``text``, with its history (``undo()``
    goes back through the game), made by ``impl`` (``glacier`` or ``glacier.reference``)."""
    records = parse(text, impl)
    if len(records) != 1:
        raise InvalidRecordError(f"loads reads one game and the text holds {len(records)}; use parse or read")
    return records[0].state


def read_records(path: Union[str, Path], impl: Implementation = glacier) -> Iterator[Record]:
    """Every record of the file ``path``, one by one."""
    text = Path(path).read_text(encoding="utf-8")
    for raw in _split(text):
        yield _build(raw, impl)


def read(path: Union[str, Path], impl: Implementation = glacier) -> Iterator[State]:
    """The final state (with its history) of every game in the file ``path``."""
    for record in read_records(path, impl):
        yield record.state


def write(
    path: Union[str, Path],
    states: Iterable[Union[State, Record]],
    append: bool = False,
    **tags: str,
) -> int:
    """Writes the record of every state (or :class:`Record`) to ``path``, a blank line
    between games; ``tags`` are added to every state's record. With ``append`` the games go
    after those already in the file. Returns the number of games written."""
    texts = [(item if isinstance(item, Record) else Record.of(item, None, None, **tags)).text() for item in states]
    target = Path(path)
    joined = "\n".join(texts)
    if append and target.exists() and target.stat().st_size > 0:
        joined = "\n" + joined
    with target.open("a" if append else "w", encoding="utf-8") as out:
        out.write(joined)
    return len(texts)

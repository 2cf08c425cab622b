"""The command line reports what a user got wrong (a path, bytes that are not UTF-8, an
argument or option) in one line, ``Error: ...``, without a traceback and with a failing exit
status. Run as a real process, so what is checked is exactly what a terminal shows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Union

import pytest

import glacier as api
from glacier import records, reference
from glacier.errors import InvalidPositionError

Arg = Union[str, bytes, Path]


def glacier(*args: Arg, stdin: bytes = b"", cwd: Path | None = None) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "glacier.cli", *args], input=stdin, capture_output=True, cwd=cwd, timeout=120
    )
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def one_line_error(args: tuple[Arg, ...], *, stdin: bytes = b"") -> str:
    status, out, err = glacier(*args, stdin=stdin)
    assert status != 0, out
    assert "Traceback" not in err and "Traceback" not in out, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    return lines[0]


#: The game the commands are given (any game: the errors do not depend on it).
GAME = api.GAMES[0]


def position_error(text: str) -> str:
    """What the reference says of ``text`` as a position of GAME."""
    with pytest.raises(InvalidPositionError) as raised:
        reference.from_text(GAME, text)
    return str(raised.value)


CASES = {
    "missing record file": (("replay", "no-such-file.record"), "File 'no-such-file.record' does not exist"),
    "record file is a directory": (("replay", "."), "is a directory"),
    "unwritable picture path": (("show", GAME, "--svg", "no/such/dir/board.svg"), "No such file or directory"),
    "unwritable replay page": (("replay", "{record}", "--html", "no/such/dir/page.html"), "No such file or directory"),
    "argument not UTF-8": (("show", GAME, b"WW3BB\xff"), "the argument 'WW3BB\\xff' is not UTF-8 text"),
    "option value not UTF-8": (("perft", GAME, "2", "--position", b"\xfe\xff"), "is not UTF-8 text"),
    "record file not UTF-8": (("replay", "{latin1}"), "not UTF-8 text (byte 0xe9 at offset"),
    "unknown game": (("perft", "chess", "3"), "'chess' is not one of"),
    "unknown command": (("solve", GAME), "No such command 'solve'"),
    "unknown option": (("perft", GAME, "3", "--fast"), "No such option '--fast'"),
    "depth out of range": (("perft", GAME, "99999999999999999999"), "is not in the range 0<=x<=4294967295"),
    "malformed parameter": (("perft", GAME, "2", "-p", "max_plies"), "expected NAME=VALUE"),
    "unknown parameter": (("perft", GAME, "2", "-p", "speed=3"), f"unknown parameter 'speed' for {GAME}"),
    "parameter out of range": (("perft", GAME, "2", "-p", "max_plies=-1"), "max_plies"),
    "bad position text": (("show", GAME, "not a position"), position_error("not a position")),
    "number too large for the engine": (
        ("perft", GAME, "1", "--threads", str(2**70)),
        "threads must be between 0 and 256",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_user_error_is_one_line_without_a_traceback(case: str, tmp_path: Path) -> None:
    args, expected = CASES[case]
    record = tmp_path / "game.record"
    played = api.new_game(GAME)
    played.play(played.legal_moves()[0])
    record.write_text(records.dumps(played), encoding="utf-8")
    latin1 = tmp_path / "latin1.record"
    latin1.write_bytes(f'[Event "Caf\u00e9"]\n[Game "{GAME}"]\n\n*\n'.encode("latin-1"))
    filled = tuple(a.format(record=record, latin1=latin1) if isinstance(a, str) else a for a in args)
    assert expected in one_line_error(filled)


def test_input_that_is_not_utf8_is_refused_as_a_move_and_play_goes_on() -> None:
    status, out, err = glacier("play", GAME, "-p", "max_plies=2", stdin=b"\xff\xfe\nquit\n")
    assert status == 0 and not err, err
    legal = " ".join(api.new_game(GAME, max_plies=2).legal_moves())
    assert "'\\xff\\xfe' is not UTF-8 text" in out and f"legal moves: {legal}\n" in out

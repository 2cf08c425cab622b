"""Checked arguments, worded as the engine's binding words them (rust/glacier-py/src/args.rs):
integers that are integers (not bools, not floats) and in range, texts without lone
surrogates, and how a bad value is shown in a message (a long text by its first
:data:`QUOTED_CHARS` characters, a huge integer by its size)."""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..errors import GlacierError, IllegalMoveError, InvalidPositionError

#: The most characters of an input a message quotes.
QUOTED_CHARS = 40

#: The deepest perft either twin counts (deeper trees are beyond reach anyway, and the
#: reference recurses once per ply).
MAX_PERFT_DEPTH = 255

_I128 = 2**127


def quoted(text: str) -> str:
    """``text`` in single quotes, cut to :data:`QUOTED_CHARS` characters (then "..."), lone
    surrogates written as ``\\udXXX`` (as the engine's binding writes them)."""
    text = _escaped(text)
    if len(text) > QUOTED_CHARS:
        return f"'{text[:QUOTED_CHARS]}...'"
    return f"'{text}'"


def shown_int(value: int) -> str:
    """An integer as a message shows it: in full when it fits 128 bits, else by its size."""
    if -_I128 <= value < _I128:
        return str(value)
    sign = "-" if value < 0 else ""
    return f"{sign}(an integer of {abs(value).bit_length()} bits)"


def as_integer(value: object) -> int | None:
    """``value`` as an int: a Python or numpy integer, not a bool; None otherwise."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, (int, np.integer)):
        return int(value)
    return None


def integer(value: object, what: str, lo: int, hi: int | None, error: Callable[[str], GlacierError]) -> int:
    """An integer argument ``what`` in ``lo..hi`` (``hi`` None: no limit but the type's)."""
    number = as_integer(value)
    if number is None:
        raise error(f"{what} must be an integer, got {type(value).__name__}")
    if lo <= number and (hi is None or number <= hi):
        return number
    if hi is not None:
        raise error(f"{what} must be between {lo} and {hi}, got {shown_int(number)}")
    raise error(f"{what} must be >= {lo}, got {shown_int(number)}")


def action(value: object, error: Callable[[str], GlacierError]) -> int:
    """An action argument: any integer (the caller tells which are legal)."""
    number = as_integer(value)
    if number is None:
        raise error(f"an action must be an integer, got {type(value).__name__}")
    return number


def _escaped(text: str) -> str:
    return "".join(f"\\u{ord(c):04x}" if "\ud800" <= c <= "\udfff" else c for c in text)


def _text(value: object, what: str, error: Callable[[str], GlacierError]) -> str:
    if not isinstance(value, str):
        raise error(f"a {what} must be a str, got {type(value).__name__}")
    if any("\ud800" <= c <= "\udfff" for c in value):
        raise error(f"the {what} {quoted(value)} is not text: it holds a lone surrogate")
    return value


def move_text(value: object) -> str:
    """A move text argument: a str without lone surrogates."""
    return _text(value, "move", IllegalMoveError)


def position_text(value: object) -> str:
    """A position text argument: a str without lone surrogates."""
    return _text(value, "position text", InvalidPositionError)

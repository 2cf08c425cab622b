"""The exceptions glacier raises, shared by the native engine and the reference.

Every error about bad input is a :class:`ValueError`, so ``except ValueError`` catches
them all; the subclasses say which input was wrong. The state a failing call was made
on is always left unchanged.
"""

from __future__ import annotations

__all__ = [
    "ClusterConnectionError",
    "EvaluatorError",
    "GlacierError",
    "HistoryNotKeptError",
    "IllegalMoveError",
    "InvalidNetError",
    "InvalidParameterError",
    "InvalidPositionError",
    "InvalidRecordError",
    "LadderResultsError",
    "UnknownGameError",
]


class GlacierError(ValueError):
    """Base class of every glacier error (also raised by ``undo()`` with nothing to undo)."""


class IllegalMoveError(GlacierError):
    """A move string that is malformed, unknown, or not legal in the position."""


class InvalidPositionError(GlacierError):
    """A position text that is malformed or describes an impossible position."""


class InvalidParameterError(GlacierError):
    """A game parameter that is unknown, of the wrong type, or out of range."""


class UnknownGameError(GlacierError):
    """A game name that glacier does not know."""


class HistoryNotKeptError(GlacierError):
    """``undo()`` past the plies a state kept: it keeps at most ``history_limit`` of them,
    or it is a copy made without the plies before it (``copy()`` keeps none by default)."""


class InvalidRecordError(GlacierError):
    """A game record that cannot be read or written (its message names the line and the move)."""


class LadderResultsError(GlacierError):
    """A rating ladder's results file (``glacier.ladder``) that cannot be read, or that holds
    the games of a ladder of other settings."""


class ClusterConnectionError(GlacierError):
    """A Ray cluster address (``glacier.distributed``) that nothing answers at."""


class EvaluatorError(GlacierError):
    """An evaluator given to a search raised, or returned arrays of the wrong shape, dtype or values
    (its own exception, if it raised one, is the ``__cause__``)."""


class InvalidNetError(GlacierError):
    """A net file (``glacier.learn``) that is missing, truncated, not a glacier net, made for
    another game or shape, or holding NaN or infinite weights; or a training directory of
    another run."""

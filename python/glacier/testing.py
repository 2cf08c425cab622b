"""Differential and contract testing, for glacier's own suite and for its users.

:func:`differential` plays seeded random games with the native engine and the pure-Python
reference side by side and compares them at every ply and at every action (legal actions,
their names, the move each completes, every player's observation to the last float); :func:`check_contract` checks the
API promises (undo, copy, pickling, equality, errors that leave the state unchanged) on
any implementation. Both raise :class:`DifferentialMismatch` / ``AssertionError`` with
everything needed to reproduce a failure. :func:`random_states` and
:func:`random_evaluation_net` make the seeded positions and nets that the suite and the
benchmarks measure on.

From the command line: ``glacier diff kuba --games 1000``.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

import glacier

from . import reference
from .errors import GlacierError, HistoryNotKeptError, IllegalMoveError, InvalidPositionError
from .nets.evaluation_net import EvaluationNet, evaluation_spec_for, evaluation_tensor_shapes

__all__ = [
    "DiffReport",
    "DifferentialMismatch",
    "check_contract",
    "differential",
    "random_evaluation_net",
    "random_states",
    "replay",
]

ParamSets = Union[None, dict[str, Any], Sequence[dict[str, Any]]]


class DifferentialMismatch(AssertionError):
    """The engine and the reference disagreed. The message says how to reproduce it."""

    def __init__(self, game: str, params: dict[str, Any], moves: list[str], what: str, native: Any, ref: Any) -> None:
        self.game, self.params, self.moves = game, params, moves
        self.what, self.native, self.reference = what, native, ref
        super().__init__(
            f"{game} {params}: {what} differs after {len(moves)} plies\n"
            f"  native:    {native!r}\n  reference: {ref!r}\n"
            f"reproduce with: glacier.testing.replay({game!r}, {params!r}, {moves!r})"
        )


@dataclass
class DiffReport:
    """What a differential run covered."""

    game: str
    games: int = 0
    plies: int = 0
    perft_checks: int = 0
    actions: int = 0
    """Actions taken (moves played action by action, each of their actions counted)."""
    terminal_games: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)


def replay(game: str, params: dict[str, Any], moves: Sequence[str]) -> tuple[Any, Any]:
    """The native and the reference state after ``moves`` from the start, for debugging."""

    native, ref = glacier.new_game(game, **params), reference.new_game(game, **params)
    for move in moves:
        native.play(move)
        ref.play(move)
    return native, ref


def _param_sets(params: ParamSets) -> list[dict[str, Any]]:
    if params is None:
        return [{}]
    if isinstance(params, dict):
        return [params]
    return [dict(p) for p in params]


def _compare(native: Any, ref: Any, game: str, params: dict[str, Any], moves: list[str]) -> list[str]:
    """Compares everything observable at one ply; returns the legal moves. Observations are
    compared for the player to move and, in turn, one other player per ply."""
    checks: list[tuple[str, Callable[[Any], Any]]] = [
        ("text", lambda s: s.text()),
        ("legal moves", lambda s: s.legal_moves()),
        ("hash", lambda s: s.hash()),
        ("current player", lambda s: s.current_player),
        ("terminal", lambda s: s.is_terminal()),
        ("ended by the ply limit", lambda s: s.ended_by_ply_limit()),
        ("returns", lambda s: s.returns()),
    ]
    values: dict[str, Any] = {}
    for what, get in checks:
        a, b = get(native), get(ref)
        if a != b:
            raise DifferentialMismatch(game, params, moves, what, a, b)
        values[what] = a
    incremental, scratch = native.hash(), native._hash_from_scratch()
    if incremental != scratch:
        raise DifferentialMismatch(game, params, moves, "native incremental hash vs from scratch", incremental, scratch)
    if values["terminal"] != (not values["legal moves"]):
        raise DifferentialMismatch(
            game, params, moves, "terminal iff no legal moves", values["terminal"], values["legal moves"]
        )
    viewers = {native.current_player, len(moves) % native.num_players}
    _compare_actions(native, ref, game, params, moves, sorted(viewers))
    return values["legal moves"]  # type: ignore[no-any-return]


def _compare_actions(
    native: Any, ref: Any, game: str, params: dict[str, Any], moves: list[str], viewers: Sequence[int]
) -> None:
    """Compares the action-level view of one state: the actions taken in the move being
    made, the legal actions, each one's name and the move it completes, and the
    observations of the players ``viewers``, float for float."""
    where = f" (actions {native.pending_actions} taken)" if native.pending_actions else ""
    checks: list[tuple[str, Callable[[Any], Any]]] = [
        ("pending actions", lambda s: s.pending_actions),
        ("legal actions", lambda s: s.legal_actions()),
    ]
    for what, get in checks:
        a, b = get(native), get(ref)
        if a != b:
            raise DifferentialMismatch(game, params, moves, what + where, a, b)
    legal = native.legal_actions()
    if native.is_terminal() != (not legal):
        raise DifferentialMismatch(game, params, moves, "terminal iff no legal actions" + where, legal, [])
    for action in legal:
        for what in ("action_to_string", "action_to_move"):
            a, b = getattr(native, what)(action), getattr(ref, what)(action)
            if a != b:
                raise DifferentialMismatch(game, params, moves, f"{what}({action}){where}", a, b)
    for player in viewers:
        a, b = native.observation(player), ref.observation(player)
        if a.shape != b.shape or a.dtype != b.dtype or not np.array_equal(a, b):
            diff = np.argwhere(a != b)[:5].tolist() if a.shape == b.shape else "shapes differ"
            raise DifferentialMismatch(
                game, params, moves, f"the observation of player {player}{where} at {diff}", a.shape, b.shape
            )


def _play_by_actions(
    native: Any, ref: Any, move: str, game: str, params: dict[str, Any], moves: list[str], report: DiffReport
) -> None:
    """Plays ``move`` on both twins action by action, comparing every state in between, and
    checks that the actions reach the state the whole move reaches."""
    whole = native.copy()
    whole.play(move)
    mover = native.current_player
    actions = native.move_to_actions(move)
    if actions != ref.move_to_actions(move):
        raise DifferentialMismatch(game, params, moves, f"the actions of {move!r}", actions, ref.move_to_actions(move))
    for i, action in enumerate(actions):
        if i:
            _compare_actions(native, ref, game, params, moves, range(native.num_players))
            if native.current_player != mover or native.is_terminal():
                raise DifferentialMismatch(
                    game, params, moves, f"the state after {actions[:i]} of {move!r}", "the same player to move", mover
                )
        native.apply_action(action)
        ref.apply_action(action)
        report.actions += 1
    if (native.text(), native.hash()) != (whole.text(), whole.hash()) or native.moves[-1:] != [move]:
        raise DifferentialMismatch(
            game, params, moves, f"actions {actions} against the whole move {move!r}", native.text(), whole.text()
        )


def differential(
    game: str,
    *,
    games: int = 100,
    seed: int = 0,
    max_plies: int = 300,
    params: ParamSets = None,
    perft_every: int = 40,
    perft_depth: int = 2,
    text_every: int = 10,
    progress: Optional[Callable[[int], object]] = None,
) -> DiffReport:
    """Plays ``games`` seeded random games with both implementations, comparing every ply.

    Game ``i`` uses ``random.Random(seed + i)`` and the parameter set ``params[i % len]``
    (``params`` may be one dict or a list of dicts), so any failing game can be rerun
    alone. A game stops when it ends or after ``max_plies`` plies. At every ply the text,
    sorted legal moves, hash (and the engine's hash recomputed from scratch), player to
    move, terminal flag and returns must be equal, and so must the action-level view: the
    legal actions, each one's name and the move it completes, and the observations, to the
    last float, of the player to move and of one other player in turn (player ``ply mod
    n``). Every other move (odd plies) is played action by action, with the same
    comparisons (every player's observation) at each state in between, and must reach the
    state the whole move reaches. Every ``perft_every`` plies the ``perft_depth`` perft counts
    must agree too; every ``text_every`` plies both implementations re-read the position
    text and must reproduce it. ``progress`` is called once per game.
    """

    report = DiffReport(game)
    param_sets = _param_sets(params)
    for i in range(games):
        rng = random.Random(seed + i)
        game_params = param_sets[i % len(param_sets)]
        native, ref = glacier.new_game(game, **game_params), reference.new_game(game, **game_params)
        moves: list[str] = []
        for ply in range(max_plies + 1):
            legal = _compare(native, ref, game, game_params, moves)
            if perft_every and ply % perft_every == 0:
                a, b = native.perft(perft_depth), ref.perft(perft_depth)
                if a != b:
                    raise DifferentialMismatch(game, game_params, moves, f"perft({perft_depth})", a, b)
                report.perft_checks += 1
            if text_every and ply % text_every == 0:
                text = native.text()
                for name, impl in (("native", glacier), ("reference", reference)):
                    again = impl.from_text(game, text, **game_params)
                    if again.text() != text or again.hash() != native.hash():
                        raise DifferentialMismatch(
                            game, game_params, moves, f"{name} re-reading its text", text, again.text()
                        )
            if not legal or ply == max_plies:
                break
            move = rng.choice(legal)
            if ply % 2:
                _play_by_actions(native, ref, move, game, game_params, moves, report)
            else:
                native.play(move)
                ref.play(move)
            moves.append(move)
        report.games += 1
        report.plies += len(moves)
        if native.is_terminal():
            report.terminal_games += 1
            key = " ".join(f"{r:+g}" for r in native.returns())
            report.outcomes[key] = report.outcomes.get(key, 0) + 1
        if progress is not None:
            progress(1)
    return report


def _expect_error(kind: type[Exception], action: Callable[..., Any], what: str, *args: Any) -> None:
    try:
        action(*args)
    except kind:
        return
    raise AssertionError(f"{what}: expected {kind.__name__}")


def _check_actions(state: Any) -> None:
    """The action-level promises of one state (see :func:`check_contract`)."""
    actions = state.legal_actions()
    assert actions == sorted(set(actions)) and all(0 <= a < state.num_distinct_actions for a in actions)
    assert np.flatnonzero(state.legal_action_mask()).tolist() == actions
    assert state.is_terminal() == (not actions)
    shape = tuple(state.observation_shape)
    for player in range(state.num_players):
        view = state.observation(player)
        assert view.shape == shape and view.dtype == np.float32
        assert view.min() >= 0.0 and view.max() <= 1.0
    before, history = state.text(), state.action_history()
    _expect_error(IllegalMoveError, state.apply_action, "apply_action(-1)", -1)
    _expect_error(IllegalMoveError, state.apply_action, "apply_action(too large)", state.num_distinct_actions)
    assert state.text() == before and state.action_history() == history, "a rejected action changed the state"
    if actions:
        twin = state.copy(history=True)
        twin.apply_action(actions[-1])
        assert twin.undo_action() == actions[-1]
        assert twin == state and twin.action_history() == history


def _check_history_limit(state: Any) -> None:
    """A ``history_limit`` keeps the last plies only, pickles from the oldest kept, and
    ``undo()`` past them raises ``HistoryNotKeptError``."""
    plies = list(state.moves)
    kept = state.copy(history=True)
    assert kept.history_limit is None
    kept.history_limit = 2
    assert kept.moves == plies[-2:] and kept.history_limit == 2
    restored = pickle.loads(pickle.dumps(kept))
    assert restored == kept and restored.moves == kept.moves
    legal = kept.legal_moves()
    if legal:
        kept.play(legal[0])
        plies.append(legal[0])
        assert kept.moves == plies[-2:]
    while kept.moves:
        kept.undo()
    if len(plies) > 2:
        _expect_error(HistoryNotKeptError, kept.undo, "undo() past the history limit")
    kept.history_limit = None
    assert kept.history_limit is None and kept.moves == []


def check_contract(make: Callable[[], Any], *, plies: int = 60, seed: int = 0) -> None:
    """Checks the promises every state makes, on a game played from ``make()``.

    ``make`` is a function of no arguments returning the state to start from, of either
    implementation, any game and any start; it is called once. For example
    ``check_contract(lambda: glacier.new_game("kuba"), plies=60, seed=0)``, or
    ``check_contract(lambda: glacier.reference.from_text("kuba", text))``. Returns nothing;
    raises ``AssertionError`` at the first broken promise.

    Plays a random game (``random.Random(seed)`` picks the moves) of up to ``plies`` plies
    and at every ply checks that: legal moves are sorted and
    unique; ``copy()``, ``pickle`` and ``from_text(text())`` give equal, independent
    states with the same hash (``copy()`` without the moves played, so ``undo()`` on it
    raises ``HistoryNotKeptError``; ``copy(history=True)`` and ``copy(history=1)`` with all or
    the last of them); bad moves and bad texts raise the documented errors and
    leave the state unchanged; ``undo()`` restores every earlier state and returns the
    move; ``moves`` lists the moves played. On the action level: the legal actions are
    sorted, in range and match the mask; a bad action raises and changes nothing; taking
    an action and ``undo_action()`` give back the state; the observation has its shape for
    every player, with every value in [0, 1].
    """

    state = make()
    impl = reference if isinstance(state, reference.State) else glacier
    rng = random.Random(seed)
    texts = [state.text()]
    hashes = [state.hash()]
    for _ in range(plies):
        legal = state.legal_moves()
        assert legal == sorted(set(legal)), "legal moves must be sorted and unique"
        assert state.is_terminal() == (not legal)
        assert len(state.returns()) == state.num_players
        assert 0 <= state.current_player < state.num_players

        twin = state.copy()
        assert twin == state and twin.hash() == state.hash() and twin.moves == []
        whole = state.copy(history=True)
        assert whole == state and whole.moves == state.moves
        if state.moves:
            _expect_error(HistoryNotKeptError, twin.undo, "undo() of a copy without its history")
            last = state.copy(history=1)
            assert last.moves == state.moves[-1:] and last.undo() == state.moves[-1]
            # Past the start itself there is simply nothing to undo.
            kind = HistoryNotKeptError if len(state.moves) > 1 else GlacierError
            _expect_error(kind, last.undo, "undo() past the ply a copy kept")
        restored = pickle.loads(pickle.dumps(state))
        assert restored == state and restored.moves == state.moves and restored.hash() == state.hash()
        reread = impl.from_text(state.game, state.text(), **state.params)
        assert reread == state and reread.hash() == state.hash()
        assert str(state) and repr(state)

        _check_actions(state)
        before = state.text()
        for bad in ("", "no such move", "\x00", legal[0] + "x" if legal else "pass?"):
            _expect_error(IllegalMoveError, state.play, f"play({bad!r})", bad)
            assert state.text() == before, "a rejected move changed the state"
        _expect_error(IllegalMoveError, lambda: state.play(None), "play(None)")
        _expect_error(InvalidPositionError, impl.from_text, "text with junk", state.game, before + " junk")

        if not legal:
            break
        move = rng.choice(legal)
        state.play(move)
        assert twin.text() == before, "playing on a state changed its copy"
        texts.append(state.text())
        hashes.append(state.hash())
        assert state.moves[-1] == move

    _check_history_limit(state)
    played = list(state.moves)
    while state.moves:
        assert state.text() == texts[len(state.moves)]
        assert state.hash() == hashes[len(state.moves)]
        assert state.undo() == played[len(state.moves)]
    assert state.text() == texts[0]
    _expect_error(GlacierError, state.undo, "undo() at the start")


def random_states(game: str, count: int, seed: int, plies: tuple[int, int] = (0, 40)) -> list[glacier.GameState]:
    """``count`` positions of ``game`` that are not over, each reached from the start by a
    seeded random number of random moves in ``plies`` (both ends included); a game that ends
    on the way is dropped and another played."""
    rng = random.Random(seed)
    out: list[glacier.GameState] = []
    while len(out) < count:
        state = glacier.new_game(game)
        for _ in range(rng.randint(*plies)):
            moves = state.legal_moves()
            if not moves:
                break
            state.play(rng.choice(moves))
        if not state.is_terminal():
            out.append(state)
    return out


def random_evaluation_net(
    game: str,
    features: int,
    hidden: tuple[int, ...],
    seed: int,
    scale: Callable[[str, tuple[int, ...]], float],
    base: str = "none",
) -> EvaluationNet:
    """An evaluation net for ``game`` of the given size (on ``base``) whose every weight is
    seeded normal noise, of the deviation ``scale(name, shape)`` for each tensor."""
    spec = evaluation_spec_for(game, features, hidden, base=base)
    rng = np.random.default_rng(seed)
    tensors = {
        name: rng.normal(0.0, scale(name, shape), shape).astype(np.float32)
        for name, shape in evaluation_tensor_shapes(spec).items()
    }
    return EvaluationNet(spec, tensors)

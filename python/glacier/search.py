"""Tree search in the engine: Monte Carlo tree search for 2 to 6 players, alpha-beta for two.

>>> import glacier
>>> from glacier import search
>>> state = glacier.from_text("ice_age_chess", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
>>> search.mcts(state, simulations=400, seed=1).move
'a1a8'
>>> result = search.alphabeta(state, depth=3)
>>> result.move, result.mate
('a1a8', 1)

Both run in Rust with the GIL released, and stop on Ctrl-C (``KeyboardInterrupt``).

MCTS evaluates the leaves of its tree with

- ``"rollout"``: one random game from the leaf to its end, or, with ``rollout_plies=N``, for
  at most N plies and then the game's heuristic;
- ``"heuristic"``: the game's static evaluation (each rules page documents it);
- a callable, for learning programs, in every game: it receives a batch of leaves as numpy
  arrays, ``observations`` of shape ``[B, *observation_shape]`` (float32, each from the
  point of view of the player to move, between moves) and ``legal`` of shape
  ``[B, num_distinct_actions]`` (bool: the state's ``legal_actions()``, the first actions
  of its legal moves), and, if it has a parameter named ``to_play``, ``to_play=`` an int64
  array ``[B]`` of the player to move at each leaf. It returns ``(logits, values)``: prior
  logits ``[B, num_distinct_actions]`` and either every player's value
  ``[B, num_players]`` or the value of the player to move ``[B]`` (the search gives every
  other player ``-v`` with two players, ``-v / (num_players - 1)`` with more), all
  float32; any other shape or dtype, a NaN, or an exception of the evaluator's own raises
  :class:`glacier.errors.EvaluatorError`. The tree is over whole moves: a move's prior is
  the softmax probability (over the legal actions) of its first action, shared equally by
  the legal moves that begin with that action, so the priors of a leaf's moves sum to 1.
  In games where every move is one action (Ice Age Chess, Kuba) that is the plain
  softmax. The search calls it once per batch of leaves, never per node: :func:`mcts_batch`
  gathers one leaf (or ``batch_size``) from every tree at once, and a single search
  gathers ``batch_size`` leaves from its tree, kept apart by virtual loss. The policy
  target over actions is :attr:`SearchResult.action_visits` (see
  :meth:`SearchResult.action_policy`).

With ``"rollout"``, ``rollout_policy="move_priority"`` draws each rollout move with
probability proportional to ``exp(move_priority / rollout_temperature)`` (the game's own
rating of moves, as alpha-beta orders them: captures first; in E, the movements it brings
its piece nearer its goal) instead of uniformly.

Values are kept per player (each node backs up the whole vector), so the same search plays
E with 3 or 6 players. The engine's evaluations give every move the same prior and select
by UCT (every move tried once first), unless ``priors="heuristic"``: then a leaf's moves get
a softmax over the game's heuristic rating of each move divided by ``prior_temperature``
(in E, the movements of work the move saves its player; elsewhere the move priority above),
and selection is PUCT, so the search looks first at the moves the game rates promising. A
callable's priors select by PUCT. See docs/search.md.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import _native
from .errors import InvalidParameterError

__all__ = [
    "AlphaBetaResult",
    "Evaluator",
    "MCTS",
    "SearchResult",
    "alphabeta",
    "mcts",
    "mcts_batch",
]

#: A batched evaluator: ``(observations, legal) -> (logits, values)``, or
#: ``(observations, legal, *, to_play) -> (logits, values)`` (see the module docs).
Evaluator = Callable[..., tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]

#: The options of a searcher as the engine lists them (name, default, accepted values):
#: the keywords of :class:`MCTS` are these.
OPTIONS: dict[str, dict[str, Any]] = {o["name"]: o for o in _native.mcts_options()}

#: The exploration constant when none is given, per selection rule.
DEFAULT_C: dict[str, float] = dict(OPTIONS["c_puct"]["by_selection"])


def thread_count(threads: int) -> int:
    """The threads a search given ``threads`` runs on: ``threads`` itself, or with 0 every
    core this process may use (the engine's own count, so Python and Rust agree)."""
    return _native.thread_count(threads)


def _takes_to_play(evaluator: Callable[..., Any]) -> bool:
    """Whether ``evaluator`` has a parameter ``to_play`` that can be passed by keyword."""
    import inspect  # only for searches with a callable: kept out of glacier's import time

    try:
        parameter = inspect.signature(evaluator).parameters.get("to_play")
    except (TypeError, ValueError):
        return False
    return parameter is not None and parameter.kind in (
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
        inspect.Parameter.KEYWORD_ONLY,
    )


class SearchResult(NamedTuple):
    """What an MCTS search found at the root."""

    move: str
    """The chosen move (the most visited; drawn by visits with a temperature)."""
    visits: dict[str, int]
    """Visits of every legal move, most visited first."""
    values: tuple[float, ...]
    """The mean value of the root for every player (player order), in [-1, 1]."""
    simulations: int
    """Simulations run by this search (a reused tree holds earlier ones too)."""
    priors: dict[str, float]
    """The prior of every legal move (uniform for the engine's evaluations)."""
    seconds: float
    """Wall-clock time of the search."""
    action_visits: dict[int, int]
    """The root's visits per action of the game's fixed action space (in action order):
    the visits of the legal moves that begin with each legal first action, summed. It is
    the policy target of the state between moves, whose ``legal_actions()`` are exactly
    these actions."""

    def action_policy(self, num_actions: int) -> npt.NDArray[np.float32]:
        """The visit distribution over actions as a ``[num_actions]`` float32 vector (the
        game's ``num_distinct_actions``): :attr:`action_visits` normalised to sum to 1."""
        policy = np.zeros(num_actions, dtype=np.float32)
        if self.action_visits:
            if max(self.action_visits) >= num_actions:
                raise InvalidParameterError(
                    f"num_actions {num_actions} is too small for action {max(self.action_visits)}"
                )
            policy[list(self.action_visits)] = list(self.action_visits.values())
        total = policy.sum()
        if total > 0:
            policy /= total
        return policy

    @classmethod
    def _of(cls, raw: dict[str, Any]) -> SearchResult:
        return cls(
            move=raw["move"],
            visits=raw["visits"],
            values=tuple(raw["values"]),
            simulations=raw["simulations"],
            priors=raw["priors"],
            seconds=raw["seconds"],
            action_visits=raw["action_visits"],
        )


class AlphaBetaResult(NamedTuple):
    """What an alpha-beta search found."""

    move: str
    """The best move of the deepest iteration completed."""
    score: float
    """Its score for the player to move: the heuristic in [-1, 1], or exactly +1 / -1 for a
    forced win / loss (then ``mate`` says in how many plies)."""
    depth: int
    """The depth of the deepest iteration completed."""
    pv: tuple[str, ...]
    """The principal variation: the expected line, ``move`` first."""
    mate: Optional[int]
    """Plies to a forced end of the game: positive when the player to move wins, negative
    when it loses; None when no forced result was found."""
    nodes: int
    """Positions searched (quiescence included)."""
    seconds: float


#: The priors the engine's evaluations can give a leaf's moves (``priors=``).
PRIORS: tuple[str, ...] = tuple(OPTIONS["priors"]["choices"])


def _selection(evaluator: Union[str, Evaluator], selection: Optional[str], priors: str) -> str:
    if selection is not None:
        return selection
    return "puct" if callable(evaluator) or priors != "uniform" else "uct"


class MCTS:
    """A Monte Carlo tree searcher for one game that keeps its tree between searches:
    searching a position that is in the tree (the one reached after the moves played since)
    goes on from the subtree found there.

    ``evaluator`` is ``"rollout"``, ``"heuristic"`` or a callable (see the module docs);
    ``selection`` ``"uct"`` or ``"puct"`` (by default UCT for the engine's evaluations, PUCT
    for a callable) with exploration constant ``c_puct`` (default 1.0 for UCT, 1.5 for PUCT).
    ``threads`` > 1 (0 = every core) searches in parallel: ``parallel="tree"`` (the default)
    shares one tree between the threads, kept apart by virtual loss, and its result depends
    on their timing; ``parallel="root"`` searches ``trees`` trees (default: one per thread)
    and adds up their root visits, which gives the same result for any thread count but, at
    the same number of simulations, plays weaker (each tree is smaller; docs/search.md has
    the measurements). ``dirichlet_fraction`` > 0 mixes Dirichlet noise of concentration
    ``dirichlet_alpha`` into the root's priors.

    With the engine's evaluations, ``priors="heuristic"`` gives a leaf's moves a softmax over
    the game's rating of each move divided by ``prior_temperature`` (> 0) instead of equal
    priors, and selects by PUCT unless ``selection`` says otherwise; with ``"rollout"``,
    ``rollout_policy="move_priority"`` draws rollout moves by a softmax over the game's move
    priority divided by ``rollout_temperature`` (> 0) instead of uniformly (see the module
    docs). A callable evaluator gives its own priors: ``priors`` must stay ``"uniform"``; it
    is given the players to move as ``to_play=`` when it has a parameter of that name, and
    may return the mover's value alone (see the module docs). ``heuristic_mix`` (0 to 1)
    mixes the game's heuristic into every leaf's value: ``(1 - w) * evaluation + w *
    heuristic``, which tells apart the positions an evaluator (a net early in its
    training, say) rates alike; ``rollout_mix`` (0 to 1, at most ``1 - heuristic_mix``) mixes
    in a rollout from the leaf, played as ``rollout_plies`` and ``rollout_policy`` say:
    ``(1 - w - r) * evaluation + w * heuristic + r * rollout``. At ``rollout_mix=1`` a net
    gives the priors and rollouts the values. :data:`OPTIONS` lists every option with its default and
    the values it accepts.
    """

    def __init__(
        self,
        game: str,
        *,
        evaluator: Union[str, Evaluator] = "rollout",
        seed: int = 0,
        threads: int = 1,
        c_puct: Optional[float] = None,
        rollout_plies: Optional[int] = None,
        selection: Optional[str] = None,
        dirichlet_alpha: float = 0.3,
        dirichlet_fraction: float = 0.0,
        virtual_loss: float = 1.0,
        parallel: str = "tree",
        trees: Optional[int] = None,
        reuse: bool = True,
        priors: str = "uniform",
        prior_temperature: float = 1.0,
        rollout_policy: str = "uniform",
        rollout_temperature: float = 1.0,
        heuristic_mix: float = 0.0,
        rollout_mix: float = 0.0,
    ) -> None:
        if priors not in PRIORS:
            raise InvalidParameterError(f"unknown priors {priors!r}: 'uniform' or 'heuristic'")
        if callable(evaluator) and priors != "uniform":
            raise InvalidParameterError(
                "priors= is for the engine's evaluations: a callable evaluator gives its own priors"
            )
        if rollout_policy != "uniform" and evaluator != "rollout" and not rollout_mix:
            raise InvalidParameterError(
                f"rollout_policy={rollout_policy!r} is for rollouts: the 'rollout' evaluator or rollout_mix"
            )
        chosen = _selection(evaluator, selection, priors)
        if chosen not in DEFAULT_C:
            raise InvalidParameterError(f"unknown selection {chosen!r}: 'uct' or 'puct'")
        if not callable(evaluator) and not isinstance(evaluator, str):
            raise InvalidParameterError(
                f"the evaluator must be 'rollout', 'heuristic' or a callable, got {type(evaluator).__name__}"
            )
        self.game = game
        self.evaluator = evaluator
        self._to_play = callable(evaluator) and _takes_to_play(evaluator)
        self._native = _native.NativeSearch(
            game,
            evaluator=evaluator if isinstance(evaluator, str) else "heuristic",
            rollout_plies=rollout_plies,
            selection=chosen,
            c_puct=DEFAULT_C[chosen] if c_puct is None else c_puct,
            dirichlet_alpha=dirichlet_alpha,
            dirichlet_fraction=dirichlet_fraction,
            virtual_loss=virtual_loss,
            threads=threads,
            parallel=parallel,
            trees=trees,
            seed=seed,
            reuse=reuse,
            priors=priors,
            prior_temperature=prior_temperature,
            rollout_policy=rollout_policy,
            rollout_temperature=rollout_temperature,
            heuristic_mix=heuristic_mix,
            rollout_mix=rollout_mix,
        )

    def search(
        self,
        state: Any,
        *,
        simulations: Optional[int] = 800,
        seconds: Optional[float] = None,
        temperature: float = 0.0,
        batch_size: int = 8,
    ) -> SearchResult:
        """Searches ``state`` for ``simulations`` (or ``seconds``; with both, whichever ends
        first). ``temperature`` > 0 draws the move with probability proportional to
        ``visits ** (1 / temperature)``. With a callable evaluator or a net, ``batch_size`` leaves
        are evaluated per call, and the budget is in simulations only (``seconds`` is refused;
        :class:`glacier.players.NetPlayer` searches for a time in slices of simulations)."""
        if callable(self.evaluator):
            if seconds is not None:
                raise InvalidParameterError(
                    "a search with a callable evaluator or a net counts simulations, not seconds: "
                    "give simulations (a net: or baseline player searches for a time)"
                )
            if simulations is None:
                raise InvalidParameterError("a search with a callable evaluator needs a number of simulations")
            return self.search_batch([state], simulations=simulations, temperature=temperature, batch_size=batch_size)[
                0
            ]
        return SearchResult._of(self._native.search(state, simulations, seconds, temperature))

    def search_batch(
        self,
        states: Sequence[Any],
        *,
        simulations: int = 800,
        temperature: float = 0.0,
        batch_size: int = 1,
    ) -> list[SearchResult]:
        """Searches every state of ``states`` (one tree each, kept for the next call): with a
        callable evaluator, all at once, ``batch_size`` leaves per tree in each call; with
        the engine's evaluations, one after another."""
        if not states:
            return []
        if callable(self.evaluator):
            raw = self._native.search_batch(
                list(states), self.evaluator, simulations, temperature, batch_size, self._to_play
            )
            return [SearchResult._of(r) for r in raw]
        return [SearchResult._of(self._native.search(s, simulations, None, temperature)) for s in states]

    @property
    def tree_size(self) -> int:
        """The number of nodes held by the kept trees."""
        return self._native.tree_size  # type: ignore[no-any-return]

    def reset(self) -> None:
        """Forgets the kept trees."""
        self._native.reset()


def mcts(
    state: Any,
    *,
    simulations: Optional[int] = 800,
    evaluator: Union[str, Evaluator] = "rollout",
    seed: int = 0,
    threads: int = 1,
    c_puct: Optional[float] = None,
    rollout_plies: Optional[int] = None,
    seconds: Optional[float] = None,
    temperature: float = 0.0,
    selection: Optional[str] = None,
    dirichlet_alpha: float = 0.3,
    dirichlet_fraction: float = 0.0,
    virtual_loss: float = 1.0,
    parallel: str = "tree",
    trees: Optional[int] = None,
    batch_size: int = 8,
    priors: str = "uniform",
    prior_temperature: float = 1.0,
    rollout_policy: str = "uniform",
    rollout_temperature: float = 1.0,
    heuristic_mix: float = 0.0,
    rollout_mix: float = 0.0,
) -> SearchResult:
    """Monte Carlo tree search from ``state`` (left unchanged); see :class:`MCTS` for the
    options. The same seed gives the same result on one thread, and for any thread count
    with ``parallel="root"`` and a given ``trees``, as long as the budget is in simulations."""
    searcher = MCTS(
        state.game,
        evaluator=evaluator,
        seed=seed,
        threads=threads,
        c_puct=c_puct,
        rollout_plies=rollout_plies,
        selection=selection,
        dirichlet_alpha=dirichlet_alpha,
        dirichlet_fraction=dirichlet_fraction,
        virtual_loss=virtual_loss,
        parallel=parallel,
        trees=trees,
        reuse=False,
        priors=priors,
        prior_temperature=prior_temperature,
        rollout_policy=rollout_policy,
        rollout_temperature=rollout_temperature,
        heuristic_mix=heuristic_mix,
        rollout_mix=rollout_mix,
    )
    return searcher.search(
        state, simulations=simulations, seconds=seconds, temperature=temperature, batch_size=batch_size
    )


def mcts_batch(
    states: Sequence[Any],
    evaluator: Union[str, Evaluator],
    *,
    simulations: int = 800,
    seed: int = 0,
    c_puct: Optional[float] = None,
    temperature: float = 0.0,
    selection: Optional[str] = None,
    dirichlet_alpha: float = 0.3,
    dirichlet_fraction: float = 0.0,
    virtual_loss: float = 1.0,
    batch_size: int = 1,
    rollout_plies: Optional[int] = None,
) -> list[SearchResult]:
    """Searches many states of one game at once: a tree per state, their leaves evaluated
    together, ``evaluator`` called once per batch (``batch_size`` leaves per tree, so up to
    ``len(states) * batch_size`` rows). Returns one result per state. With ``"rollout"`` or
    ``"heuristic"`` the states are searched one after another."""
    if not states:
        return []
    games = {str(getattr(s, "game", "")) for s in states}
    if "" in games:
        raise InvalidParameterError("mcts_batch searches glacier game states (one has no 'game')")
    if len(games) != 1:
        raise InvalidParameterError(f"mcts_batch searches states of one game, got {sorted(games)}")
    searcher = MCTS(
        games.pop(),
        evaluator=evaluator,
        seed=seed,
        c_puct=c_puct,
        selection=selection,
        dirichlet_alpha=dirichlet_alpha,
        dirichlet_fraction=dirichlet_fraction,
        virtual_loss=virtual_loss,
        rollout_plies=rollout_plies,
        reuse=False,
    )
    return searcher.search_batch(states, simulations=simulations, temperature=temperature, batch_size=batch_size)


def alphabeta(
    state: Any, *, depth: Optional[int] = None, seconds: Optional[float] = None, evaluation: Any = None
) -> AlphaBetaResult:
    """Iterative-deepening alpha-beta from ``state`` (a two-player game), to ``depth`` or
    for ``seconds`` (whichever ends first; with neither, one second), with a transposition
    table, move ordering and a quiescence search through captures, scored by the game's
    heuristic, or by ``evaluation``: an evaluation net of the game
    (:class:`glacier.nets.EvaluationNet`, e.g. ``glacier.nets.evaluation(game)``). The
    deadline never cuts depth 1 short."""
    if evaluation is not None and not isinstance(evaluation, _native.NativeEvalNet):
        raise InvalidParameterError(
            "alpha-beta's evaluation is an evaluation net (glacier.nets.load_evaluation), "
            f"not {type(evaluation).__name__}"
        )
    raw = _native.alphabeta_native(state, depth, seconds, evaluation)
    return AlphaBetaResult(
        move=raw["move"],
        score=raw["score"],
        depth=raw["depth"],
        pv=tuple(raw["pv"]),
        mate=raw["mate"],
        nodes=raw["nodes"],
        seconds=raw["seconds"],
    )

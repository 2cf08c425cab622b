"""Computer players for any glacier game: each has ``choose(state) -> str`` (a legal move of
``state``, which it leaves unchanged) and a ``name``.

- :class:`RandomPlayer`: a uniformly random legal move.
- :class:`MonteCarloPlayer`: flat Monte Carlo, every move scored by random playouts in Rust.
- :class:`MCTSPlayer`: Monte Carlo tree search in the engine (:mod:`glacier.search`),
  keeping its tree from one move to the next.
- :class:`AlphaBetaPlayer`: alpha-beta to a depth or for a time, for two-player games.

:func:`from_spec` makes a player from a short text such as ``"mcts:400"``, as the command
line's ``glacier arena`` takes them; :func:`of_kind` one of a kind and a budget given apart,
as ``glacier play --opponent KIND --seconds S`` does.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any, Callable, Optional, Union

import numpy as np

from . import _native, ratings, search
from .batch import playouts
from .errors import InvalidParameterError

__all__ = [
    "KINDS",
    "LEVELS",
    "MCTS_DEFAULTS",
    "PLAYOUT_PLIES",
    "STRONGEST",
    "AlphaBetaPlayer",
    "LevelPlayer",
    "MCTSPlayer",
    "MonteCarloPlayer",
    "NetPlayer",
    "Player",
    "RandomPlayer",
    "check_kind",
    "from_spec",
    "level_spec",
    "levels",
    "of_kind",
    "strongest_spec",
]


class RandomPlayer:
    """Plays a uniformly random legal move."""

    def __init__(self, seed: Optional[int] = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    @property
    def name(self) -> str:
        return "random"

    def choose(self, state: Any) -> str:
        moves: list[str] = state.legal_moves()
        return self._rng.choice(moves)

    def spawn(self, seed: int) -> RandomPlayer:
        """A fresh player like this one, seeded with ``seed``."""
        return RandomPlayer(seed)


class MonteCarloPlayer:
    """Flat Monte Carlo search: every legal move is scored by the mean return, for the player
    making it, of random games played out in Rust from the position it leads to.

    ``playouts`` games per move; or, with ``budget``, that many in all, shared out evenly
    among the legal moves (at least one each), for comparisons with a search given the
    same number of playouts. ``threads`` as for :func:`glacier.playouts` (0 = every core).

    ``playout_plies=K`` cuts every playout after K plies and scores a game still going by
    the game's heuristic (as MCTS's ``rollout_plies`` does), for games whose random games
    say nothing: in E they run to the 2000-ply limit, a draw. None takes the game's default
    (:data:`PLAYOUT_PLIES`: 20 plies for E, as its MCTS player's rollouts; whole games
    elsewhere); 0 plays whole games.
    """

    def __init__(
        self,
        playouts: int = 200,
        seed: Optional[int] = None,
        *,
        budget: Optional[int] = None,
        threads: int = 0,
        playout_plies: Optional[int] = None,
    ) -> None:
        if playouts < 1 or (budget is not None and budget < 1):
            raise InvalidParameterError("a Monte Carlo player needs at least one playout")
        if playout_plies is not None and playout_plies < 0:
            raise InvalidParameterError(f"playout_plies must be 0 (whole games) or more, got {playout_plies}")
        self.playouts = playouts
        self.budget = budget
        self.playout_plies = playout_plies
        self.threads = threads
        self.seed = seed
        self._rng = random.Random(seed)

    @property
    def name(self) -> str:
        name = f"flat:{self.budget}" if self.budget is not None else f"montecarlo:{self.playouts}"
        return name if self.playout_plies is None else f"{name}:{self.playout_plies}"

    def choose(self, state: Any) -> str:
        me = state.current_player
        moves = state.legal_moves()
        per_move = self.playouts if self.budget is None else max(1, self.budget // len(moves))
        plies = PLAYOUT_PLIES.get(state.game, 0) if self.playout_plies is None else self.playout_plies
        cut = None
        if plies:
            # One playout is the first simulation of a search: the evaluation of its root.
            cut = search.MCTS(
                state.game, evaluator="rollout", rollout_plies=plies, seed=self._rng.randrange(2**63), reuse=False
            )
        best: list[str] = []
        best_score = -np.inf
        for move in moves:
            child = state.copy()
            child.play(move)
            if child.is_terminal():
                score = child.returns()[me]
            elif cut is not None:
                score = float(np.mean([cut.search(child, simulations=1).values[me] for _ in range(per_move)]))
            else:
                result = playouts(
                    state.game,
                    per_move,
                    seed=self._rng.randrange(2**63),
                    threads=self.threads,
                    position=child.text(),
                    **state.params,
                )
                score = float(result.returns[:, me].mean())
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return self._rng.choice(best)

    def spawn(self, seed: int) -> MonteCarloPlayer:
        return MonteCarloPlayer(
            self.playouts, seed, budget=self.budget, threads=self.threads, playout_plies=self.playout_plies
        )


#: The plies after which :class:`MonteCarloPlayer` cuts its playouts by default, per game
#: (the rest play whole games): random games of E never finish, so whole ones score 0. Each
#: game declares it (``glacier.game_spec(name).playout_plies``).
PLAYOUT_PLIES: dict[str, int] = {g["name"]: g["playout_plies"] for g in _native.games() if g["playout_plies"]}


#: The evaluation each game's MCTS player uses when none is named (``evaluator=None``):
#: the one that measured strongest at 400 simulations (docs/search.md). Each game declares
#: it (``glacier.game_spec(name).mcts_player``).
MCTS_DEFAULTS: dict[str, dict[str, Any]] = {g["name"]: g["mcts_player"] for g in _native.games()}

#: The search options :class:`NetPlayer` uses in each game, under those it is given: how a
#: net is best used there (in E, the net's priors with the values of short guided rollouts; in
#: Ice Age Chess, with values half the net's, half the heuristic's). Each game declares them
#: (``glacier.game_spec(name).net_player``).
NET_DEFAULTS: dict[str, dict[str, Any]] = {g["name"]: g["net_player"] for g in _native.games()}


class MCTSPlayer:
    """Monte Carlo tree search in the engine, ``simulations`` per move (or ``seconds``), keeping
    its tree for the next move when the position it is asked about is in it.

    ``evaluator`` is ``"rollout"``, ``"heuristic"``, a callable (see :mod:`glacier.search`)
    or None for the game's own default (:data:`MCTS_DEFAULTS`; in E, rollouts cut after 20
    plies with ``priors="heuristic"``); further keywords (``rollout_plies``, ``priors``,
    ``c_puct``, ``threads``, ``temperature``, ...) go to the search, over the default's.
    ``last`` is the :class:`glacier.search.SearchResult` of the latest move.
    """

    def __init__(
        self,
        simulations: Optional[int] = 800,
        evaluator: Union[str, search.Evaluator, None] = None,
        seed: int = 0,
        *,
        seconds: Optional[float] = None,
        temperature: float = 0.0,
        batch_size: int = 8,
        **options: Any,
    ) -> None:
        if simulations is None and seconds is None:
            raise InvalidParameterError("give the MCTS player a budget: simulations or seconds")
        self.simulations = simulations
        self.evaluator = evaluator
        self.seed = seed
        self.seconds = seconds
        self.temperature = temperature
        self.batch_size = batch_size
        self.options = options
        self.last: Optional[search.SearchResult] = None
        self._searcher: Optional[search.MCTS] = None

    @property
    def name(self) -> str:
        budget = f"{self.seconds:g}s" if self.simulations is None else str(self.simulations)
        evaluator = self.evaluator if isinstance(self.evaluator, str) else None
        return "mcts:" + budget + (f":{evaluator}" if evaluator else "")

    def _options(self, game: str) -> dict[str, Any]:
        if self.evaluator is not None:
            return {"evaluator": self.evaluator, **self.options}
        return {**MCTS_DEFAULTS.get(game, {}), **self.options}

    def choose(self, state: Any) -> str:
        if self._searcher is None or self._searcher.game != state.game:
            self._searcher = search.MCTS(state.game, seed=self.seed, **self._options(state.game))
        self.last = self._searcher.search(
            state,
            simulations=self.simulations,
            seconds=self.seconds,
            temperature=self.temperature,
            batch_size=self.batch_size,
        )
        return self.last.move

    def choose_until(self, state: Any, seconds: float, stop: Optional[Callable[[], bool]] = None) -> Optional[str]:
        """Searches for ``seconds`` on its kept tree, in slices of at most
        :data:`SLICE_SECONDS`, asking ``stop()`` between two; None if it said stop."""
        if self._searcher is None or self._searcher.game != state.game:
            self._searcher = search.MCTS(state.game, seed=self.seed, **self._options(state.game))
        start = time.monotonic()
        done = 0
        while True:
            left = seconds - (time.monotonic() - start)
            result = self._searcher.search(
                state,
                simulations=None,
                seconds=max(0.001, min(SLICE_SECONDS, left)),
                temperature=self.temperature,
                batch_size=self.batch_size,
            )
            done += result.simulations
            if stop is not None and stop():
                return None
            if time.monotonic() - start >= seconds:
                break
        self.last = result._replace(simulations=done, seconds=time.monotonic() - start)
        return result.move

    def spawn(self, seed: int) -> MCTSPlayer:
        return MCTSPlayer(
            self.simulations,
            self.evaluator,
            seed,
            seconds=self.seconds,
            temperature=self.temperature,
            batch_size=self.batch_size,
            **self.options,
        )


#: The longest slice of a timed search that can be stopped (:meth:`MCTSPlayer.choose_until`):
#: how long a closed game's computer may go on.
SLICE_SECONDS = 0.2

#: The longest slice of a timed search with a net (:class:`NetPlayer`): how far past its time
#: a move may run.
NET_SLICE_SECONDS = 0.02


class NetPlayer(MCTSPlayer):
    """MCTS with a trained net as its evaluator (:mod:`glacier.learn`): the net file ``path``,
    or with ``path=None`` the net glacier ships for the game being played
    (:func:`glacier.learn.baseline`, found at the first move). ``simulations`` or ``seconds``
    a move as for :class:`MCTSPlayer`; further keywords go to the search, over the game's
    own options for a net's search (:data:`NET_DEFAULTS`, which each game declares)."""

    def __init__(
        self,
        path: Optional[str] = None,
        simulations: Optional[int] = 800,
        seed: int = 0,
        *,
        seconds: Optional[float] = None,
        net: Any = None,
        **options: Any,
    ) -> None:
        if net is None and path is not None:
            from .nets import load

            net = load(path)
        super().__init__(simulations, net, seed, seconds=seconds, **options)
        self.path = path

    @property
    def name(self) -> str:
        budget = f"{self.seconds:g}s" if self.simulations is None else str(self.simulations)
        return f"net:{self.path}:{budget}" if self.path is not None else f"baseline:{budget}"

    def choose(self, state: Any) -> str:
        self._find_net(state)
        if self.seconds is None:
            return super().choose(state)
        move = self.choose_until(state, self.seconds)
        assert move is not None
        return move

    def _options(self, game: str) -> dict[str, Any]:
        return {"evaluator": self.evaluator, **NET_DEFAULTS.get(game, {}), **self.options}

    def prepare(self, state: Any) -> None:
        """Loads and checks the net for ``state``'s game now, as the first move would: a net
        that does not fit the game (or a game with no shipped net) is an error before play."""
        self._find_net(state)

    def _find_net(self, state: Any) -> None:
        """Checks the net against ``state``'s game; a baseline player loads the game's net."""
        net = self.evaluator
        spec = getattr(net, "spec", None)
        if net is not None and (spec is None or (spec.game, spec.num_players) == (state.game, state.num_players)):
            return
        if self.path is not None:
            assert spec is not None
            raise InvalidParameterError(
                f"the net {self.path} is for {spec.game} with {spec.num_players} players, "
                f"not {state.game} with {state.num_players}"
            )
        from .nets import baseline

        self.evaluator = baseline(state.game, **state.params)
        self._searcher = None

    def choose_until(self, state: Any, seconds: float, stop: Optional[Callable[[], bool]] = None) -> Optional[str]:
        """Searches in slices of simulations on one kept tree until ``seconds`` have passed
        (a batched search counts simulations, not time), each slice at most
        :data:`NET_SLICE_SECONDS` long at the speed measured so far; None if ``stop()``
        said stop between two slices."""
        self._find_net(state)
        if self._searcher is None or self._searcher.game != state.game:
            self._searcher = search.MCTS(state.game, seed=self.seed, **self._options(state.game))
        start = time.monotonic()
        done, size = 0, 16
        while True:
            result = self._searcher.search(
                state, simulations=size, temperature=self.temperature, batch_size=self.batch_size
            )
            done += result.simulations
            if stop is not None and stop():
                return None
            elapsed = time.monotonic() - start
            left = seconds - elapsed
            if left <= 0 or (self.simulations is not None and done >= self.simulations):
                break
            rate = done / max(elapsed, 1e-6)
            size = max(1, int(rate * min(left, NET_SLICE_SECONDS)))
            if self.simulations is not None:
                size = min(size, self.simulations - done)
        self.last = result._replace(simulations=done, seconds=elapsed)
        return result.move

    def spawn(self, seed: int) -> NetPlayer:
        return NetPlayer(
            self.path,
            self.simulations,
            seed,
            seconds=self.seconds,
            net=self.evaluator,
            temperature=self.temperature,
            batch_size=self.batch_size,
            **self.options,
        )


class AlphaBetaPlayer:
    """Alpha-beta in the engine (:func:`glacier.search.alphabeta`) to ``depth`` or for
    ``seconds`` per move, for two-player games, scored by the game's heuristic or by the
    evaluation net at ``net``: a path, a loaded :class:`glacier.nets.EvaluationNet`, or
    ``"shipped"`` for the one glacier ships for the game played
    (:func:`glacier.nets.evaluation`). ``last`` is the latest result."""

    def __init__(self, depth: Optional[int] = None, seconds: Optional[float] = None, net: Any = None) -> None:
        self.shipped = net == SHIPPED
        if isinstance(net, (str, os.PathLike)) and not self.shipped:
            from .nets.evaluation_net import load_evaluation

            net = load_evaluation(net)
        self.depth = depth
        self.seconds = seconds
        self.net = None if self.shipped else net
        self.last: Optional[search.AlphaBetaResult] = None

    @property
    def name(self) -> str:
        if self.depth is None and self.seconds is not None:
            name = f"alphabeta:{self.seconds:g}s"
        else:
            name = f"alphabeta:{self.depth if self.depth is not None else '1s'}"
        if self.shipped:
            name += f":net={SHIPPED}"
        elif self.net is not None:
            name += f":net={getattr(self.net, 'path', None) or 'given'}"
        return name

    def _evaluation(self, state: Any) -> Any:
        """The net to score ``state`` with: the shipped one of its game is loaded at the first
        move of that game (the spec names no game)."""
        if self.shipped and (self.net is None or self.net.game != state.game):
            from .nets.evaluation_net import evaluation

            self.net = evaluation(state.game, **state.params)
        return self.net

    def choose(self, state: Any) -> str:
        self.last = search.alphabeta(state, depth=self.depth, seconds=self.seconds, evaluation=self._evaluation(state))
        return self.last.move

    def spawn(self, seed: int) -> AlphaBetaPlayer:
        twin = AlphaBetaPlayer(self.depth, self.seconds, SHIPPED if self.shipped else self.net)
        twin.net = self.net
        return twin


#: ``alphabeta:BUDGET:net=shipped`` plays with the evaluation net glacier ships for the game.
SHIPPED = "shipped"


def _alphabeta_from_spec(spec: str, args: list[str]) -> AlphaBetaPlayer:
    """``alphabeta[:D][:net=PATH]`` (PATH to the end of the spec, colons and all) or
    ``alphabeta[:D]:net=shipped``."""
    budget, _, rest = ":".join(args).partition(":")
    if "=" in budget:
        budget, rest = "", ":".join(args)
    net: Optional[str] = None
    if rest:
        key, _, value = rest.partition("=")
        if key != "net" or not value:
            raise InvalidParameterError(
                f"{spec}: alphabeta takes net=PATH (an evaluation net file) or net=shipped, not {rest!r}"
            )
        net = value
    depth, seconds = _budget(budget, spec) if budget else (None, 1.0)
    return AlphaBetaPlayer(depth, seconds, net)


#: The levels of every game (``glacier.game_spec(name).levels``): by number of players, each
#: level's name and player spec, weakest first, as the game's rating ladder ordered them.
LEVELS: dict[str, dict[int, tuple[tuple[str, str], ...]]] = {g["name"]: g["levels"] for g in _native.games()}

#: The spec of a level that stands for the game's strongest player (:func:`strongest_spec`).
STRONGEST = "strongest"

#: The kinds of player whose budget is their spec's second part (``mcts:0.2s:rollout``).
_BUDGETED = ("mcts", "alphabeta", "baseline")


def levels(game: str, num_players: int = 2) -> tuple[tuple[str, str], ...]:
    """The levels of ``game`` played by ``num_players``: (name, player spec), weakest first."""
    found = LEVELS.get(game, {}).get(num_players)
    if found is None:
        raise InvalidParameterError(f"{game} has no levels for {num_players} players")
    return found


def level_spec(game: str, num_players: int, name: str) -> str:
    """The player spec the level ``name`` of ``game`` stands for (``strongest`` resolved)."""
    named = dict(levels(game, num_players))
    if name not in named:
        raise InvalidParameterError(f"{game} with {num_players} players has no level {name!r}: {', '.join(named)}")
    spec = named[name]
    return strongest_spec(game, num_players) if spec == STRONGEST else spec


def _budget_part(spec: str) -> Optional[str]:
    kind, _, rest = spec.partition(":")
    return rest.split(":")[0] if kind in _BUDGETED and rest else None


def strongest_spec(game: str, num_players: int = 2, seconds: Optional[float] = None) -> str:
    """The spec of the highest-rated player of the rating ladder glacier ships for ``game``
    played by ``num_players`` (:func:`glacier.ratings.shipped`) among those searching for
    the ladder's time per move; given ``seconds``, the same player for that time a move."""
    found = ratings.shipped(game, num_players)
    if found is None:
        raise InvalidParameterError(
            f"glacier ships no rating ladder of {game} with {num_players} players, so none of its players is "
            "known strongest: name a player or a level"
        )
    settings, rated = found
    budget = f"{settings.seconds_per_move:g}s"
    timed = [r for r in rated.values() if _budget_part(r.player) == budget]
    if not timed:
        raise InvalidParameterError(f"the ladder of {game} rates no player searching {budget} a move")
    best = max(timed, key=lambda r: r.elo).player
    if seconds is None:
        return best
    kind, _, rest = best.partition(":")
    return ":".join([kind, f"{seconds:g}s", *rest.split(":")[1:]])


class LevelPlayer:
    """A player named by what it is to the game it plays, made on its first move from the
    game's facts: ``level:NAME``, a level of ``glacier play`` (:func:`level_spec`), or
    ``strongest[:Ts]``, the game's highest-rated player (:func:`strongest_spec`), for the
    ladder's time a move or ``T`` seconds. ``player_for(state)`` is the player it plays as."""

    def __init__(self, spec: str, seed: Optional[int] = None) -> None:
        kind, _, arg = spec.partition(":")
        self.level: Optional[str] = None
        self.seconds: Optional[float] = None
        if kind == "level":
            known = {name for table in LEVELS.values() for named in table.values() for name, _ in named}
            if arg not in known:
                raise InvalidParameterError(f"{spec}: no game has a level {arg!r} ({', '.join(sorted(known))})")
            self.level = arg
        elif kind == STRONGEST and arg:
            _, seconds = _budget(arg, spec)
            if seconds is None or not seconds > 0:
                raise InvalidParameterError(f"{spec}: the strongest player's budget is a time a move, such as 1s")
            self.seconds = seconds
        elif kind != STRONGEST:
            raise InvalidParameterError(f"{spec}: expected level:NAME or strongest[:Ts]")
        self.spec = spec
        self.seed = seed
        self._players: dict[tuple[str, int], Player] = {}

    @property
    def name(self) -> str:
        return self.spec

    def resolve(self, game: str, num_players: int = 2) -> str:
        """The spec of the player this stands for in ``game`` played by ``num_players``."""
        if self.level is not None:
            return level_spec(game, num_players, self.level)
        return strongest_spec(game, num_players, self.seconds)

    def player_for(self, state: Any) -> Player:
        key = (state.game, state.num_players)
        if key not in self._players:
            self._players[key] = from_spec(self.resolve(*key), 0 if self.seed is None else self.seed)
        return self._players[key]

    def choose(self, state: Any) -> str:
        return self.player_for(state).choose(state)

    def prepare(self, state: Any) -> None:
        """Makes the player it is for ``state``'s game now, so that a level the game lacks, or
        a net that does not fit it, is said before the first move."""
        player = self.player_for(state)
        if hasattr(player, "prepare"):
            player.prepare(state)

    @property
    def last(self) -> Any:
        """The latest search result of the player it last played as (None before)."""
        if not self._players:
            return None
        return getattr(next(reversed(self._players.values())), "last", None)

    def spawn(self, seed: int) -> LevelPlayer:
        return LevelPlayer(self.spec, seed)


Player = Union[RandomPlayer, MonteCarloPlayer, MCTSPlayer, NetPlayer, AlphaBetaPlayer, LevelPlayer]


def _budget(text: str, what: str) -> tuple[Optional[int], Optional[float]]:
    """``"400"`` -> (400, None); ``"1.5s"`` -> (None, 1.5)."""
    try:
        if text.endswith("s"):
            return None, float(text[:-1])
        return int(text), None
    except ValueError:
        raise InvalidParameterError(f"{what}: expected a count or seconds such as 2s, got {text!r}") from None


def _is_budget(text: str) -> bool:
    """Whether ``text`` reads as a budget (``400``, ``0.5s``)."""
    try:
        _budget(text, "")
    except InvalidParameterError:
        return False
    return bool(text)


def _count(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InvalidParameterError(f"{what}: expected a whole number, got {text!r}") from None


def _option(text: str) -> tuple[str, Any]:
    key, _, value = text.partition("=")
    if not key or not value:
        raise InvalidParameterError(f"expected key=value, got {text!r}")
    for kind in (int, float):
        try:
            return key, kind(value)
        except ValueError:
            pass
    return key, None if value == "none" else value


def from_spec(spec: str, seed: int = 0) -> Player:
    """A player from a short text:

    - ``random``;
    - ``montecarlo[:N[:K]]``: flat Monte Carlo, N playouts per legal move (200), cut after
      K plies and scored by the heuristic (the game's default, :data:`PLAYOUT_PLIES`);
    - ``flat:N[:K]``: flat Monte Carlo with N playouts in all per move, shared among the
      moves, cut likewise;
    - ``mcts[:N][:EVALUATOR][:key=value...]``: MCTS with N simulations (800) or a time such
      as ``2s``; EVALUATOR ``rollout``, ``heuristic`` or ``rolloutK`` (rollouts cut after K
      plies, then the heuristic); further options as keywords, e.g. ``c_puct=1.2``;
    - ``alphabeta[:D][:net=PATH]``: alpha-beta to depth D, or for a time such as ``0.2s``
      (1s), scored by the game's heuristic or by the evaluation net file PATH
      (``net=shipped``: the one glacier ships for the game, :func:`glacier.nets.evaluation`);
    - ``net:PATH[:N]``: MCTS with the net file PATH as its evaluator (:mod:`glacier.learn`),
      N simulations (800) or a time such as ``0.2s``;
    - ``baseline[:N]``: the same with the net glacier ships for the game played;
    - ``level:NAME``: the level NAME of ``glacier play`` of the game played (:func:`levels`);
    - ``strongest[:Ts]``: the game's highest-rated player in the rating ladder glacier ships
      (:func:`strongest_spec`), for the ladder's time a move or ``T`` seconds.
    """
    if spec.partition(":")[0] in ("level", STRONGEST):
        return LevelPlayer(spec, seed)
    if spec.startswith("net:"):
        path, _, budget_text = spec[4:].rpartition(":")
        if not path or not _is_budget(budget_text):
            path, budget_text = spec[4:], ""
        if not path:
            raise InvalidParameterError(f"{spec}: expected net:PATH[:N], the path of a net file")
        simulations, seconds = _budget(budget_text, spec) if budget_text else (800, None)
        return NetPlayer(path, simulations, seed, seconds=seconds)
    name, *args = spec.split(":")
    if name == "baseline" and len(args) <= 1:
        simulations, seconds = _budget(args[0], spec) if args else (800, None)
        return NetPlayer(None, simulations, seed, seconds=seconds)
    if name == "random" and not args:
        return RandomPlayer(seed)
    if name == "montecarlo" and len(args) <= 2:
        plies = _count(args[1], spec) if len(args) == 2 else None
        return MonteCarloPlayer(_count(args[0], spec) if args else 200, seed, threads=1, playout_plies=plies)
    if name == "flat" and len(args) in (1, 2):
        plies = _count(args[1], spec) if len(args) == 2 else None
        return MonteCarloPlayer(1, seed, budget=_count(args[0], spec), threads=1, playout_plies=plies)
    if name == "alphabeta":
        return _alphabeta_from_spec(spec, args)
    if name == "mcts":
        simulations, seconds = _budget(args[0], spec) if args else (800, None)
        evaluator: Optional[str] = None
        options: dict[str, Any] = {}
        for arg in args[1:]:
            if "=" in arg:
                key, value = _option(arg)
                options[key] = value
            elif arg in ("rollout", "heuristic"):
                evaluator = arg
            elif arg.startswith("rollout") and arg[7:].isdigit():
                evaluator, options["rollout_plies"] = "rollout", int(arg[7:])
            else:
                raise InvalidParameterError(f"{spec}: unknown MCTS option {arg!r}")
        return MCTSPlayer(simulations, evaluator, seed, seconds=seconds, **options)
    raise InvalidParameterError(
        f"unknown player {spec!r}: random, montecarlo[:N[:K]], flat:N[:K], mcts[:N][:evaluator], "
        "alphabeta[:D][:net=PATH], net:PATH[:N], baseline[:N], level:NAME, strongest[:Ts]"
    )


#: The kinds of player :func:`of_kind` makes, besides ``net:PATH``.
KINDS = ("mcts", "alphabeta", "montecarlo", "random", "baseline")


def check_kind(kind: str) -> str:
    """``kind`` if it is one of :data:`KINDS`, ``net:PATH``, ``level:NAME`` or
    ``strongest[:Ts]``."""
    if kind in KINDS or (kind.startswith("net:") and len(kind) > 4):
        return kind
    if kind.partition(":")[0] in ("level", STRONGEST):
        LevelPlayer(kind)  # a level no game has, or a bad budget, is said here
        return kind
    raise InvalidParameterError(f"{kind!r} is not one of {', '.join(KINDS)}, net:PATH, level:NAME or strongest[:Ts]")


def of_kind(
    kind: str,
    *,
    seconds: float = 1.0,
    simulations: Optional[int] = None,
    playouts: int = 200,
    seed: Optional[int] = None,
) -> Player:
    """A player of ``kind`` (:data:`KINDS`, ``net:PATH``, ``level:NAME`` or
    ``strongest[:Ts]``): a search (``mcts``, a net's ``baseline`` or ``net:PATH``) of
    ``simulations`` a move, or else ``seconds``; alpha-beta for ``seconds``; flat Monte
    Carlo of ``playouts`` per move; random moves; or the :class:`LevelPlayer` a level or
    the strongest player is, with its own budget. ``seed`` None draws one from the system."""
    check_kind(kind)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    if kind.partition(":")[0] in ("level", STRONGEST):
        return LevelPlayer(kind, seed)
    if kind == "baseline" or kind.startswith("net:"):
        path = None if kind == "baseline" else kind[4:]
        return NetPlayer(path, simulations, seed, seconds=None if simulations else seconds)
    if kind == "mcts":
        return MCTSPlayer(simulations, None, seed, seconds=None if simulations else seconds)
    if kind == "alphabeta":
        return AlphaBetaPlayer(seconds=seconds)
    if kind == "montecarlo":
        return MonteCarloPlayer(playouts, seed)
    return RandomPlayer(seed)

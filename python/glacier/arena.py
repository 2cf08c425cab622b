"""Matches between players: seats swapped (rotated for 3 to 6 players), games in parallel,
wins, draws and losses per player with an Elo difference and its 95% interval.

>>> import glacier
>>> result = glacier.arena("ice_cube_checkers", ["mcts:100", "random"], games=4, seed=1)
>>> [p.wins for p in result.players]
[4, 0]

Players are specs (``"mcts:400"``, see :func:`glacier.players.from_spec`) or player objects
(each game gets its own copy, made by the player's ``spawn(seed)``). With fewer players than
seats, the last one fills the remaining seats (``["mcts:400", "random"]`` in a 6-player
game of E is one MCTS player against five random ones). Game ``i`` rotates the seats by
``i`` and seeds its players from ``seed`` and ``i``, so the results do not depend on
``threads``, as long as every player's budget is in simulations or depth, not time.

With ``opening_plies=K`` every game starts with K moves chosen uniformly at random (among
the legal moves, one ply at a time), so that deterministic players do not play the same game
over and over. The opening is drawn from ``seed`` and the game's round, the games that
play one rotation of the seats (games 0 and 1 with two players, 0 to 2 with three...): each
opening is played from every seat. An opening that ends the game ends it there.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Optional, Sequence, Union

from . import _native
from .errors import InvalidParameterError

if TYPE_CHECKING:
    from .players import Player

__all__ = [
    "ArenaResult",
    "GameResult",
    "PlayerResult",
    "SeatRecord",
    "arena",
    "distinct_names",
    "elo",
    "fresh_player",
    "player_name",
    "score_interval",
    "seed_for",
    "summarise",
]

# Imported by ``glacier`` itself (for ``glacier.arena``), so this module loads nothing heavy
# at import: the players, threads and copies are imported when a match is played.

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


class GameResult(NamedTuple):
    """One game of a match."""

    number: int
    """Its number in the match (from 0): it rotated the seats by that much."""
    seats: tuple[int, ...]
    """The player (index into the match's players) in each seat."""
    winner: Optional[int]
    """The winning player (not seat), or None for a draw."""
    plies: int
    """Its length in plies (the random opening included)."""
    state: Any
    """The final state (its ``moves`` are the game, the random opening included)."""
    opening: int = 0
    """The plies it started with, chosen at random (``opening_plies``, or fewer if they
    ended the game)."""


class PlayerResult(NamedTuple):
    name: str
    wins: int
    draws: int
    """Games that nobody won."""
    losses: int
    """Games another player won."""
    score: float
    """The mean score against each other player, game by game: 1 for a win, 0.5 when
    neither of the two won, 0 when the other won (with two players: (wins + draws/2) / games)."""
    elo: float
    """The Elo difference that score means against the others (+inf / -inf at 1 / 0)."""
    elo_interval: tuple[float, float]
    """Its 95% interval (from the Wilson interval of the score over the games)."""


class SeatRecord(NamedTuple):
    """A player's results in the games it played from one seat."""

    seat: int
    """The seat: the game's player number (seat 0 moves first)."""
    games: int
    wins: int
    draws: int
    losses: int

    def __str__(self) -> str:
        return f"seat {self.seat} {self.wins}-{self.draws}-{self.losses}"


class ArenaResult(NamedTuple):
    game: str
    players: tuple[PlayerResult, ...]
    games: tuple[GameResult, ...]
    ply_limit: Optional[int]
    """The ``max_plies`` the games were played with, if the game has one."""
    opening_plies: int = 0
    """The random plies each game started with (``arena(..., opening_plies=K)``)."""

    @property
    def elo(self) -> float:
        """The Elo difference of the first player over the others."""
        return self.players[0].elo

    @property
    def elo_interval(self) -> tuple[float, float]:
        return self.players[0].elo_interval

    @property
    def finished_before_limit(self) -> int:
        """Games that ended before the ply limit."""
        if self.ply_limit is None:
            return len(self.games)
        return sum(g.plies < self.ply_limit for g in self.games)

    def by_seat(self, player: int = 0) -> tuple[SeatRecord, ...]:
        """``player``'s results (an index into :attr:`players`) from each seat it sat in, in
        seat order. In a game that favours a seat, equals win from that seat: this shows how
        much of a score is the seat's."""
        if not 0 <= player < len(self.players):
            raise InvalidParameterError(f"player must be from 0 to {len(self.players) - 1}, got {player}")
        records = []
        for seat in range(len(self.players)):
            games = [g for g in self.games if g.seats[seat] == player]
            if games:
                wins = sum(g.winner == player for g in games)
                draws = sum(g.winner is None for g in games)
                records.append(SeatRecord(seat, len(games), wins, draws, len(games) - wins - draws))
        return tuple(records)

    def table(self) -> str:
        """The results as a text table."""
        width = max(6, *(len(p.name) for p in self.players))
        lines = [f"{'player':<{width}}  {'wins':>5}  {'draws':>5}  {'losses':>6}  {'score':>6}  Elo (95% interval)"]
        for p in self.players:
            low, high = p.elo_interval
            lines.append(
                f"{p.name:<{width}}  {p.wins:>5}  {p.draws:>5}  {p.losses:>6}  {p.score:>6.3f}  "
                f"{p.elo:+.0f} ({low:+.0f} to {high:+.0f})"
            )
        plies = [g.plies for g in self.games]
        mean = sum(plies) / len(plies) if plies else 0.0
        limit = f", {self.finished_before_limit} ended before the ply limit" if self.ply_limit else ""
        opening = f", each from {self.opening_plies} random opening plies" if self.opening_plies else ""
        lines.append(f"{len(self.games)} games of {self.game}{opening}, {mean:.1f} plies on average{limit}")
        seats = ", ".join(map(str, self.by_seat(0)))
        if seats:
            lines.append(f"{self.players[0].name} by seat (wins-draws-losses; seat 0 moves first): {seats}")
        return "\n".join(lines)


def elo(score: float) -> float:
    """The Elo difference whose expected score is ``score``."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_interval(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a mean score over ``games`` (draws count as half)."""
    if games <= 0:
        return 0.0, 1.0
    denominator = 1.0 + z * z / games
    centre = (score + z * z / (2 * games)) / denominator
    half = z * math.sqrt(score * (1.0 - score) / games + z * z / (4 * games * games)) / denominator
    low, high = centre - half, centre + half
    # At a score of 0 or 1 one end is exactly 0 or 1; keep rounding from making it finite.
    return (0.0 if low < 1e-12 else low), (1.0 if high > 1.0 - 1e-12 else high)


def seed_for(seed: int, *parts: int) -> int:
    """A 63-bit seed from ``seed`` and ``parts`` (SplitMix64 finaliser, as the engine's): the
    seed of a match's game ``i`` player ``p`` is ``seed_for(seed, i, p)``."""
    z = seed & (2**64 - 1)
    for part in parts:
        z = (z + (part + 1) * 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        z ^= z >> 31
    return z >> 1


PlayerLike = Union[str, "Player", Any]


def fresh_player(player: PlayerLike, seed: int) -> Any:
    """A player of its own for one game, seeded ``seed``: made from a spec, or by the
    player's ``spawn(seed)``, or else a deep copy."""
    from .players import from_spec

    if isinstance(player, str):
        return from_spec(player, seed)
    spawn = getattr(player, "spawn", None)
    if callable(spawn):
        return spawn(seed)
    import copy

    return copy.deepcopy(player)


def player_name(player: PlayerLike) -> str:
    """What a results table calls ``player``: its spec, or its ``name``."""
    if isinstance(player, str):
        return player
    return str(getattr(player, "name", type(player).__name__))


def arena(
    game: str,
    players: Sequence[PlayerLike],
    /,
    *,
    games: int = 100,
    seed: int = 0,
    threads: int = 0,
    position: Optional[str] = None,
    progress: Optional[Callable[[GameResult], None]] = None,
    opening_plies: int = 0,
    **params: Any,
) -> ArenaResult:
    """Plays ``games`` games of ``game`` (with ``params``, from ``position`` if given)
    between ``players``, ``threads`` at a time (0: one per core), and returns the results.
    ``progress`` is called with each game as it ends (in the order they end). Each game
    starts with ``opening_plies`` random plies, the same for the games of a rotation of the
    seats. ``game`` and ``players`` are positional only, so that E's own ``players``
    parameter (the number of seats) can be given among ``params``."""
    if isinstance(opening_plies, bool) or not isinstance(opening_plies, int):
        raise InvalidParameterError(f"opening_plies must be an int, got {opening_plies!r}")
    if opening_plies < 0:
        raise InvalidParameterError(f"opening_plies must be >= 0, got {opening_plies}")
    if games < 1:
        raise InvalidParameterError(f"games must be >= 1, got {games}")
    if threads < 0:
        raise InvalidParameterError(f"threads must be >= 0 (0 = every core), got {threads}")
    if not players:
        raise InvalidParameterError("the arena needs at least one player")
    start = _native.from_text(game, position, **params) if position else _native.new_game(game, **params)
    seats = start.num_players
    if len(players) > seats:
        raise InvalidParameterError(f"{game} has {seats} seats, got {len(players)} players")
    entries = list(players) + [players[-1]] * (seats - len(players))
    names = distinct_names([player_name(p) for p in entries])
    for entry in entries:
        if isinstance(entry, str):
            fresh_player(entry, 0)  # a bad spec fails here, before any game starts

    def play(index: int) -> GameResult:
        order = tuple((seat + index) % seats for seat in range(seats))  # player in each seat
        seated = [fresh_player(entries[p], seed_for(seed, index, p)) for p in order]
        state = start.copy()
        if opening_plies:
            _open(state, opening_plies, seed_for(seed, index // seats, seats))
        opening = len(state.moves) - len(start.moves)
        while not state.is_terminal():
            state.play(seated[state.current_player].choose(state))
        returns = state.returns()
        winner = next((order[s] for s, r in enumerate(returns) if r > 0), None)
        return GameResult(index, order, winner, len(state.moves), state, opening)

    from .search import thread_count

    # The searches release the GIL, so games on threads run in parallel.
    workers = thread_count(threads)
    results: list[GameResult] = []
    if workers <= 1:
        for i in range(games):
            results.append(play(i))
            if progress:
                progress(results[-1])
    else:
        from concurrent.futures import ThreadPoolExecutor, as_completed

        with ThreadPoolExecutor(max_workers=workers) as pool:
            for future in as_completed([pool.submit(play, i) for i in range(games)]):
                results.append(future.result())
                if progress:
                    progress(results[-1])
        results.sort(key=lambda r: r.number)
    return summarise(game, names, results, start.params.get("max_plies"), opening_plies)


def _open(state: Any, plies: int, seed: int) -> None:
    """Plays ``plies`` uniformly random moves on ``state`` (fewer if the game ends). The
    seed comes from the round with a last part of ``seats``, which is no player's index,
    so the opening draws from a stream of its own."""
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            return
        state.play(rng.choice(state.legal_moves()))


def distinct_names(names: Sequence[str]) -> list[str]:
    """``names`` with a repeated one numbered from its second time: ``a, a`` -> ``a, a#2``."""
    out = list(names)
    for i, name in enumerate(out):
        repeats = names[:i].count(name)
        if repeats:
            out[i] = f"{name}#{repeats + 1}"
    return out


def summarise(
    game: str, names: list[str], results: list[GameResult], ply_limit: Optional[int], opening_plies: int
) -> ArenaResult:
    """The results of a match's games (in game order) between the players ``names``."""
    n = len(names)
    out = []
    for p in range(n):
        wins = sum(r.winner == p for r in results)
        draws = sum(r.winner is None for r in results)
        pairwise = 0.0
        for r in results:
            if r.winner == p:
                pairwise += 1.0
            elif r.winner is None:
                pairwise += 0.5
            else:
                # Against the winner 0, against each other loser 0.5.
                pairwise += 0.5 * (n - 2) / (n - 1) if n > 1 else 0.0
        score = pairwise / len(results)
        low, high = score_interval(score, len(results))
        out.append(
            PlayerResult(names[p], wins, draws, len(results) - wins - draws, score, elo(score), (elo(low), elo(high)))
        )
    return ArenaResult(game, tuple(out), tuple(results), ply_limit, opening_plies)

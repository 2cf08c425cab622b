"""The ``glacier`` command line."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Optional, TypeVar

import click
from click.core import ParameterSource

import glacier
from glacier import reference
from glacier.play import DEFAULT_LEVEL, LEVEL_NAMES


def _parse_params(pairs: tuple[str, ...]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"expected NAME=VALUE, got {pair!r}", param_hint="--param")
        if value.lower() == "none":
            params[name] = None
        else:
            try:
                params[name] = int(value)
            except ValueError:
                raise click.BadParameter(
                    f"{name}: {value!r} is not an integer or 'none'", param_hint="--param"
                ) from None
    return params


_Command = TypeVar("_Command", bound=Callable[..., Any])

game_argument = click.argument("game", type=click.Choice(glacier.GAMES))
param_option = click.option(
    "--param", "-p", "params", multiple=True, metavar="NAME=VALUE", help="A game parameter, e.g. -p max_plies=200."
)


def threads_option(default: int, what: str) -> Callable[[_Command], _Command]:
    """The ``--threads``/``-t`` option of a command: ``what`` the threads do (0: as many as
    there are cores)."""
    return click.option("--threads", "-t", default=default, show_default=True, type=click.IntRange(min=0), help=what)


def _shown(text: str) -> str:
    """``text`` as typed: bytes that are not UTF-8 (which Python's argument decoding keeps as
    surrogates) written as ``\\xNN``."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _one_line(err: BaseException) -> str:
    """What went wrong, in one line, for an error the user caused (not a bug of glacier)."""
    if isinstance(err, click.UsageError):
        hint = f" (try '{err.ctx.command_path} --help')" if err.ctx is not None else ""
        message = err.format_message() + hint
    elif isinstance(err, OSError) and err.filename is not None:
        message = f"{err.filename}: {err.strerror or err}"
    elif isinstance(err, UnicodeDecodeError):
        message = f"the input is not UTF-8 text (byte {err.object[err.start]:#04x} at offset {err.start})"
    elif isinstance(err, UnicodeEncodeError):
        message = f"'{_shown(err.object)}' is not UTF-8 text"
    elif isinstance(err, OverflowError):
        message = f"a number is out of range ({err})"
    else:
        message = str(err) or type(err).__name__
    return " ".join(message.split())


def _failure(err: BaseException) -> click.ClickException:
    """``err`` as an error click reports in one line, ``Error: <message>``: a usage error
    without its context (which would add the usage block) keeps exit status 2."""
    if isinstance(err, click.UsageError):
        return click.UsageError(_one_line(err))
    return click.ClickException(_one_line(err))


class _Glacier(click.Group):
    """The ``glacier`` command group. Whatever a user can get wrong (an argument or option,
    a path that is missing, unreadable or unwritable, text or input that is not UTF-8, a
    position or move the engine refuses) is reported in one line, without a traceback; so
    is Ctrl-C, which exits with status 130."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        for arg in args:
            try:
                arg.encode("utf-8")
            except UnicodeEncodeError:
                raise click.ClickException(f"the argument '{_shown(arg)}' is not UTF-8 text") from None
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as err:
            raise _failure(err) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as err:
            raise _failure(err) from None
        except BrokenPipeError:
            raise  # click itself handles a closed pipe (e.g. `glacier ... | head`)
        except KeyboardInterrupt:
            # Ctrl-C: one line and the shell's status for SIGINT (128 + 2), no traceback.
            click.echo("Interrupted.", err=True)
            ctx.exit(130)
        except (OSError, UnicodeError, OverflowError, glacier.GlacierError) as err:
            raise _failure(err) from None


def _make(game: str, position: Optional[str], params: dict[str, Any], use_reference: bool) -> Any:
    impl = reference if use_reference else glacier
    try:
        return impl.from_text(game, position, **params) if position else impl.new_game(game, **params)
    except glacier.GlacierError as err:
        raise click.UsageError(str(err)) from None


@click.group(cls=_Glacier, invoke_without_command=True)
@click.version_option(glacier.__version__)
@click.pass_context
def main(ctx: click.Context) -> None:
    """glacier: a fast engine for five abstract board games.

    Play one with 'glacier serve' (in the web browser) or 'glacier play GAME' (in the
    terminal).
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@main.command()
@game_argument
@click.argument("depth", type=click.IntRange(min=0, max=2**32 - 1))
@param_option
@click.option("--position", help="Start from this position text instead of the start position.")
@click.option("--reference", "use_reference", is_flag=True, help="Use the pure-Python reference implementation.")
@click.option("--divide", is_flag=True, help="Print the leaf count below every first move.")
@threads_option(1, "Threads for the engine (0 = every core).")
@click.option("--no-bulk", is_flag=True, help="Play every leaf move instead of counting the last ply in bulk.")
@click.option(
    "--hash",
    "hash_mb",
    default=0,
    type=click.IntRange(min=0),
    metavar="MB",
    help="Count with a transposition table of MB MiB (a position reached by several move orders is counted once).",
)
@click.option(
    "--ray",
    "ray_address",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[ADDRESS]",
    help="Count on Ray: alone, the Ray of this machine (started if none); with HOST:PORT, that cluster.",
)
@click.option(
    "--split-depth",
    type=click.IntRange(min=0),
    help="With --ray: plies expanded before the work is cut into units (default: chosen by size).",
)
@click.option("--verify", is_flag=True, help="With --ray: count every unit twice, split differently, and compare.")
def perft(
    game: str,
    depth: int,
    params: tuple[str, ...],
    position: Optional[str],
    use_reference: bool,
    divide: bool,
    threads: int,
    no_bulk: bool,
    hash_mb: int,
    ray_address: Optional[str],
    split_depth: Optional[int],
    verify: bool,
) -> None:
    """Count the leaves of the legal-move tree of GAME to DEPTH.

    In a terminal a progress bar follows the first moves of a long count (with --ray, the
    work units done and the nodes per second).
    """
    from tqdm import tqdm

    state = _make(game, position, _parse_params(params), use_reference)
    if ray_address is not None:
        _perft_on_ray(
            state, depth, ray_address or None, split_depth, verify, use_reference or divide or no_bulk or hash_mb > 0
        )
        return
    if split_depth is not None or verify:
        raise click.UsageError("--split-depth and --verify go with --ray")
    if hash_mb and (use_reference or no_bulk):
        raise click.UsageError("--hash counts with the engine, bulk-counted: not with --reference or --no-bulk")
    options: dict[str, Any] = {"bulk": not no_bulk} if use_reference else {"bulk": not no_bulk, "threads": threads}
    if hash_mb:
        options["hash_mb"] = hash_mb
    start = time.perf_counter()
    # With a table, one count shares it over the whole tree (no progress bar then).
    if depth > 0 and (divide or (depth >= 6 and not hash_mb)):
        # One count per first move, so progress can be shown (tqdm stays silent off a terminal).
        counts: dict[str, int] = {}
        for move in tqdm(state.legal_moves(), desc=f"perft({depth})", unit="move", leave=False, disable=None):
            child = state.copy()
            child.play(move)
            counts[move] = child.perft(depth - 1, **options)
        if divide:
            for move, count in counts.items():
                click.echo(f"{move}: {count}")
        nodes = sum(counts.values())
    else:
        nodes = state.perft(depth, **options)
    elapsed = time.perf_counter() - start
    if use_reference:
        how = "pure-Python reference"
    else:
        how = f"native engine, {threads or 'all'} thread{'s' if threads != 1 else ''}, GIL released"
    counting = "every leaf move played" if no_bulk else "last ply counted in bulk"
    if hash_mb:
        counting += f", {hash_mb} MiB transposition table"
    rate = nodes / elapsed if elapsed > 0 else float("inf")
    click.echo(f"{game} perft({depth}) = {nodes}")
    click.echo(f"{elapsed:.3f} s, {rate:,.0f} leaves/s ({how}; {counting})")


def _perft_on_ray(
    state: Any, depth: int, address: Optional[str], split_depth: Optional[int], verify: bool, unsupported: bool
) -> None:
    from glacier import distributed

    if unsupported:
        raise click.UsageError(
            "--ray counts with the engine, bulk-counted: it does not go with --reference, --divide, --no-bulk or --hash"
        )
    try:
        result = distributed.perft(state, depth, split_depth=split_depth, address=address, verify=verify)
    except glacier.GlacierError as err:
        raise click.ClickException(str(err)) from None
    for line in result.report():
        click.echo(line)
    if result.mismatches:
        for mismatch in result.mismatches:
            click.echo(str(mismatch), err=True)
        raise click.ClickException(f"{len(result.mismatches)} of {result.units} units counted differently twice")


@main.command()
@game_argument
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1), help="Random games to play.")
@click.option("--seed", default=0, show_default=True, help="Seed of the first game; game i uses seed + i.")
@click.option(
    "--max-plies",
    default=300,
    show_default=True,
    type=click.IntRange(min=0),
    help="Cut each game after this many plies.",
)
@param_option
def diff(game: str, games: int, seed: int, max_plies: int, params: tuple[str, ...]) -> None:
    """Play random games with the engine and the reference side by side and compare every ply."""
    from tqdm import tqdm

    from glacier.testing import DifferentialMismatch, differential

    with tqdm(total=games, desc=f"diff {game}", unit="game") as bar:
        try:
            report = differential(
                game, games=games, seed=seed, max_plies=max_plies, params=_parse_params(params), progress=bar.update
            )
        except DifferentialMismatch as err:
            bar.close()
            raise click.ClickException(str(err)) from None
    click.echo(
        f"{report.games} games, {report.plies} plies, {report.perft_checks} perft checks: "
        f"engine and reference agree ({report.terminal_games} games finished; returns {report.outcomes})"
    )


@main.command()
@game_argument
@click.argument("text", required=False)
@param_option
@click.option(
    "--svg", "svg_path", type=click.Path(dir_okay=False, writable=True), help="Write an SVG picture to this file."
)
def show(game: str, text: Optional[str], params: tuple[str, ...], svg_path: Optional[str]) -> None:
    """Draw the position TEXT of GAME (the start position when TEXT is omitted)."""
    state = _make(game, text, _parse_params(params), use_reference=False)
    if svg_path:
        from glacier.svg import render

        with open(svg_path, "w", encoding="utf-8") as out:
            out.write(render(state))
        click.echo(f"wrote {svg_path}")
    else:
        click.echo(str(state))


class _PlayCommand(click.Command):
    """glacier play, whose help ends with every game's levels and their ratings."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from glacier import play as terminal

        rows = []
        for game in glacier.GAMES:
            spec = glacier.game_spec(game)
            for players in sorted(spec.levels):
                title = spec.title if players == 2 and len(spec.levels) == 1 else f"{spec.title}, {players} players"
                shown = terminal.levels(game, players)
                rows += [(title if i == 0 else "", level.describe()) for i, level in enumerate(shown)]
        with formatter.section("Levels, weakest first, with their ratings in each game's ladder (docs/strength.md)"):
            formatter.write_dl(rows)


@main.command(cls=_PlayCommand)
@game_argument
@param_option
@click.option(
    "--level",
    type=click.Choice(list(LEVEL_NAMES)),
    help=f"The computer's strength (the default, {DEFAULT_LEVEL}): each game's levels are listed below.",
)
@click.option(
    "--opponent",
    callback=lambda ctx, param, value: _check_opponent(value),
    metavar="mcts|alphabeta|montecarlo|random|baseline|net:PATH|level:NAME|strongest[:Ts]",
    help="Another kind of computer player instead of a level: mcts: tree search in the engine; "
    "alphabeta: alpha-beta (two-player games); montecarlo: each move scored by random playouts; "
    "random: uniformly random moves; baseline: tree search with the trained net glacier ships "
    "for the game; net:PATH: tree search with the net file PATH (see 'glacier train'); "
    "level:NAME: a level, as --level; strongest: the game's highest-rated player, for its "
    "ladder's time a move or T seconds.",
)
@click.option(
    "--seconds",
    type=click.FloatRange(min=0.01),
    help="Thinking time per move of --opponent mcts or alphabeta [default: 1.0]; "
    "without --opponent, the opponent is mcts.",
)
@click.option(
    "--simulations",
    type=click.IntRange(min=1),
    help="Simulations per move instead of a time (--opponent mcts; without --opponent, the opponent is mcts).",
)
@click.option(
    "--playouts",
    default=200,
    show_default=True,
    type=click.IntRange(min=1),
    help="Playouts per candidate move (--opponent montecarlo).",
)
@click.option(
    "--seat", default="0", show_default=True, help="The side you play: a seat name (White, Black, Green...) or number."
)
@click.option("--seed", default=None, type=int, help="Seed for the computer player.")
@click.option("--position", help="Start from this position text.")
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Append the game to this record file when it ends or you leave (otherwise you are asked).",
)
def play(
    game: str,
    params: tuple[str, ...],
    level: Optional[str],
    opponent: Optional[str],
    seconds: Optional[float],
    simulations: Optional[int],
    playouts: int,
    seat: str,
    seed: Optional[int],
    position: Optional[str],
    record_path: Optional[str],
) -> None:
    """Play GAME in the terminal against the computer.

    Type moves in the game's notation (in chess SAN such as Nf3 or O-O works too; in E a
    movement without its level, such as i6-g6, when one piece on that hex can make it);
    'moves' lists the legal moves, 'undo' takes back your last move, 'quit' ends the game.
    When the game ends or you leave (quit, Ctrl-C, the end of the input) you may save it as
    a record (see 'glacier replay').
    """
    from glacier import play as terminal
    from glacier.players import of_kind

    if level is not None and opponent is not None:
        raise click.UsageError("choose --level or --opponent, not both")
    if opponent is None and (seconds is not None or simulations is not None):
        if level is not None:
            raise click.UsageError("--level sets the computer's budget: leave out --seconds and --simulations")
        opponent = "mcts"
    state = _make(game, position, _parse_params(params), use_reference=False)
    try:
        you = terminal.seat_number(game, state.num_players, seat)
    except glacier.GlacierError as err:
        raise click.UsageError(str(err)) from None
    if opponent == "alphabeta" and state.num_players != 2:
        raise click.UsageError("alpha-beta plays two-player games; choose --opponent mcts or a --level")
    computers: dict[int, Any] = {}
    for player in range(state.num_players):
        if player == you:
            continue
        player_seed = None if seed is None else seed + player
        if opponent is None:
            try:
                computers[player] = terminal.computer(level or DEFAULT_LEVEL, game, player_seed, state.num_players)
            except glacier.GlacierError as err:
                raise click.UsageError(str(err)) from None
        else:
            computers[player] = terminal.PlayerComputer(
                of_kind(
                    opponent,
                    seconds=1.0 if seconds is None else seconds,
                    simulations=simulations,
                    playouts=playouts,
                    seed=player_seed,
                )
            )
    for computer in computers.values():
        chooser: Any = getattr(computer, "player", None)
        if hasattr(chooser, "prepare"):
            # A net that does not fit the game is said now, not at the computer's first move.
            try:
                chooser.prepare(state)
            except glacier.GlacierError as err:
                raise click.UsageError(str(err)) from None
    opponent_name = level or opponent or DEFAULT_LEVEL

    def prompt(text: str) -> str:
        try:
            return str(click.prompt(text, prompt_suffix="> "))
        except click.Abort:
            raise EOFError from None

    def save(finished: Any) -> None:
        _offer_to_save(finished, you, opponent_name, record_path)

    terminal.run(state, you, computers, save, prompt, click.echo)


def _check_opponent(value: Optional[str]) -> Optional[str]:
    from glacier.players import check_kind

    try:
        return None if value is None else check_kind(value)
    except glacier.GlacierError as err:
        raise click.BadParameter(str(err), param_hint="--opponent") from None


def _offer_to_save(state: Any, seat: int, opponent: str, record_path: Optional[str]) -> None:
    from glacier import records

    if record_path is None:
        try:
            answer = click.prompt(
                "save the game? record file to append it to (Enter: don't save)",
                default="",
                show_default=False,
                prompt_suffix="> ",
            ).strip()
        except click.Abort:  # the input ended (or Ctrl-C again): nothing to save to
            click.echo("\nnot saved (--record FILE saves a game without asking)")
            return
        if not answer:
            return
        record_path = answer
    names = [f"glacier {opponent}"] * state.num_players
    names[seat] = "you"
    records.write(record_path, [records.Record.of(state, names, Event="glacier play")], append=True)
    click.echo(f"saved the game to {record_path} (glacier replay {record_path} --html game.html shows it)")


@main.command()
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="The address to listen on (this machine only by default)."
)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(min=0, max=65535), help="The port.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
def serve(host: str, port: int, open_browser: bool) -> None:
    """Play and study every game in the web browser: a local web app (Ctrl-C stops it).

    Start a game of any game from its start, a position text or a record, with a person or
    the computer (easy, medium, hard) in every seat; move with the mouse; look back, undo,
    redo; let the engine analyse the position shown; save the game as a record.
    """
    from glacier.web import serve as run_server

    run_server(host, port, open_browser)


@main.command()
@game_argument
@click.argument("players", nargs=-1, required=True)
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1), help="Games to play.")
@click.option(
    "--seed", default=0, show_default=True, help="Seed of the match (game i seeds its players from it and i)."
)
@threads_option(0, "Games played at once (0 = one per core).")
@param_option
@click.option("--position", help="Start every game from this position text.")
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Append every game to this record file (in game order, when the match ends).",
)
@click.option(
    "--opening-plies",
    default=0,
    show_default=True,
    type=click.IntRange(min=0),
    metavar="K",
    help="Start each game with K random plies, drawn from the seed and the round (the games "
    "that swap the seats share an opening).",
)
def arena(
    game: str,
    players: tuple[str, ...],
    games: int,
    seed: int,
    threads: int,
    params: tuple[str, ...],
    position: Optional[str],
    record_path: Optional[str],
    opening_plies: int,
) -> None:
    """Play PLAYERS against each other at GAME, seats swapped every game (rotated for more
    players), and print wins, draws, losses and the Elo difference with its 95% interval.

    A player is random, montecarlo[:N] (N playouts per move), flat:N (N playouts in all),
    mcts[:N][:EVALUATOR] (N simulations or a time such as 2s; rollout, heuristic or
    rolloutK), alphabeta[:D] (depth D or a time such as 0.2s), alphabeta:D:net=PATH
    (scored by the evaluation net file PATH; net=shipped: the one glacier ships for GAME),
    net:PATH[:N] or baseline[:N]. With fewer players than seats the last fills the rest.
    Example: glacier arena kuba mcts:400 random --games 200
    """
    from tqdm import tqdm

    with tqdm(total=games, desc=f"arena {game}", unit="game") as bar:

        def advance(_: Any) -> None:
            bar.update(1)

        try:
            result = glacier.arena(
                game,
                list(players),
                games=games,
                seed=seed,
                threads=threads,
                position=position,
                progress=advance,
                opening_plies=opening_plies,
                **_parse_params(params),
            )
        except glacier.GlacierError as err:
            bar.close()
            raise click.UsageError(str(err)) from None
    click.echo(result.table())
    if record_path:
        from glacier import records

        names = [p.name for p in result.players]
        games_played = [
            records.Record.of(g.state, [names[p] for p in g.seats], Event="glacier arena", Round=str(g.number + 1))
            for g in result.games
        ]
        records.write(record_path, games_played, append=True)
        click.echo(f"appended {len(games_played)} games to {record_path}")


@main.command()
@game_argument
@click.option(
    "--player",
    "players",
    multiple=True,
    metavar="SPEC",
    help="A player of the ladder (repeat the option; as in glacier arena). Default: random, flat "
    "Monte Carlo, MCTS with each evaluation, alpha-beta and the shipped net, at --seconds-per-move.",
)
@click.option(
    "--results",
    "results_path",
    type=click.Path(dir_okay=False, writable=True),
    help="The results file: every game is kept there, and a ladder run again with it goes on "
    "where it stopped. Default: ladder-GAME.jsonl.",
)
@click.option("--games", default=10, show_default=True, type=click.IntRange(min=1), help="Games per table.")
@click.option(
    "--seconds-per-move",
    default=0.2,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="The time per move of the default players' specs (part of the ladder's settings).",
)
@click.option(
    "--minutes",
    type=click.FloatRange(min=0, min_open=True),
    help="Start no game after this long (the games under way end, and are kept).",
)
@click.option("--seed", default=0, show_default=True, help="Seed of the ladder's players and openings.")
@click.option(
    "--opening-plies",
    default=2,
    show_default=True,
    type=click.IntRange(min=0),
    metavar="K",
    help="Start each game with K random plies (the games of one rotation of the seats share them).",
)
@threads_option(1, "Games played at once (0 = one per core); each player searches on one thread.")
@click.option("--anchor", default="random", show_default=True, help="The player rated 0.")
@click.option(
    "--picture",
    "picture_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Also draw the ratings with their intervals into this SVG file.",
)
@param_option
def ladder(
    game: str,
    players: tuple[str, ...],
    results_path: Optional[str],
    games: int,
    seconds_per_move: float,
    minutes: Optional[float],
    seed: int,
    opening_plies: int,
    threads: int,
    anchor: str,
    picture_path: Optional[str],
    params: tuple[str, ...],
) -> None:
    """Rate GAME's players: a round-robin of GAMES games per table (every pair, or every set
    of as many players as E has seats), seats rotated, each game from random opening
    plies, then Elo ratings with 95% intervals (random = 0) fitted to every game in the
    results file. Stopped (--minutes, Ctrl-C), it goes on from its results file when run
    again; given more players, it plays only their tables."""
    from tqdm import tqdm

    from glacier import ladder as ladders

    game_params = _parse_params(params)
    roster = list(players) or ladders.default_players(game, seconds_per_move, **game_params)
    path = results_path or f"ladder-{game}.jsonl"
    bars: list[Any] = []

    def advance(game_played: Any, done: int, total: int) -> None:
        if game_played is None:
            bars.append(tqdm(total=total, desc=f"ladder {game}", unit="game"))
        else:
            bars[0].update(1)

    try:
        ratings = ladders.run(
            game,
            roster,
            path,
            games=games,
            seconds_per_move=seconds_per_move,
            opening_plies=opening_plies,
            seed=seed,
            minutes=minutes,
            threads=threads,
            anchor=anchor,
            progress=advance,
            **game_params,
        )
    except glacier.InvalidParameterError as err:
        raise click.UsageError(str(err)) from None
    finally:
        for bar in bars:
            bar.close()
    played = len(ladders.read(path)[1])
    if not ratings:
        click.echo(f"no game has ended yet; {path} holds {played} games")
        return
    click.echo(ladders.table(ratings))
    click.echo(f"{played} games in {path}")
    if picture_path:
        from glacier.svg import ratings as chart

        rows = [(r.player, r.elo, r.low, r.high) for r in ratings.values()]
        _write_atomically(Path(picture_path), chart.draw(rows, f"{game}: ratings"))


def _write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


@main.command()
@click.argument("record_file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--html", "html_path", type=click.Path(dir_okay=False, writable=True), help="Write the replay page to this file."
)
@click.option(
    "--serve",
    "serve_games",
    is_flag=True,
    help="Open the games in the web app of 'glacier serve' (look back, play on, analyse), on --host and --port.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="With --serve: the address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(min=0, max=65535), help="With --serve.")
@click.option("--open", "open_browser", is_flag=True, help="With --serve: open the page in the web browser.")
@click.option("--reference", "use_reference", is_flag=True, help="Replay with the pure-Python reference.")
def replay(
    record_file: str,
    html_path: Optional[str],
    serve_games: bool,
    host: str,
    port: int,
    open_browser: bool,
    use_reference: bool,
) -> None:
    """Replay the games of RECORD_FILE (game records, see docs/records.md).

    With --html, writes one self-contained page (board, move list, buttons and arrow keys);
    with --serve, opens the games in the web app; otherwise prints each game's tags and
    final board.
    """
    from glacier import records
    from glacier import replay as replay_page

    if serve_games and (html_path or use_reference):
        raise click.UsageError("--serve opens the games in the web app: not with --html or --reference")
    try:
        games = list(records.read_records(record_file, impl=reference if use_reference else glacier))
    except (glacier.GlacierError, UnicodeDecodeError) as err:
        raise click.ClickException(f"{record_file}: {_one_line(err)}") from None
    if not games:
        raise click.ClickException(f"{record_file} holds no game")
    if serve_games:
        from glacier.web import serve
        from glacier.web.session import HUMAN, Session

        sessions = [Session(g.start(), [HUMAN] * g.state.num_players, g.state.moves, cursor=0) for g in games]
        serve(host, port, open_browser, preload=sessions, path=f"/?game={sessions[0].id}")
        return
    if html_path:
        replay_page.write(html_path, games, title=Path(record_file).name)
        plies = sum(len(game.state.moves) for game in games)
        click.echo(f"wrote {html_path}: {len(games)} game{'s' if len(games) != 1 else ''}, {plies} plies")
        return
    for number, game in enumerate(games, start=1):
        click.echo(f"game {number}: {game.game}, {len(game.state.moves)} plies, result {game.result}")
        for name, value in game.tags.items():
            click.echo(f"  {name}: {value}")
        click.echo(str(game.state))


@main.command()
@click.argument("games", nargs=-1, type=click.Choice(glacier.GAMES))
@threads_option(0, "Threads for the parallel figures (0 = every core).")
@click.option("--quick", is_flag=True, help="Smaller workloads (a rough table in seconds).")
def bench(games: tuple[str, ...], threads: int, quick: bool) -> None:
    """Measure every throughput figure for GAMES (every game by default) and print a table."""
    from tqdm import tqdm

    from glacier import comparisons
    from glacier.bench import format_table, measure_game

    chosen = list(games) or list(glacier.GAMES)
    rows = []
    for game in tqdm(chosen, desc="bench", unit="game"):
        rows.extend(measure_game(game, threads=threads, quick=quick))
        rows.extend(comparisons.measure(game, quick=quick))
    click.echo(format_table(rows))


@main.command()
@game_argument
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="The training directory.")
@click.option(
    "--for",
    "searcher",
    type=click.Choice(["mcts", "alphabeta"]),
    default="mcts",
    show_default=True,
    help="mcts: a policy-value net by AlphaZero-style self-play; alphabeta: an evaluation net for "
    "alpha-beta (two-player games) from games of alpha-beta against itself.",
)
@click.option(
    "--minutes",
    type=click.FloatRange(min=0, min_open=True),
    help="Train for this long (wall time), then stop; without it (and --iterations), until Ctrl-C.",
)
@click.option(
    "--iterations", type=click.IntRange(min=1), help="Stop after this many iterations (--for alphabeta: rounds)."
)
@click.option(
    "--resume",
    is_flag=True,
    help="Go on with the run in --out (same game, parameters and net); options not given are the run's.",
)
@threads_option(1, "Search threads (0 = every core).")
@param_option
@click.option("--ray", "address", metavar="ADDRESS", help="Play the self-play on this Ray cluster ('auto': local).")
@click.option(
    "--simulations", default=64, show_default=True, type=click.IntRange(min=1), help="MCTS simulations a move."
)
@click.option(
    "--games", "games_per_iteration", default=128, show_default=True, type=click.IntRange(min=1), help="Games a round."
)
@click.option(
    "--hidden",
    metavar="W1,W2,...",
    help="Hidden layer widths (default: 64,64); --for alphabeta: the feature width, then the hidden "
    "layers (default: 64,32).",
)
@click.option(
    "--nodes",
    type=click.IntRange(min=1),
    help="--for alphabeta: the nodes of each move's search in its games (default: 20000).",
)
@click.option(
    "--teacher",
    type=click.Choice(["net", "heuristic"]),
    help="--for alphabeta: what scores the games' searches after the first round, the latest net or "
    "the game's heuristic (default: net).",
)
@click.option(
    "--random-plies",
    metavar="LO,HI",
    help="--for alphabeta: each game opens with LO to HI random plies (default: 2,10).",
)
@click.option(
    "--base",
    type=click.Choice(["none", "heuristic"]),
    help="--for alphabeta: what the net's score corrects: nothing, or the game's heuristic (the net "
    "starts as the heuristic and learns what it misses; default: none).",
)
@click.option(
    "--warm-start",
    default=0,
    show_default=True,
    type=click.IntRange(min=0),
    help="Iterations whose self-play searches as the game's computer player does, not with the net.",
)
@click.option(
    "--value-discount",
    default=1.0,
    show_default=True,
    type=click.FloatRange(min=0, max=1, min_open=True),
    help="Each move to a game's end multiplies the return a position learns by this: below 1, "
    "a near win is worth more than a far one.",
)
@click.option(
    "--heuristic-mix",
    default=0.0,
    show_default=True,
    type=click.FloatRange(min=0, max=1),
    help="Weight of the game's heuristic in the self-play searches' leaf values: the root values "
    "a net learns from then carry it.",
)
@click.option(
    "--evaluate-every",
    default=5,
    show_default=True,
    type=click.IntRange(min=0),
    help="Iterations between evaluations of the best net (0: only the final one).",
)
@click.option(
    "--final-evaluation/--no-final-evaluation",
    default=True,
    show_default=True,
    help="When the run ends, evaluate the best net at equal simulations and at equal time.",
)
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0), help="Seed of the run.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar; the log lines only.")
def train(
    game: str,
    out_dir: str,
    searcher: str,
    minutes: Optional[float],
    iterations: Optional[int],
    resume: bool,
    threads: int,
    params: tuple[str, ...],
    address: Optional[str],
    simulations: int,
    games_per_iteration: int,
    hidden: Optional[str],
    nodes: Optional[int],
    teacher: Optional[str],
    random_plies: Optional[str],
    base: Optional[str],
    warm_start: int,
    value_discount: float,
    heuristic_mix: float,
    evaluate_every: int,
    final_evaluation: bool,
    seed: int,
    quiet: bool,
) -> None:
    """Train a net to play GAME by self-play (AlphaZero-style), in the directory --out.

    Each iteration plays games with the engine's MCTS and the best net so far, trains on
    them, and keeps the new net only if it beats the best in a match. The best net is
    --out/best.safetensors (use it with 'glacier arena GAME net:PATH ...'); train.log says
    what each iteration did. Ctrl-C stops it; --resume goes on. See docs/learning.md.

    With --for alphabeta, each round plays --games games of alpha-beta against itself
    (--nodes a move), scored by the heuristic at first and by the latest net after (or by the
    heuristic always: --teacher heuristic), and fits an evaluation net (or, with --base
    heuristic, a correction of the heuristic) to the searches' scores and the games' results:
    --out/evaluation.safetensors (play it: 'glacier arena GAME alphabeta:0.2s:net=PATH ...').
    """
    try:
        from glacier import learn
    except ImportError as err:  # JAX or optax missing
        raise click.ClickException(
            f"glacier train needs JAX and optax (pip install 'glacier-games[learn]'): {err}"
        ) from None
    given = click.get_current_context().get_parameter_source
    if searcher == "alphabeta":
        mcts_only = ["address", "simulations", "warm_start", "value_discount", "heuristic_mix", "evaluate_every"]
        mcts_only.append("final_evaluation")
        stray = [name for name in mcts_only if given(name) is not ParameterSource.DEFAULT]
        if stray:
            names = ", ".join("--" + ("ray" if n == "address" else n.replace("_", "-")) for n in stray)
            raise click.UsageError(f"{names}: not an option of --for alphabeta")
        _train_evaluation(
            game,
            out_dir,
            minutes=minutes,
            rounds=iterations,
            resume=resume,
            threads=threads,
            params=_parse_params(params),
            seed=seed,
            quiet=quiet,
            hidden=hidden,
            games=games_per_iteration if given("games_per_iteration") is not ParameterSource.DEFAULT else None,
            nodes=nodes,
            teacher=teacher,
            random_plies=random_plies,
            base=base,
        )
        return
    alphabeta_only = {"--nodes": nodes, "--teacher": teacher, "--random-plies": random_plies, "--base": base}
    stray_options = [name for name, value in alphabeta_only.items() if value is not None]
    if stray_options:
        raise click.UsageError(f"{', '.join(stray_options)}: an option of --for alphabeta only")
    widths: Optional[tuple[int, ...]] = None
    if hidden:
        try:
            widths = tuple(int(w) for w in hidden.split(","))
        except ValueError:
            raise click.BadParameter(f"expected widths such as 128,64, got {hidden!r}", param_hint="--hidden") from None
    # Resumed, what is not given on the command line is the run's own. (A run of another game
    # is refused by learn.train, which says what the directory trains.)
    run = learn.run_config(out_dir) if resume else None
    if run is not None and run.game == game:
        kept = replace(run, params={**run.params, **_parse_params(params)}, hidden=widths or run.hidden)
        if given("simulations") is not ParameterSource.DEFAULT:
            kept = replace(kept, selfplay=replace(kept.selfplay, simulations=simulations))
        if given("heuristic_mix") is not ParameterSource.DEFAULT:
            kept = replace(kept, selfplay=replace(kept.selfplay, heuristic_mix=heuristic_mix))
        if given("games_per_iteration") is not ParameterSource.DEFAULT:
            kept = replace(kept, games_per_iteration=games_per_iteration, concurrent_games=games_per_iteration)
        chosen: dict[str, Any] = {
            "seed": seed,
            "warm_start": warm_start,
            "threads": threads,
            "value_discount": value_discount,
            "evaluate_every": evaluate_every,
            "final_evaluation": final_evaluation,
        }
        config = replace(kept, **{k: v for k, v in chosen.items() if given(k) is not ParameterSource.DEFAULT})
    else:
        config = learn.TrainConfig(
            game=game,
            params=_parse_params(params),
            hidden=widths,
            seed=seed,
            games_per_iteration=games_per_iteration,
            concurrent_games=games_per_iteration,
            selfplay=learn.SelfPlaySettings(simulations=simulations, heuristic_mix=heuristic_mix),
            warm_start=warm_start,
            value_discount=value_discount,
            evaluate_every=evaluate_every,
            final_evaluation=final_evaluation,
            threads=threads,
        )
    try:
        result = learn.train(
            config,
            out_dir,
            minutes=minutes,
            iterations=iterations,
            resume=resume,
            address=address,
            progress=not quiet,
            echo=click.echo,
        )
    except KeyboardInterrupt:
        click.echo(f"stopped; go on with: glacier train {game} --out {out_dir} --resume", err=True)
        # Everything of the run is on disk (each file written whole); JAX's own clean-up at
        # exit would take most of a second more.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    click.echo(
        f"{result.iterations} iterations, {result.positions:,} positions, {result.seconds / 60:.1f} minutes; "
        f"best net (iteration {result.best_iteration}): {Path(out_dir) / 'best.safetensors'}"
    )


def _train_evaluation(game: str, out_dir: str, **options: Any) -> None:
    """``glacier train GAME --for alphabeta``: :func:`glacier.learn.evaluation_training.train_command`."""
    from glacier.learn.evaluation_training import train_command

    try:
        train_command(game, out_dir, echo=click.echo, **options)
    except KeyboardInterrupt:
        click.echo(f"stopped; go on with: glacier train {game} --for alphabeta --out {out_dir} --resume", err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)


if __name__ == "__main__":
    main()

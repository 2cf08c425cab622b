"""The ``glacier`` command line."""

from __future__ import annotations

import time
from typing import Any, Optional

import click

import glacier
from glacier import reference


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
                raise click.BadParameter(f"{name}: {value!r} is not an integer or 'none'", param_hint="--param") from None
    return params


game_argument = click.argument("game", type=click.Choice(glacier.GAMES))
param_option = click.option(
    "--param", "-p", "params", multiple=True, metavar="NAME=VALUE", help="A game parameter, e.g. -p max_plies=200."
)


def _make(game: str, position: Optional[str], params: dict[str, Any], use_reference: bool) -> Any:
    impl = reference if use_reference else glacier
    try:
        return impl.from_text(game, position, **params) if position else impl.new_game(game, **params)
    except glacier.GlacierError as err:
        raise click.UsageError(str(err)) from None


@click.group()
@click.version_option(glacier.__version__)
def main() -> None:
    """glacier: a fast engine for five abstract board games."""


@main.command()
@game_argument
@click.argument("depth", type=click.IntRange(min=0))
@param_option
@click.option("--position", help="Start from this position text instead of the start position.")
@click.option("--reference", "use_reference", is_flag=True, help="Use the pure-Python reference implementation.")
@click.option("--divide", is_flag=True, help="Print the leaf count below every first move.")
@click.option("--threads", "-t", default=1, show_default=True, type=click.IntRange(min=0), help="Threads for the engine (0 = every core).")
@click.option("--no-bulk", is_flag=True, help="Play every leaf move instead of counting the last ply in bulk.")
def perft(
    game: str,
    depth: int,
    params: tuple[str, ...],
    position: Optional[str],
    use_reference: bool,
    divide: bool,
    threads: int,
    no_bulk: bool,
) -> None:
    """Count the leaves of the legal-move tree of GAME to DEPTH."""
    state = _make(game, position, _parse_params(params), use_reference)
    start = time.perf_counter()
    if divide:
        counts = state.perft_divide(depth) if use_reference else state.perft_divide(depth, threads=threads)
        for move, count in counts.items():
            click.echo(f"{move}: {count}")
        nodes = sum(counts.values()) if depth > 0 else 1
    elif use_reference:
        nodes = state.perft(depth, bulk=not no_bulk)
    else:
        nodes = state.perft(depth, bulk=not no_bulk, threads=threads)
    elapsed = time.perf_counter() - start
    if use_reference:
        how = "pure-Python reference"
    else:
        how = f"native engine, {threads or 'all'} thread{'s' if threads != 1 else ''}, GIL released"
    counting = "every leaf move played" if no_bulk else "last ply counted in bulk"
    rate = nodes / elapsed if elapsed > 0 else float("inf")
    click.echo(f"{game} perft({depth}) = {nodes}")
    click.echo(f"{elapsed:.3f} s, {rate:,.0f} leaves/s ({how}; {counting})")


@main.command()
@game_argument
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1), help="Random games to play.")
@click.option("--seed", default=0, show_default=True, help="Seed of the first game; game i uses seed + i.")
@click.option("--max-plies", default=300, show_default=True, type=click.IntRange(min=0), help="Cut each game after this many plies.")
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


if __name__ == "__main__":
    main()

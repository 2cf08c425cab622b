"""The command line and the SVG pictures."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import glacier
from conftest import deepest_within, game_tests
from glacier import errors, reference
from glacier.cli import main
from glacier.svg import render

SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str, input: str | None = None) -> str:
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_svg_is_well_formed_and_the_same_for_both_implementations(game: str) -> None:
    state = glacier.new_game(game)
    picture = render(state)
    root = ET.fromstring(picture)
    assert root.tag == f"{SVG}svg"
    assert state._repr_svg_() == picture == render(reference.new_game(game))


def test_perft_command(game: str) -> None:
    out = run("perft", game, "2")
    assert f"{game} perft(2) = {glacier.new_game(game).perft(2)}" in out
    assert "leaves/s" in out


def test_perft_divide_and_reference(game: str) -> None:
    native = run("perft", game, "2", "--divide", "--threads", "2")
    ref = run("perft", game, "2", "--divide", "--reference")
    assert native.splitlines()[:-2] == ref.splitlines()[:-2]


def test_perft_with_parameters_and_position(game: str) -> None:
    out = run("perft", game, "1", "-p", "max_plies=0")
    assert "perft(1) = 0" in out
    result = CliRunner().invoke(main, ["perft", game, "1", "--position", "nonsense"])
    # The game's own words on what its position text holds.
    with pytest.raises(errors.InvalidPositionError) as refused:
        glacier.from_text(game, "nonsense")
    assert result.exit_code != 0 and str(refused.value) in result.output
    result = CliRunner().invoke(main, ["perft", game, "1", "-p", "max_plies"])
    assert result.exit_code != 0


def test_diff_command(game: str) -> None:
    out = run("diff", game, "--games", "3", "--max-plies", "20")
    assert "3 games" in out and "agree" in out


def test_show_command(tmp_path: Path, game: str) -> None:
    state = glacier.new_game(game)
    assert run("show", game, state.text()).strip() == str(state).strip()
    target = tmp_path / "position.svg"
    run("show", game, "--svg", str(target))
    ET.fromstring(target.read_text())


def test_bench_command_quick() -> None:
    # A game without kin outside: its bench measures glacier alone (no other library's).
    game = next(g for g in glacier.GAMES if not glacier.game_spec(g).kin)
    out = run("bench", game, "--quick")
    assert "perft" in out and "playouts" in out and "Python API" in out and "reference" in out


def test_chess_comparisons_name_every_library() -> None:
    from glacier.comparisons import chess

    rows = chess.engines(quick=True)
    hows = " ".join(row.how for row in rows)
    assert "glacier" in hows and "python-chess" in hows and "OpenSpiel" in hows
    assert all(row.rate > 0 for row in rows)


def test_e_comparisons_name_both_engines() -> None:
    from glacier.comparisons import chinese_checkers

    rows = chinese_checkers.measure(quick=True)
    hows = " ".join(row.how for row in rows)
    assert "glacier" in hows and "OpenSpiel chinese_checkers in C++" in hows and "pyspiel" not in hows
    assert len(rows) == 5 and all(row.rate > 0 for row in rows)


def test_perft_depth_zero_and_long_counts(game: str) -> None:
    assert "perft(0) = 1" in run("perft", game, "0", "--divide")
    depth, leaves = deepest_within(game, 10**6)
    assert f"perft({depth}) = {leaves}" in run("perft", game, str(depth), "--threads", "2")
    depth, leaves = deepest_within(game, 10**7)
    out = run("perft", game, str(depth), "--hash", "4")
    assert f"perft({depth}) = {leaves}" in out and "4 MiB transposition table" in out
    for conflicting in ("--reference", "--no-bulk"):
        result = CliRunner().invoke(main, ["perft", game, "2", "--hash", "4", conflicting])
        assert result.exit_code == 2 and "--hash" in result.output


def cell_names(game: str) -> set[str]:
    """The names of the game's cells, as its own test module lists them (``CELL_NAMES``)."""
    return set(game_tests(game).CELL_NAMES)


def test_every_cell_carries_its_name_and_can_be_labelled_with_it(game: str) -> None:
    from glacier.svg import View, render_position

    state = glacier.new_game(game)
    for picture in (render(state), render(state, flipped=True, coordinates=False)):
        cells = [el.get("data-cell") for el in ET.fromstring(picture).iter() if el.get("data-cell")]
        assert sorted(cells) == sorted(cell_names(game))  # each cell once, under its notation's name
    labelled = ET.fromstring(render_position(game, state.text(), state.params, View(coordinates="cells")))
    names = [t.text for t in labelled.iter(f"{SVG}text") if t.get("class") == "cell-name"]
    assert sorted(names) == sorted(cell_names(game))
    assert not [t for t in labelled.iter(f"{SVG}text") if t.get("class") == "rim"]

"""Game records: written and read back by both implementations, plain PGN that python-chess
replays, SAN that the two twins (and python-chess) agree on, errors that name the line and
the move, and the commands that save and replay games."""

from __future__ import annotations

import doctest
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest
from click.testing import CliRunner

import glacier
from glacier import _native, records, reference
from glacier.cli import main
from glacier.errors import GlacierError, IllegalMoveError, InvalidRecordError

#: The game whose records are PGN: the one that plays chess (its SAN code is its twin's).
CHESS = glacier.kin("chess")[0]
reference_chess = reference.game_module(CHESS)
#: A game whose records write the moves as played, for what records do in any game.
GAME = next(game for game in glacier.GAMES if game != CHESS)
#: A game with a number of players (E), and the most it takes.
MANY, MOST = next(
    (game, spec.max) for game in glacier.GAMES for spec in glacier.game_spec(game).params if spec.name == "players"
)


def random_game(impl: Any, game: str, plies: int, seed: int, **params: Any) -> Any:
    rng = random.Random(seed)
    state = impl.from_text(game, params.pop("text"), **params) if "text" in params else impl.new_game(game, **params)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.play(rng.choice(state.legal_moves()))
    return state


def first_moves(plies: int) -> list[str]:
    """The first moves of a game of GAME, each the first legal move."""
    state = glacier.new_game(GAME)
    for _ in range(plies):
        state.play(state.legal_moves()[0])
    return list(state.moves)


FIRST, SECOND = first_moves(2)


def error_after(moves: list[str], bad: str) -> str:
    """What the reference says of ``bad`` played after ``moves`` from GAME's start, or, with
    no moves, of ``bad`` as a position of GAME."""
    try:
        if not moves:
            reference.from_text(GAME, bad)
        state = reference.new_game(GAME)
        for move in moves:
            state.play(move)
        state.play(bad)
    except GlacierError as err:
        return str(err)
    raise AssertionError(f"{bad!r} is accepted")


def game_params(game: str) -> list[dict[str, Any]]:
    """The parameter sets that exercise every variant of ``game``'s rules, then its named
    starts (a ``text`` with the parameters it implies)."""
    spec = glacier.game_spec(game)
    return [dict(v) for v in spec.variants] + [{**implied, "text": text} for text, implied in spec.starts.values()]


def test_the_docstring_examples_run() -> None:
    result = doctest.testmod(records, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_records_round_trip_between_both_implementations(game: str) -> None:
    for i, params in enumerate(game_params(game)):
        for writer in (glacier, reference):
            state = random_game(writer, game, 70, seed=i, **dict(params))
            text = records.dumps(state, comments={0: "from the start", 2: "after two plies"}, Event="test")
            start = state.copy(history=True)
            while start.moves:
                start.undo()
            for reader in (glacier, reference):
                back = records.loads(text, impl=reader)
                assert back.moves == state.moves and back.text() == state.text() and back.params == state.params
                # The history came along: undo walks back to the start.
                while back.moves:
                    back.undo()
                assert back.text() == start.text()
            (record,) = records.parse(text)
            assert record.comments == {0: "from the start", 2: "after two plies"}
            assert record.tags["Event"] == "test" and record.tags["Game"] == game
            assert record.text() == text  # writing what was read gives the same text
            assert all(len(line) <= 79 for line in text.splitlines() if not line.startswith("["))


def test_undo_reaches_the_recorded_start() -> None:
    start = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    state = random_game(glacier, CHESS, 30, 1, ice_age_period=0, text=start)
    back = records.loads(records.dumps(state))
    while back.moves:
        back.undo()
    assert back.text() == start


def test_numbering_follows_the_players_and_comments() -> None:
    state = glacier.from_text(CHESS, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 34", ice_age_period=0)
    for move in ["e8d7", "e2e4", "d7d6", "e4e5"]:
        state.play(move)
    (movetext,) = records.dumps(state, comments={1: "a king walk"}).split("\n\n")[1:]
    assert movetext.strip() == "34... Kd7 {a king walk} 35. e4 Kd6 36. e5+ *"
    e = random_game(glacier, MANY, 7, 0, players=3)
    movetext = records.dumps(e).split("\n\n")[1]
    assert re.match(r"1\. \S+ \S+ \S+ 2\. \S+ \S+ \S+ 3\. \S+ \*", movetext.strip())


# --- PGN: what python-chess reads and writes -------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_plain_chess_records_are_pgn_that_python_chess_replays(seed: int) -> None:
    state = random_game(glacier, CHESS, 300, seed, ice_age_period=0, text=records.STANDARD_CHESS_START)
    text = records.dumps(state, players=["Ann", "Bob"])
    assert "Variant" not in text and "FEN" not in text
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and game.errors == []
    assert game.headers["White"] == "Ann" and game.headers["Result"] == records.result_of(state)
    board = game.board()
    ours = records.parse(text)[0].notation
    for move, written in zip(game.mainline_moves(), ours):
        assert board.san(move) == written  # python-chess writes the same SAN
        board.push(move)
    assert [m.uci() for m in game.mainline_moves()] == state.moves
    placement, side, castling, _, halfmove, fullmove = state.text().split(" ")
    assert (board.board_fen(), "wb"[not board.turn], board.castling_xfen() or "-") == (placement, side, castling)
    assert (board.halfmove_clock, board.fullmove_number) == (int(halfmove), int(fullmove))


def test_pgn_from_python_chess_is_read_as_standard_chess() -> None:
    rng = random.Random(5)
    board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    game = chess.pgn.Game.from_board(board)
    node: Any = game
    for _ in range(40):
        if board.is_game_over() or board.halfmove_clock >= 99:
            break
        move = rng.choice(list(board.legal_moves))
        node = node.add_variation(move, comment="a comment" if rng.random() < 0.2 else "")
        board.push(move)
    game.headers["Result"] = board.result()
    node.parent.add_variation(node.move)  # a side line, which a replay skips
    for impl in (glacier, reference):
        state = records.loads(str(game), impl=impl)
        assert state.params["ice_age_period"] == 0
        assert state.moves == [m.uci() for m in game.mainline_moves()]
        assert state.text().split(" ")[0] == board.board_fen()


def test_ice_records_carry_a_variant_and_the_start_position() -> None:
    state = random_game(glacier, CHESS, 50, 3)
    (record,) = records.parse(records.dumps(state))
    assert record.tags["Variant"] == glacier.game_spec(CHESS).title and record.tags["SetUp"] == "1"
    assert record.tags["FEN"] == glacier.new_game(CHESS).text()
    assert record.state.moves == state.moves
    # Ice is taken like a piece in SAN.
    assert record.notation[:1] == [reference_chess.san(reference.new_game(CHESS).position, state.moves[0])]


# --- SAN: the two twins agree, and agree with python-chess -------------------------------------


@pytest.mark.parametrize("params", [{"ice_age_period": 0}, {"ice_age_period": 2}, {"ice_age_period": 5}, {}])
def test_san_is_the_same_in_both_twins(params: dict[str, Any]) -> None:
    checked = 0
    for seed in range(6):
        text = records.STANDARD_CHESS_START if params.get("ice_age_period") == 0 else None
        state = glacier.from_text(CHESS, text, **params) if text else glacier.new_game(CHESS, **params)
        rng = random.Random(seed)
        while not state.is_terminal() and len(state.moves) < 160:
            position = reference.from_text(CHESS, state.text(), **params).position
            for move in state.legal_moves():
                san = _native.chess_san(state.text(), move, **params)
                assert san == reference_chess.san(position, move), (state.text(), move)
                assert _native.chess_uci(state.text(), san, **params) == move
                assert reference_chess.parse_san(position, san) == move
                checked += 1
            state.play(rng.choice(state.legal_moves()))
    assert checked > 1000


@pytest.mark.parametrize(
    "san",
    ["Nd2", "Ke2", "O-O", "O-O-O", "e9", "Qxx4", "", "K", "exd6", "e8=Q", "Pe4", "Nb1d2", "bxa8", "Bxb7+!!"],
)
def test_bad_san_is_refused_alike_by_both_twins(san: str) -> None:
    text = "r3k3/1P6/8/8/8/8/8/1N1K1N2 w q - 0 1"
    position = reference.from_text(CHESS, text, ice_age_period=0).position
    try:
        expected: Any = reference_chess.parse_san(position, san)
    except IllegalMoveError as err:
        expected = str(err)
    try:
        got: Any = _native.chess_uci(text, san, ice_age_period=0)
    except IllegalMoveError as err:
        got = str(err)
    assert got == expected
    if san == "Nd2":
        assert expected == "ambiguous move 'Nd2': it could be Nbd2 or Nfd2"


# --- bad records ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            f'[Game "{GAME}"]\n\n1. {FIRST} {SECOND}\n2. a1a1 *',
            "^line 4, ply 3: " + re.escape(error_after([FIRST, SECOND], "a1a1")),
        ),
        ('[Event "x"]\n\n1. e4 e5 2. Nf9 *', r"^line 3, ply 3: 'Nf9' is not a SAN move"),
        ('[Game "chess"]\n\n*', r"^line 1: unknown game 'chess'"),
        (f'[Game "{GAME}"]\n[Parameters "max_plies"]\n\n*', r"^line 1: Parameters holds NAME=VALUE"),
        (f'[Game "{GAME}"]\n[Parameters "speed=3"]\n\n*', r"^line 1: unknown parameter 'speed'"),
        (f'[Game "{GAME}"]\n[Result "1-0"]\n\n1. {FIRST} 0-1', r"^line 4: the moves end with 0-1 but the Result tag"),
        (f'[Game "{GAME}"]\n\n1. {FIRST} 1-0-0', r"^line 3: '1-0-0' is not a result for 2 players"),
        (f'[Game "{GAME}"]\n[Position "nonsense"]\n\n*', "^line 1: " + re.escape(error_after([], "nonsense"))),
        ("1. e4 (1. d4 d5 *", r"a '\(' variation is never closed"),
        ("1. e4 e5 ] *", r"^line 1: unexpected '\]'"),
        (
            f'[Game "{CHESS}"]\n[Parameters "max_plies=1000 ice_age_period=0"]\n'
            '[FEN "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"]\n\n3. Kf2 *',
            r"^line 5, ply 1: .*game is over|^line 5, ply 1: illegal move 'Kf2'",
        ),
        (
            f'[Game "{CHESS}"]\n[Parameters "max_plies=1000 ice_age_period=0"]\n'
            '[FEN "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"]\n\n*',
            r"^line 5: the result is \* but the game ended 0-1",
        ),
    ],
)
def test_a_bad_record_names_the_line_and_the_move(text: str, message: str) -> None:
    for impl in (glacier, reference):
        with pytest.raises(InvalidRecordError, match=message):
            records.loads(text, impl=impl)


def test_loads_wants_one_game_and_parse_takes_them_all() -> None:
    one = records.dumps(glacier.new_game(GAME))
    assert len(records.parse(one + "\n" + one)) == 2
    with pytest.raises(InvalidRecordError, match="holds 2"):
        records.loads(one + "\n" + one)
    assert records.parse("") == [] and records.parse("  \n% an escaped line\n") == []


# --- files and commands --------------------------------------------------------------------------


def test_write_and_read_files_of_many_games(tmp_path: Path) -> None:
    path = tmp_path / "games.record"
    states = [random_game(glacier, game, 25, 1, **game_params(game)[0]) for game in glacier.GAMES]
    assert records.write(path, states, Event="a tournament") == len(states)
    more = random_game(reference, GAME, 12, 9)
    records.write(path, [records.Record.of(more, ["Ann", "Bob"], Round="2")], append=True)
    read = list(records.read(path))
    assert [s.moves for s in read] == [s.moves for s in states] + [more.moves]
    tags = [r.tags for r in records.read_records(path, impl=reference)]
    assert all(t["Event"] == "a tournament" for t in tags[:-1])
    assert tags[-1][records.seat_names(GAME)[0]] == "Ann" and tags[-1]["Round"] == "2"


def test_play_saves_the_game_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "played.record"
    result = CliRunner().invoke(
        main, ["play", GAME, "--opponent", "random", "--seed", "1"], input=f"{FIRST}\nquit\n{path}\n"
    )
    assert result.exit_code == 0, result.output
    assert "saved the game" in result.output
    state = records.loads(path.read_text())
    assert state.moves[0] == FIRST and len(state.moves) == 2
    assert records.parse(path.read_text())[0].tags["White"] == "you"
    # --record saves without asking; an answer left empty saves nothing.
    auto = tmp_path / "auto.record"
    result = CliRunner().invoke(
        main, ["play", GAME, "--opponent", "random", "--seed", "1", "--record", str(auto)], input=f"{FIRST}\nquit\n"
    )
    assert result.exit_code == 0 and records.loads(auto.read_text()).moves[0] == FIRST
    result = CliRunner().invoke(main, ["play", GAME, "--opponent", "random"], input=f"{FIRST}\nquit\n\n")
    assert result.exit_code == 0 and "saved" not in result.output


def test_replay_command_writes_a_self_contained_page(tmp_path: Path) -> None:
    path = tmp_path / "games.record"
    games = [random_game(glacier, CHESS, 12, 2), random_game(glacier, MANY, 9, 2, players=MOST)]
    records.write(path, games)
    page = tmp_path / "games.html"
    result = CliRunner().invoke(main, ["replay", str(path), "--html", str(page)])
    assert result.exit_code == 0 and "2 games, 21 plies" in result.output
    html = page.read_text()
    # Nothing is fetched: no scripts, styles, images or fonts from elsewhere.
    assert not re.search(r"<script[^>]+src=|<link|url\(|<img|@import|https?://(?!www\.w3\.org/2000/svg)", html)
    data = json.loads(re.search(r'<script type="application/json" id="games">(.*?)</script>', html, re.S)[1])  # type: ignore[index]
    # Every position after the start is its predecessor edited (see glacier.replay).
    assert [len(g["edits"]) for g in data["games"]] == [12, 9]
    assert all("".join(data["pieces"][i] for i in g["start"]).startswith("<svg") for g in data["games"])
    listing = CliRunner().invoke(main, ["replay", str(path)])
    assert listing.exit_code == 0 and f"game 2: {MANY}, 9 plies" in listing.output
    bad = tmp_path / "bad.record"
    bad.write_text(f'[Game "{GAME}"]\n\n1. a1a1 *\n')
    result = CliRunner().invoke(main, ["replay", str(bad), "--html", str(page)])
    assert result.exit_code != 0 and "line 3, ply 1" in result.output

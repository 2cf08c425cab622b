"""Writes the seed corpus of every fuzz target into DIR/<target>/ (run by `make fuzz`).

The seeds are real inputs, so the fuzzer starts deep inside each reader: every position of
tests/data/perft.txt and every start position as position texts, and the legal moves (and,
for Ice Age Chess, their SAN) of the start positions the move targets pick with their
first selector values. The input layouts are those of fuzz/src/lib.rs.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import glacier

ROOT = Path(__file__).resolve().parent.parent


def fixture_positions() -> list[tuple[str, str]]:
    """(game, text) of every fixture of tests/data/perft.txt that has a text."""
    found, game = [], None
    for line in (ROOT / "tests" / "data" / "perft.txt").read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition(" ")
        if key == "game":
            game = value
        elif key == "text" and game is not None:
            found.append((game, value))
    return found


def selector_start(game: str, selector: int) -> glacier.State:
    """The position `position_after(selector)` of fuzz/src/lib.rs picks, for selectors 0-3
    (which play no move): the start of `2 + selector % 5` players where the game takes a
    number of players, and standard chess (the start that plays chess) for odd selectors."""
    spec = glacier.game_spec(game)
    if any(param.name == "players" for param in spec.params):
        return glacier.new_game(game, players=2 + selector % 5)
    if selector % 2 == 1 and spec.kin.get("chess"):
        return glacier.new_game(game, start=spec.kin["chess"])
    return glacier.new_game(game)


def write(directory: Path, data: bytes) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main(out: Path) -> None:
    index = {game: i for i, game in enumerate(glacier.GAMES)}
    positions = [(game, glacier.new_game(game).text()) for game in glacier.GAMES] + fixture_positions()
    for game, text in positions:
        write(out / "position_text", bytes([index[game]]) + text.encode("utf-8"))
    for game in glacier.GAMES:
        for selector in range(4):
            for move in selector_start(game, selector).legal_moves():
                write(out / "move_text", bytes([index[game], selector]) + move.encode("utf-8"))
    chess, _ = glacier.kin("chess")
    for selector in range(4):
        state = selector_start(chess, selector)
        for move in state.legal_moves():
            san = glacier._native.chess_san(state.text(), move, **state.params)
            write(out / "san_text", bytes([selector]) + san.encode("utf-8"))


if __name__ == "__main__":
    main(Path(sys.argv[1]))

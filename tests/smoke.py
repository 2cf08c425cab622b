"""A smoke test of an installed glacier, run outside the source tree by the Python that has
it installed: ``python tests/smoke.py tests/data/perft.txt``. It checks what a user gets
from a wheel (tests/test_wheel.py runs it in a fresh virtual environment, the release
workflow on every wheel it builds where that wheel runs):

- every game's perft from its start and from every named start it offers, against the
  counts of the fixture file (the deepest up to a million leaves), and the pure-Python
  reference twin's from each start (up to a thousand);
- a search of each kind (MCTS, alpha-beta) choosing a legal move;
- every net shipped for a game loaded and searching with it, a game played by its player;
- every game's levels resolved, each rated by the ladder shipped for it;
- ``glacier perft`` and ``python -m glacier perft`` printing the same count;
- ``glacier serve`` started on a free port of 127.0.0.1 answering ``/api/info`` with every game.

It prints one line per check and exits non-zero at the first that fails. It needs nothing
but the wheel and its dependencies (no pytest, no Rust).
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path
from typing import Any, Optional

import glacier
import glacier.reference as reference
from glacier import learn, search
from glacier.players import NetPlayer

#: Deepest leaf counts checked: a million for the engine, a thousand for the reference twin.
ENGINE_LEAVES, REFERENCE_LEAVES = 1_000_000, 1_000


def read_perft(path: Path) -> list[dict[str, Any]]:
    """The records of a perft fixture file (the format is described at its top)."""
    records: list[dict[str, Any]] = []
    current: Optional[dict[str, Any]] = None
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            continue
        if not line.strip():
            current = None
            continue
        if current is None:
            current = {"params": {}, "text": None, "perft": []}
            records.append(current)
        key, _, value = line.rstrip().partition(" ")
        if key == "param":
            name, _, v = value.partition("=")
            current["params"][name] = None if v == "none" else int(v)
        elif key == "perft":
            depth, leaves = value.split(" ")
            current["perft"].append((int(depth), int(leaves)))
        else:
            current[key] = value
    return records


def check(what: str, got: object, want: object) -> None:
    if got != want:
        sys.exit(f"FAILED {what}: got {got!r}, want {want!r}")
    print(f"ok {what}")


def perft(records: list[dict[str, Any]]) -> None:
    for game in glacier.GAMES:
        defaults = glacier.new_game(game).params
        starts = {None: ("", {}), **glacier.game_spec(game).starts}
        for name, (text, implied) in starts.items():
            record = next(
                r
                for r in records
                if r["game"] == game
                and (r["text"] or "") == text
                and {**defaults, **r["params"]} == {**defaults, **implied}
            )
            depth, leaves = max((d, n) for d, n in record["perft"] if n <= ENGINE_LEAVES)
            check(f"{game} start={name} perft({depth})", glacier.new_game(game, start=name).perft(depth), leaves)
            if name is None:
                depth, leaves = max((d, n) for d, n in record["perft"] if n <= REFERENCE_LEAVES)
                check(f"{game} reference perft({depth})", reference.new_game(game).perft(depth), leaves)


def searches() -> None:
    for game in glacier.GAMES:
        state = glacier.new_game(game)
        legal = set(state.legal_moves())
        check(f"{game} mcts", search.mcts(state, simulations=200, seed=0).move in legal, True)
        check(f"{game} alphabeta", search.alphabeta(state, depth=2).move in legal, True)


def nets() -> None:
    paths = sorted(learn.nets.baseline_paths())
    check("nets shipped", len(paths) > 0, True)
    for path in paths:
        net = learn.load(path)
        state = glacier.new_game(net.game, **net.params)
        move = search.mcts(state, evaluator=net, simulations=32, seed=0).move
        check(f"net {path.name} searches", move in state.legal_moves(), True)
    # A short game of every game played by the net glacier ships for it, in every seat.
    for game in glacier.GAMES:
        player, state = NetPlayer(simulations=16, seed=0), glacier.new_game(game, max_plies=8)
        while not state.is_terminal():
            state.play(player.choose(state.copy()))
        check(f"{game} played by its shipped net to its end", 0 < len(state.moves) <= 8, True)
    # The evaluation nets shipped for alpha-beta, one for each game of two players only.
    for game in (g for g in glacier.GAMES if set(glacier.game_spec(g).seats) == {2}):
        state = glacier.new_game(game)
        net = learn.evaluation(game)
        check(f"{game} evaluation net in the wheel", net.path is not None and net.path.exists(), True)
        move = search.alphabeta(state, depth=2, evaluation=net).move
        check(f"{game} alpha-beta with its evaluation net", move in state.legal_moves(), True)
    check("nets load and play without JAX", "jax" in sys.modules, False)


def levels() -> None:
    """The levels of every game resolve, each rated where the wheel ships the game's ladder."""
    from glacier import play, ratings

    for game in glacier.GAMES:
        for players in sorted(glacier.game_spec(game).levels):
            found = play.levels(game, players)
            if ratings.shipped(game, players) is None:
                check(f"{game}, {players} players: levels without a ladder", len(found) > 0, True)
                continue
            rated = [level.name for level in found if level.rating is not None]
            check(f"{game}, {players} players: levels rated by the shipped ladder", rated, [lv.name for lv in found])


def glacier_command() -> str:
    """The ``glacier`` command installed with the package (beside this Python's scripts)."""
    found = shutil.which("glacier", path=sysconfig.get_path("scripts"))
    if found is None:
        sys.exit(f"FAILED the glacier command is not in {sysconfig.get_path('scripts')}")
    return found


def commands() -> None:
    game, depth = glacier.GAMES[0], 3
    want = f"{game} perft({depth}) = {glacier.new_game(game).perft(depth)}"
    for command in ([glacier_command()], [sys.executable, "-m", "glacier"]):
        out = subprocess.run([*command, "perft", game, str(depth)], capture_output=True, text=True, check=True)
        check(f"{' '.join(Path(c).name for c in command)} perft", out.stdout.splitlines()[0], want)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve() -> None:
    port = free_port()
    server = subprocess.Popen(
        [glacier_command(), "serve", "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=5) as answer:
                    info = json.load(answer)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    output = server.stdout.read().decode() if server.stdout else ""
                    sys.exit(f"FAILED glacier serve: no answer on port {port}\n{output}")
                time.sleep(0.2)
        check("glacier serve /api/info", [g["name"] for g in info["games"]], list(glacier.GAMES))
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: python smoke.py PERFT_FIXTURES (tests/data/perft.txt)")
    print(f"glacier {glacier.__version__} from {Path(glacier.__file__).parent}")
    perft(read_perft(Path(sys.argv[1])))
    searches()
    nets()
    levels()
    commands()
    serve()
    print("smoke test passed")


if __name__ == "__main__":
    main()

"""Shared helpers for the test suite."""

from __future__ import annotations

import contextlib
import importlib
import signal
import socket
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator, Optional

import pytest

import glacier
from glacier import reference

DATA = Path(__file__).parent / "data"

# A suite started in the background by a non-interactive shell inherits SIGINT ignored, and
# so would the children of the Ctrl-C tests, which then never see the signal they are sent:
# Python gives a child its KeyboardInterrupt handler only if SIGINT is not ignored at start.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


#: Every game (each has a native and a reference implementation).
GAMES = list(glacier.GAMES)

IMPLEMENTATIONS = {"native": glacier, "reference": reference}


def game_tests(game: str) -> ModuleType:
    """The game's own test module (tests/test_<game>.py), which holds what the generic tests
    ask of each game (docs/architecture.md, "Adding a game", lists it)."""
    return importlib.import_module(f"test_{game}")


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> str:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(params=list(IMPLEMENTATIONS))
def impl(request: pytest.FixtureRequest) -> Any:
    return IMPLEMENTATIONS[request.param]


def read_perft_fixtures() -> list[dict[str, Any]]:
    """Parses tests/data/perft.txt (the format is described at its top)."""
    records: list[dict[str, Any]] = []
    current: Optional[dict[str, Any]] = None
    for line in (DATA / "perft.txt").read_text().splitlines():
        line = line.rstrip()
        if line.startswith("#"):
            continue
        if not line:
            current = None
            continue
        if current is None:
            current = {"params": {}, "text": None, "perft": []}
            records.append(current)
        key, _, value = line.partition(" ")
        if key == "param":
            name, _, v = value.partition("=")
            current["params"][name] = None if v == "none" else int(v)
        elif key == "perft":
            depth, leaves = value.split(" ")
            current["perft"].append((int(depth), int(leaves)))
        else:
            current[key] = value
    return records


def make_state(impl: Any, record: dict[str, Any]) -> Any:
    if record["text"] is None:
        return impl.new_game(record["game"], **record["params"])
    return impl.from_text(record["game"], record["text"], **record["params"])


def start_counts(game: str) -> list[tuple[int, int]]:
    """The perft counts (depth, leaves) of ``game``'s start with its default parameters, from
    tests/data/perft.txt."""
    defaults = glacier.new_game(game).params
    for record in read_perft_fixtures():
        at_start = record["game"] == game and record["text"] is None
        if at_start and glacier.new_game(game, **record["params"]).params == defaults:
            return list(record["perft"])
    raise LookupError(f"no perft fixture for the start of {game}")


def deepest_within(game: str, leaves: int) -> tuple[int, int]:
    """The deepest start count of ``game`` (depth, leaves) with at most ``leaves`` leaves."""
    return max((d, n) for d, n in start_counts(game) if n <= leaves)


@contextlib.contextmanager
def web_server() -> Iterator[tuple[int, Any]]:
    """The web app served by uvicorn from a thread on a free port of 127.0.0.1, until the
    block ends: its port and the app."""
    import uvicorn

    from glacier.web import create_app

    app = create_app()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    running = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield port, app
    finally:
        running.should_exit = True
        thread.join(timeout=10)

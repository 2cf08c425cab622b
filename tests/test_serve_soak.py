"""A bounded soak of the web app on 127.0.0.1: several analyses at once, computers playing
every game to the end meanwhile, and a few hundred other requests (views, moves, bad
requests, games made and closed). Every computer must answer, every bad request get a 4xx
JSON answer, and the server's memory must stay within the analyses' bound; when the
analyses stop, their trees go."""

from __future__ import annotations

import http.client
import json
import os
import random
import time
from typing import Any, Iterator

import pytest

import glacier
from conftest import web_server
from glacier.web import analysis

#: Analyses running at once.
ANALYSES = 8
#: The analyses' bounds here, smaller than the server's own so that their trees fill up
#: within the test: each tree then holds at most a share of ALL_NODES, and starts again.
MAX_NODES = 20_000
ALL_NODES = 40_000
#: A fifth of a second of search adds fewer nodes than this to a tree.
SLICE_NODES = 20_000
#: The most the server may grow (the trees, under a kilobyte a node in the game analysed,
#: and the games and their pictures).
GROWTH_BYTES = 400 * 1024 * 1024
#: The soak lasts at least this long.
SECONDS = 6.0


def rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.fixture()
def server() -> Iterator[tuple[int, Any]]:
    with web_server() as served:
        yield served


def call(port: int, method: str, path: str, body: Any = None, raw: bytes = b"") -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    payload = raw or (None if body is None else json.dumps(body).encode())
    connection.request(method, path, payload, {"Content-Type": "application/json"})
    answer = connection.getresponse()
    status, data = answer.status, json.loads(answer.read())
    connection.close()
    return status, data


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads the memory of the process from /proc")
def test_analyses_computers_and_requests_together(server: tuple[int, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    port, app = server
    monkeypatch.setattr(analysis, "MAX_NODES", MAX_NODES)
    monkeypatch.setattr(analysis, "ALL_NODES", ALL_NODES)
    game = glacier.GAMES[0]
    people = ["human"] * glacier.new_game(game).num_players
    before = rss()
    analysed = []
    for _ in range(ANALYSES):
        status, view = call(port, "POST", "/api/games", {"game": game, "seats": people})
        assert status == 200
        assert call(port, "POST", f"/api/games/{view['id']}/analyse")[0] == 200
        analysed.append(view["id"])
    # Every game played to a short end by computers while the analyses run.
    played = {}
    for name in glacier.GAMES:
        seats = ["easy"] * glacier.new_game(name).num_players
        status, view = call(port, "POST", "/api/games", {"game": name, "seats": seats, "params": {"max_plies": 6}})
        assert status == 200, view
        played[view["id"]] = name
    rng = random.Random(7)
    state = glacier.new_game(game)
    status, view = call(port, "POST", "/api/games", {"game": game, "seats": people})
    mover_id = view["id"]
    requests = 0
    peak = 0
    begun = time.monotonic()
    deadline = begun + 120
    finished: set[str] = set()
    while len(finished) < len(played) or requests < 300 or time.monotonic() < begun + SECONDS:
        assert time.monotonic() < deadline, f"computers still playing: {set(played) - finished}"
        for game_id in played:
            status, view = call(port, "GET", f"/api/games/{game_id}")
            assert status == 200 and view["error"] is None, view
            if view["over"]:
                finished.add(game_id)
        nodes = 0
        for game_id in analysed:
            status, view = call(port, "GET", f"/api/games/{game_id}")
            assert status == 200 and view["analysis"]["error"] is None
            nodes += view["analysis"]["nodes"]
        assert nodes <= ALL_NODES + ANALYSES * SLICE_NODES
        kind = requests % 4
        if kind == 0 and not state.is_terminal():
            move = rng.choice(state.legal_moves())
            state.play(move)
            assert call(port, "POST", f"/api/games/{mover_id}/move", {"move": move})[0] == 200
        elif kind == 1:
            status, data = call(port, "POST", "/api/games", raw=rng.choice([b"[" * 5000, b"{", b'{"game": 5}']))
            assert 400 <= status < 500 and "error" in data
        elif kind == 2:
            status, view = call(port, "POST", "/api/games", {"game": rng.choice(glacier.GAMES)})
            assert status == 200
            assert call(port, "DELETE", f"/api/games/{view['id']}")[0] == 200
        else:
            status, data = call(port, "GET", f"/api/no/such/route/{requests}")
            assert status == 404 and "error" in data
        requests += len(played) + len(analysed) + 1
        peak = max(peak, rss() - before)
    assert peak < GROWTH_BYTES, f"the server grew by {peak / 2**20:.0f} MiB"
    for game_id, name in played.items():
        view = call(port, "GET", f"/api/games/{game_id}")[1]
        assert view["plies"] == 6 or view["over"], (name, view["status"])
    for game_id in analysed:
        view = call(port, "GET", f"/api/games/{game_id}")[1]
        assert view["analysis"]["simulations"] > 0
        call(port, "POST", f"/api/games/{game_id}/stop")
    sessions = app.state.games.sessions
    deadline = time.monotonic() + 30
    while any(sessions[game_id].analyst.running for game_id in analysed):
        assert time.monotonic() < deadline, "analyses went on after their stop"
        time.sleep(0.05)
    assert all(sessions[game_id].analyst._searcher is None for game_id in analysed)
    assert not analysis._RUNNING

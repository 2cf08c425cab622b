"""The web app's API (``glacier serve``) through Starlette's TestClient: games started from
the start, a position or a record; moves by actions and by text; undo, redo, look back;
the computer's moves; analysis; and every bad request answered 4xx with a JSON message,
changing nothing.

Every check runs for every game; what a game does in particular (its gestures, a move of
several actions step by step, SAN) each game's own test module declares in its section for
these tests: ``serve_api_scenario(api)``, given an :class:`Api`, and ``WIN_IN_ONE`` (a
position its player to move wins with one move)."""

from __future__ import annotations

import time
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient

import glacier
from conftest import game_tests
from glacier import players, records
from glacier.web import create_app
from glacier.web.app import MAX_BODY

SVG_CELL = 'data-cell="'
#: The game of the tests that any game would do for.
GAME = glacier.GAMES[0]


def declaring(name: str) -> list[str]:
    """The games whose own test module declares ``name``."""
    return [game for game in glacier.GAMES if hasattr(game_tests(game), name)]


def seat_counts(game: str) -> list[tuple[str, dict[str, int]]]:
    """The game with every number of players it allows, as parameters."""
    spec = glacier.game_spec(game)
    if not any(p.name == "players" for p in spec.params):
        return [(game, {})]
    return [(game, {"players": count}) for count in spec.seats]


@pytest.fixture()
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


@pytest.fixture()
def slow(monkeypatch: pytest.MonkeyPatch) -> str:
    """A level ``slow`` in every game, 5 s a move, for the cases that need a computer still
    thinking when they look (the shipped levels answer in a fraction of a second)."""
    levels = {
        game: {n: (*named, ("slow", "mcts:5s")) for n, named in table.items()} for game, table in players.LEVELS.items()
    }
    monkeypatch.setattr(players, "LEVELS", levels)
    return "slow"


def new(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


def wait(client: TestClient, game_id: str, until: Any, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        view = client.get(f"/api/games/{game_id}").json()
        if until(view):
            return dict(view)
        assert time.monotonic() < deadline, view["status"]
        time.sleep(0.05)


def refused(response: Any, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert words in message, message


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'select name="game"' in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    info = client.get("/api/info").json()
    assert [g["name"] for g in info["games"]] == list(glacier.GAMES)
    for game in info["games"]:
        seats = glacier.game_spec(game["name"]).seats
        assert game["seats"] == {str(count): list(names) for count, names in seats.items()}
        levels = glacier.game_spec(game["name"]).levels
        assert game["levels"].keys() == {str(count) for count in levels}
        for count, named in levels.items():
            shown = game["levels"][str(count)]
            assert [level["name"] for level in shown] == [name for name, _ in named]
            assert all(level["summary"] for level in shown)
    assert info["levels"] == ["easy", "medium", "hard", "strongest"]


@pytest.mark.parametrize(("game", "params"), [case for game in glacier.GAMES for case in seat_counts(game)])
def test_every_legal_action_is_offered_once_as_a_gesture(client: TestClient, game: str, params: dict[str, int]) -> None:
    state = glacier.new_game(game, **params)
    view = new(client, game=game, params=params, seats=["human"] * state.num_players)
    offered = view["clickable"]
    actions = [a["action"] for targets in offered["moves"].values() for acts in targets.values() for a in acts]
    actions += list(offered["cells"].values()) + [c["action"] for c in offered["choices"]]
    assert sorted(actions) == sorted(state.legal_actions())
    for frm, targets in offered["moves"].items():
        assert f'{SVG_CELL}{frm}"' in view["svg"]
        for to in targets:
            assert f'{SVG_CELL}{to}"' in view["svg"]
    for cell in offered["cells"]:
        assert f'{SVG_CELL}{cell}"' in view["svg"]


@pytest.mark.parametrize("game", declaring("WIN_IN_ONE"))
def test_a_winning_move_ends_the_game_with_its_reason(client: TestClient, game: str) -> None:
    text, params, move, result = game_tests(game).WIN_IN_ONE
    mover = glacier.from_text(game, text, **params)
    seats = ["easy"] * mover.num_players
    seats[mover.current_player] = "human"
    view = new(client, game=game, position=text, params=params, seats=seats)
    view = client.post(f"/api/games/{view['id']}/move", json={"move": move}).json()
    mover.play(move)
    assert view["result"] == records.result_of(mover) and view["reason"] == result.partition(": ")[2]
    assert view["status"] == result and view["text"] == mover.text()


@pytest.mark.parametrize("game", glacier.GAMES)
def test_the_computer_answers(client: TestClient, game: str) -> None:
    seats = ["human"] * glacier.new_game(game).num_players
    seats[0] = "easy"
    view = new(client, game=game, seats=seats)
    view = wait(client, view["id"], lambda v: v["ply"] == 1 and not v["thinking"])
    assert view["seats"][1]["to_move"] and (view["clickable"]["moves"] or view["clickable"]["cells"])


@pytest.mark.parametrize("game", glacier.GAMES)
def test_two_computers_play_on_and_stop_when_the_game_is_closed(client: TestClient, slow: str, game: str) -> None:
    seats = [slow] * glacier.new_game(game).num_players
    seats[0] = "easy"
    view = new(client, game=game, seats=seats)
    view = wait(client, view["id"], lambda v: v["ply"] >= 1 and v["thinking"])
    session = client.app.state.games.sessions[view["id"]]  # type: ignore[attr-defined]
    assert session.thinking is not None
    assert client.delete(f"/api/games/{view['id']}").status_code == 200
    refused(client.get(f"/api/games/{view['id']}"), 404, "no game")
    deadline = time.monotonic() + 2  # the search stops within a slice, long before its 5 s
    while session.thinking is not None:
        assert time.monotonic() < deadline, "the computer went on thinking for a closed game"
        time.sleep(0.02)
    assert len(session.line.moves) == view["plies"]  # the search stopped without playing


@pytest.mark.parametrize("game", declaring("WIN_IN_ONE"))
def test_analysis_streams_its_top_moves_and_stops(client: TestClient, game: str) -> None:
    text, params, move, result = game_tests(game).WIN_IN_ONE
    view = new(client, game=game, position=text, params=params, seats=["human"] * glacier.new_game(game).num_players)
    game_id = view["id"]
    view = client.post(f"/api/games/{game_id}/analyse").json()
    assert view["analysis"]["running"] and view["analysing"]
    view = wait(client, game_id, lambda v: v["analysis"]["simulations"] > 500)
    # The top move wins (it may be another winning move than the declared one).
    won = glacier.from_text(game, text, **params)
    won.play(view["analysis"]["top"][0]["move"])
    assert won.is_terminal() and won.returns()[view["to_move"]] > 0
    # The arrows come apart from the board: the board is not drawn again as they change.
    assert 'class="arrow"' in view["arrows"] and 'class="arrow"' not in view["svg"]
    assert len(view["analysis"]["values"]) == len(view["seats"])
    client.post(f"/api/games/{game_id}/stop")
    view = wait(client, game_id, lambda v: not v["analysis"]["running"])
    assert view["analysis"]["ended"] == "stopped" and not view["analysing"]
    client.post(f"/api/games/{game_id}/move", json={"move": move})
    view = client.get(f"/api/games/{game_id}").json()
    assert view["analysis"] is None and view["arrows"] == ""
    assert view["reason"] == result.partition(": ")[2]


def test_a_version_shows_one_view(client: TestClient) -> None:
    """The page shows a view only if its version is newer than the one it shows: two views
    of one version never differ, while the analysis changes them several times a second."""
    game = glacier.GAMES[0]  # any game: the analysis is the same code for all
    game_id = new(client, game=game, seats=["human"] * glacier.new_game(game).num_players)["id"]
    client.post(f"/api/games/{game_id}/analyse")
    seen: dict[int, Any] = {}
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        view = client.get(f"/api/games/{game_id}").json()
        assert seen.setdefault(view["version"], view) == view, view["version"]
    assert len(seen) > 3  # the analysis's slices did change it
    versions = sorted(seen)
    client.post(f"/api/games/{game_id}/stop")
    assert client.get(f"/api/games/{game_id}").json()["version"] > versions[-1]


@pytest.mark.parametrize("game", glacier.GAMES)
def test_a_record_is_opened_from_the_request_body(client: TestClient, game: str) -> None:
    state = glacier.new_game(game)
    for _ in range(3):
        state.play(state.legal_moves()[0])
    text = records.dumps(state)
    view = new(client, record=text)
    assert view["game"] == game and view["ply"] == 3 and view["text"] == state.text()
    assert [s["player"] for s in view["seats"]] == ["human"] * state.num_players
    view = new(client, record=text, ply=1)
    assert view["ply"] == 1 and view["plies"] == 3


def bad_new_games(game: str) -> list[tuple[dict[str, Any], str]]:
    """Requests for a new game of ``game`` that are refused, and words of the answer."""
    seats = glacier.new_game(game).num_players
    return [
        ({"game": game, "params": {"max_plies": -1}}, "max_plies"),
        ({"game": game, "params": {"max_plies": "many"}}, "whole number"),
        ({"game": game, "params": {"colour": 1}}, "unknown parameter"),
        # The message names the game, as its title begins.
        ({"game": game, "position": "not a position"}, glacier.game_spec(game).title.split(" (")[0]),
        ({"game": game, "seats": ["human"] * (seats - 1) + ["grandmaster"]}, "unknown player 'grandmaster'"),
        ({"game": game, "seats": ["human"] * (seats + 1)}, f"{seats} seats"),
        ({"record": f'[Game "{game}"]\n\n1. z9z9 *'}, "z9z9"),
    ]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "go"}, "unknown game 'go'"),
        ({}, "needs 'game'"),
        ({"game": 7}, "'game' must be a str"),
        ({"record": ""}, "no game"),
        *[case for game in glacier.GAMES for case in bad_new_games(game)],
    ],
)
def test_bad_new_games_are_refused(client: TestClient, body: dict[str, Any], words: str) -> None:
    refused(client.post("/api/games", json=body), 400, words)
    assert client.get("/api/info").json()["open"] == []


@pytest.mark.parametrize("game", glacier.GAMES)
def test_bad_requests_change_nothing(client: TestClient, game: str) -> None:
    start = glacier.new_game(game)
    never = next(a for a in range(start.num_distinct_actions) if a not in start.legal_actions())
    view = new(client, game=game, seats=["human"] * start.num_players)
    game_id = view["id"]
    before = client.get(f"/api/games/{game_id}").json()
    url = f"/api/games/{game_id}"
    refused(client.post(f"{url}/move", json={"move": "a1a9"}), 400, "a1a9")
    refused(client.post(f"{url}/move", json={"move": "b6b5"}), 400, "b6b5")
    refused(client.post(f"{url}/move", json={"move": 12}), 400, "'move' must be a str")
    refused(client.post(f"{url}/move", json={}), 400, "needs 'move'")
    refused(client.post(f"{url}/action", json={"action": never}), 400, "not legal")
    refused(client.post(f"{url}/action", json={"action": "f1f2"}), 400, "'action' must be a int")
    refused(client.post(f"{url}/action", json={"action": True}), 400, "'action' must be a int")
    refused(client.post(f"{url}/goto", json={"ply": 5}), 400, "ply must be")
    refused(client.post(f"{url}/undo"), 400, "no move to undo")
    refused(client.post(f"{url}/redo"), 400, "no move to redo")
    refused(client.post(f"{url}/move", content=b"{not json"), 400, "not JSON")
    refused(client.post(f"{url}/move", content=b"[1, 2]"), 400, "JSON object")
    refused(client.post(f"{url}/move", content=b"\xff\xfe"), 400, "not JSON")
    refused(client.post(f"{url}/move", content=b"x" * (MAX_BODY + 1)), 413, "over")
    refused(client.post("/api/games", content=b" " * (MAX_BODY + 1)), 413, "over")
    refused(client.post("/api/games/nope/move", json={"move": start.legal_moves()[0]}), 404, "no game 'nope'")
    after = client.get(f"/api/games/{game_id}").json()
    assert after == before


@pytest.mark.parametrize("game", glacier.GAMES)
def test_moves_out_of_turn_are_refused(client: TestClient, slow: str, game: str) -> None:
    if game in declaring("WIN_IN_ONE"):
        text, params, move, _ = game_tests(game).WIN_IN_ONE
        seats = ["human"] * glacier.new_game(game).num_players
        view = new(client, game=game, position=text, params=params, seats=seats)
        client.post(f"/api/games/{view['id']}/move", json={"move": move})
        refused(client.post(f"/api/games/{view['id']}/move", json={"move": move}), 400, "the game is over")
    state = glacier.new_game(game)
    seats = [slow] * state.num_players
    seats[0] = "human"
    view = new(client, game=game, seats=seats)
    first = state.legal_moves()[0]
    state.play(first)
    client.post(f"/api/games/{view['id']}/move", json={"move": first})
    answer = client.post(f"/api/games/{view['id']}/move", json={"move": state.legal_moves()[0]})
    refused(answer, 400, "played by the computer")
    client.delete(f"/api/games/{view['id']}")


def test_the_server_binds_to_this_machine_by_default() -> None:
    import inspect

    from glacier.web import serve

    assert inspect.signature(serve).parameters["host"].default == "127.0.0.1"


def glacier_server(*args: str) -> tuple[Any, int]:
    """``glacier <args> --port <free port>`` started, and its port once it answers."""
    import shutil
    import socket
    import subprocess
    import sys
    import urllib.request
    from pathlib import Path

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = shutil.which("glacier", path=str(Path(sys.executable).parent))
    assert command is not None
    server = subprocess.Popen(
        [command, *args, "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=2):
                return server, port
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise AssertionError(server.communicate()) from None
            time.sleep(0.1)


def get(port: int, path: str) -> Any:
    import json
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
        return json.load(answer)


def stop(server: Any) -> str:
    import signal

    server.send_signal(signal.SIGINT)
    out, err = server.communicate(timeout=30)
    assert "Traceback" not in err
    return str(out)


def test_glacier_serve_runs_until_ctrl_c() -> None:
    server, port = glacier_server("serve")
    try:
        assert len(get(port, "/api/info")["games"]) == len(glacier.GAMES)
    finally:
        out = stop(server)
    assert f"http://localhost:{port}/" in out


def test_glacier_replay_serve_opens_every_game_at_its_start(tmp_path: Any) -> None:
    games = []
    for plies, game in enumerate(glacier.GAMES, start=1):
        state = glacier.new_game(game)
        for _ in range(plies):
            state.play(state.legal_moves()[0])
        games.append(state)
    path = tmp_path / "every.record"
    records.write(path, games)
    server, port = glacier_server("replay", str(path), "--serve")
    try:
        opened = get(port, "/api/info")["open"]
        assert [game["title"] for game in opened] == [
            f"{glacier.game_spec(state.game).title}, {len(state.moves)} pl{'y' if len(state.moves) == 1 else 'ies'}"
            for state in games
        ]
        for game, state in zip(opened, games):
            shown = get(port, f"/api/games/{game['id']}")
            assert shown["ply"] == 0 and shown["plies"] == len(state.moves)
            assert [m["text"] for m in shown["moves"]] == records.Record.of(state).notation
            assert shown["text"] == glacier.new_game(state.game).text()
            assert [seat["player"] for seat in shown["seats"]] == ["human"] * state.num_players
    finally:
        out = stop(server)
    assert f"/?game={opened[0]['id']}" in out


@pytest.mark.parametrize("game", glacier.GAMES)
def test_computers_of_a_game_nobody_watches_stop_and_go_on_when_shown(client: TestClient, slow: str, game: str) -> None:
    view = new(client, game=game, seats=[slow] * glacier.new_game(game).num_players)
    session = client.app.state.games.sessions[view["id"]]  # type: ignore[attr-defined]
    assert session.thinking is not None
    session.seen -= 3600  # as if the page had been closed an hour ago
    deadline = time.monotonic() + 2
    while session.thinking is not None:
        assert time.monotonic() < deadline, "the computer went on thinking with nobody watching"
        time.sleep(0.02)
    assert session.line.moves == []
    view = client.get(f"/api/games/{view['id']}").json()
    assert view["thinking"] and session.thinking is not None
    client.delete(f"/api/games/{view['id']}")


@pytest.mark.parametrize("game", glacier.GAMES)
def test_the_analysis_goes_on_from_the_position_a_move_reaches(client: TestClient, game: str) -> None:
    start = glacier.new_game(game)
    view = new(client, game=game, seats=["human"] * start.num_players)
    game_id = view["id"]
    client.post(f"/api/games/{game_id}/analyse")
    session = client.app.state.games.sessions[game_id]  # type: ignore[attr-defined]
    before = session.analyst.current
    view = client.post(f"/api/games/{game_id}/move", json={"move": start.legal_moves()[0]}).json()
    assert view["analysing"] and view["analysis"]["ply"] == 1 and view["analysis"]["running"]
    deadline = time.monotonic() + 2
    while before.running:
        assert time.monotonic() < deadline, "the analysis of the old position went on"
        time.sleep(0.02)
    view = wait(client, game_id, lambda v: v["analysis"]["simulations"] > 0)
    assert view["analysis"]["ply"] == 1 and view["analysis"]["top"]
    view = client.post(f"/api/games/{game_id}/goto", json={"ply": 0}).json()
    assert view["analysis"]["ply"] == 0  # and from any position gone to
    client.post(f"/api/games/{game_id}/stop")
    view = wait(client, game_id, lambda v: not v["analysis"]["running"])
    assert session.analyst._searcher is None  # the tree is dropped with its memory


def test_an_analysis_no_page_shows_stops(client: TestClient) -> None:
    game = glacier.GAMES[0]
    game_id = new(client, game=game, seats=["human"] * glacier.new_game(game).num_players)["id"]
    client.post(f"/api/games/{game_id}/analyse")
    session = client.app.state.games.sessions[game_id]  # type: ignore[attr-defined]
    session.seen -= 3600  # as if the page had been closed an hour ago
    deadline = time.monotonic() + 3
    while session.analyst.running:
        assert time.monotonic() < deadline, "the analysis went on with nobody watching"
        time.sleep(0.02)
    view = client.get(f"/api/games/{game_id}").json()
    assert view["analysis"]["ended"] == "no page shows the game" and not view["analysing"]
    assert session.analyst._searcher is None


def test_an_analysis_keeps_its_tree_bounded(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full tree's root visits are kept and the search goes on in a fresh tree: the
    visits grow past the bound, and no slice begins with a tree past it."""
    from glacier import play
    from glacier.web import analysis

    cap = 3000
    monkeypatch.setattr(analysis, "MAX_NODES", cap)
    monkeypatch.setattr(play, "SLICE_SECONDS", 0.02)  # several slices to a tree
    slices: list[tuple[int, int]] = []  # each slice's simulations and the nodes after it
    search_slice = analysis._slice

    def recorded(searcher: Any, position: Any, current: Any) -> Any:
        found = search_slice(searcher, position, current)
        if found is not None:
            slices.append((found[0].simulations, found[1]))
        return found

    monkeypatch.setattr(analysis, "_slice", recorded)
    game_id = new(client, game=GAME, seats=["human"] * glacier.new_game(GAME).num_players)["id"]
    client.post(f"/api/games/{game_id}/analyse")
    view = wait(client, game_id, lambda v: v["analysis"]["simulations"] > 3 * cap)
    client.post(f"/api/games/{game_id}/stop")
    best = view["analysis"]["top"][0]  # its share is of every move's visits, earlier trees included
    assert best["visits"] / best["share"] > cap
    assert all(nodes - simulations < cap for simulations, nodes in slices), slices
    assert any(nodes >= cap for _, nodes in slices[:-1])  # a full tree, and a slice after it


def test_games_are_closed_by_when_a_page_last_showed_them(client: TestClient) -> None:
    """200 games made through the API do not close the game a page shows; when every game
    kept was shown in the last ten minutes, a new one is refused and nothing changes."""
    from glacier.web import app

    people = ["human"] * glacier.new_game(GAME).num_players
    shown = new(client, game=GAME, seats=people)["id"]
    client.get(f"/api/games/{shown}")  # a page shows it
    made = [new(client, game=GAME, seats=people)["id"] for _ in range(200)]
    sessions = client.app.state.games.sessions  # type: ignore[attr-defined]
    assert shown in sessions and len(sessions) == app.MAX_GAMES
    assert set(made[-(app.MAX_GAMES - 1) :]) <= set(sessions)  # the newest of the others stay
    for game_id in made[-(app.MAX_GAMES - 1) :]:
        client.get(f"/api/games/{game_id}")
    before = set(sessions)
    refused(client.post("/api/games", json={"game": GAME}), 503, "close one first")
    assert set(sessions) == before
    assert client.get(f"/api/games/{shown}").status_code == 200


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "words"),
    [
        ("POST", "/api/games", b"[" * 100_000, 400, "nested too deep"),
        (
            "POST",
            "/api/games",
            b'{"game": "' + GAME.encode() + b'", "seats": ["easy", "human"], "seed": ' + b"9" * 30 + b"}",
            400,
            "'seed'",
        ),
        (
            "POST",
            "/api/games",
            b'{"game": "' + GAME.encode() + b'", "seats": ["easy", "human"], "seed": -5}',
            400,
            "'seed'",
        ),
        ("POST", "/api/games", b'{"game": "' + GAME.encode() + b'", "seed": 1.5}', 400, "'seed' must be a int"),
        (
            "POST",
            "/api/games",
            b'{"game": "' + GAME.encode() + b'", "params": {"max_plies": ' + b"9" * 40 + b"}}",
            400,
            "max_plies",
        ),
        (
            "POST",
            "/api/games",
            b'{"game": "' + GAME.encode() + b'", "params": {"max_plies": 1e999}}',
            400,
            "whole number",
        ),
        ("POST", "/api/games", b'{"game": "' + GAME.encode() + b'", "params": [1]}', 400, "'params' must be a dict"),
        ("POST", "/api/games", b'{"game": ["' + GAME.encode() + b'"]}', 400, "'game' must be a str"),
        ("POST", "/api/games", b'{"game": "' + GAME.encode() + b'", "seats": "human"}', 400, "'seats' must be a list"),
        ("POST", "/api/games", b'{"game": "' + GAME.encode() + b'", "seats": [1, 2]}', 400, "list of texts"),
        ("POST", "/api/games", b'{"record": 7}', 400, "'record' must be a str"),
        ("POST", "/api/games", b'{"game": "' + GAME.encode() + b'", "position": 12}', 400, "'position' must be a str"),
        ("POST", "/api/games", b'"' + GAME.encode() + b'"', 400, "JSON object"),
        ("POST", "/api/games", b"NaN", 400, "JSON object"),
        ("POST", "/api/records", b'{"record": ""}', 400, "no game"),
        ("POST", "/api/records", b"{}", 400, "needs 'record'"),
        ("GET", "/api/nothing", b"", 404, "no such API route: GET /api/nothing"),
        ("GET", "/api/games", b"", 404, "no such API route"),
        ("DELETE", "/api/info", b"", 404, "no such API route"),
        ("POST", "/api/games/nope/rematch", b"", 404, "no game 'nope'"),
        ("GET", "/api/games/nope/events", b"", 404, "no game 'nope'"),
        ("POST", "/api/games/nope/analyse", b"{}", 404, "no game 'nope'"),
    ],
)
def test_bad_requests_are_answered_4xx_json(
    client: TestClient, method: str, path: str, body: bytes, status: int, words: str
) -> None:
    refused(client.request(method, path, content=body), status, words)
    assert client.get("/api/info").json()["open"] == []


def test_bad_values_for_a_game_shown_are_answered_4xx_json(client: TestClient) -> None:
    game_id = new(client, game=GAME, seats=["human"] * glacier.new_game(GAME).num_players)["id"]
    url = f"/api/games/{game_id}"
    before = client.get(url).json()
    refused(client.post(f"{url}/action", json={"action": 10**30}), 400, "not legal")
    refused(client.post(f"{url}/action", json={"action": -(10**30)}), 400, "not legal")
    refused(client.post(f"{url}/action", json={"action": 1.0}), 400, "'action' must be a int")
    refused(client.post(f"{url}/goto", json={"ply": 10**30}), 400, "ply must be")
    refused(client.post(f"{url}/goto", json={"ply": [1]}), 400, "'ply' must be a int")
    refused(client.post(f"{url}/move", json={"move": "x" * 100_000}), 400, "x")
    refused(client.post(f"{url}/move", content=b'{"move": ' + b"[" * 50_000 + b"}"), 400, "nested too deep")
    refused(client.post(f"{url}/rematch", json={"seed": 2**64}), 400, "'seed'")
    refused(client.put(f"{url}/move", json={"move": "a1a2"}), 404, "no such API route")
    refused(client.post(f"{url}/analyse/now"), 404, "no such API route")
    after = client.get(url).json()
    assert {k: v for k, v in after.items() if k != "version"} == {k: v for k, v in before.items() if k != "version"}


@pytest.mark.parametrize(("game", "params"), [case for game in glacier.GAMES for case in seat_counts(game)])
def test_a_rematch_moves_each_player_one_seat_on(
    client: TestClient, slow: str, game: str, params: dict[str, int]
) -> None:
    seats = ["human", "easy", slow, "medium", "easy", slow][: glacier.new_game(game, **params).num_players]
    view = new(client, game=game, params={**params, "max_plies": 30}, seats=seats)
    rematch = client.post(f"/api/games/{view['id']}/rematch", json={}).json()
    assert [s["player"] for s in rematch["seats"]] == seats[-1:] + seats[:-1]  # two players swap
    assert rematch["id"] != view["id"] and rematch["text"] == view["text"] and rematch["params"] == view["params"]
    for game_id in (view["id"], rematch["id"]):
        client.delete(f"/api/games/{game_id}")


@pytest.mark.parametrize("game", glacier.GAMES)
def test_a_record_is_read_for_the_form_and_opened_with_the_seats_chosen(client: TestClient, game: str) -> None:
    state = glacier.new_game(game)
    for _ in range(2):
        state.play(state.legal_moves()[0])
    text = records.dumps(state)
    found = client.post("/api/records", json={"record": text}).json()["games"]
    assert found == [
        {
            "game": game,
            "title": glacier.game_spec(game).title,
            "params": state.params,
            "players": state.num_players,
            "plies": 2,
            "seats": list(glacier.game_spec(game).seats[state.num_players]),
        }
    ]
    seats = ["human"] + ["easy"] * (state.num_players - 1)
    view = new(client, record=text, seats=seats)
    assert [s["player"] for s in view["seats"]] == seats and view["ply"] == 2


def test_playing_on_from_an_earlier_move_is_marked_as_leaving_the_line(client: TestClient) -> None:
    state = glacier.new_game(GAME)
    view = new(client, game=GAME, seats=["human"] * state.num_players)
    game_id = view["id"]
    moves = []
    for _ in range(3):
        move = state.legal_moves()[0]
        moves.append(move)
        state.play(move)
        view = client.post(f"/api/games/{game_id}/move", json={"move": move}).json()
    entries = [e for targets in view["clickable"]["moves"].values() for es in targets.values() for e in es]
    assert not any(e.get("leaves") for e in entries)  # at the end of the line nothing leaves it
    view = client.post(f"/api/games/{game_id}/goto", json={"ply": 1}).json()
    entries = {e["text"]: e for targets in view["clickable"]["moves"].values() for es in targets.values() for e in es}
    assert "leaves" not in entries[moves[1]] and all(e.get("leaves") for t, e in entries.items() if t != moves[1])
    # The line's own next move keeps the rest of the line; another one replaces it.
    view = client.post(f"/api/games/{game_id}/action", json={"action": entries[moves[1]]["action"]}).json()
    assert view["ply"] == 2 and [m["move"] for m in view["moves"]] == moves
    client.post(f"/api/games/{game_id}/goto", json={"ply": 1})
    other = next(t for t in entries if t != moves[1])
    view = client.post(f"/api/games/{game_id}/action", json={"action": entries[other]["action"]}).json()
    assert [m["move"] for m in view["moves"]] == [moves[0], other]


class Api:
    """The web app's API as the games' own scenarios (``serve_api_scenario`` in
    tests/test_<game>.py) use it: every answer must be a success."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    def new(self, **body: Any) -> dict[str, Any]:
        return new(self.client, **body)

    def post(self, game_id: str, verb: str, **body: Any) -> dict[str, Any]:
        response = self.client.post(f"/api/games/{game_id}/{verb}", json=body)
        assert response.status_code == 200, response.text
        return dict(response.json())

    def get(self, game_id: str) -> dict[str, Any]:
        return dict(self.client.get(f"/api/games/{game_id}").json())

    def record(self, game_id: str) -> str:
        return str(self.client.get(f"/api/games/{game_id}/record").json()["record"])


@pytest.mark.parametrize("game", declaring("serve_api_scenario"))
def test_each_games_own_scenario(client: TestClient, game: str) -> None:
    game_tests(game).serve_api_scenario(Api(client))

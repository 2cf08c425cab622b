"""The web app's API (``glacier serve``) through Starlette's TestClient: games started from
the start, a position or a record; moves by actions and by text; undo, redo, look back;
the computer's moves; analysis; and every bad request answered 4xx with a JSON message,
changing nothing."""

from __future__ import annotations

import time
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient

import glacier
from glacier import records
from glacier.web import create_app
from glacier.web.app import MAX_BODY
from glacier.web.session import gesture

SVG_CELL = 'data-cell="'


@pytest.fixture()
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


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
    e = next(g for g in info["games"] if g["name"] == "martian_chinese_checkers")
    assert e["seats"]["3"] == ["Red", "Green", "Black"]
    assert [level["name"] for level in info["levels"]] == ["easy", "medium", "hard"]


def test_every_legal_action_is_offered_once_as_a_gesture(client: TestClient, game: str) -> None:
    params = {"players": 3} if game == "martian_chinese_checkers" else {}
    view = new(client, game=game, params=params, seats=["human"] * (3 if params else 2))
    state = glacier.new_game(game, **params)
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


def test_gestures_of_every_kind_of_action() -> None:
    assert gesture("ice_age_chess", "e7e8q") == ("move", "e7", "e8")
    assert gesture("kuba", "pass") == ("choice",)
    assert gesture("kings_court", "d4xd6") == ("move", "d4", "d6")
    assert gesture("kings_court", "stop") == ("choice",)
    assert gesture("ice_cube_checkers", "slot d") == ("cell", "d")
    assert gesture("ice_cube_checkers", "drop K") == ("choice",)
    assert gesture("martian_chinese_checkers", "k5-i7") == ("move", "k5", "i7")
    for choice in ("xh3", "=i3", "/1", "no exchange", "pass"):
        assert gesture("martian_chinese_checkers", choice) == ("choice",)


def test_a_move_of_several_actions_step_by_step(client: TestClient) -> None:
    view = new(client, game="ice_cube_checkers", position="W/W/W/WBK/-/W/-/B/B/K/B/B w 0", seats=["human", "human"])
    game_id = view["id"]
    assert view["clickable"]["cells"] == {"a": 0, "b": 1, "c": 2, "d": 3, "f": 5}
    view = client.post(f"/api/games/{game_id}/action", json={"action": 3}).json()
    assert view["pending"] == ["slot d"] and view["ply"] == 0
    assert [c["text"] for c in view["clickable"]["choices"]] == ["drop B", "drop K"]
    view = client.post(f"/api/games/{game_id}/undo").json()  # takes back the unfinished move
    assert view["pending"] == [] and view["clickable"]["cells"]["d"] == 3
    client.post(f"/api/games/{game_id}/action", json={"action": 3})
    view = client.post(f"/api/games/{game_id}/action", json={"action": 14}).json()
    assert view["ply"] == 1 and [m["move"] for m in view["moves"]] == ["d:KBW"]
    state = glacier.from_text("ice_cube_checkers", "W/W/W/WBK/-/W/-/B/B/K/B/B w 0")
    state.play("d:KBW")
    assert view["text"] == state.text()


def test_chess_moves_in_san_undo_redo_and_looking_back(client: TestClient) -> None:
    view = new(
        client,
        game="ice_age_chess",
        position=records.STANDARD_CHESS_START,
        params={"ice_age_period": 0},
        seats=["human", "human"],
    )
    game_id = view["id"]
    for move in ("e4", "e7e5", "Nf3"):
        view = client.post(f"/api/games/{game_id}/move", json={"move": move}).json()
    assert [m["text"] for m in view["moves"]] == ["e4", "e5", "Nf3"]
    assert [m["number"] for m in view["moves"]] == ["1.", None, "2."]
    view = client.post(f"/api/games/{game_id}/undo").json()
    assert view["ply"] == 2 and view["can_redo"]
    view = client.post(f"/api/games/{game_id}/goto", json={"ply": 0}).json()
    assert view["text"] == records.STANDARD_CHESS_START
    view = client.post(f"/api/games/{game_id}/redo").json()
    assert view["ply"] == 1 and view["plies"] == 3
    view = client.post(f"/api/games/{game_id}/move", json={"move": "c5"}).json()  # a new line
    assert [m["text"] for m in view["moves"]] == ["e4", "c5"] and not view["can_redo"]
    record = client.get(f"/api/games/{game_id}/record").json()["record"]
    assert records.loads(record).moves == ["e2e4", "c7c5"]


def test_the_computer_answers_and_the_game_ends_with_its_reason(client: TestClient) -> None:
    # White has taken six Reds: pushing b1 to a1 pushes off the seventh.
    position = "7/7/6B/2RRR1B/2RRR2/7/RW5 w 6,6 0,7 - - 10"
    view = new(client, game="kuba", position=position, seats=["human", "easy"])
    view = client.post(f"/api/games/{view['id']}/move", json={"move": "b1a1"}).json()
    assert view["result"] == "1-0" and view["reason"] == "seven Reds captured"
    assert view["status"] == "White wins: seven Reds captured"
    view = new(client, game="kuba", seats=["easy", "human"])
    view = wait(client, view["id"], lambda v: v["ply"] == 1 and not v["thinking"])
    assert view["seats"][1]["to_move"] and view["clickable"]["moves"]


def test_two_computers_play_on_and_stop_when_the_game_is_closed(client: TestClient) -> None:
    view = new(client, game="kuba", seats=["easy", "hard"])
    view = wait(client, view["id"], lambda v: v["ply"] >= 1 and v["thinking"])  # hard: 5 s a move
    session = client.app.state.games.sessions[view["id"]]  # type: ignore[attr-defined]
    assert session.thinking is not None
    assert client.delete(f"/api/games/{view['id']}").status_code == 200
    refused(client.get(f"/api/games/{view['id']}"), 404, "no game")
    deadline = time.monotonic() + 2  # the search stops within a slice, long before its 5 s
    while session.thinking is not None:
        assert time.monotonic() < deadline, "the computer went on thinking for a closed game"
        time.sleep(0.02)
    assert len(session.line) == view["plies"]  # the search stopped without playing


def test_analysis_streams_its_top_moves_and_stops(client: TestClient) -> None:
    view = new(client, game="ice_age_chess", position="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", seats=["human"] * 2)
    game_id = view["id"]
    view = client.post(f"/api/games/{game_id}/analyse").json()
    assert view["analysis"]["running"]
    view = wait(client, game_id, lambda v: v["analysis"]["simulations"] > 500)
    assert view["analysis"]["top"][0]["move"] == "a1a8" and 'class="arrow"' in view["svg"]
    assert len(view["analysis"]["values"]) == 2
    client.post(f"/api/games/{game_id}/stop")
    view = wait(client, game_id, lambda v: not v["analysis"]["running"])
    client.post(f"/api/games/{game_id}/move", json={"move": "Ra8#"})
    view = client.get(f"/api/games/{game_id}").json()
    assert view["analysis"] is None and 'class="arrow"' not in view["svg"]
    assert view["reason"] == "checkmate"


def test_a_record_is_opened_from_the_request_body(client: TestClient) -> None:
    state = glacier.new_game("kings_court")
    for move in ("b4-c4", "g4-f4", "d2-d3"):
        state.play(move)
    text = records.dumps(state)
    view = new(client, record=text)
    assert view["game"] == "kings_court" and view["ply"] == 3 and view["text"] == state.text()
    assert [s["player"] for s in view["seats"]] == ["human", "human"]
    view = new(client, record=text, ply=1)
    assert view["ply"] == 1 and view["plies"] == 3


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "go"}, "unknown game 'go'"),
        ({}, "needs 'game'"),
        ({"game": 7}, "'game' must be a str"),
        ({"game": "kuba", "params": {"max_plies": -1}}, "max_plies"),
        ({"game": "kuba", "params": {"max_plies": "many"}}, "whole number"),
        ({"game": "kuba", "params": {"colour": 1}}, "unknown parameter"),
        ({"game": "kuba", "position": "not a position"}, "Kuba position"),
        ({"game": "kuba", "seats": ["human", "grandmaster"]}, "unknown player 'grandmaster'"),
        ({"game": "kuba", "seats": ["human"]}, "2 seats"),
        ({"record": '[Game "kuba"]\n\n1. z9z9 *'}, "z9z9"),
        ({"record": ""}, "no game"),
    ],
)
def test_bad_new_games_are_refused(client: TestClient, body: dict[str, Any], words: str) -> None:
    refused(client.post("/api/games", json=body), 400, words)
    assert client.get("/api/info").json()["open"] == []


def test_bad_requests_change_nothing(client: TestClient) -> None:
    view = new(client, game="kuba", seats=["human", "human"])
    game_id = view["id"]
    before = client.get(f"/api/games/{game_id}").json()
    url = f"/api/games/{game_id}"
    refused(client.post(f"{url}/move", json={"move": "a1a9"}), 400, "a1a9")
    refused(client.post(f"{url}/move", json={"move": "b6b5"}), 400, "b6b5")
    refused(client.post(f"{url}/move", json={"move": 12}), 400, "'move' must be a str")
    refused(client.post(f"{url}/move", json={}), 400, "needs 'move'")
    refused(client.post(f"{url}/action", json={"action": 0}), 400, "not legal")
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
    refused(client.post("/api/games/nope/move", json={"move": "f1f2"}), 404, "no game 'nope'")
    after = client.get(f"/api/games/{game_id}").json()
    assert after == before


def test_moves_out_of_turn_are_refused(client: TestClient) -> None:
    view = new(client, game="kuba", position="7/7/6B/2RRR1B/2RRR2/7/RW5 w 6,6 0,7 - - 10", seats=["human", "human"])
    client.post(f"/api/games/{view['id']}/move", json={"move": "b1a1"})
    refused(client.post(f"/api/games/{view['id']}/move", json={"move": "g1f1"}), 400, "the game is over")
    view = new(client, game="kuba", seats=["human", "hard"])
    client.post(f"/api/games/{view['id']}/move", json={"move": "f1f2"})
    refused(client.post(f"/api/games/{view['id']}/move", json={"move": "a2b2"}), 400, "played by the computer")
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
    chess = glacier.from_text("ice_age_chess", records.STANDARD_CHESS_START, ice_age_period=0)
    for move in ("e2e4", "e7e5"):
        chess.play(move)
    kuba = glacier.new_game("kuba")
    kuba.play("f1f2")
    path = tmp_path / "two.record"
    records.write(path, [chess, kuba])
    server, port = glacier_server("replay", str(path), "--serve")
    try:
        opened = get(port, "/api/info")["open"]
        assert [game["title"] for game in opened] == ["Ice Age Chess, 2 plies", "Kuba, 1 ply"]
        first = get(port, f"/api/games/{opened[0]['id']}")
        assert first["ply"] == 0 and first["plies"] == 2 and [m["text"] for m in first["moves"]] == ["e4", "e5"]
        assert first["text"] == records.STANDARD_CHESS_START
        assert [seat["player"] for seat in first["seats"]] == ["human", "human"]
    finally:
        out = stop(server)
    assert f"/?game={opened[0]['id']}" in out


def test_computers_of_a_game_nobody_watches_stop_and_go_on_when_shown(client: TestClient) -> None:
    view = new(client, game="kuba", seats=["hard", "hard"])  # 5 s a move
    session = client.app.state.games.sessions[view["id"]]  # type: ignore[attr-defined]
    assert session.thinking is not None
    session.seen -= 3600  # as if the page had been closed an hour ago
    deadline = time.monotonic() + 2
    while session.thinking is not None:
        assert time.monotonic() < deadline, "the computer went on thinking with nobody watching"
        time.sleep(0.02)
    assert session.line == []
    view = client.get(f"/api/games/{view['id']}").json()
    assert view["thinking"] and session.thinking is not None
    client.delete(f"/api/games/{view['id']}")


def test_a_move_stops_the_analysis_of_the_position_before_it(client: TestClient) -> None:
    view = new(client, game="kuba", seats=["human", "human"])
    game_id = view["id"]
    client.post(f"/api/games/{game_id}/analyse")
    session = client.app.state.games.sessions[game_id]  # type: ignore[attr-defined]
    analysis = session.analysis
    view = client.post(f"/api/games/{game_id}/move", json={"move": "f1f2"}).json()
    assert view["analysis"] is None
    deadline = time.monotonic() + 2
    while analysis.running:
        assert time.monotonic() < deadline, "the analysis of the old position went on"
        time.sleep(0.02)
    view = client.post(f"/api/games/{game_id}/analyse").json()
    assert view["analysis"]["ply"] == 1 and view["analysis"]["running"]
    client.post(f"/api/games/{game_id}/stop")

"""The event stream of a game in the web app (``GET /api/games/<id>/events``, Server-Sent
Events), read from a real server on 127.0.0.1: the whole view first, then at every change
only what changed; an analysis's updates without the board; ``closed`` when the game is; a
page listening counts as a page showing the game."""

from __future__ import annotations

import http.client
import json
import time
from typing import Any, Iterator

import pytest

import glacier
from conftest import web_server

#: The game of these tests: any game would do.
GAME = glacier.GAMES[0]


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[int, Any]]:
    with web_server() as served:
        yield served


def call(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    payload = None if body is None else json.dumps(body)
    connection.request(method, path, payload, {"Content-Type": "application/json"})
    answer = connection.getresponse()
    status, data = answer.status, json.loads(answer.read())
    connection.close()
    return status, data


class Events:
    """A page's event stream, read an event at a time."""

    def __init__(self, port: int, game_id: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.connection.request("GET", f"/api/games/{game_id}/events")
        self.answer = self.connection.getresponse()
        assert self.answer.status == 200 and self.answer.getheader("content-type").startswith("text/event-stream")

    def next(self) -> tuple[str, dict[str, Any]]:
        """The next event's name (``message`` unless it says) and data; comments skipped."""
        name, data = "message", []
        while True:
            line = self.answer.fp.readline().decode("utf-8")
            assert line, "the stream ended"
            line = line.rstrip("\n")
            if not line:
                if data:
                    return name, json.loads("\n".join(data))
                continue
            if line.startswith(":"):
                continue
            field, _, value = line.partition(": ")
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)

    def until(self, condition: Any) -> dict[str, Any]:
        while True:
            name, data = self.next()
            assert name == "message", (name, data)
            if condition(data):
                return data

    def close(self) -> None:
        self.connection.close()


def new_game(port: int) -> dict[str, Any]:
    status, view = call(
        port, "POST", "/api/games", {"game": GAME, "seats": ["human"] * glacier.new_game(GAME).num_players}
    )
    assert status == 200, view
    return dict(view)


def test_the_stream_sends_what_changes_by_itself_and_names_the_rest(server: tuple[int, Any]) -> None:
    from glacier.web.session import LIVE

    port, _ = server
    view = new_game(port)
    game_id = view["id"]
    events = Events(port, game_id)
    try:
        name, first = events.next()
        assert name == "message" and set(first) == set(LIVE) and first["position"] == view["position"]
        state = glacier.new_game(GAME)
        status, after = call(port, "POST", f"/api/games/{game_id}/move", {"move": state.legal_moves()[0]})
        assert status == 200
        change = events.until(lambda e: e["position"] != first["position"])
        assert change["version"] > first["version"] and change["position"] == after["position"]
        assert "svg" not in change and "moves" not in change  # the page asks for those
        # The analysis's updates carry its figures and arrows; the position stays.
        call(port, "POST", f"/api/games/{game_id}/analyse")
        update = events.until(lambda e: (e.get("analysis") or {}).get("simulations", 0) > 0)
        assert update["position"] == after["position"] and 'class="arrow"' in update["arrows"]
        call(port, "POST", f"/api/games/{game_id}/stop")
        events.until(lambda e: e["analysing"] is False)
        # Closing the game ends the stream with a closed event.
        call(port, "DELETE", f"/api/games/{game_id}")
        while True:
            name, data = events.next()
            if name == "closed":
                assert data == {"id": game_id}
                break
    finally:
        events.close()


def test_a_computers_move_and_the_end_of_its_thinking_are_one_change(server: tuple[int, Any]) -> None:
    """The page asks for the whole view once per computer move, not once more when the
    thinking ends."""
    port, _ = server
    seats = ["human"] * glacier.new_game(GAME).num_players
    seats[0] = "easy"
    _, view = call(port, "POST", "/api/games", {"game": GAME, "seats": seats, "seed": 3})
    events = Events(port, view["id"])
    try:
        positions = [events.next()[1]]
        while positions[-1]["thinking"] or len(positions) < 2:
            positions.append(events.next()[1])
        named = [e["position"] for e in positions]
        assert len(set(named)) <= 2, positions  # the start, then the position after the move
        assert call(port, "GET", f"/api/games/{view['id']}")[1]["ply"] == 1
    finally:
        events.close()
        call(port, "DELETE", f"/api/games/{view['id']}")


def test_a_page_listening_shows_the_game_and_leaving_is_noticed(server: tuple[int, Any]) -> None:
    port, app = server
    game_id = new_game(port)["id"]
    session = app.state.games.sessions[game_id]
    events = Events(port, game_id)
    events.next()
    assert session.watchers == 1 and session.shown_by_page
    session.seen -= 3600  # long ago: the stream alone keeps it shown
    assert session.watched()
    events.close()
    deadline = time.monotonic() + 10
    while session.watchers:
        assert time.monotonic() < deadline, "the server did not notice the page had gone"
        time.sleep(0.05)
    assert session.watched()  # shown until a moment ago


def test_the_stream_of_no_game_is_a_json_404(server: tuple[int, Any]) -> None:
    port, _ = server
    status, data = call(port, "GET", "/api/games/nope/events")
    assert status == 404 and "no game 'nope'" in data["error"]

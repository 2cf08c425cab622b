"""The web app of ``glacier serve``: a Starlette application over :class:`Session` objects.

The page (``static/``) is plain HTML, CSS and JavaScript with no rules inside: it shows the
board the server draws, marks what :meth:`Session.view` says can be clicked, and reports the
clicks. Every answer is JSON; a bad request (an unknown game or session, a malformed or
illegal move, a bad parameter, a body over :data:`MAX_BODY` bytes) gets a 4xx answer
``{"error": "..."}`` and changes nothing. The app reads no file but its own page: records
come in request bodies.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable, Optional

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import glacier
from glacier import play, records
from glacier.errors import GlacierError

from .session import HUMAN, Session

__all__ = ["MAX_BODY", "MAX_GAMES", "Games", "create_app"]

STATIC = Path(__file__).parent / "static"
#: The largest request body read (a record of many long games fits).
MAX_BODY = 4 * 1024 * 1024
#: Games kept at once; the one untouched longest is closed to make room.
MAX_GAMES = 64


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Games:
    """The sessions by id."""

    def __init__(self) -> None:
        self.sessions: dict[str, Session] = {}

    def add(self, session: Session) -> Session:
        while len(self.sessions) >= MAX_GAMES:
            oldest = min(self.sessions.values(), key=lambda s: s.touched)
            self.close(oldest.id)
        self.sessions[session.id] = session
        session._changed()  # a computer to move starts thinking
        return session

    def get(self, game_id: str) -> Session:
        session = self.sessions.get(game_id)
        if session is None:
            raise BadRequest(f"no game {game_id!r} here (closed, or never started)", 404)
        return session

    def close(self, game_id: str) -> None:
        self.get(game_id).close()
        del self.sessions[game_id]

    def close_all(self) -> None:
        for game_id in list(self.sessions):
            self.close(game_id)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read up to :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise BadRequest(f"the request body is over {MAX_BODY} bytes", 413)
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise BadRequest(f"the request body is over {MAX_BODY} bytes", 413)
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw:
        return {}
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise BadRequest(f"the request body is not JSON: {err}") from None
    if not isinstance(body, dict):
        raise BadRequest(f"the request body must be a JSON object, got {type(body).__name__}")
    return body


def _field(body: dict[str, Any], name: str, kind: type, default: Any = None, required: bool = False) -> Any:
    if name not in body:
        if required:
            raise BadRequest(f"the request needs {name!r}")
        return default
    value = body[name]
    if value is None and not required:
        return default
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        raise BadRequest(f"{name!r} must be a {kind.__name__}, got {type(value).__name__}")
    return value


def _params(body: dict[str, Any]) -> dict[str, Optional[int]]:
    raw = _field(body, "params", dict, {})
    params: dict[str, Optional[int]] = {}
    for name, value in raw.items():
        if value is None or value == "":
            continue
        if isinstance(value, str):
            try:
                value = int(value)
            except ValueError:
                raise BadRequest(f"parameter {name!r} must be a whole number, got {value!r}") from None
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadRequest(f"parameter {name!r} must be a whole number, got {value!r}")
        params[name] = value
    return params


def _new_session(body: dict[str, Any]) -> Session:
    record_text = _field(body, "record", str)
    seats = _field(body, "seats", list)
    if seats is not None and not all(isinstance(s, str) for s in seats):
        raise BadRequest("'seats' is a list of texts: 'human' or a level")
    if record_text is not None:
        games = records.parse(record_text)
        if not games:
            raise BadRequest("the record holds no game")
        index = _field(body, "record_game", int, 0)
        if not 0 <= index < len(games):
            raise BadRequest(f"'record_game' must be from 0 to {len(games) - 1}, got {index}")
        record = games[index]
        start = record.start()
        seats = seats or [HUMAN] * start.num_players
        at = _field(body, "ply", int)
        return Session(start, seats, record.state.moves, at)
    game = _field(body, "game", str, required=True)
    if game not in glacier.GAMES:
        raise BadRequest(f"unknown game {game!r}; the games are {', '.join(glacier.GAMES)}")
    params = _params(body)
    position = _field(body, "position", str, "").strip()
    start = glacier.from_text(game, position, **params) if position else glacier.new_game(game, **params)
    seats = seats or [HUMAN] + ["medium"] * (start.num_players - 1)
    return Session(start, seats, seed=_field(body, "seed", int, int(time.time())))


def _info() -> dict[str, Any]:
    games = []
    for name in glacier.GAMES:
        spec = glacier.game_spec(name)
        params = [
            {"name": p.name, "default": p.default, "min": p.min, "max": p.max, "optional": p.optional}
            for p in spec.params
        ]
        players = next((p for p in spec.params if p.name == "players"), None)
        counts = range(players.min, players.max + 1) if players is not None else [2]
        games.append(
            {
                "name": name,
                "title": spec.title,
                "params": params,
                "seats": {str(n): list(play.seat_names(name, n)) for n in counts},
            }
        )
    levels = [{"name": level.name, "summary": level.summary} for level in play.LEVELS.values()]
    return {"games": games, "levels": levels, "human": HUMAN}


Handler = Callable[[Request], Awaitable[Response]]


def create_app(preload: Optional[list[Session]] = None) -> Starlette:
    """The web app; ``preload`` are sessions open from the start (``glacier replay --serve``)."""
    games = Games()

    def api(handler: Callable[[Request, Games], Awaitable[Any]]) -> Handler:
        async def endpoint(request: Request) -> Response:
            try:
                return JSONResponse(await handler(request, games))
            except BadRequest as err:
                return JSONResponse({"error": str(err)}, status_code=err.status)
            except GlacierError as err:
                return JSONResponse({"error": str(err)}, status_code=400)

        return endpoint

    def session_call(method: Callable[[Session, dict[str, Any]], Any]) -> Handler:
        async def handler(request: Request, games: Games) -> Any:
            session = games.get(request.path_params["game_id"])
            body = await _body(request)
            result = method(session, body)
            if hasattr(result, "__await__"):
                await result
            return session.view()

        return api(handler)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def info(request: Request, games: Games) -> Any:
        open_games = [
            {
                "id": s.id,
                "title": f"{glacier.game_spec(s.game).title}, {len(s.line)} pl{'y' if len(s.line) == 1 else 'ies'}",
            }
            for s in games.sessions.values()
        ]
        return {**_info(), "open": open_games}

    async def create(request: Request, games: Games) -> Any:
        return games.add(_new_session(await _body(request))).view()

    async def show(request: Request, games: Games) -> Any:
        return games.get(request.path_params["game_id"]).view()

    async def close(request: Request, games: Games) -> Any:
        games.close(request.path_params["game_id"])
        return {"closed": request.path_params["game_id"]}

    async def record(request: Request, games: Games) -> Any:
        session = games.get(request.path_params["game_id"])
        return {"record": session.record(), "filename": f"{session.game}.record"}

    routes = [
        Route("/", index),
        Route("/api/info", api(info)),
        Route("/api/games", api(create), methods=["POST"]),
        Route("/api/games/{game_id}", api(show), methods=["GET"]),
        Route("/api/games/{game_id}", api(close), methods=["DELETE"]),
        Route("/api/games/{game_id}/record", api(record), methods=["GET"]),
        Route("/api/games/{game_id}/close", api(close), methods=["POST"]),
        Route(
            "/api/games/{game_id}/action",
            session_call(lambda s, b: s.act(_field(b, "action", int, required=True))),
            methods=["POST"],
        ),
        Route(
            "/api/games/{game_id}/move",
            session_call(lambda s, b: s.move(_field(b, "move", str, required=True))),
            methods=["POST"],
        ),
        Route("/api/games/{game_id}/cancel", session_call(lambda s, b: s.cancel()), methods=["POST"]),
        Route("/api/games/{game_id}/undo", session_call(lambda s, b: s.undo()), methods=["POST"]),
        Route("/api/games/{game_id}/redo", session_call(lambda s, b: s.redo()), methods=["POST"]),
        Route(
            "/api/games/{game_id}/goto",
            session_call(lambda s, b: s.goto(_field(b, "ply", int, required=True))),
            methods=["POST"],
        ),
        Route("/api/games/{game_id}/flip", session_call(lambda s, b: s.flip()), methods=["POST"]),
        Route("/api/games/{game_id}/analyse", session_call(lambda s, b: s.analyse()), methods=["POST"]),
        Route("/api/games/{game_id}/stop", session_call(lambda s, b: s.stop_analysis()), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for session in preload or []:
            games.add(session)
        try:
            yield
        finally:
            games.close_all()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.games = games
    return app

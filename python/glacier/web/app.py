"""The web app of ``glacier serve``: a Starlette application over :class:`Session` objects.

The page (``static/``) is plain HTML, CSS and JavaScript with no rules inside: it shows the
board the server draws, marks what the view says can be clicked, and reports the clicks.
It hears of every change of the game it shows (a computer's move, the analysis going on)
from the game's event stream (``/api/games/<id>/events``, Server-Sent Events): each event
holds the analysis and whether a computer thinks, and names the position; the whole view
(the board's picture, the moves) the page asks for, compressed, only when that changed.

Every ``/api/`` answer is JSON; a bad request (an unknown game, session or route, a
malformed or illegal move, a bad parameter, a body over :data:`MAX_BODY` bytes or nested
too deep) gets a 4xx answer ``{"error": "..."}`` and changes nothing. The app reads no file
but its own page: records come in request bodies.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable, Optional

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import glacier
from glacier import play, records
from glacier.errors import GlacierError

from .session import HUMAN, Session

__all__ = ["KEEP_SHOWN_SECONDS", "MAX_BODY", "MAX_GAMES", "MAX_SEED", "Games", "create_app"]

STATIC = Path(__file__).parent / "static"
#: The largest request body read (a record of many long games fits).
MAX_BODY = 4 * 1024 * 1024
#: Games kept at once; to make room the one shown longest ago is closed.
MAX_GAMES = 64
#: A game a page showed this recently is never closed to make room.
KEEP_SHOWN_SECONDS = 600.0
#: Seeds are from 0 to this (each computer seat adds its number to the game's).
MAX_SEED = 2**63 - 1
#: How often an event stream with nothing to say tells the page it is still there.
HEARTBEAT_SECONDS = 5.0


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Games:
    """The sessions by id."""

    def __init__(self) -> None:
        self.sessions: dict[str, Session] = {}
        self.preloaded: set[str] = set()  # opened with the server (glacier replay --serve)

    def add(self, session: Session) -> Session:
        """Keeps ``session``, closing the game shown longest ago if the server is full (never
        one a page showed in the last :data:`KEEP_SHOWN_SECONDS`)."""
        while len(self.sessions) >= MAX_GAMES:
            now = time.monotonic()
            closable = [
                s for s in self.sessions.values() if not (s.shown_by_page and now - s.last_shown() < KEEP_SHOWN_SECONDS)
            ]
            if not closable:
                session.close()
                raise BadRequest(
                    f"the server keeps {MAX_GAMES} games and pages have shown each of them in the last "
                    f"{KEEP_SHOWN_SECONDS / 60:.0f} minutes: close one first",
                    503,
                )
            self.close(min(closable, key=lambda s: s.last_shown()).id)
        self.sessions[session.id] = session
        session._maybe_think()  # a computer to move starts thinking
        return session

    def get(self, game_id: str) -> Session:
        session = self.sessions.get(game_id)
        if session is None:
            raise BadRequest(f"no game {game_id!r} here (closed, or never started)", 404)
        return session

    def close(self, game_id: str) -> None:
        self.get(game_id).close()
        del self.sessions[game_id]
        self.preloaded.discard(game_id)

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
    except RecursionError:
        raise BadRequest("the request body is nested too deep") from None
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


def _params(game: str, body: dict[str, Any]) -> dict[str, Optional[int]]:
    """The game's parameters of the request, each a whole number within its bounds."""
    raw = _field(body, "params", dict, {})
    bounds = {p.name: p for p in glacier.game_spec(game).params}
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
        spec = bounds.get(name)
        if spec is not None and not spec.min <= value <= spec.max:
            raise BadRequest(f"parameter {name!r} must be from {spec.min} to {spec.max}, got {value}")
        params[name] = value
    return params


def _seats(body: dict[str, Any]) -> Optional[list[str]]:
    seats = _field(body, "seats", list)
    if seats is not None and not all(isinstance(s, str) for s in seats):
        raise BadRequest("'seats' is a list of texts: 'human' or a level")
    return seats or None


def _seed(body: dict[str, Any]) -> int:
    seed = _field(body, "seed", int, int(time.time()))
    if not 0 <= seed <= MAX_SEED:
        raise BadRequest(f"'seed' must be from 0 to {MAX_SEED}, got {seed}")
    return int(seed)


def _record(body: dict[str, Any]) -> list[Any]:
    games = records.parse(_field(body, "record", str, required=True))
    if not games:
        raise BadRequest("the record holds no game")
    return games


def _new_session(body: dict[str, Any]) -> Session:
    seats = _seats(body)
    seed = _seed(body)
    if body.get("record") is not None:
        games = _record(body)
        index = _field(body, "record_game", int, 0)
        if not 0 <= index < len(games):
            raise BadRequest(f"'record_game' must be from 0 to {len(games) - 1}, got {index}")
        record = games[index]
        start = record.start()
        seats = seats or [HUMAN] * start.num_players
        at = _field(body, "ply", int)
        return Session(start, seats, record.state.moves, at, seed=seed)
    game = _field(body, "game", str, required=True)
    if game not in glacier.GAMES:
        raise BadRequest(f"unknown game {game!r}; the games are {', '.join(glacier.GAMES)}")
    params = _params(game, body)
    position = _field(body, "position", str, "").strip()
    start = glacier.from_text(game, position, **params) if position else glacier.new_game(game, **params)
    seats = seats or [HUMAN] + ["medium"] * (start.num_players - 1)
    return Session(start, seats, seed=seed)


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


def _plies(count: int) -> str:
    return f"{count} pl{'y' if count == 1 else 'ies'}"


Handler = Callable[[Request], Awaitable[Response]]


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(preload: Optional[list[Session]] = None) -> Starlette:
    """The web app; ``preload`` are sessions open from the start (``glacier replay --serve``)."""
    games = Games()

    def api(handler: Callable[[Request, Games], Awaitable[Any]]) -> Handler:
        async def endpoint(request: Request) -> Response:
            try:
                return JSONResponse(await handler(request, games))
            except BadRequest as err:
                return _error(str(err), err.status)
            except GlacierError as err:
                return _error(str(err), 400)

        return endpoint

    def session_call(method: Callable[[Session, dict[str, Any]], Any]) -> Handler:
        async def handler(request: Request, games: Games) -> Any:
            session = games.get(request.path_params["game_id"])
            method(session, await _body(request))
            return session.view()

        return api(handler)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def info(request: Request, games: Games) -> Any:
        open_games = [
            {
                "id": s.id,
                "title": f"{glacier.game_spec(s.game).title}, {_plies(len(s.line.moves))}",
                "preloaded": s.id in games.preloaded,
            }
            for s in games.sessions.values()
        ]
        return {**_info(), "open": open_games}

    async def create(request: Request, games: Games) -> Any:
        return games.add(_new_session(await _body(request))).view()

    async def show(request: Request, games: Games) -> Any:
        session = games.get(request.path_params["game_id"])
        session.shown()
        return session.view()

    async def close(request: Request, games: Games) -> Any:
        games.close(request.path_params["game_id"])
        return {"closed": request.path_params["game_id"]}

    async def record(request: Request, games: Games) -> Any:
        session = games.get(request.path_params["game_id"])
        return {"record": session.record(), "filename": f"{session.game}.record"}

    async def rematch(request: Request, games: Games) -> Any:
        """The same game again from its start, each player one seat on."""
        old = games.get(request.path_params["game_id"])
        body = await _body(request)
        session = Session(old.start, old.rematch_seats(), seed=_seed(body))
        return games.add(session).view()

    async def read_record(request: Request, games: Games) -> Any:
        """What a record holds (for the page's form: the game, its parameters and seats)."""
        found = []
        for game in _record(await _body(request)):
            start = game.start()
            found.append(
                {
                    "game": start.game,
                    "title": glacier.game_spec(start.game).title,
                    "params": start.params,
                    "players": start.num_players,
                    "plies": len(game.state.moves),
                    "seats": list(play.seat_names(start.game, start.num_players)),
                }
            )
        return {"games": found}

    async def events(request: Request) -> Response:
        """The game's changes as Server-Sent Events: at once and at every change what
        :meth:`Session.live` says (the thinking, the analysis, and the name of the rest,
        ``position``: a page whose position differs asks for the whole view, compressed);
        ``closed`` when the game is."""
        try:
            session = games.get(request.path_params["game_id"])
        except BadRequest as err:
            return _error(str(err), err.status)

        async def stream() -> AsyncIterator[str]:
            listener = session.listen()
            try:
                while not session.closed:
                    listener.clear()
                    yield f"data: {json.dumps(session.live(), separators=(',', ':'))}\n\n"
                    while not session.closed:
                        with contextlib.suppress(asyncio.TimeoutError):
                            await asyncio.wait_for(listener.wait(), HEARTBEAT_SECONDS)
                            break
                        session.shown()
                        yield ": the game goes on\n\n"
                yield f"event: closed\ndata: {json.dumps({'id': session.id})}\n\n"
            finally:
                session.unlisten(listener)

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        )

    def verb(name: str, method: Callable[[Session, dict[str, Any]], Any]) -> Route:
        return Route(f"/api/games/{{game_id}}/{name}", session_call(method), methods=["POST"])

    async def unknown(request: Request, games: Games) -> Any:
        raise BadRequest(f"no such API route: {request.method} {request.url.path}", 404)

    routes = [
        Route("/", index),
        Route("/api/info", api(info)),
        Route("/api/games", api(create), methods=["POST"]),
        Route("/api/records", api(read_record), methods=["POST"]),
        Route("/api/games/{game_id}", api(show), methods=["GET"]),
        Route("/api/games/{game_id}", api(close), methods=["DELETE"]),
        Route("/api/games/{game_id}/events", events, methods=["GET"]),
        Route("/api/games/{game_id}/record", api(record), methods=["GET"]),
        Route("/api/games/{game_id}/close", api(close), methods=["POST"]),
        Route("/api/games/{game_id}/rematch", api(rematch), methods=["POST"]),
        verb("action", lambda s, b: s.act(_field(b, "action", int, required=True))),
        verb("move", lambda s, b: s.move(_field(b, "move", str, required=True))),
        verb("cancel", lambda s, b: s.cancel()),
        verb("undo", lambda s, b: s.undo()),
        verb("redo", lambda s, b: s.redo()),
        verb("goto", lambda s, b: s.goto(_field(b, "ply", int, required=True))),
        verb("flip", lambda s, b: s.flip()),
        verb("analyse", lambda s, b: s.analyse()),
        verb("stop", lambda s, b: s.stop_analysis()),
        Route("/api/{rest:path}", api(unknown), methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def http_error(request: Request, exc: Exception) -> Response:
        """Under /api/ every answer is JSON, a wrong method or route included."""
        assert isinstance(exc, HTTPException)
        if request.url.path.startswith("/api/"):
            detail = "method not allowed here" if exc.status_code == 405 else str(exc.detail)
            return _error(f"{detail}: {request.method} {request.url.path}", exc.status_code)
        return PlainTextResponse(str(exc.detail), status_code=exc.status_code, headers=exc.headers)

    async def server_error(request: Request, exc: Exception) -> Response:
        """A fault of the server's own is still answered in JSON under /api/ (and logged)."""
        message = f"the server failed: {type(exc).__name__}: {exc}"
        if request.url.path.startswith("/api/"):
            return _error(message, 500)
        return PlainTextResponse(message, status_code=500)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for session in preload or []:
            games.add(session)
            games.preloaded.add(session.id)
        try:
            yield
        finally:
            games.close_all()

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HTTPException: http_error, Exception: server_error},
        middleware=[Middleware(GZipMiddleware, minimum_size=1024)],
    )
    app.state.games = games
    return app

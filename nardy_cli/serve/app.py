"""The web app: the API's routers, the page's files, the guard, and errors as JSON.

`create_app(config)` builds it; `server.serve` runs it on uvicorn.  Every error is JSON
`{"error": message, "field": name}` with a 4xx status (a library error names the request's field
it came from; a malformed body names the field FastAPI found wrong).
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from .. import __version__
from ..core.errors import NardyError
from .config import ServeConfig
from .guard import Guard
from .inputs import ApiError
from .jobs import RolloutJobs
from .sessions import Sessions

STATIC = Path(__file__).parent / "static"
API_DOC = """Long Nardy analysis over HTTP: positions (notation, ID or board in; notation and ID
out),
legal plays with their steps, evaluation and cube decisions, ranked plays (opening book, 0-2 ply),
rollouts as jobs with server-sent progress, games against a bot with a tutor, reviews, the opening
book and the player's library.  Errors are JSON `{"error": ..., "field": ...}` with a 4xx status.
See docs/serve.md."""


def _error(status: int, message: str, field: str | None) -> JSONResponse:
    return JSONResponse({"error": message, "field": field}, status_code=status)


def _validation_message(exc: RequestValidationError) -> tuple[str, str]:
    """The first problem FastAPI found: (message naming the field, the field's dotted path)."""
    first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "bad request"}
    loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path")]
    field = ".".join(loc) or "body"
    return f"{field}: {first.get('msg', 'bad value')}", field


def create_app(config: ServeConfig | None = None) -> FastAPI:
    """The app for `config` (defaults: loopback, the default port, the default library)."""
    config = config or ServeConfig()
    jobs = RolloutJobs(config)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if config.warm_worker:
            jobs.warm()
        yield
        jobs.shutdown()

    app = FastAPI(title="nardy", version=__version__, description=API_DOC,
                  docs_url="/api/docs", redoc_url=None, openapi_url="/api/v1/openapi.json",
                  lifespan=lifespan)
    app.state.config = config
    app.state.jobs = jobs
    app.state.sessions = Sessions(config.max_sessions)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return _error(exc.status, exc.message, exc.field)

    @app.exception_handler(NardyError)
    async def nardy_error(request: Request, exc: NardyError):
        return _error(400, str(exc), None)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        message, field = _validation_message(exc)
        return _error(422, message, field)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        return _error(exc.status_code, str(exc.detail), None)

    from . import api_book, api_games, api_library, api_position, api_rollouts
    for module in (api_position, api_rollouts, api_games, api_book, api_library):
        app.include_router(module.router)

    @app.get("/api/v1", tags=["meta"], summary="The API's version")
    def meta() -> dict:
        return {"name": "nardy", "version": __version__, "api": "v1",
                "docs": "/api/docs", "openapi": "/api/v1/openapi.json"}

    @app.get("/", include_in_schema=False)
    def page():
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return Guard(app, config)

"""One renderer for every failure: ours, FastAPI's validation errors, unknown routes, crashes."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.games.base import GameError
from app.protocol import registry
from app.protocol.errors import STATUS, ApiError, error_body, status_of

log = logging.getLogger("wodi.errors")

_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 400: "bad_request", 401: "auth_required"}



def _render(code: str, message: str, detail: dict[str, Any] | None = None, status: int | None = None,
            headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(error_body(code, message, detail), status_code=status or STATUS[code], headers=headers)


async def _api_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return _render(exc.code, exc.message, exc.detail, exc.status, exc.headers)


async def _game_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, GameError)
    status = status_of(exc.code)
    if status is None:  # a game raised a code it does not declare: a bug, reported as one
        log.error("undeclared error code %r raised by a game", exc.code)
        return await _crash(request, exc)
    return _render(exc.code, exc.message, exc.detail, status)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"loc": list(err.get("loc", ())), "msg": err.get("msg", ""), "type": err.get("type", "")}
        for err in exc.errors()
    ]
    if not errors:
        return _render("bad_request", "invalid request", {"errors": errors})
    loc = [str(p) for p in errors[0]["loc"]]
    where = ".".join(loc)
    # `field` names the input as a client sends it: `name` for a body field, `limit` for a query parameter
    field = ".".join(loc[1:]) if len(loc) > 1 and loc[0] in ("body", "query", "path", "header") else where
    message = f"invalid request: {where}: {errors[0]['msg']}"
    content_type = request.headers.get("content-type", "")
    if loc == ["body"] and not content_type.split(";")[0].strip().lower().endswith("json"):
        message = (f"invalid request: the body must be a JSON object sent with Content-Type: application/json "
                   f"(got {content_type or 'no Content-Type'})")
    return _render("bad_request", message, {"field": field, "errors": errors})


async def _http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = _HTTP_CODES.get(exc.status_code, "bad_request")
    message = "no such route" if exc.status_code == 404 else str(exc.detail)
    return _render(code, message, status=exc.status_code, headers=getattr(exc, "headers", None))


async def _crash(request: Request, exc: Exception) -> JSONResponse:
    request_id = getattr(request.state, "request_id", None) or uuid.uuid4().hex[:16]
    log.exception("internal error request_id=%s %s %s", request_id, request.method, request.url.path)
    return _render("internal_error", f"internal error (request id {request_id})", {"request_id": request_id},
                   headers={"X-Request-Id": request_id})


async def refusal(request: Request, exc: ApiError | GameError) -> JSONResponse:
    """The answer to a refusal raised outside FastAPI's own handling (`app.api.hot`): the same as inside it."""
    return await (_api_error(request, exc) if isinstance(exc, ApiError) else _game_error(request, exc))


def install(app: FastAPI) -> None:
    """Register the handlers on `app`."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(GameError, _game_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _crash)


def responses(*codes: str) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses=` for the given error codes, grouped by status, all with the envelope. Every endpoint may
    also answer `bad_request`, `payload_too_large` (the edge guard), `rate_limited` and `internal_error`."""
    by_status: dict[int, list[str]] = {}
    for code in dict.fromkeys((*codes, "bad_request", "payload_too_large", "rate_limited", "internal_error")):
        by_status.setdefault(STATUS[code], []).append(code)
    return _grouped(by_status)


def game_responses() -> dict[int, list[str]]:
    """Every registered game's own error codes, by HTTP status (the action endpoint's extra answers)."""
    by_status: dict[int, list[str]] = {}
    for name in registry.names():
        game = registry.get(name)
        for code, spec in (game.errors if game else {}).items():
            by_status.setdefault(spec.status, []).append(code)
    return by_status


def _grouped(by_status: dict[int, list[str]]) -> dict[int | str, dict[str, Any]]:
    from app.api.schemas import ErrorBody

    return {
        status: {"model": ErrorBody, "description": "Error codes: " + ", ".join(f"`{c}`" for c in sorted(set(cs)))}
        for status, cs in sorted(by_status.items())
    }

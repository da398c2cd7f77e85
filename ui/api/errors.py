"""Every API error is JSON of one shape, `{"error": "..."}` (and `field` when one field is at fault).

The API's routes use `ApiRoute`, which turns what a route or its dependencies raise into that
shape; NiceGUI's own handlers for the pages stay as they are.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException  # FastAPI raises Starlette's own for a body it cannot read

from domain.errors import AuthenticationFailed, DomainError, InvalidInput, NotFound, PermissionDenied

log = logging.getLogger(__name__)
BEARER_CHALLENGE = {"WWW-Authenticate": "Bearer"}
DATABASE_TROUBLE = "The database did not answer in time; nothing was changed. Try again."


class ErrorBody(BaseModel):
    error: str
    field: str | None = None


def error_response(
    status: int, message: str, *, field: str | None = None, headers: dict[str, str] | None = None
) -> JSONResponse:
    body: dict[str, Any] = {"error": message}
    if field is not None:
        body["field"] = field
    return JSONResponse(body, status_code=status, headers=headers)


NOT_UTF8 = "The body is not valid JSON: it must be UTF-8 text."


def validation_message(exc: RequestValidationError) -> tuple[str, str | None]:
    """The first problem, as "field: what is wrong"."""
    errors = list(exc.errors())
    if not errors:
        return "Invalid request.", None
    first = errors[0]
    loc = tuple(first.get("loc", ()))
    if loc and loc[0] in ("body", "query", "path", "header"):  # where it was; a parameter may be named 'query'
        loc = loc[1:]
    parts = [str(p) for p in loc]
    field = ".".join(parts) or None
    message = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
    if first.get("type") == "json_invalid":
        return "The body is not valid JSON.", None
    return (f"{field}: {message}" if field else message), field


def _from_domain(exc: DomainError) -> JSONResponse:
    if isinstance(exc, AuthenticationFailed):
        return error_response(401, str(exc), headers=BEARER_CHALLENGE)
    if isinstance(exc, PermissionDenied):
        return error_response(403, str(exc))
    if isinstance(exc, NotFound):
        return error_response(404, str(exc))
    if isinstance(exc, InvalidInput):
        return error_response(422, str(exc), field=exc.field)
    return error_response(409, str(exc))


def api_error(exc: Exception, where: str) -> JSONResponse | None:
    """The error answer for what a route or its dependencies raised; None for anything else (a bug:
    it goes on to the server's own error handling). `where` names the request in the log."""
    if isinstance(exc, HTTPException):
        if isinstance(exc.__cause__, UnicodeDecodeError):  # JSON is UTF-8: these bytes are not JSON
            return error_response(422, NOT_UTF8)
        headers = dict(exc.headers) if exc.headers else None
        return error_response(exc.status_code, str(exc.detail), headers=headers)
    if isinstance(exc, RequestValidationError):
        message, field = validation_message(exc)
        return error_response(422, message, field=field)
    if isinstance(exc, DomainError):
        return _from_domain(exc)
    if isinstance(exc, SQLAlchemyError):
        log.exception("API %s: database error", where)
        return error_response(503, DATABASE_TROUBLE, headers={"Retry-After": "1"})
    return None


class ApiRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            try:
                return await handler(request)
            except Exception as exc:
                answer = api_error(exc, f"{request.method} {request.url.path}")
                if answer is None:
                    raise
                return answer

        return guarded


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the error statuses a route may answer with."""
    words = {
        401: "No token, an unknown one, or a revoked one",
        403: "The token lacks the scope this route needs",
        404: "Unknown athlete",
        413: "Body over 64 KiB",
        422: "Invalid input",
        429: "Too many requests for this token; see Retry-After",
        503: "Database busy; try again",
    }
    return {status: {"model": ErrorBody, "description": words[status]} for status in statuses}

"""Puts the API on the app: the gate in front of /api/, the rate limit, the OpenAPI description, a
middleware stack of its own for /api/ (`ApiPath`), and the context route's lane (`with_context_lane`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from nicegui import app
from nicegui.ui_run import DocsConfig
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Receive, Scope, Send

from persistence.settings import Settings
from ui.api.context_fast import ContextLane, answer_context
from ui.api.gate import API_PREFIX, MAX_BODY, ApiGate
from ui.api.read_log import READ_LOG
from ui.api.security import configure_rate_limit

DESCRIPTION = f"""
The coaching system's side of Memory Review. Every route under `/api/v1` takes a bearer token
(`Authorization: Bearer mr_…`) made with `memory-review token create NAME --scope ingest,read`
or in the admin console's Tokens tab; a browser's login counts for nothing here.

* Scopes: `ingest` for `POST /api/v1/ingest`, `read` for everything that reads memory.
* Errors are JSON: `{{"error": "…"}}`, with `field` when one field is at fault. No, unknown or
  revoked token → 401; missing scope → 403; unknown athlete → 404; invalid input → 422;
  body over {MAX_BODY // 1024} KiB → 413; too many requests for one token → 429 with `Retry-After`.
* Token counting in the context block: **ceil(characters / 4)**, characters being Unicode code
  points of the whole block, `MEMORY:` line included.
* Memories the athlete hid from the coach are never in any answer. Every read is recorded
  (when, which token, the query, which memories) and shown to the athlete.
"""


def api_docs() -> DocsConfig:
    """For ui.run(fastapi_docs=...): /docs, /redoc and /openapi.json."""
    return DocsConfig(
        title="Memory Review API",
        summary=None,
        description=DESCRIPTION,
        version="1.0.0",
        terms_of_service=None,
        contact=None,
        license_info=None,
    )


# The pages' middlewares, which do nothing for a request under /api/ but cost it time: NiceGUI's session
# cookie and per-browser storage (a browser's login counts for nothing here), its cache headers for its
# own files and its redirect prefix (three of them Starlette BaseHTTPMiddleware: a task group and two
# memory streams per request each), and the login redirect (the gate is in front of it anyway).
F = TypeVar("F", bound=Callable[..., object])

PAGE_ONLY = frozenset(
    {"SessionMiddleware", "RequestTrackingMiddleware", "SetCacheControlMiddleware", "RedirectWithPrefixMiddleware"}
) | {"LoginRequired"}
# What the API's own stack keeps. Any other middleware (the desktop window's owner check, say) means the
# API goes through the whole stack as before: it is not known to be a page's only.
API_KEEPS = frozenset({"ApiGate", "GZipMiddleware"})
_KEPT_MARK = "keeps_api_path"


def kept_for_api(factory: F) -> F:
    """Marks a middleware factory of our own (not named in API_KEEPS) as one the API's stack keeps."""
    setattr(factory, _KEPT_MARK, True)
    return factory


class ApiPath:
    """Outermost but for the security headers: a request under /api/, or for the API's description
    (`documents`: /openapi.json), goes through a stack built the same way (FastAPI's error, telemetry and
    body-limit layers, the gate, gzip, exception handlers, router) without the pages' middlewares; every
    other request through the whole stack. Measured (issue 9): the pages' middlewares were about a third
    of the server's CPU time for a context request, and two thirds of it for /openapi.json."""

    def __init__(self, full: ASGIApp, api: ASGIApp | None, documents: frozenset[str] = frozenset()) -> None:
        self.full = full
        self.api = api
        self.documents = documents

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.api is not None and scope["type"] == "http" and self._is_api(str(scope["path"])):
            await self.api(scope, receive, send)
        else:
            await self.full(scope, receive, send)

    def _is_api(self, path: str) -> bool:
        return path.startswith(API_PREFIX) or path in self.documents


def _name(factory: object) -> str:
    return str(getattr(factory, "__name__", type(factory).__name__))


def _api_middlewares() -> list[Middleware] | None:
    """The app's middlewares less PAGE_ONLY; None if one of them is unknown (not known to be a page's only)."""
    kept = [m for m in app.user_middleware if _name(m.cls) not in PAGE_ONLY]
    if any(_name(m.cls) not in API_KEEPS and not getattr(m.cls, _KEPT_MARK, False) for m in kept):
        return None
    return kept


def _api_stack(build: Callable[[], ASGIApp]) -> ASGIApp | None:
    """The app's own stack builder run over `_api_middlewares`; None if a middleware is unknown."""
    kept = _api_middlewares()
    if kept is None:
        return None
    every = list(app.user_middleware)
    app.user_middleware = kept
    try:
        return build()
    finally:
        app.user_middleware = every


def with_context_lane(whole: ASGIApp, with_headers: Callable[[ASGIApp], ASGIApp]) -> ASGIApp:
    """`whole` (the app's stack, `with_headers` outermost) behind the context route's lane
    (ui.api.context_fast), whose answers pass through `with_headers` and the API's own middlewares that
    shape an answer (gzip: all of them but the gate, which the lane stands in for); `whole` as it is
    when a middleware is unknown, as the API then goes through the whole stack too."""
    kept = _api_middlewares()
    if kept is None:
        return whole
    answer: ASGIApp = answer_context
    for cls, args, kwargs in reversed([m for m in kept if _name(m.cls) != "ApiGate"]):
        answer = cls(answer, *args, **kwargs)
    return ContextLane(whole, with_headers(answer))


def _install_api_path() -> None:
    if getattr(app, "_api_path", False):
        return
    build = app.build_middleware_stack

    def build_with_api_path() -> ASGIApp:
        documents = frozenset({app.openapi_url} if app.openapi_url else ())
        return ApiPath(build(), _api_stack(build), documents)

    app.build_middleware_stack = build_with_api_path  # type: ignore[method-assign]
    app._api_path = True  # type: ignore[attr-defined]


def install_api(settings: Settings) -> None:
    configure_rate_limit(settings.api_rate_limit)
    app.add_middleware(ApiGate)
    _install_api_path()
    app.on_shutdown(lambda: READ_LOG.flush())  # the reads answered last are written before the process ends

"""Who is logged in on this browser, kept in NiceGUI's signed per-browser storage."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import RedirectResponse
from nicegui import app
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.responses import Response

from domain.models import User

PAGE_USER_KEY = "page_user_id"  # in app.storage.client: whom the open page was built for
# /api/ is not public: ui.api.gate refuses it without a bearer token, and every API route checks
# the token; a session cookie counts for nothing there. /docs and /openapi.json describe the API.
PUBLIC_PREFIXES = ("/login", "/_nicegui", "/assets", "/api/", "/favicon", "/docs", "/redoc", "/openapi.json")


def log_in(user: User) -> None:
    app.storage.user.update({"user_id": user.id, "epoch": user.session_epoch})


def log_out() -> None:
    app.storage.user.clear()


def logged_in_identity() -> tuple[int | None, object]:
    """The user id and session epoch this browser's login was made with (not yet checked)."""
    user_id = app.storage.user.get("user_id")
    return (user_id if isinstance(user_id, int) else None), app.storage.user.get("epoch")


def home_path(user: User) -> str:
    return "/admin" if user.is_admin else "/"


class LoginRequired(BaseHTTPMiddleware):
    """Sends anonymous visitors of any page to /login."""

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        path = request.url.path
        if not path.startswith(PUBLIC_PREFIXES) and "user_id" not in app.storage.user:
            return RedirectResponse("/login")
        return await call_next(request)

"""Who is logged in on this browser, kept in NiceGUI's signed per-browser storage.

The browser is known by the id in NiceGUI's session cookie ('session', holding {'id': ...}); its
`app.storage.user` is kept on the server under that id. A login never lands in the storage of the
id the browser had before: the login page, once the password matched, notes the login under a
one-time ticket and sends the browser to COMPLETE_LOGIN_PATH, which gives it a new id and writes
the login there (`complete_login`). A logout empties the storage and marks it, so the next request
gets a new id too (`LoginRequired`). A cookie copied before either grants nothing afterwards.

Failed logins are throttled per username and per client address (`LoginThrottle`).
"""

from __future__ import annotations

import contextlib
import secrets
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from fastapi import Request
from fastapi.responses import RedirectResponse
from limits import RateLimitItem, parse
from nicegui import app
from nicegui.persistence import PersistentDict
from nicegui.slot import Slot
from nicegui.storage import request_contextvar
from starlette.types import ASGIApp, Receive, Scope, Send

from domain.models import User
from domain.users import normalize_username
from ui.api.security import limiter, seconds_until_room

PAGE_USER_KEY = "page_user_id"  # in app.storage.client: whom the open page was built for
# /api/ is not public: ui.api.gate refuses it without a bearer token, and every API route checks
# the token; a session cookie counts for nothing there. /docs and /openapi.json describe the API.
PUBLIC_PREFIXES = ("/login", "/_nicegui", "/assets", "/api/", "/favicon", "/docs", "/redoc", "/openapi.json")


COMPLETE_LOGIN_PATH = "/login/complete"  # under /login: LoginRequired lets it through
PENDING_LOGIN_KEY = "pending_login"  # in app.storage.user of the old id: the ticket and whom it logs in
RENEW_KEY = "renew_session"  # in app.storage.user: the next request gets a new browser id
TICKET_TTL_S = 60


def browser_storage() -> PersistentDict:
    """This browser's `app.storage.user`. In a page, that of the request that opened the page (NiceGUI's
    event dispatch sets the same one for a page event; NiceGUI's `User` test fixture does not, and would
    otherwise leave a handler the test's own last request, from before a login renewed the id)."""
    stack = Slot.get_stack()
    if stack:  # in a page; else the request being served
        with contextlib.suppress(RuntimeError):  # the element is gone: keep the request NiceGUI set
            request_contextvar.set(stack[-1].parent.client.request)
    return app.storage.user


def log_in(user: User) -> None:
    """Write the login into this browser id's storage; for a request that has just been given a new id
    (`complete_login`) or whose id nobody else can know (the desktop window's one-time entry)."""
    app.storage.user.update({"user_id": user.id, "epoch": user.session_epoch})


def begin_login(user: User) -> str:
    """After the password matched (on the login page's socket): note the login under a one-time ticket
    in this browser's storage; the browser must open the returned path to be logged in."""
    ticket = secrets.token_urlsafe(32)
    browser_storage()[PENDING_LOGIN_KEY] = {
        "ticket": ticket,
        "user_id": user.id,
        "epoch": user.session_epoch,
        "home": home_path(user),
        "expires": time.time() + TICKET_TTL_S,
    }
    return f"{COMPLETE_LOGIN_PATH}?ticket={ticket}"


async def complete_login(request: Request, ticket: str) -> str:
    """Whatever the ticket, the browser leaves this request with a new id; with the right ticket (from
    this browser's own storage, in time, once) that new id is logged in. Where to go next."""
    pending = app.storage.user.get(PENDING_LOGIN_KEY)
    await renew_browser_id(request)
    if (
        not isinstance(pending, dict)
        or not isinstance(pending.get("ticket"), str)
        or not secrets.compare_digest(pending["ticket"].encode(), ticket.encode())
        or not isinstance(pending.get("expires"), int | float)
        or pending["expires"] < time.time()
        or not isinstance(pending.get("user_id"), int)
    ):
        return "/login"
    app.storage.user.update({"user_id": pending["user_id"], "epoch": pending.get("epoch")})
    return str(pending.get("home") or "/")


def log_out() -> None:
    """End the login at once (the old id's storage holds nothing) and have the next request get a new id."""
    storage = browser_storage()
    storage.clear()
    storage[RENEW_KEY] = True


async def renew_browser_id(request: Request) -> None:
    """Empty this browser id's storage and give the browser a new id (the cookie of this response) with
    storage of its own. NiceGUI offers no public call for this: its storage middleware creates a
    browser's storage when a request brings an id it does not know, which is what `_create_user_storage`
    does here, for the id this request now carries."""
    app.storage.user.clear()
    request.session.clear()
    new_id = str(uuid.uuid4())
    request.session["id"] = new_id
    await app.storage._create_user_storage(new_id)


def logged_in_identity() -> tuple[int | None, object]:
    """The user id and session epoch this browser's login was made with (not yet checked)."""
    storage = browser_storage()
    user_id = storage.get("user_id")
    return (user_id if isinstance(user_id, int) else None), storage.get("epoch")


def home_path(user: User) -> str:
    return "/admin" if user.is_admin else "/"


class LoginRequired:
    """Sends anonymous visitors of any page to /login.

    Plain ASGI: Starlette's BaseHTTPMiddleware would cost a task group and two memory streams on
    every request, the page's dozen static files included (a fifth of the server's time when many
    browsers open the page at once)."""

    def __init__(self, inner: ASGIApp) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        request = Request(scope, receive)
        if app.storage.user.get(RENEW_KEY):
            await renew_browser_id(request)
        if not request.url.path.startswith(PUBLIC_PREFIXES) and "user_id" not in app.storage.user:
            await RedirectResponse("/login")(scope, receive, send)
            return
        await self.inner(scope, receive, send)


TOO_MANY_ATTEMPTS = "Too many attempts. Try again in {seconds} s."


@dataclass
class LoginThrottle:
    """Failed logins per username and per client address, in moving windows of the process's one limiter
    (ui.api.security). Past either limit an attempt is refused before the password is checked. Only
    failures count; an attempt still being checked counts as one, so parallel guesses cannot slip past."""

    per_user: RateLimitItem
    per_address: RateLimitItem
    in_flight: Counter[tuple[str, str]] = field(default_factory=Counter)

    def _keys(self, username: str, address: str) -> list[tuple[RateLimitItem, str, str]]:
        return [
            (self.per_user, "login-user", normalize_username(username)[:64]),
            (self.per_address, "login-address", address),
        ]

    def refusal(self, username: str, address: str) -> str | None:
        """The message for an attempt refused now, or None."""
        waits = []
        for item, namespace, key in self._keys(username, address):
            stats = limiter().get_window_stats(item, namespace, key)
            if stats.remaining - self.in_flight[(namespace, key)] <= 0:
                waits.append(seconds_until_room(limiter(), item, namespace, key))
        return TOO_MANY_ATTEMPTS.format(seconds=max(waits)) if waits else None

    @contextmanager
    def attempt(self, username: str, address: str) -> Iterator[LoginAttempt]:
        keys = self._keys(username, address)
        for _, namespace, key in keys:
            self.in_flight[(namespace, key)] += 1
        try:
            yield LoginAttempt(self, keys)
        finally:
            for _, namespace, key in keys:
                self.in_flight[(namespace, key)] -= 1
                if self.in_flight[(namespace, key)] <= 0:
                    del self.in_flight[(namespace, key)]


@dataclass
class LoginAttempt:
    throttle: LoginThrottle
    keys: list[tuple[RateLimitItem, str, str]]

    def failed(self) -> None:
        for item, namespace, key in self.keys:
            limiter().hit(item, namespace, key)


_throttle: LoginThrottle | None = None


def configure_login_throttle(per_user: str, per_address: str) -> None:
    """Set when the server starts (after the API's limiter); a rule `limits` cannot read stops the start."""
    global _throttle
    _throttle = LoginThrottle(parse(per_user), parse(per_address))


def login_throttle() -> LoginThrottle:
    if _throttle is None:
        raise RuntimeError("the login throttle is not configured; start the app with `memory-review serve`")
    return _throttle


def client_address(request: Request | None) -> str:
    """The address a page's request came from (uvicorn resolves a trusted proxy's X-Forwarded-For)."""
    return request.client.host if request is not None and request.client is not None else "unknown"

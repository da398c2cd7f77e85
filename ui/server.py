"""Builds the web app: database ready, pages registered, then NiceGUI runs it."""

from __future__ import annotations

import importlib
import os
import pkgutil
import threading
from collections.abc import Iterable

from nicegui import app, ui
from nicegui import run as nicegui_run
from nicegui.storage import Storage
from sqlalchemy import Engine
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from domain import extraction
from domain.proposals import expire_stale
from persistence.demo import load_demo
from persistence.ready import ready_engine
from persistence.settings import Settings
from persistence.uow import unit_of_work
from ui import gc_policy, handler_signatures, loop_syscalls, runtime, socket_guard
from ui.api.setup import api_docs, install_api, kept_for_api, with_context_lane
from ui.assets import ASSETS, stylesheet
from ui.auth import LoginRequired, configure_login_throttle
from ui.static_cache import StaticCache

EXPIRY_INTERVAL_S = 3600
PRIVATE_UMASK = 0o077  # files this process creates: owner only (0600), folders 0700

# NiceGUI needs inline scripts and Vue's runtime template compiler ('unsafe-eval'); everything else is ours.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self' ws: wss:",
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
# /docs and /redoc are FastAPI's pages, which load Swagger UI / ReDoc from their CDN.
DOCS_CDN = "https://cdn.jsdelivr.net"
DOCS_CONTENT_SECURITY_POLICY = (
    CONTENT_SECURITY_POLICY.replace("script-src 'self'", f"script-src 'self' {DOCS_CDN}")
    .replace("style-src 'self'", f"style-src 'self' {DOCS_CDN}")
    .replace("img-src 'self'", "img-src 'self' https://fastapi.tiangolo.com")
)
DOCS_PATHS = ("/docs", "/redoc")
SECURITY_HEADERS = (
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "same-origin"),
    ("x-frame-options", "DENY"),
)
SESSION_COOKIE = b"session="  # NiceGUI's (Starlette's SessionMiddleware) cookie


class SecurityHeaders:
    """Outermost on every HTTP response (pages, API, static files, errors): the security headers, and the
    session cookie marked Secure when the settings say so ("auto": when the request came over https)."""

    def __init__(self, app: ASGIApp, *, secure_cookie: str) -> None:
        self.app = app
        self.secure_cookie = secure_cookie

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        policy = DOCS_CONTENT_SECURITY_POLICY if path in DOCS_PATHS else CONTENT_SECURITY_POLICY
        secure = self.secure_cookie == "always" or (self.secure_cookie == "auto" and scope.get("scheme") == "https")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = _with_security_headers(message.get("headers", []), policy, secure=secure)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _with_security_headers(
    raw: Iterable[tuple[bytes, bytes]], policy: str, *, secure: bool
) -> list[tuple[bytes, bytes]]:
    headers = list(raw)
    present = {name.lower() for name, _ in headers}
    for name, value in (("content-security-policy", policy), *SECURITY_HEADERS):
        if name.encode() not in present:
            headers.append((name.encode(), value.encode()))
    if secure:
        headers = [
            (name, value + b"; secure")
            if name.lower() == b"set-cookie" and value.startswith(SESSION_COOKIE) and b"secure" not in value.lower()
            else (name, value)
            for name, value in headers
        ]
    return headers


def _install_security_headers(settings: Settings) -> None:
    """Wraps the whole middleware stack, NiceGUI's session middleware included (it sets the cookie and is
    added by ui.run itself, after `prepare`), so the headers and the Secure flag reach every response;
    the context route's lane in front of it puts them on its answers too (ui.api.setup)."""
    if getattr(app, "_security_headers", False):
        return
    build = app.build_middleware_stack

    def with_headers(inner: ASGIApp) -> ASGIApp:
        return SecurityHeaders(inner, secure_cookie=settings.secure_cookie)

    def build_with_headers() -> ASGIApp:
        return with_context_lane(with_headers(StaticCache(build())), with_headers)

    app.build_middleware_stack = build_with_headers  # type: ignore[method-assign]
    app._security_headers = True  # type: ignore[attr-defined]


def restrict_file_modes(settings: Settings) -> None:
    """Password hashes, health notes and secrets are for this account only: from here on this process creates
    files 0600 and folders 0700 (the database and its -wal/-shm, the secrets, the audit key and anchor,
    NiceGUI's storage), and what an older version left readable is tightened."""
    os.umask(PRIVATE_UMASK)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    for folder in (settings.data_dir, Storage.path):
        if folder.is_dir():
            folder.chmod(0o700)
    for path in settings.private_files():
        if path.is_file():
            path.chmod(0o600)


def prepare(settings: Settings, *, demo: bool) -> bool:
    """Migrate, load demo data if asked and empty, register pages; say if demo data was loaded."""
    restrict_file_modes(settings)
    engine = ready_engine(settings)
    loaded = load_demo(engine) if demo else False
    expire_proposals(engine, settings)

    async def expire_in_thread() -> None:
        await nicegui_run.io_bound(expire_proposals, engine, settings)

    app.on_startup(lambda: app.timer(EXPIRY_INTERVAL_S, expire_in_thread, immediate=False))
    gc_policy.install()
    runtime.configure(engine, settings)
    _set_up_theme()
    _register_pages()
    app.add_middleware(LoginRequired)
    install_api(settings)  # its gate is outermost: /api/ never reaches the login redirect without a token
    configure_login_throttle(settings.login_limit_per_user, settings.login_limit_per_address)  # the API's limiter
    app.add_static_files("/assets", str(ASSETS / "static"))
    _install_security_headers(settings)
    socket_guard.install()  # page events only from the socket of the browser that opened the page
    handler_signatures.install()  # NiceGUI's per-element signature check, once per handler's code
    loop_syscalls.install()  # ids from a pool of randomness, the page template read once: no syscall per page
    _probe_loop_lag(settings)
    app.on_startup(compile_rules_in_background)
    return loaded


def compile_rules_in_background() -> threading.Thread:
    """The extraction rules compile on first use (about a second of CPU). Without this, the first ingest or Add
    suggestion after a start waited for them; now they compile while the server already answers."""
    thread = threading.Thread(target=extraction.prepare, name="compile extraction rules", daemon=True)
    thread.start()
    return thread


def _probe_loop_lag(settings: Settings) -> None:
    """Opt-in, for `make bench` (MEMORY_REVIEW_LAG_PROBE=1): every second, append to lag-probe.log
    in the data directory the event loop's worst lag in that second (how late a 10 ms sleep woke)."""
    import asyncio
    import os
    import time

    from nicegui import background_tasks

    if os.environ.get("MEMORY_REVIEW_LAG_PROBE") != "1":
        return
    path = settings.data_dir / "lag-probe.log"

    async def probe() -> None:
        loop = asyncio.get_running_loop()
        worst, second = 0.0, loop.time()
        with path.open("a", buffering=1) as log:
            while True:
                asleep = loop.time()
                await asyncio.sleep(0.01)
                worst = max(worst, loop.time() - asleep - 0.01)
                if loop.time() - second >= 1:
                    log.write(f"{time.time():.3f} {worst * 1000:.1f}\n")
                    worst, second = 0.0, loop.time()

    app.on_startup(lambda: background_tasks.create(probe(), name="lag probe"))


def _set_up_theme() -> None:
    """Shared by every page, so it is set up once per process, never inside a page builder.

    Colours carry meaning: primary (teal) is the app; `brand` (teal), `meta` (grey) and `danger`
    (red) colour the text of flat buttons and status lines. Those three are app.css variables,
    so they follow dark mode.
    """
    app.colors(
        primary="#0f766e",
        brand="var(--mr-brand-text)",
        meta="var(--mr-meta-text)",
        danger="var(--mr-danger)",
    )
    ui.button.default_props("no-caps unelevated")  # flat and outline still win over unelevated
    ui.tabs.default_props("no-caps")
    for field in (ui.input, ui.textarea, ui.select, ui.input_chips):
        field.default_props("outlined color=brand")  # focused label and outline readable in dark mode too
    ui.add_css(stylesheet(), shared=True)


def expire_proposals(engine: Engine, settings: Settings) -> None:
    with unit_of_work(engine) as session:
        expire_stale(session, max_age=settings.proposal_max_age)


def _register_pages() -> None:
    """Import every module of ui.pages (and ui.api): importing registers its routes."""
    for package_name in ("ui.pages", "ui.api"):
        package = importlib.import_module(package_name)
        for module in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package_name}.{module.name}")


def run(settings: Settings, *, demo: bool, host: str, port: int) -> None:
    prepare(settings, demo=demo)
    ui.run(
        host=host,
        port=port,
        title="Memory Review",
        favicon=str(ASSETS / "static" / "logo.svg"),
        storage_secret=settings.storage_secret(),
        reload=False,
        show=False,
        show_welcome_message=False,
        fastapi_docs=api_docs(),
        language="en-US",
        gzip_middleware_factory=_gzip,
        # Per-message deflate keeps a compressor of ~0.3 MiB for every open websocket, more than a
        # page's own elements; what the socket carries after the page loads is small updates. The
        # page itself and its scripts still come gzipped over HTTP.
        ws_per_message_deflate=False,
        # No in-browser Tailwind compiler: assets/base.css holds the reset and the utility classes we use.
        tailwind=False,
        http=loop_syscalls.OneSendHttp,  # an answer's headers and body in one send (ui/loop_syscalls.py)
    )


@kept_for_api
def _gzip(inner: ASGIApp) -> GZipMiddleware:
    """Level 5, not Starlette's 9: the page's script bundles are compressed again for every browser
    that has none cached, and level 9 spends several times the CPU for a few per cent smaller files."""
    return GZipMiddleware(inner, minimum_size=1000, compresslevel=5)

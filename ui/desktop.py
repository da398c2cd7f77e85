"""The native window (`memory-review desktop`): the app for one local owner, in a pywebview window.

There is no login screen. On first start a local owner account is made (with --demo: the demo
athlete `alex` becomes the owner). Each run listens on 127.0.0.1 on a free port and makes a
one-time token that only the window's first address carries: that request logs the window's
browser session in as the owner and marks it with this run's secret. Every other request
without that mark is refused, so another program on the same computer cannot drive the app.

Closing the window stops the server; on the way out the SQLite database is checkpointed
(its WAL emptied) and closed. The window's size is kept in `desktop.json` in the data folder.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import secrets
import socket
import sqlite3
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import PlainTextResponse, RedirectResponse
from nicegui import app, ui
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.responses import Response

from domain.actors import SYSTEM
from domain.enums import Role
from domain.models import User
from domain.users import create_user, find_user
from persistence.settings import Settings
from persistence.uow import unit_of_work
from ui import runtime
from ui.api.setup import api_docs
from ui.assets import ASSETS
from ui.auth import log_in
from ui.server import prepare
from ui.window import RUN_KEY

TITLE = "Memory Review"
ENTER_PATH = "/login/desktop"  # under /login, so the login middleware lets the window's first request through
STATE_FILE = "desktop.json"
OWNER_NAME = "owner"
DEMO_OWNER = "alex"
DEFAULT_SIZE = (1200, 820)
MIN_SIZE = (480, 360)
TEST_JS = "MEMORY_REVIEW_DESKTOP_TEST_JS"  # test hook: a JS file evaluated in the window once the page loaded


@dataclass
class DesktopState:
    """What the desktop app keeps between runs, in `desktop.json` beside the database."""

    path: Path
    owner: str | None = None
    size: tuple[int, int] = DEFAULT_SIZE
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> DesktopState:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls(path)
        if not isinstance(data, dict):
            return cls(path)
        owner = data.get("owner") if isinstance(data.get("owner"), str) else None
        return cls(path, owner=owner, size=_size(data.get("width"), data.get("height")))

    def save(self) -> None:
        data = {"owner": self.owner, "width": self.size[0], "height": self.size[1]}
        draft = self.path.with_name(f"{self.path.name}.tmp")
        draft.write_text(json.dumps(data, indent=2), encoding="utf-8")
        draft.replace(self.path)


def _size(width: object, height: object) -> tuple[int, int]:
    if isinstance(width, int) and isinstance(height, int) and width >= MIN_SIZE[0] and height >= MIN_SIZE[1]:
        return width, height
    return DEFAULT_SIZE


def missing_backend() -> str | None:
    """One line saying what to install when the window cannot open here, else None."""
    if importlib.util.find_spec("webview") is None:
        return "The desktop window needs the 'desktop' extra: pip install '.[desktop]' in the checkout, or make desktop"
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _ensure_owner(state: DesktopState, *, demo_loaded: bool) -> int:
    """The owner's user id; the account is made on first start (the demo athlete with --demo)."""
    engine = runtime.current().engine
    name = state.owner or (DEMO_OWNER if demo_loaded else OWNER_NAME)
    with unit_of_work(engine) as session:
        user = find_user(session, name)
        if user is None:
            user = create_user(
                session,
                SYSTEM,
                username=name,
                password=secrets.token_urlsafe(32),  # nobody knows it: the owner never logs in by password
                role=Role.ATHLETE,
                display_name=_display_name(),
            )
        if user.role != Role.ATHLETE or user.disabled:
            raise RuntimeError(f"the desktop owner '{name}' must be an enabled athlete account")
        session.flush()
        owner_id = user.id
    state.owner = name
    state.save()
    return owner_id


def _display_name() -> str:
    try:
        import getpass

        return getpass.getuser()[:80] or "Me"
    except (OSError, KeyError, ImportError):
        return "Me"


class OwnerOnly(BaseHTTPMiddleware):
    """Refuses every request whose browser was not logged in by this run's one-time token."""

    def __init__(self, app: Any, run_id: str) -> None:
        super().__init__(app)
        self.run_id = run_id

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        if request.url.path == ENTER_PATH or app.storage.user.get(RUN_KEY) == self.run_id:
            return await call_next(request)
        if request.url.path == "/login":  # the window's own Log out ends its session for this run
            return PlainTextResponse("Logged out. Close this window and start Memory Review again to come back.", 403)
        return PlainTextResponse("This is Memory Review's desktop window; it answers only that window.", 403)


def _install_entry(owner_id: int, token: str, run_id: str) -> None:
    unused = [token]

    @app.get(ENTER_PATH, include_in_schema=False)
    def enter(token: str = "") -> Response:
        if not unused or not secrets.compare_digest(token.encode(), unused[0].encode()):
            return PlainTextResponse("This link has been used. Start Memory Review again.", 403)
        unused.clear()
        with unit_of_work(runtime.current().engine, read_only=True) as session:
            owner: User | None = session.get(User, owner_id)
            if owner is None:
                return PlainTextResponse("The owner account is gone.", 403)
            log_in(owner)
        app.storage.user[RUN_KEY] = run_id
        return RedirectResponse("/", status_code=303)


def _close_database(settings: Settings) -> None:
    """Dispose the pool, then empty the WAL into the database file (TRUNCATE leaves it at 0 bytes)."""
    runtime.current().engine.dispose()
    url = settings.effective_database_url
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        connection = sqlite3.connect(url.removeprefix("sqlite:///"))
        try:
            busy, _, _ = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            connection.close()
        print("Database closed." if not busy else "Database closed; its log is kept for the next start.", flush=True)


def _remember_size(state: DesktopState) -> None:
    def resized(event: Any) -> None:
        state.size = _size(event.args.get("width"), event.args.get("height"))
        state.save()

    app.native.on("resized", resized)


def _install_test_hook() -> None:
    """With MEMORY_REVIEW_DESKTOP_TEST_JS set (tests only), its script runs in the window once the page
    has loaded, through pywebview's evaluate_js, until it answers something; that answer is printed."""
    script_path = os.environ.get(TEST_JS)
    if not script_path:
        return
    script = Path(script_path).read_text(encoding="utf-8")
    done: list[bool] = []

    async def loaded(_event: Any) -> None:
        if done:
            return
        done.append(True)
        window = app.native.main_window
        result: object = "no window"
        for _ in range(60):  # the script answers "" until the page is drawn
            result = await window.evaluate_js(script) if window is not None else "no window"
            if result:
                break
            await asyncio.sleep(0.5)
        print(f"test hook: {result}", flush=True)

    app.native.on("loaded", loaded)


def _environment() -> None:
    if sys.platform.startswith("linux"):
        os.environ.setdefault("PYWEBVIEW_GUI", "qt")
        if hasattr(os, "geteuid") and os.geteuid() == 0:  # Qt WebEngine's sandbox refuses to run as root
            flags = os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
            if "--no-sandbox" not in flags:
                os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = f"{flags} --no-sandbox".strip()


def run(settings: Settings, *, demo: bool) -> None:
    """Open the window and serve it until it is closed."""
    _environment()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    state = DesktopState.load(settings.data_dir / STATE_FILE)
    demo_loaded = prepare(settings, demo=demo and state.owner is None)
    owner_id = _ensure_owner(state, demo_loaded=demo_loaded)
    token, run_id = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    port = free_port()
    _install_entry(owner_id, token, run_id)
    app.add_middleware(OwnerOnly, run_id=run_id)  # outermost: nothing reaches the app without the window's session
    app.on_shutdown(lambda: _close_database(settings))
    icon = ASSETS / "static" / "logo.svg"
    app.native.window_args["url"] = f"http://127.0.0.1:{port}{ENTER_PATH}?token={token}"
    app.native.window_args["min_size"] = MIN_SIZE
    app.native.start_args["icon"] = str(icon)
    app.native.start_args["private_mode"] = True  # nothing of a run's session outlives the window
    _remember_size(state)
    _install_test_hook()
    print(f"Serving this window only, on 127.0.0.1:{port}", flush=True)
    ui.run(
        host="127.0.0.1",
        port=port,
        title=TITLE,
        favicon=str(icon),
        storage_secret=settings.storage_secret(),
        reload=False,
        native=True,
        window_size=state.size,
        show_welcome_message=False,
        fastapi_docs=api_docs(),
        language="en-US",
        gzip_middleware_factory=None,  # the window is on this computer: compressing only costs time
        ws_per_message_deflate=False,  # likewise for the socket
        tailwind=False,  # assets/base.css holds the reset and the utility classes we use
    )


def first_start(settings: Settings) -> bool:
    """True when this data folder has never been opened by the desktop app."""
    return DesktopState.load(settings.data_dir / STATE_FILE).owner is None

"""Builds the web app: database ready, pages registered, then NiceGUI runs it."""

from __future__ import annotations

import importlib
import pkgutil

from nicegui import app, ui
from nicegui import run as nicegui_run
from sqlalchemy import Engine

from domain.proposals import expire_stale
from persistence.demo import load_demo
from persistence.ready import ready_engine
from persistence.settings import Settings
from persistence.uow import unit_of_work
from ui import runtime
from ui.api.setup import api_docs, install_api
from ui.assets import ASSETS, stylesheet
from ui.auth import LoginRequired

EXPIRY_INTERVAL_S = 3600


def prepare(settings: Settings, *, demo: bool) -> bool:
    """Migrate, load demo data if asked and empty, register pages; say if demo data was loaded."""
    engine = ready_engine(settings)
    loaded = load_demo(engine) if demo else False
    expire_proposals(engine, settings)

    async def expire_in_thread() -> None:
        await nicegui_run.io_bound(expire_proposals, engine, settings)

    app.on_startup(lambda: app.timer(EXPIRY_INTERVAL_S, expire_in_thread, immediate=False))
    runtime.configure(engine, settings)
    _set_up_theme()
    _register_pages()
    app.add_middleware(LoginRequired)
    install_api(settings)  # its gate is outermost: /api/ never reaches the login redirect without a token
    app.add_static_files("/assets", str(ASSETS / "static"))
    _probe_loop_lag(settings)
    return loaded


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
    )

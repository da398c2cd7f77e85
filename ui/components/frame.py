"""The frame every logged-in page shares: header with app name, user, dark mode, Log out."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from nicegui import app, context, ui

from domain.models import User
from ui.auth import log_out
from ui.components.fixed_props import fixed_props
from ui.components.plain_button import PlainButton
from ui.components.plain_header import PlainHeader
from ui.components.plain_link import PlainLink
from ui.components.plain_text import PlainText

APP_NAME = "Memory Review"
DARK_MODE_KEY = "dark_mode"


def _log_out() -> None:
    log_out()
    ui.navigate.to("/login")


def _dark_mode() -> Callable[[], None]:
    """The page in the athlete's mode, and what toggles it. The choice is kept with the login (other
    tabs take it when they open); not bound to it: a binding to the login's storage is polled ten
    times a second for as long as the page is open.

    The element that sets the mode is built only for a dark page, or when the mode is first toggled:
    a page is light without it (ui.run's default), most pages never toggle, and it costs the event
    loop about 80 µs on every page (tests/perf/page_reads.py --build)."""
    place = context.slot
    dark = [ui.dark_mode(True)] if app.storage.user.get(DARK_MODE_KEY, False) else []

    def toggle() -> None:
        if dark:
            dark[0].toggle()
        else:
            with place:
                dark.append(ui.dark_mode(True))
        app.storage.user[DARK_MODE_KEY] = bool(dark[0].value)

    return toggle


def _div(classes: str) -> ui.element:
    """A plain div: what ui.row and ui.column send the browser, given their classes, without their
    sorting support (drag and drop), which the frame does not use."""
    div = ui.element("div")
    div._classes.extend(classes.split())
    return div


@contextmanager
def frame(user: User, title: str) -> Iterator[ui.element]:
    """The header and the page's main column; plain elements where NiceGUI's would add only bindings and
    mixins the frame does not use (about 0.15 ms of the event loop less per page, tests/perf/page_reads.py)."""
    ui.page_title(f"{title} · {APP_NAME}")
    toggle_dark = _dark_mode()
    with PlainHeader().classes("mr-header items-center justify-between px-4 py-2"):
        with _div("nicegui-row row items-center gap-2 no-wrap"):  # = ui.row().classes(…)
            fixed_props(ui.element("q-icon"), 'name=psychology size=28px aria-hidden="true"')
            PlainLink(APP_NAME, "/admin" if user.is_admin else "/").classes("mr-brand text-lg font-semibold")
        with _div("nicegui-row row items-center gap-1 no-wrap"):
            PlainText(user.display_name).classes("mr-user").mark("current-user")
            if not user.is_admin:
                # A title, not a ui.tooltip: every open page would hold two more elements for them.
                PlainButton(
                    icon="manage_accounts",
                    color="white",
                    props='flat round aria-label="Your account" title="Your account: recently deleted, password"',
                    on_click=lambda: ui.navigate.to("/account"),
                ).mark("account-link")
            PlainButton(
                icon="dark_mode",
                color="white",
                props='flat round aria-label="Toggle dark mode" title="Toggle dark mode"',
                on_click=toggle_dark,
            )
            PlainButton("Log out", color="white", props="flat", on_click=_log_out)  # white: a Quasar name, not CSS
    with _div("nicegui-column mr-main w-full max-w-5xl mx-auto p-4 gap-4") as main:  # = ui.column().classes(…)
        yield main

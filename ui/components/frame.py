"""The frame every logged-in page shares: header with app name, user, dark mode, Log out."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from nicegui import app, ui

from domain.models import User
from ui.auth import log_out

APP_NAME = "Memory Review"


def _log_out() -> None:
    log_out()
    ui.navigate.to("/login")


@contextmanager
def frame(user: User, title: str) -> Iterator[ui.column]:
    ui.page_title(f"{title} · {APP_NAME}")
    dark = ui.dark_mode().bind_value(app.storage.user, "dark_mode")
    with ui.header().classes("mr-header items-center justify-between px-4 py-2"):
        with ui.row().classes("items-center gap-2 no-wrap"):
            ui.icon("psychology", size="28px").props('aria-hidden="true"')
            ui.link(APP_NAME, "/admin" if user.is_admin else "/").classes("mr-brand text-lg font-semibold")
        with ui.row().classes("items-center gap-1 no-wrap"):
            ui.label(user.display_name).classes("mr-user").mark("current-user")
            if not user.is_admin:
                # A title, not a ui.tooltip: every open page would hold two more elements for them.
                ui.button(icon="manage_accounts", on_click=lambda: ui.navigate.to("/account")).props(
                    'flat round color=white aria-label="Your account" title="Your account: recently deleted, password"'
                ).mark("account-link")
            ui.button(icon="dark_mode", on_click=dark.toggle).props(
                'flat round color=white aria-label="Toggle dark mode" title="Toggle dark mode"'
            )
            ui.button("Log out", on_click=_log_out).props("flat color=white")  # white: a Quasar name, not CSS
    with ui.column().classes("mr-main w-full max-w-5xl mx-auto p-4 gap-4") as main:
        yield main

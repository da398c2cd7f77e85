"""/login: username and password."""

from __future__ import annotations

from nicegui import ui

from domain.errors import AuthenticationFailed
from domain.users import authenticate, record_failed_login
from persistence.uow import unit_of_work
from ui import runtime
from ui.auth import current_user, home_path, log_in
from ui.components.frame import APP_NAME, app_css


@ui.page("/login")
def login_page() -> None:
    engine = runtime.current().engine
    with unit_of_work(engine, read_only=True) as session:
        user = current_user(session)
    if user is not None:
        ui.navigate.to(home_path(user))
        return
    ui.page_title(f"Log in · {APP_NAME}")
    ui.add_css(app_css(), shared=True)

    def try_login() -> None:
        error.set_text("")
        if not username.value.strip() or not password.value:
            error.set_text("Enter your username and password.")
            return
        try:
            with unit_of_work(engine) as session:
                user = authenticate(session, username=username.value, password=password.value)
                log_in(user)
                target = home_path(user)
        except AuthenticationFailed as exc:
            with unit_of_work(engine) as session:
                record_failed_login(session, username=username.value)
            error.set_text(str(exc))
            password.set_value("")
            return
        ui.navigate.to(target)

    with ui.column().classes("absolute-center items-stretch w-80 max-w-[92vw] gap-3"):
        with ui.row().classes("items-center gap-2 justify-center"):
            ui.icon("psychology", size="32px", color="teal-8").props('aria-hidden="true"')
            ui.label(APP_NAME).classes("text-2xl font-semibold")
        ui.label("See, correct and own what your coach remembers.").classes("mr-muted text-center")
        with ui.card().classes("mr-card w-full gap-3"):
            username = ui.input("Username").props("autocomplete=username autofocus outlined").classes("w-full")
            password = (
                ui.input("Password", password=True).props("autocomplete=current-password outlined").classes("w-full")
            )
            error = ui.label("").classes("text-negative").props('role=alert aria-live="assertive"').mark("login-error")
            username.on("keydown.enter", try_login)
            password.on("keydown.enter", try_login)
            ui.button("Log in", on_click=try_login).props("color=teal-8 no-caps unelevated").classes("w-full")

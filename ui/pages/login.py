"""/login: username and password."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import RedirectResponse
from nicegui import app, context, ui

from domain.errors import AuthenticationFailed, DomainError
from domain.login import check_credentials, record_failed_login, record_login
from domain.models import User
from ui.auth import COMPLETE_LOGIN_PATH, begin_login, client_address, complete_login, home_path, login_throttle
from ui.components.frame import APP_NAME
from ui.components.typed_submit import on_submit
from ui.session import as_visitor, logged_in_user


@ui.page("/login")
async def login_page() -> None:
    user = await logged_in_user()
    if user is not None:
        ui.navigate.to(home_path(user))
        return
    ui.page_title(f"Log in · {APP_NAME}")

    async def try_login() -> None:
        error.set_text("")
        name, secret = username.value or "", password.value or ""
        if not name.strip() or not secret:
            error.set_text("Enter your username and password.")
            return
        address = client_address(context.client.request)
        refusal = login_throttle().refusal(name, address)
        if refusal is not None:  # the password is not even checked
            error.set_text(refusal)
            password.set_value("")
            return
        button.props("loading")
        try:
            with login_throttle().attempt(name, address) as attempt:
                try:
                    user = await _log_in(name, secret)
                except AuthenticationFailed:
                    attempt.failed()
                    raise
        except AuthenticationFailed as failure:
            await as_visitor(lambda s: record_failed_login(s, username=name))
            error.set_text(str(failure))
            password.set_value("")
            return
        except DomainError as failure:  # the database did not answer: keep what was typed
            error.set_text(str(failure))
            return
        finally:
            button.props(remove="loading")
        ui.navigate.to(begin_login(user))  # the login lands on a new browser id (ui.auth)

    with ui.column().classes("absolute-center items-stretch w-80 max-w-[92vw] gap-3"):
        with ui.row().classes("items-center gap-2 justify-center"):
            ui.icon("psychology", size="32px", color="primary").props('aria-hidden="true"')
            ui.label(APP_NAME).classes("text-2xl font-semibold")
        ui.label("See, correct and own what your coach remembers.").classes("mr-muted text-center")
        with ui.card().classes("mr-card w-full gap-3"):
            username = ui.input("Username").props("autocomplete=username autofocus outlined").classes("w-full")
            password = (
                ui.input("Password", password=True).props("autocomplete=current-password outlined").classes("w-full")
            )
            error = ui.label("").classes("text-negative").props('role=alert aria-live="assertive"').mark("login-error")
            button = ui.button("Log in").classes("w-full")
            triggers = [(username, "keydown.enter"), (password, "keydown.enter"), (button, "click")]
            on_submit(triggers, (username, password), try_login)


@app.get(COMPLETE_LOGIN_PATH, include_in_schema=False)
async def finish_login(request: Request, ticket: str = "") -> RedirectResponse:
    return RedirectResponse(await complete_login(request, ticket), status_code=303)


async def _log_in(name: str, secret: str) -> User:
    """The password check reads only, so other writers never wait for the hash; then a short write."""
    verified = await as_visitor(lambda s: check_credentials(s, username=name, password=secret), read_only=True)
    return await as_visitor(lambda s: record_login(s, verified))

"""Who may open a page: resolves the logged-in user or sends the visitor elsewhere."""

from __future__ import annotations

from nicegui import app, ui

from domain.enums import Role
from domain.models import User
from persistence.uow import unit_of_work
from ui import runtime
from ui.auth import PAGE_USER_KEY, current_user, home_path


def page_user(role: Role | None = None) -> User | None:
    with unit_of_work(runtime.current().engine, read_only=True) as session:
        user = current_user(session)
    if user is None:
        ui.navigate.to("/login")
        return None
    if role is not None and user.role != role:
        if role == Role.ADMIN:
            ui.notify("That page is for admins only.", type="warning")
        ui.navigate.to(home_path(user))
        return None
    app.storage.client[PAGE_USER_KEY] = user.id
    return user

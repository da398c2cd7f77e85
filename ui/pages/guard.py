"""Who may open a page: resolves the logged-in user or sends the visitor elsewhere."""

from __future__ import annotations

from nicegui import ui

from domain.enums import Role
from domain.models import User
from ui.auth import home_path
from ui.session import bind_tab, logged_in_user


def page_user(role: Role | None = None) -> User | None:
    user = logged_in_user()
    if user is None:
        ui.navigate.to("/login")
        return None
    if role is not None and user.role != role:
        if role == Role.ADMIN:
            ui.notify("That page is for admins only.", type="warning")
        ui.navigate.to(home_path(user))
        return None
    bind_tab(user)
    return user

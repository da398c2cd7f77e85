"""Who may open a page: resolves the logged-in user or sends the visitor elsewhere."""

from __future__ import annotations

from typing import TypeVar

from nicegui import ui
from sqlalchemy.orm import Session

from domain.enums import Role
from domain.models import User
from ui.auth import home_path, log_out, logged_in_identity
from ui.session import Work, as_visitor, bind_tab, current_login

T = TypeVar("T")


async def page_user(role: Role) -> User | None:
    """Who is logged in, if they may open a page for `role`; read in a worker thread, not on the loop."""
    admitted = await page_user_with(role, _nothing)
    return None if admitted is None else admitted[0]


def _nothing(_session: Session, _user: User) -> bool:
    return True


async def page_user_with(role: Role, load: Work[T]) -> tuple[User, T] | None:
    """`page_user` and the page's first read in one read-only unit of work in a worker thread: the
    user is read once, and no database work is done on the event loop while the page is built."""
    logged_in_id, epoch = logged_in_identity()
    if logged_in_id is None:
        _admit(None, role)
        return None

    def check_then_load(session: Session) -> tuple[User | None, T | None]:
        user = current_login(session, logged_in_id, epoch)
        if user is None:
            return None, None
        return user, load(session, user) if user.role == role else None

    user, data = await as_visitor(check_then_load, read_only=True)
    if user is None:
        log_out()  # a stale login: disabled, password reset, or the user is gone
    admitted = _admit(user, role)
    if admitted is None or data is None:
        return None
    return admitted, data


def _admit(user: User | None, role: Role) -> User | None:
    if user is None:
        ui.navigate.to("/login")
        return None
    if user.role != role:
        if role == Role.ADMIN:
            ui.notify("That page is for admins only.", type="warning")
        ui.navigate.to(home_path(user))
        return None
    bind_tab(user)
    return user

"""Short units of work for page handlers: read, or write and report a domain error kindly."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from nicegui import app, ui
from sqlalchemy.orm import Session

from domain.errors import DomainError, PermissionDenied
from persistence.uow import unit_of_work
from ui import runtime
from ui.auth import PAGE_USER_KEY, current_user

T = TypeVar("T")


def read(work: Callable[[Session], T]) -> T:
    with unit_of_work(runtime.current().engine, read_only=True) as session:
        _check_session(session)
        return work(session)


def write(work: Callable[[Session], T]) -> T:
    """Run `work` in one transaction; domain errors propagate for the caller to show."""
    with unit_of_work(runtime.current().engine) as session:
        _check_session(session)
        return work(session)


def _check_session(session: Session) -> None:
    """The page acts only for the user it was built for: a tab left open after logging out,
    after someone else logged in on this browser, or after an admin disabled the account,
    reads and changes nothing and is sent to the login page."""
    user = current_user(session)
    if user is None or user.id != app.storage.client.get(PAGE_USER_KEY):
        ui.navigate.to("/login")
        raise PermissionDenied("Your session has ended. Log in again.")


def attempt(work: Callable[[Session], T]) -> tuple[bool, T | None]:
    """Write, and turn a domain error into a notification; say whether it worked."""
    try:
        return True, write(work)
    except DomainError as exc:
        ui.notify(str(exc), type="negative")
        return False, None

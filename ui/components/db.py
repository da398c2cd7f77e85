"""Short units of work for page handlers: read, or write and report a domain error kindly."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from nicegui import ui
from sqlalchemy.orm import Session

from domain.errors import DomainError, PermissionDenied
from persistence.uow import unit_of_work
from ui import runtime
from ui.auth import current_user

T = TypeVar("T")


def read(work: Callable[[Session], T]) -> T:
    with unit_of_work(runtime.current().engine, read_only=True) as session:
        return work(session)


def write(work: Callable[[Session], T]) -> T:
    """Run `work` in one transaction; domain errors propagate for the caller to show.

    The session is checked first: a tab left open after logging out, or after an admin
    disabled the account, changes nothing and is sent to the login page.
    """
    with unit_of_work(runtime.current().engine) as session:
        if current_user(session) is None:
            ui.navigate.to("/login")
            raise PermissionDenied("Your session has ended. Log in again.")
        return work(session)


def attempt(work: Callable[[Session], T]) -> tuple[bool, T | None]:
    """Write, and turn a domain error into a notification; say whether it worked."""
    try:
        return True, write(work)
    except DomainError as exc:
        ui.notify(str(exc), type="negative")
        return False, None

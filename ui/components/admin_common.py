"""What the admin tabs share: run a service as the logged-in admin, dates, a pager, empty states."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import TypeVar

from nicegui import run, ui
from sqlalchemy.orm import Session

from domain.errors import DomainError
from domain.models import User
from persistence.uow import unit_of_work
from ui import runtime
from ui.auth import current_user

T = TypeVar("T")


class SessionEnded(Exception):
    """The admin's session ended meanwhile (logged out, disabled, password reset)."""


def as_admin(work: Callable[[Session, User], T]) -> T | None:
    """Run `work` in one unit of work as the logged-in user; show a domain error, change nothing.

    The user is looked up again for every action, so a session that ended or an admin who
    was demoted meanwhile is refused by the services themselves.
    """
    try:
        with unit_of_work(runtime.current().engine) as session:
            user = current_user(session)
            if user is None:
                raise SessionEnded
            return work(session, user)
    except SessionEnded:
        ui.navigate.to("/login")
    except DomainError as exc:
        ui.notify(str(exc), type="negative")
    return None


async def as_admin_in_thread(work: Callable[[Session, User], T]) -> T | None:
    """Like as_admin, for work that may take a while (a text search over the audit log, an
    export): it runs in a worker thread, so the page stays responsive for everyone."""
    engine = runtime.current().engine
    with unit_of_work(engine, read_only=True) as session:
        user = current_user(session)
    if user is None:
        ui.navigate.to("/login")
        return None

    def in_unit_of_work() -> T:
        with unit_of_work(engine) as session:
            return work(session, user)

    try:
        return await run.io_bound(in_unit_of_work)
    except DomainError as exc:
        ui.notify(str(exc), type="negative")
        return None


def parse_day(value: str | None) -> date | None:
    """A date input's value (YYYY-MM-DD) or None; a malformed one is ignored."""
    if not value:
        return None
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        return None


def when(at: datetime | None) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC") if at else "—"


def date_input(label: str) -> ui.input:
    return ui.input(label).props("type=date stack-label outlined dense").classes("w-40")


def pager(
    *,
    status: str,
    on_previous: Callable[[], None] | None,
    on_next: Callable[[], None] | None,
    previous_label: str = "Previous",
    next_label: str = "Next",
    marker: str,
) -> None:
    """Previous/next buttons (disabled at either end) and a status text, e.g. "Page 2 of 7"."""
    with ui.row().classes("items-center gap-2").mark(marker):
        previous = ui.button(previous_label, icon="chevron_left", on_click=on_previous or (lambda: None))
        previous.props("flat no-caps").classes("mr-btn-meta").set_enabled(on_previous is not None)
        ui.label(status).classes("mr-muted").props('aria-live="polite"')
        following = ui.button(next_label, on_click=on_next or (lambda: None))
        following.props("flat no-caps icon-right=chevron_right").classes("mr-btn-meta").set_enabled(on_next is not None)


def set_aria_label(element: ui.element, label: str) -> ui.element:
    """Set an accessible name from any text (user text included) without building a props string."""
    element.props["aria-label"] = label
    element.update()
    return element


def clip(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"

"""What the admin tabs share: dates, a pager, accessible names."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import date, datetime

from nicegui import ui


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
    on_previous: Callable[[], Awaitable[None]] | None,
    on_next: Callable[[], Awaitable[None]] | None,
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

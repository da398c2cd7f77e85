"""What the admin tabs share: dates, a pager, accessible names."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import date, datetime

from nicegui import events, ui


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
    return ui.input(label).props("type=date stack-label dense").classes("w-40")


class Pager:
    """Page numbers with previous/next links, and a status line such as "Page 2 of 7 · 130 users".

    Hidden until the first page is shown, then updated in place: the page button just used keeps
    the keyboard focus. The numbers appear once there is more than one page.
    """

    def __init__(self, *, marker: str, on_page: Callable[[int], Awaitable[None]]) -> None:
        self.on_page = on_page
        self.shown_page = 1
        with ui.row().classes("items-center gap-2").mark(marker) as self.row:
            self.pages = ui.pagination(1, 1, direction_links=True, on_change=self._chosen)
            self.pages.props("max-pages=7 boundary-numbers color=brand active-color=primary")
            self.status = ui.label("").classes("mr-muted").props('aria-live="polite"')
        self.row.set_visibility(False)

    def show(self, *, page: int, pages: int, status: str) -> None:
        self.shown_page = page  # first, so that setting the value below is not taken for a choice
        self.pages.max = max(pages, 1)
        self.pages.set_value(page)
        self.pages.set_visibility(pages > 1)
        self.status.set_text(status)
        self.row.set_visibility(True)

    async def _chosen(self, event: events.ValueChangeEventArguments[int | None]) -> None:
        if event.value is not None and event.value != self.shown_page:
            await self.on_page(event.value)


def set_aria_label(element: ui.element, label: str) -> ui.element:
    """Set an accessible name from any text (user text included) without building a props string."""
    element.props["aria-label"] = label
    element.update()
    return element

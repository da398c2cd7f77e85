"""What the admin tabs share: the app's dates, a date field with a picker, live filters, errors at
the field, a pager, accessible names."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from datetime import date, datetime
from typing import TypeVar

from nicegui import events, ui
from sqlalchemy.orm import Session

from domain.errors import DomainError, InvalidInput
from domain.models import User
from ui.session import Outcome, write

T = TypeVar("T")

DAY_FORMAT = "%d %b %Y"  # the app's date: 12 Nov 2026
PICKER_MASK = "DD MMM YYYY"  # the same, as Quasar's date picker writes it
DAY_EXAMPLE = "12 Nov 2026"
BAD_DAY = f"Use a date like {DAY_EXAMPLE}."
TYPING_PAUSE_MS = 350  # a filter applies once typing pauses, as on the athlete's page
_READ_FORMATS = (DAY_FORMAT, "%d %B %Y", "%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y")


def day_text(day: date | datetime) -> str:
    """A date as the app writes it: 12 Nov 2026."""
    return day.strftime(DAY_FORMAT)


def when(at: datetime | None) -> str:
    """A moment as the app writes it: 12 Nov 2026, 14:05 UTC."""
    return f"{day_text(at)}, {at:%H:%M} UTC" if at else "—"


def when_short(at: datetime) -> str:
    """A moment for a table's time column (its header says UTC): 12 Nov 2026 14:05."""
    return f"{day_text(at)} {at:%H:%M}"


def parse_day(value: str | None) -> date | None:
    """A typed or picked date ("12 Nov 2026", also "2026-11-12") or None; raises ValueError if unreadable."""
    text = " ".join((value or "").split())
    if not text:
        return None
    for pattern in _READ_FORMATS:
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    raise ValueError(BAD_DAY)


class DayInput(ui.date_input):
    """A date field: typed as "12 Nov 2026" or picked from NiceGUI's (Quasar's) calendar, which writes
    the same format. An unreadable date is marked at the field and `day` keeps the last good one."""

    def __init__(self, label: str, *, on_change: Callable[[], Awaitable[None]]) -> None:
        super().__init__(label)
        self.day: date | None = None
        self.props(f'dense stack-label clearable debounce={TYPING_PAUSE_MS} placeholder="{DAY_EXAMPLE}"')
        self.props("autocomplete=off").classes("w-44")
        self.picker.props["mask"] = PICKER_MASK
        self.button.props["aria-label"] = f"{label}: choose a date"
        self.button.props["color"] = "brand"
        # A calendar, not a menu of items: Quasar lets the menu's role be replaced.
        self.menu.props["role"] = "dialog"
        self.menu.props["aria-label"] = f"{label}: calendar"
        self.picker.on_value_change(self.menu.close)
        self._changed = on_change
        self.on_value_change(self._read)

    async def _read(self) -> None:
        try:
            day = parse_day(self.value)
        except ValueError as error:
            show_error_at(self, str(error))
            return
        clear_error(self)
        if day != self.day:
            self.day = day
            await self._changed()


class Latest:
    """For filters that apply as the admin types: of overlapping loads, only the newest shows its answer."""

    def __init__(self) -> None:
        self.issued = 0

    def ticket(self) -> int:
        self.issued += 1
        return self.issued

    def is_current(self, ticket: int) -> bool:
        return ticket == self.issued


def show_error_at(field: ui.element, message: str, *, focus: bool = False) -> None:
    """The error under the field it is about (Quasar's error props, values not parsed), where a
    screen reader announces it."""
    field.props["error"] = True
    field.props["error-message"] = message
    field.style("--q-negative: var(--mr-danger)")  # the app's red, readable in dark mode too (app.css)
    field.update()
    if focus:
        field.run_method("focus")


def clear_error(*fields: ui.element) -> None:
    for field in fields:
        if "error" in field.props or "error-message" in field.props:
            field.props.pop("error", None)
            field.props.pop("error-message", None)
            field.update()


async def attempt_at(
    work: Callable[[Session, User], T], fields: Mapping[str, ui.element], *, fallback: ui.element | None = None
) -> Outcome[T]:
    """Write; bad input is shown at the field the domain names (or at `fallback`), other errors as a
    notification. The fields' earlier errors are cleared first."""
    clear_error(*fields.values())
    try:
        return Outcome(ok=True, value=await write(work))
    except InvalidInput as error:
        target = fields.get(error.field or "") or fallback
        if target is None:
            ui.notify(str(error), type="negative")
        else:
            show_error_at(target, str(error), focus=True)
        return Outcome(ok=False)
    except DomainError as error:
        ui.notify(str(error), type="negative")
        return Outcome(ok=False)


def live_text(label: str, on_change: Callable[[], Awaitable[None]], *, width: str = "w-64") -> ui.input:
    """A search field that applies once typing pauses (no Search button)."""
    field = ui.input(label).props(f'dense clearable debounce={TYPING_PAUSE_MS} type=search role="searchbox"')
    field.classes(width).on_value_change(on_change)
    with field.add_slot("prepend"):
        ui.icon("search").props('aria-hidden="true"')
    return field


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

"""Helpers for the admin console's User tests: ids from the test database, opening a tab."""

from __future__ import annotations

from nicegui import ui
from nicegui.testing import User
from sqlalchemy import select

from domain.models import AccessEvent, Memory
from domain.visibility import with_inactive
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.ui.conftest import log_in
from tests.ui.context_support import eventually

LOADED_MARKERS = {
    "Deleted": "deleted-pager",
    "Audit log": "audit-pager",
    "Users": "users-pager",
    "Clean-up": "purge-plan",
}


def memory_id(database_url: str, content: str) -> int | None:
    engine = make_engine(database_url)
    try:
        with unit_of_work(engine, read_only=True) as session:
            return session.scalar(
                select(Memory.id).where(Memory.content == content).execution_options(**with_inactive())
            )
    finally:
        engine.dispose()


def access_kinds(database_url: str) -> list[tuple[str, str, int | None]]:
    engine = make_engine(database_url)
    try:
        with unit_of_work(engine, read_only=True) as session:
            rows = session.execute(select(AccessEvent.kind, AccessEvent.actor_label, AccessEvent.athlete_id))
            return [(kind, actor, athlete) for kind, actor, athlete in rows]
    finally:
        engine.dispose()


async def open_admin(user: User, tab: str | None = None) -> None:
    await log_in(user, "admin")
    await user.should_see("Admin console")
    if tab is not None:
        user.find(kind=ui.tab, content=tab).click()
    await user.should_see(marker=LOADED_MARKERS[tab or "Deleted"])  # tabs render in a background refresh


async def row_shows(user: User, marker: str, text: str) -> None:
    """Wait until the row marked `marker` shows `text`. An action refreshes its table in the background,
    which replaces the row, so the row is looked up afresh on every try."""

    def shows() -> bool:
        with user.scope(marker=marker):
            return bool(user.find(text).elements)

    await eventually(shows)


def table_cells(user: User, marker: str) -> list[str]:
    """What the table marked `marker` shows, cell by cell: a ui.table's rows are data, not elements."""
    tables = [element for element in user.find(marker=marker).elements if isinstance(element, ui.table)]
    return [str(value) for table in tables for row in table.rows for value in row.values()]


async def table_shows(user: User, marker: str, *texts: str) -> None:
    """Wait until the table marked `marker` shows every text (each within one cell)."""
    await eventually(lambda: all(any(text in cell for cell in table_cells(user, marker)) for text in texts))


async def table_lacks(user: User, marker: str, text: str) -> None:
    await eventually(lambda: not any(text in cell for cell in table_cells(user, marker)))


def field_error(user: User, label: str) -> str | None:
    """The error shown under the field labelled `label` (Quasar's error-message), if any."""
    for element in user.find(label).elements:
        if element.props.get("label") == label:
            return str(element.props["error-message"]) if element.props.get("error") else None
    raise AssertionError(f"no field labelled {label!r}")


async def shows_error_at(user: User, label: str, text: str) -> None:
    """Wait until the field labelled `label` shows an error containing `text`."""
    await eventually(lambda: text in (field_error(user, label) or ""))


def choose(user: User, label: str, option: str) -> None:
    """Pick the option shown as `option` in the select labelled `label`."""
    select_element = next(e for e in user.find(label).elements if isinstance(e, ui.select))
    assert isinstance(select_element.options, dict)
    select_element.value = next(key for key, text in select_element.options.items() if text == option)

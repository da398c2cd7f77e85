"""When the database does not answer (here: another program holds SQLite's write lock past the
busy timeout), a save says so, keeps the dialog open with what was typed, and changes nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from nicegui import ui
from nicegui.testing import User

from tests.ui.conftest import log_in
from ui.session import DATABASE_TROUBLE

TYPED = "Swims on Saturdays with a masters group"


@contextmanager
def write_lock_held(database_url: str) -> Iterator[None]:
    connection = sqlite3.connect(database_url.removeprefix("sqlite:///"), isolation_level=None)
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        connection.execute("ROLLBACK")
        connection.close()


def memory_count(database_url: str) -> int:
    with sqlite3.connect(database_url.removeprefix("sqlite:///")) as connection:
        (count,) = connection.execute("SELECT count(*) FROM memories").fetchone()
    return int(count)


async def test_a_save_that_cannot_reach_the_database_keeps_the_dialog_and_the_text(
    user: User, app_database: str
) -> None:
    await log_in(user, "alex")
    await user.should_see("Occasional knee soreness")
    before = memory_count(app_database)
    user.find(marker="add-memory").click()
    with user.scope(marker="add-dialog"):
        user.find(marker="field-content").type(TYPED)
        type_field = user.find(marker="field-type").elements.pop()
        assert isinstance(type_field, ui.select)
        type_field.set_value("context")
    with write_lock_held(app_database):
        user.find(marker="save").click()
        await user.should_see(DATABASE_TROUBLE, retries=200)  # after SQLite's 10 s busy timeout
    with user.scope(marker="add-dialog"):
        content = user.find(marker="field-content").elements.pop()
        assert isinstance(content, ui.textarea)
        assert content.value == TYPED
    await user.should_see(marker="add-dialog")
    assert memory_count(app_database) == before

"""The admin console and the account page read their data off the event loop and take turns to build
(ui/components/turns.py, issue 9), as the Context page does: opening at once, each still gets its
whole page, and what they show and the errors they report are as before."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from nicegui import ui
from nicegui.testing import User
from sqlalchemy import Engine, event

from domain import memories
from persistence.uow import unit_of_work
from tests.ui.admin_helpers import open_admin
from tests.ui.conftest import log_in
from tests.ui.context_support import add_memories, athlete, database, eventually, listed, memory_by_content
from ui.components import turns

DOG = "Owns a dog that joins easy runs"  # deleted in the demo data (an admin sees it in "Deleted")
TREADMILL = "Dislikes running on the treadmill"


@pytest.fixture
def a_turn_per_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every build passes the budget: the next one waits for the loop's next turn."""
    monkeypatch.setattr(turns, "TURN_BUDGET_S", 0.0)


def delete_as_alex(url: str, content: str) -> int:
    with database(url) as engine:
        memory = memory_by_content(engine, "alex", content)
        with unit_of_work(engine) as session:
            memories.delete_memory(session, athlete(engine, "alex"), memory_id=memory.id)
        return memory.id


@pytest.fixture
def statements_on_this_thread() -> Iterator[list[str]]:
    """Every SQL statement any engine runs on the test's thread, which runs NiceGUI's event loop."""
    loop_thread = threading.get_ident()
    seen: list[str] = []

    def noted(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if threading.get_ident() == loop_thread:
            seen.append(statement)

    event.listen(Engine, "before_cursor_execute", noted)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", noted)


async def test_admin_account_and_context_pages_opening_at_once_each_get_their_whole_page(
    user: User, create_user: Callable[[], User], app_database: str, a_turn_per_page: None
) -> None:
    restore_id = delete_as_alex(app_database, TREADMILL)
    auditor, alex, sam = create_user(), create_user(), create_user()
    await log_in(user, "admin")
    await log_in(auditor, "admin")
    await log_in(alex, "alex")
    await log_in(sam, "sam")

    async with turns.building_turn():  # another page is building: these four wait for their turns
        opening = asyncio.gather(
            user.open("/admin"), auditor.open("/admin?tab=audit"), alex.open("/account"), sam.open("/")
        )
        await eventually(lambda: turns.waiting() == 4)
    await opening

    await user.should_see("Admin console")  # the Deleted tab: every deleted memory, with its athlete
    await user.should_see(DOG)
    await user.should_see(TREADMILL)
    await user.should_see("Page 1 of 1 · 3 deleted")
    await auditor.should_see(marker="audit-table")  # the Audit tab: the log and the chain's last check
    await auditor.should_see("Audit chain verified up to event #")
    await alex.should_see("Recently deleted")  # the account page: alex's own deleted memory, the password form
    await alex.should_see(TREADMILL)
    await alex.should_see(marker=f"restore-{restore_id}")
    await alex.should_see("Change password")
    await sam.should_see("What your coach remembers")
    assert listed(sam)

    alex.find(marker=f"restore-{restore_id}").click()  # the pages work
    await alex.should_see(f"Restored '{TREADMILL}'")
    user.find(kind=ui.tab, content="Users").click()
    await user.should_see(marker="users-pager")
    await user.should_see("Alex Rivera (alex)")


async def test_the_console_and_the_account_page_read_nothing_on_the_event_loop(
    user: User, app_database: str, statements_on_this_thread: list[str]
) -> None:
    delete_as_alex(app_database, TREADMILL)
    statements_on_this_thread.clear()  # the test's own, above
    await open_admin(user)  # logs in first: the login's own statements are not the pages'
    for tab, loaded in (("Audit log", "audit-pager"), ("Users", "users-pager"), ("Clean-up", "purge-plan")):
        user.find(kind=ui.tab, content=tab).click()
        await user.should_see(marker=loaded)
    await user.open("/admin?tab=audit")
    await user.should_see("Audit chain verified up to event #")
    assert statements_on_this_thread == []
    user.find("Log out").click()
    await log_in(user, "alex")
    await user.open("/account")
    await user.should_see(TREADMILL)
    assert statements_on_this_thread == []


async def test_a_restore_that_is_no_longer_possible_says_so_and_the_list_follows(user: User, app_database: str) -> None:
    memory_id = delete_as_alex(app_database, TREADMILL)
    await log_in(user, "alex")
    await user.open("/account")
    await user.should_see(marker=f"restore-{memory_id}")
    with database(app_database) as engine, unit_of_work(engine) as session:  # another tab brings it back meanwhile
        memories.undo_delete(session, athlete(engine, "alex"), memory_id=memory_id)
    user.find(marker=f"restore-{memory_id}").click()
    await user.should_see("Memory not found.")
    await user.should_not_see(marker=f"restore-{memory_id}")
    await user.should_see(DOG)  # the rest of the list stays


async def test_a_long_list_is_built_a_few_cards_per_turn_and_shows_whole(
    user: User, app_database: str, a_turn_per_page: None
) -> None:
    with database(app_database) as engine:
        add_memories(engine, "alex", 25, prefix="Bulk")
        owner = athlete(engine, "alex")
        with unit_of_work(engine) as session:
            for index in range(25):
                found = memory_by_content(engine, "alex", f"Bulk {index}: easy run notes")
                memories.delete_memory(session, owner, memory_id=found.id)
    await open_admin(user)
    await user.should_see("Page 1 of 2 · 27 deleted")  # the pager is shown once every card is built
    assert user.client is not None
    markers = [marker for element in user.client.elements.values() for marker in element._markers]
    assert len([m for m in markers if m.startswith("deleted-") and m[len("deleted-") :].isdigit()]) == 20  # 4 turns
    user.find("Search deleted memories").type("Bulk 7")  # a newer list replaces the cards
    await user.should_see("Page 1 of 1 · 1 deleted")
    await user.should_see("Bulk 7: easy run notes")
    await user.should_not_see("Bulk 8: easy run notes")


async def test_in_the_desktop_window_the_account_page_has_the_owners_checks(
    user: User, app_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    delete_as_alex(app_database, TREADMILL)
    monkeypatch.setattr("ui.pages.account.in_desktop_window", lambda: True)
    await log_in(user, "alex")
    await user.open("/account")
    await user.should_see(TREADMILL)  # recently deleted, as in a browser
    await user.should_see("Audit log")
    await user.should_see(marker="audit-check")
    await user.should_see(marker="purge-plan")  # what a clean-up would remove now
    await user.should_not_see("Change password")
    user.find(marker="audit-check").click()
    await user.should_see("Audit chain verified up to event #")

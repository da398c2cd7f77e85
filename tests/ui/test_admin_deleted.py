"""Admin tab "Deleted" in NiceGUI's User fixture: find, restore (one or several), delete for good."""

from __future__ import annotations

from nicegui import ui
from nicegui.testing import User

from domain.models import Memory
from domain.visibility import with_inactive
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.ui.admin_helpers import access_kinds, choose, memory_id, open_admin, shows_error_at
from tests.ui.conftest import log_in

DOG = "Owns a dog that joins easy runs"
CLUB = "Prefers running with a club on Thursday evenings"


async def test_lists_deleted_memories_with_athlete_and_who_deleted(user: User, app_database: str) -> None:
    await open_admin(user)
    await user.should_see(DOG)
    await user.should_see(CLUB)
    await user.should_see("Alex Rivera (alex)")
    await user.should_see("Page 1 of 1 · 2 deleted")
    await user.should_not_see("Occasional knee soreness")  # active memories are not listed
    assert ("admin_view_deleted", "admin", 1) in access_kinds(app_database)


async def test_search_and_athlete_filter(user: User) -> None:
    await open_admin(user)
    user.find("Search deleted memories").type("dog")  # applies as the admin types: no Search button
    await user.should_see(DOG)
    await user.should_not_see(CLUB)
    user.find("Search deleted memories").clear()
    await user.should_see(CLUB)
    with user.scope(marker="deleted-filters"):
        choose(user, "Athlete", "sam")
    await user.should_see("No deleted memories match.")


async def test_restore_one_with_a_reason_and_the_athlete_sees_it(user: User, app_database: str) -> None:
    await open_admin(user)
    with user.scope(marker=f"deleted-{memory_id(app_database, DOG)}"):
        user.find("Restore").click()
    with user.scope(marker="restore-dialog"):
        await user.should_see("Restore this memory?")
        user.find("Reason (optional)").type("Deleted by mistake")
    user.find(marker="restore-confirm").click()
    await user.should_see("Memory restored.")
    await user.should_not_see(DOG)
    await user.should_see("Page 1 of 1 · 1 deleted")
    user.find("Log out").click()
    await log_in(user, "alex")
    await user.should_see(DOG)


async def test_restore_selected(user: User, app_database: str) -> None:
    await open_admin(user)
    with user.scope(marker=f"deleted-{memory_id(app_database, DOG)}"):
        user.find(kind=ui.checkbox).click()
    with user.scope(marker=f"deleted-{memory_id(app_database, CLUB)}"):
        user.find(kind=ui.checkbox).click()
    await user.should_see("2 selected")
    user.find(marker="restore-selected").click()
    with user.scope(marker="restore-dialog"):
        await user.should_see("Restore 2 memories?")
    user.find(marker="restore-confirm").click()
    await user.should_see("2 memories restored.")
    await user.should_see("No deleted memories match.")


async def test_delete_permanently_needs_the_typed_username(user: User, app_database: str) -> None:
    await open_admin(user)
    dog_id = memory_id(app_database, DOG)
    with user.scope(marker=f"deleted-{dog_id}"):
        user.find("Delete permanently").click()
    with user.scope(marker="delete-dialog"):
        await user.should_see("Type alex to confirm.")
        user.find("Athlete's username").type("sam")
    user.find(marker="delete-confirm").click()
    await shows_error_at(user, "Athlete's username", "Type the athlete's username (alex) to confirm.")
    assert not user.notify.messages  # at the field, not as a toast
    assert memory_id(app_database, DOG) == dog_id
    with user.scope(marker="delete-dialog"):
        user.find("Athlete's username").clear()
        user.find("Athlete's username").type("alex")
    user.find(marker="delete-confirm").click()
    await user.should_see("Memory deleted permanently.")
    await user.should_not_see(marker=f"deleted-{dog_id}")  # (the closed dialog still quotes it here: no browser)
    assert memory_id(app_database, DOG) is None


async def test_memory_text_is_shown_as_text_not_html(user: User, app_database: str) -> None:

    engine = make_engine(app_database)
    with unit_of_work(engine) as session:
        memory = session.get(Memory, memory_id(app_database, DOG), execution_options=with_inactive())
        assert memory is not None
        memory.content = "<b>bold</b><script>alert(1)</script>"
    engine.dispose()
    await open_admin(user)
    await user.should_see("<b>bold</b><script>alert(1)</script>")

"""The athlete's account page: Recently deleted brings a memory back in one click; the password changes
with errors at the field; the page is reached from the header."""

from __future__ import annotations

from nicegui.testing import User

from domain import memories
from domain.enums import MemoryStatus
from domain.login import check_credentials
from domain.schemas import MemoryEdit
from persistence.uow import unit_of_work
from tests.ui.conftest import log_in
from tests.ui.context_support import athlete, database, memory_by_content, set_value
from ui.components.text import clip


async def test_recently_deleted_restores_in_one_click(user: User, app_database: str) -> None:
    with database(app_database) as engine:
        memory = memory_by_content(engine, "alex", "Dislikes running on the treadmill")
        with unit_of_work(engine) as session:
            memories.delete_memory(session, athlete(engine, "alex"), memory_id=memory.id)
        await log_in(user, "alex")
        user.find(marker="account-link").click()
        await user.should_see("Recently deleted")
        await user.should_see("Dislikes running on the treadmill")
        user.find(marker=f"restore-{memory.id}").click()
        await user.should_see("Restored 'Dislikes running on the treadmill'")
        await user.should_not_see(marker=f"restore-{memory.id}")
        assert memory_by_content(engine, "alex", memory.content).status == MemoryStatus.ACTIVE


HOSTILE = 'x" innerHTML="<img src=x onerror=alert(document.domain)>'


async def test_a_deleted_memory_with_quotes_and_markup_is_shown_and_named_as_text(
    user: User, app_database: str
) -> None:
    """Memory text (from the athlete, an import or the coach's ingest) may hold a quote: in the Restore button's
    accessible name it stays text and adds no property (it once ended the props string and set innerHTML)."""
    with database(app_database) as engine:
        memory = memory_by_content(engine, "alex", "Dislikes running on the treadmill")
        alex = athlete(engine, "alex")
        with unit_of_work(engine) as session:
            memories.edit_memory(
                session, alex, memory_id=memory.id, changes=MemoryEdit(content=HOSTILE), expected_version=memory.version
            )
        with unit_of_work(engine) as session:
            memories.delete_memory(session, alex, memory_id=memory.id)
        await log_in(user, "alex")
        user.find(marker="account-link").click()
        await user.should_see("Recently deleted")
        await user.should_see(HOSTILE)
        (button,) = user.find(marker=f"restore-{memory.id}").elements
        assert button.props["aria-label"] == f"Restore: {clip(HOSTILE, 60)}"
        assert "innerHTML" not in button.props


async def test_nothing_deleted_says_so(user: User) -> None:
    await log_in(user, "sam")
    await user.open("/account")
    await user.should_see("Nothing deleted in the last 30 days.")


async def test_password_change_shows_errors_at_the_field_then_works(user: User, app_database: str) -> None:
    await log_in(user, "alex")
    await user.open("/account")
    set_value(user, "password-current", "wrong-password")
    set_value(user, "password-new", "a-brand-new-secret")
    set_value(user, "password-repeat", "a-brand-new-secreT")
    user.find(marker="password-save").click()
    await user.should_see("The two new passwords differ.")
    set_value(user, "password-repeat", "a-brand-new-secret")
    user.find(marker="password-save").click()
    await user.should_see("Current password: that is not your password.")
    set_value(user, "password-current", "demo-alex")
    user.find(marker="password-save").click()
    await user.should_see("Password changed. Your other browsers are logged out.")
    with database(app_database) as engine, unit_of_work(engine, read_only=True) as session:
        assert check_credentials(session, username="alex", password="a-brand-new-secret")
    await user.open("/")  # this browser is still logged in under the new session epoch
    await user.should_see("What your coach remembers")


async def test_an_admin_is_sent_home_from_the_athlete_account_page(user: User) -> None:
    await log_in(user, "admin")
    await user.open("/account")
    await user.should_not_see("Recently deleted")

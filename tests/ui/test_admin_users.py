"""Admin tab "Users" in NiceGUI's User fixture: list, create, reset password, disable, roles."""

from __future__ import annotations

from nicegui import ui
from nicegui.testing import User

from domain.enums import Role
from domain.models import User as Account
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.ui.admin_helpers import choose, field_error, open_admin, row_shows, shows_error_at
from tests.ui.conftest import log_in


def add_athletes(database_url: str, count: int) -> None:
    engine = make_engine(database_url)
    with unit_of_work(engine) as session:
        for number in range(count):
            session.add(
                Account(
                    username=f"runner{number:02}",
                    display_name=f"Runner {number:02}",
                    role=Role.ATHLETE,
                    password_hash="x",
                    disabled=False,
                    session_epoch=0,
                )
            )
    engine.dispose()


async def test_lists_users_with_role_status_and_last_login(user: User) -> None:
    await open_admin(user, "Users")
    with user.scope(marker="user-alex"):
        await user.should_see("Alex Rivera (alex)")
        await user.should_see("Athlete")
        await user.should_see("Active")
        await user.should_see("Never logged in")
    with user.scope(marker="user-admin"):
        await user.should_see("Last login just now")
    await user.should_see("Page 1 of 1 · 3 users")


async def test_create_an_athlete_who_can_then_log_in(user: User) -> None:
    await open_admin(user, "Users")
    user.find("New user").click()
    with user.scope(marker="create-user"):
        user.find("Username").type("jo")
        user.find("Display name").type("Jo Lee")
        user.find("Initial password").type("long enough")
        user.find(marker="user-create").click()
    await user.should_see("Created athlete jo.")
    await user.should_see("Jo Lee (jo)")
    user.find("Log out").click()
    await log_in(user, "jo", "long enough")
    await user.should_see("Jo Lee")


async def test_create_shows_what_is_wrong(user: User) -> None:
    await open_admin(user, "Users")
    with user.scope(marker="create-user"):
        user.find("Username").type("alex")
        user.find("Initial password").type("long enough")
        choose(user, "Role", "Admin")
        user.find(marker="user-create").click()
    await shows_error_at(user, "Username", "Username: 'alex' is taken.")
    assert not user.notify.messages  # at the field, not as a toast
    with user.scope(marker="create-user"):
        user.find("Username").clear()
        user.find("Username").type("jo")
        user.find("Initial password").clear()
        user.find("Initial password").type("short")
        user.find(marker="user-create").click()
    await shows_error_at(user, "Initial password", "Password: at least 8 characters.")
    assert field_error(user, "Username") is None  # the earlier error is gone


async def test_disable_then_enable(user: User) -> None:
    await open_admin(user, "Users")
    with user.scope(marker="user-sam"):
        user.find("Disable").click()
    await user.should_see("sam disabled.")
    await row_shows(user, "user-sam", "Enable")
    with user.scope(marker="user-sam"):
        await user.should_see("Disabled")
        user.find("Enable").click()
    await user.should_see("sam enabled.")


async def test_the_last_admin_cannot_disable_or_demote_themselves(user: User) -> None:
    await open_admin(user, "Users")
    with user.scope(marker="user-admin"):
        user.find("Disable").click()
    await user.should_see("At least one active admin must remain.")
    with user.scope(marker="user-admin"):
        user.find("Make athlete").click()
    await user.should_see("At least one active admin must remain.")
    with user.scope(marker="user-admin"):
        await user.should_see("Active")


async def test_reset_password(user: User) -> None:
    await open_admin(user, "Users")
    with user.scope(marker="user-sam"):
        user.find("Reset password").click()
    with user.scope(marker="reset-dialog"):
        await user.should_see("Reset the password of sam")
        user.find("New password").type("short")
    user.find(marker="reset-confirm").click()
    await shows_error_at(user, "New password", "Password: at least 8 characters.")
    with user.scope(marker="reset-dialog"):
        user.find("New password").type(" and now long")
    user.find(marker="reset-confirm").click()
    await user.should_see("Password of sam reset; their sessions ended.")
    user.find("Log out").click()
    await log_in(user, "sam", "short and now long")
    await user.should_see("Sam Okafor")


async def test_promote_and_demote(user: User) -> None:
    await open_admin(user, "Users")
    with user.scope(marker="user-sam"):
        user.find("Make admin").click()
    await user.should_see("sam is now admin.")
    await row_shows(user, "user-sam", "Make athlete")
    with user.scope(marker="user-sam"):
        user.find("Make athlete").click()
    await user.should_see("sam is now athlete.")


async def test_page_numbers_lead_to_the_next_page(user: User, app_database: str) -> None:
    add_athletes(app_database, 25)  # with the 3 demo accounts: 28, two pages of 20
    await open_admin(user, "Users")
    await user.should_see("Page 1 of 2 · 28 users")
    pages = next(iter(user.find(kind=ui.pagination).elements))
    assert (pages.min, pages.max, pages.value) == (1, 2, 1)
    pages.value = 2  # the simulated user picks page 2
    await user.should_see("Page 2 of 2 · 28 users")

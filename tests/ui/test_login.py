"""Logging in and out, and the first view of one's memories, in NiceGUI's User fixture."""

from __future__ import annotations

from nicegui.testing import User
from sqlalchemy import Engine, select

from domain.models import Memory
from domain.users import find_user, set_disabled
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.ui.conftest import log_in
from tests.ui.context_support import set_value


async def test_anonymous_visitor_is_sent_to_login(user: User) -> None:
    await user.open("/")
    await user.should_see("Log in")
    await user.should_see("Username")
    await user.should_not_see("Occasional knee soreness")


async def test_athlete_logs_in_and_sees_memories_grouped_by_type(user: User) -> None:
    await log_in(user, "alex")
    await user.should_see("Alex Rivera")
    await user.should_see("Injury history")
    await user.should_see("Occasional knee soreness")
    await user.should_see("Works as a nurse on rotating shifts")
    await user.should_not_see("Travels for work most weeks")  # sam's
    await user.should_not_see("Owns a dog that joins easy runs")  # alex's, soft-deleted


async def test_wrong_password_gives_one_message_without_saying_which_part(user: User) -> None:
    await log_in(user, "alex", "not-my-password")
    await user.should_see("Wrong username or password.")
    await log_in(user, "nobody", "demo-alex")
    await user.should_see("Wrong username or password.")
    await user.should_not_see("Occasional knee soreness")


async def test_log_out_ends_the_session(user: User) -> None:
    await log_in(user, "alex")
    await user.should_see("Occasional knee soreness")
    user.find("Log out").click()
    await user.should_see("Log in")
    await user.open("/")
    await user.should_see("Username")
    await user.should_not_see("Occasional knee soreness")


async def test_admin_lands_on_admin_console_and_athlete_cannot_open_it(user: User) -> None:
    await log_in(user, "admin")
    await user.should_see("Admin console")
    user.find("Log out").click()
    await user.should_see("Username")
    await log_in(user, "alex")
    await user.should_see("Occasional knee soreness")
    await user.open("/admin")
    await user.should_not_see("Admin console")
    await user.should_see("Occasional knee soreness")


async def test_an_open_page_changes_nothing_once_the_account_is_disabled(user: User, app_database: str) -> None:
    await log_in(user, "alex")
    await user.should_see("Occasional knee soreness")
    engine = _disable_alex(app_database)
    with unit_of_work(engine, read_only=True) as session:
        before = len(session.scalars(select(Memory)).all())
    user.find("Add memory").click()
    user.find("Content").type("Written after the account was disabled")
    set_value(user, "field-type", "context")
    user.find("Save").click()
    await user.should_see("Log in")
    with unit_of_work(engine, read_only=True) as session:
        assert len(session.scalars(select(Memory)).all()) == before


async def test_a_disabled_account_opening_its_page_again_is_sent_to_log_in(user: User, app_database: str) -> None:
    await log_in(user, "alex")
    await user.should_see("Occasional knee soreness")
    _disable_alex(app_database)
    await user.open("/")
    await user.should_see("Username")
    await user.should_not_see("Occasional knee soreness")


async def test_an_admin_opening_the_athletes_page_lands_on_the_admin_console(user: User) -> None:
    await log_in(user, "admin")
    await user.should_see("Admin console")
    await user.open("/")
    await user.should_see("Admin console")
    await user.should_not_see("What your coach remembers")


def _disable_alex(app_database: str) -> Engine:
    """The admin disables alex's account, as the admin console does; the engine, to look afterwards."""
    engine = make_engine(app_database)
    with unit_of_work(engine) as session:
        admin, alex = find_user(session, "admin"), find_user(session, "alex")
        assert admin is not None and alex is not None
        set_disabled(session, admin, user_id=alex.id, disabled=True)
    return engine

"""An athlete gets nothing from /admin: refused, sent home, and no admin data reaches the page."""

from __future__ import annotations

from nicegui.testing import User
from sqlalchemy import select

from domain.enums import Role
from domain.models import User as Account
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.ui.admin_helpers import access_kinds
from tests.ui.conftest import log_in


async def test_athlete_is_refused_and_sent_to_their_own_page(user: User, app_database: str) -> None:
    await log_in(user, "alex")
    await user.should_see("Occasional knee soreness")
    await user.open("/admin")
    await user.should_see("That page is for admins only.")
    await user.should_not_see("Admin console")
    await user.should_not_see("Owns a dog that joins easy runs")  # a deleted memory, admin-only
    await user.should_not_see("Audit chain")
    await user.should_not_see("Clean up now")
    await user.should_see("Occasional knee soreness")
    assert not [kind for kind, _, _ in access_kinds(app_database) if kind.startswith("admin_")]


async def test_anonymous_visitor_is_sent_to_login(user: User) -> None:
    await user.open("/admin")
    await user.should_see("Log in")
    await user.should_not_see("Admin console")
    await user.should_not_see("Owns a dog that joins easy runs")


async def test_a_disabled_admins_open_page_refuses_further_actions(user: User, app_database: str) -> None:
    """The session ends when the admin is disabled; the next action sends them to log in."""

    await log_in(user, "admin")
    await user.should_see("Owns a dog that joins easy runs")
    engine = make_engine(app_database)
    with unit_of_work(engine) as session:
        second = Account(
            username="second",
            display_name="Second",
            role=Role.ADMIN,
            password_hash="x",
            disabled=False,
            session_epoch=0,
        )
        session.add(second)
        admin = session.scalar(select(Account).where(Account.username == "admin"))
        assert admin is not None
        admin.disabled, admin.session_epoch = True, admin.session_epoch + 1
    engine.dispose()
    user.find(marker="deleted-search").type("dog")  # the search applies as the admin types
    await user.should_see("Username")
    await user.should_not_see("Owns a dog that joins easy runs")

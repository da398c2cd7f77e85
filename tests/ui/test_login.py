"""Logging in and out, and the first view of one's memories, in NiceGUI's User fixture."""

from __future__ import annotations

from nicegui.testing import User

from tests.ui.conftest import log_in


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

"""Admin tab "Clean-up" in NiceGUI's User fixture: the plan is shown, then "Clean up now" removes it;
one name for the action on the tab, in the dialog and in the notice."""

from __future__ import annotations

from datetime import timedelta

from nicegui.testing import User
from sqlalchemy import select

from domain.enums import MemoryStatus
from domain.models import AccessEvent, Memory
from domain.types import utcnow
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.ui.admin_helpers import memory_id, open_admin

OLD = "Occasional knee soreness"


def age_data(database_url: str) -> None:
    """Make one memory archived long ago and one login event old (test data, written directly)."""
    engine = make_engine(database_url)
    with unit_of_work(engine) as session:
        memory = session.scalar(select(Memory).where(Memory.content == OLD))
        assert memory is not None
        memory.status, memory.archived_at = MemoryStatus.ARCHIVED, utcnow() - timedelta(days=120)
        session.add(AccessEvent(at=utcnow() - timedelta(days=100), actor_label="alex", kind="login"))
    engine.dispose()


def button_text(user: User, marker: str) -> str:
    return str(next(iter(user.find(marker=marker).elements)).props["label"])


def old_login_events(database_url: str) -> int:
    engine = make_engine(database_url)
    with unit_of_work(engine, read_only=True) as session:
        cutoff = utcnow() - timedelta(days=90)
        count = len(list(session.scalars(select(AccessEvent.id).where(AccessEvent.at < cutoff))))
    engine.dispose()
    return count


async def test_nothing_due_means_clean_up_is_disabled(user: User) -> None:
    await open_admin(user, "Clean-up")
    await user.should_see("Archived memories older than 90 days: 0")
    await user.should_see("Expired proposals older than 90 days: 0")
    button = next(iter(user.find(marker="cleanup-run").elements))
    assert not button.enabled


async def test_shows_the_plan_then_clean_up_now_removes_it(user: User, app_database: str) -> None:
    age_data(app_database)
    assert old_login_events(app_database) == 1
    await open_admin(user, "Clean-up")
    await user.should_see("Archived memories older than 90 days: 1")
    await user.should_see("Login events older than 90 days: 1")
    with user.scope(marker="purge-memories"):
        await user.should_see(OLD)
    assert button_text(user, "cleanup-run") == "Clean up now"
    user.find(marker="cleanup-run").click()
    with user.scope(marker="purge-dialog"):
        await user.should_see("Clean up now?")
    assert button_text(user, "cleanup-confirm") == "Clean up now"
    user.find(marker="cleanup-confirm").click()
    await user.should_see("Cleaned up. Removed 1 archived memories, 0 expired proposals and 1 access and login events.")
    assert not [message for message in user.notify.messages if "purge" in message.lower()]
    await user.should_see("Archived memories older than 90 days: 0")
    assert memory_id(app_database, OLD) is None
    assert old_login_events(app_database) == 0
    assert memory_id(app_database, "Works as a nurse on rotating shifts") is not None

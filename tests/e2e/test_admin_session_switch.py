"""An admin tab left open never acts for the next admin who logs in on the same browser."""

from __future__ import annotations

from playwright.sync_api import Browser, expect
from sqlalchemy import func, select

from domain.actors import SYSTEM
from domain.enums import MemoryStatus, Role
from domain.models import AuditEvent, Memory
from domain.users import create_user
from domain.visibility import with_inactive
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.e2e.conftest import Server, log_in

DELETED = "Owns a dog that joins easy runs"  # soft-deleted in the demo data


def test_an_old_admin_tab_cannot_restore_after_another_admin_logs_in(browser: Browser, server: Server) -> None:
    engine = make_engine(server.database_url)
    with unit_of_work(engine) as session:
        create_user(session, SYSTEM, username="second-admin", password="second-admin-pw", role=Role.ADMIN)
    with unit_of_work(engine, read_only=True) as session:
        events_before = session.scalar(select(func.count()).select_from(AuditEvent))

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    old_tab = context.new_page()
    log_in(old_tab, server, "admin", "demo-admin")
    card = old_tab.locator(".q-card", has_text=DELETED).filter(has=old_tab.get_by_role("button", name="Restore"))
    expect(card).to_be_visible()

    other_tab = context.new_page()
    other_tab.goto(f"{server.url}/admin")
    other_tab.get_by_role("button", name="Log out").click()
    expect(other_tab.get_by_label("Username")).to_be_visible()
    log_in(other_tab, server, "second-admin", "second-admin-pw")
    expect(other_tab.get_by_text("Admin console")).to_be_visible()

    card.get_by_role("button", name="Restore").click()
    dialog = old_tab.get_by_role("dialog")
    dialog.get_by_role("button", name="Restore", exact=True).click()
    # The old tab is sent away (to the login page, which leads the new admin to their console).
    expect(old_tab.get_by_text("Memory restored.")).to_have_count(0)
    expect(old_tab.get_by_role("dialog")).to_have_count(0)
    with unit_of_work(engine, read_only=True) as session:
        memory = session.scalars(
            select(Memory).where(Memory.content == DELETED).execution_options(**with_inactive())
        ).one()
        events_after = session.scalar(select(func.count()).select_from(AuditEvent))
    engine.dispose()
    assert memory.status == MemoryStatus.DELETED
    assert events_after == events_before  # nothing was done in anyone's name
    context.close()

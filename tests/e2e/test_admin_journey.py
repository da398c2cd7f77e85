"""A real browser: alex deletes a memory; admin restores it with a reason; the audit log shows
both events with their actors; a permanent delete asks for the typed username; the chain holds."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect
from sqlalchemy import select

from domain.audit import verify_chain
from domain.models import Memory
from domain.visibility import with_inactive
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.e2e.conftest import Server, axe_violations, log_in

# The tab shows the stored result at once, then this once it has checked the events since.
CHAIN_CHECKED = re.compile(r"^Audit chain verified up to event #[\d,]+, just now$")

CONTENT = "Dislikes running on the treadmill"


def memory_card(page: Page) -> Locator:
    return page.locator(".mr-memory", has_text=CONTENT)


def deleted_card(page: Page) -> Locator:
    return page.locator(".q-card", has_text=CONTENT).filter(has=page.get_by_role("button", name="Restore"))


def log_out(page: Page) -> None:
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_label("Username")).to_be_visible()


def alex_deletes_the_memory(page: Page, server: Server) -> None:
    log_in(page, server, "alex", "demo-alex")
    expect(memory_card(page)).to_have_count(1)
    memory_card(page).get_by_role("button", name="Delete").click()
    expect(memory_card(page)).to_have_count(0)
    log_out(page)


def open_tab(page: Page, name: str) -> None:
    page.get_by_role("tab", name=name).click()


def test_admin_restores_reads_the_audit_log_and_deletes_for_good(page: Page, server: Server) -> None:
    alex_deletes_the_memory(page, server)

    log_in(page, server, "admin", "demo-admin")
    expect(page).to_have_url(f"{server.url}/admin")
    expect(deleted_card(page)).to_be_visible()
    assert axe_violations(page) == []
    deleted_card(page).get_by_role("button", name="Restore").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_text("Restore this memory?")).to_be_visible()
    dialog.get_by_label("Reason (optional)").fill("Deleted by mistake")
    dialog.get_by_role("button", name="Restore", exact=True).click()
    expect(page.get_by_text("Memory restored.")).to_be_visible()
    expect(deleted_card(page)).to_have_count(0)

    open_tab(page, "Audit log")
    expect(page.get_by_text(CHAIN_CHECKED)).to_be_visible()
    restored = page.locator("tr", has_text=f"Restored: {CONTENT}")
    expect(restored).to_contain_text("admin")
    expect(restored).to_contain_text("Reason: Deleted by mistake")
    deleted = page.locator("tr", has_text=f"Deleted: {CONTENT}")
    expect(deleted).to_contain_text("alex")
    assert axe_violations(page) == []
    deleted.get_by_role("button", name="Open event").click()
    expect(page.get_by_role("dialog").get_by_role("cell", name="deleted")).to_be_visible()
    page.get_by_role("dialog").get_by_role("button", name="Close").click()
    log_out(page)

    log_in(page, server, "alex", "demo-alex")
    expect(memory_card(page)).to_have_count(1)
    log_out(page)

    # Deleted again; this time the admin removes it for good.
    alex_deletes_the_memory(page, server)
    log_in(page, server, "admin", "demo-admin")
    deleted_card(page).get_by_role("button", name="Delete permanently").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_text("Type alex to confirm.")).to_be_visible()
    dialog.get_by_label("Athlete's username").fill("sam")
    dialog.get_by_role("button", name="Delete permanently").click()
    expect(page.get_by_text("Type the athlete's username (alex) to confirm.")).to_be_visible()
    assert _memory_exists(server)
    dialog.get_by_label("Athlete's username").fill("alex")
    dialog.get_by_role("button", name="Delete permanently").click()
    expect(page.get_by_text("Memory deleted permanently.")).to_be_visible()
    expect(deleted_card(page)).to_have_count(0)
    assert not _memory_exists(server)

    open_tab(page, "Audit log")
    expect(page.get_by_text(CHAIN_CHECKED)).to_be_visible()
    expect(page.locator("tr", has_text="Deleted permanently: (content redacted)")).to_contain_text("admin")
    with unit_of_work(make_engine(server.database_url), read_only=True) as session:
        assert verify_chain(session).ok


def test_an_athlete_is_sent_away_from_admin(page: Page, server: Server) -> None:
    log_in(page, server, "alex", "demo-alex")
    expect(page.get_by_text("Alex Rivera")).to_be_visible()
    page.goto(f"{server.url}/admin")
    expect(page).to_have_url(f"{server.url}/")
    expect(page.get_by_text("Admin console")).to_have_count(0)
    expect(page.get_by_text("Owns a dog that joins easy runs")).to_have_count(0)


def _memory_exists(server: Server) -> bool:
    engine = make_engine(server.database_url)
    try:
        with unit_of_work(engine, read_only=True) as session:
            found = session.scalar(
                select(Memory.id).where(Memory.content == CONTENT).execution_options(**with_inactive())
            )
            return found is not None
    finally:
        engine.dispose()

"""A real browser: alex deletes a memory; admin restores it with a reason; the audit log shows
both events with their actors; a permanent delete asks for the typed username; the chain holds.
Every admin tab and dialog passes axe-core in light and dark; the tab is in the address; the audit
log's time column stays on one line."""

from __future__ import annotations

import re
from datetime import timedelta

from playwright.sync_api import Locator, Page, expect
from sqlalchemy import select

from domain.audit import verify_chain
from domain.enums import MemoryStatus
from domain.models import Memory
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.e2e import context_locators
from tests.e2e.conftest import Server, axe_violations, log_in
from tests.e2e.context_locators import memory_menu, open_view

# The tab shows the stored result at once, then this once it has checked the events since.
CHAIN_CHECKED = re.compile(r"^Audit chain verified up to event #[\d,]+, just now$")

CONTENT = "Dislikes running on the treadmill"


def memory_card(page: Page) -> Locator:
    open_view(page, "Memories")
    return context_locators.memory_card(page, CONTENT)


def deleted_card(page: Page) -> Locator:
    return page.locator(".q-card", has_text=CONTENT).filter(has=page.get_by_role("button", name="Restore"))


def log_out(page: Page) -> None:
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_label("Username")).to_be_visible()


def alex_deletes_the_memory(page: Page, server: Server) -> None:
    log_in(page, server, "alex", "demo-alex")
    expect(memory_card(page)).to_have_count(1)
    memory_menu(page, CONTENT, "Delete")
    expect(memory_card(page)).to_have_count(0)
    log_out(page)


def open_tab(page: Page, name: str) -> None:
    page.get_by_role("tab", name=name).click()


def no_violations(page: Page, where: str) -> None:
    page.mouse.move(0, 0)  # no hover highlight left on the button just clicked
    found = axe_violations(page)
    assert found == [], f"{where}: {found}"


def close_dialog(page: Page) -> None:
    page.get_by_role("dialog").get_by_role("button", name="Close").click()
    expect(page.get_by_role("dialog")).to_have_count(0)


def archive_long_ago(server: Server, content: str) -> None:
    """Something for the clean-up to remove, so that its dialog can be opened (test data, written directly)."""
    engine = make_engine(server.database_url)
    try:
        with unit_of_work(engine) as session:
            memory = session.scalar(select(Memory).where(Memory.content == content))
            assert memory is not None
            memory.status, memory.archived_at = MemoryStatus.ARCHIVED, utcnow() - timedelta(days=120)
    finally:
        engine.dispose()


def check_deleted_tab(page: Page, where: str) -> None:
    card = page.locator(".q-card", has_text="Owns a dog that joins easy runs")
    expect(card).to_be_visible()
    no_violations(page, where)
    card.get_by_role("button", name="Restore: Owns a dog that joins easy runs").click()
    expect(page.get_by_role("dialog").get_by_text("Restore this memory?")).to_be_visible()
    no_violations(page, f"{where}, restore dialog")
    close_dialog(page)
    card.get_by_role("button", name="Delete permanently: Owns a dog that joins easy runs").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Athlete's username").fill("sam")
    dialog.get_by_role("button", name="Delete permanently").click()
    expect(dialog.get_by_text("Type the athlete's username (alex) to confirm.")).to_be_visible()  # at the field
    no_violations(page, f"{where}, delete dialog with its error")
    close_dialog(page)
    page.get_by_role("button", name="Deleted from: choose a date").click()
    expect(page.locator(".q-date")).to_be_visible()
    no_violations(page, f"{where}, date picker")
    page.keyboard.press("Escape")
    expect(page.locator(".q-date")).to_have_count(0)


def check_audit_tab(page: Page, where: str) -> None:
    expect(page.get_by_text(CHAIN_CHECKED)).to_be_visible()
    no_violations(page, where)
    # The time column fits on one line: each cell's text is laid out as a single line box.
    lines = page.locator("[data-mr-audit] td:first-child, .q-table tbody td:first-child").evaluate_all(
        "cells => cells.map(c => { const r = document.createRange(); r.selectNodeContents(c);"
        " return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; })"
    )
    assert lines
    assert set(lines) == {1}, lines
    page.get_by_role("button", name=re.compile(r"^Open event #")).first.click()
    expect(page.get_by_role("dialog")).to_be_visible()
    no_violations(page, f"{where}, event dialog")
    close_dialog(page)


def check_users_tab(page: Page, where: str) -> None:
    expect(page.get_by_text("Page 1 of 1 · 3 users")).to_be_visible()
    if not page.get_by_label("Initial password").is_visible():  # still open from the light pass
        page.get_by_text("New user").click()
    page.get_by_label("Username", exact=True).fill("alex")
    page.get_by_label("Initial password").fill("long enough")
    page.get_by_role("button", name="Create user").click()
    expect(page.get_by_text("Username: 'alex' is taken.")).to_be_visible()  # at the field
    no_violations(page, where)
    page.get_by_role("button", name="Reset password: sam").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    no_violations(page, f"{where}, reset dialog")
    close_dialog(page)


def check_cleanup_tab(page: Page, where: str) -> None:
    expect(page.get_by_text("Archived memories older than 90 days: 1")).to_be_visible()
    no_violations(page, where)
    page.get_by_role("button", name="Clean up now").click()
    expect(page.get_by_role("dialog").get_by_text("Clean up now?")).to_be_visible()
    no_violations(page, f"{where}, clean-up dialog")
    close_dialog(page)


def check_tokens_tab(page: Page, where: str, token: str) -> None:
    if not page.get_by_label("Token name").is_visible():
        page.get_by_text("New token").click()
    page.get_by_label("Token name").fill(token)
    page.get_by_role("button", name="Create token").click()
    expect(page.get_by_role("dialog").get_by_text("it is not shown again")).to_be_visible()
    no_violations(page, f"{where}, new token dialog")
    page.get_by_role("dialog").get_by_role("button", name="Done").click()
    page.get_by_role("button", name=f"Revoke: {token}").click()
    expect(page.get_by_role("dialog").get_by_text(f"Revoke token '{token}'?")).to_be_visible()
    no_violations(page, f"{where}, revoke dialog")
    close_dialog(page)
    no_violations(page, where)


def check_import_tab(page: Page, where: str, *, first_visit: bool) -> None:
    if first_visit:  # later the athlete chosen then is still chosen
        page.get_by_role("button", name="Import a file").click()
        expect(page.get_by_text("Choose an athlete first.")).to_be_visible()  # at the field
        no_violations(page, where)
        page.get_by_label("Athlete").click()
        page.get_by_role("option", name=re.compile("alex", re.IGNORECASE)).first.click()
    no_violations(page, where)
    page.get_by_role("button", name="Import a file").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("button", name="Choose a file")).to_be_visible()
    no_violations(page, f"{where}, import dialog")
    dialog.locator("input[type=file]").set_input_files(
        files=[{"name": "notes.txt", "mimeType": "text/plain", "buffer": b"- Prefers trail runs on Sundays\n"}]
    )
    expect(dialog.get_by_role("status")).to_contain_text("1")  # the file was read: what it would make
    no_violations(page, f"{where}, import dialog with its file read")
    close_dialog(page)


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


def test_every_admin_tab_and_dialog_passes_axe_in_light_and_dark(page: Page, server: Server) -> None:
    archive_long_ago(server, "Occasional knee soreness")
    log_in(page, server, "admin", "demo-admin")
    expect(page.get_by_text("Admin console")).to_be_visible()
    for mode in ("light", "dark"):
        if mode == "dark":
            page.get_by_role("button", name="Toggle dark mode").click()
            expect(page.locator("body.body--dark")).to_have_count(1)
        for tab, name in (
            ("deleted", "Deleted"),
            ("audit", "Audit log"),
            ("users", "Users"),
            ("cleanup", "Clean-up"),
            ("tokens", "Tokens"),
            ("import", "Import"),
        ):
            open_tab(page, name)
            first = "(\\?tab=deleted)?" if tab == "deleted" else re.escape(f"?tab={tab}")
            expect(page).to_have_url(re.compile(re.escape(f"{server.url}/admin") + first + "$"))  # in the address
            where = f"{name} ({mode})"
            if tab == "deleted":
                check_deleted_tab(page, where)
            elif tab == "audit":
                check_audit_tab(page, where)
            elif tab == "users":
                check_users_tab(page, where)
            elif tab == "cleanup":
                check_cleanup_tab(page, where)
            elif tab == "tokens":
                check_tokens_tab(page, where, token=f"coach-{mode}")
            else:
                check_import_tab(page, where, first_visit=mode == "light")


def test_the_address_opens_its_tab_and_filters_apply_as_they_change(page: Page, server: Server) -> None:
    log_in(page, server, "admin", "demo-admin")
    expect(page.get_by_text("Admin console")).to_be_visible()
    page.goto(f"{server.url}/admin?tab=users")
    expect(page.get_by_role("tab", name="Users")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_text("Page 1 of 1 · 3 users")).to_be_visible()
    page.get_by_role("searchbox", name="Search users").fill("sam")  # no button: it applies as typed
    expect(page.get_by_text("Page 1 of 1 · 1 users")).to_be_visible()
    page.reload()
    expect(page.get_by_role("tab", name="Users")).to_have_attribute("aria-selected", "true")
    open_tab(page, "Deleted")
    page.get_by_role("textbox", name="Deleted from", exact=True).fill("12 Nov 2099")
    expect(page.get_by_text("No deleted memories match.")).to_be_visible()
    page.get_by_role("textbox", name="Deleted from", exact=True).fill("not a date")
    expect(page.get_by_text("Use a date like 12 Nov 2026.")).to_be_visible()


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

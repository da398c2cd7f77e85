"""A double click on a button that opens a dialog opens one dialog, on the admin's pages too.

The two clicks leave the browser before the first dialog covers the button; a second dialog would
open under the first and be left behind when the first is closed (ui.components.dialogs.one_at_a_time).
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, connected, log_in
from tests.e2e.context_locators import dialog


def test_a_double_click_on_reset_password_opens_one_dialog(page: Page, server: Server) -> None:
    log_in(page, server, "admin", "demo-admin")
    expect(page).to_have_url(f"{server.url}/admin")
    page.goto(f"{server.url}/admin?tab=users")
    connected(page)
    page.get_by_role("button", name="Reset password: sam").dblclick()
    expect(dialog(page).first.get_by_label("New password")).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog(page)).to_have_count(0)


def test_a_double_click_on_an_audit_event_opens_one_dialog(page: Page, server: Server) -> None:
    log_in(page, server, "admin", "demo-admin")
    expect(page).to_have_url(f"{server.url}/admin")
    page.goto(f"{server.url}/admin?tab=audit")
    connected(page)
    page.get_by_role("button", name="Open event #").first.dblclick()
    expect(dialog(page).first.get_by_role("heading", name="Event #")).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog(page)).to_have_count(0)

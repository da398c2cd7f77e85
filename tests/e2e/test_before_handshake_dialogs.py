"""A double click on a button that opens a dialog, in real Chromium: both clicks reach the server
before the first one's dialog covers the button, and each used to open a dialog; the second was left
behind, under the first, when that one was closed."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, connected, log_in
from tests.e2e.context_locators import dialog, memory_card


def test_a_double_click_on_a_memorys_edit_opens_one_dialog(page: Page, server: Server) -> None:
    log_in(page, server, "alex", "demo-alex")
    expect(page.get_by_role("heading", name="What your coach remembers")).to_be_visible()
    connected(page)
    memory_card(page, "Occasional knee soreness").get_by_role("button", name="Edit").dblclick()
    expect(dialog(page).first.get_by_label("Content")).to_be_visible()
    page.keyboard.press("Escape")  # closes the dialog on top; none may be left behind it
    expect(dialog(page)).to_have_count(0)

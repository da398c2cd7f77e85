"""A real browser logs in as the demo athlete and sees a demo memory."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, axe_violations, log_in


def test_alex_logs_in_and_sees_a_demo_memory(page: Page, server: Server) -> None:
    page.goto(server.url)
    expect(page).to_have_url(f"{server.url}/login")
    log_in(page, server, "alex", "demo-alex")
    expect(page.get_by_text("Occasional knee soreness", exact=True).first).to_be_visible()
    expect(page.get_by_text("Alex Rivera")).to_be_visible()
    assert axe_violations(page) == []


def test_wrong_password_keeps_the_visitor_out(page: Page, server: Server) -> None:
    log_in(page, server, "alex", "wrong-password")
    expect(page.get_by_role("alert")).to_have_text("Wrong username or password.")
    expect(page).to_have_url(f"{server.url}/login")

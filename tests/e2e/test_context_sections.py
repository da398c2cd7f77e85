"""The Context page's tabs and the sections built when opened, by keyboard in real Chromium (issue 9:
they are plain Quasar elements now): Tab reaches them, Enter opens them, their content shows; and dark
mode, whose element is built when first toggled, kept for the next page."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import Server, log_in


def tab_to(page: Page, target: Locator) -> None:
    """Press Tab until `target` has the focus, as a keyboard user gets there."""
    for _ in range(200):
        page.keyboard.press("Tab")
        if target.evaluate("element => element === document.activeElement"):
            return
    raise AssertionError("Tab never reached it")


def header(section: Locator) -> Locator:
    """A section's header: the one control that opens and closes it."""
    return section.locator(".q-expansion-item .q-item").first


def test_sections_and_tabs_open_from_the_keyboard(page: Page, server: Server) -> None:
    log_in(page, server, "alex", "demo-alex")
    coach = page.get_by_role("region", name="What my coach sees")
    learned = page.get_by_role("region", name="Learned per week")
    expect(learned).to_be_visible()
    expect(coach.get_by_text("Recent reads by your coach")).to_have_count(0)  # built when first opened
    expect(learned.get_by_text(re.compile("memories learned in the last"))).to_have_count(0)

    tab_to(page, header(coach))  # from the top of the page: the coach's panel comes first
    page.keyboard.press("Enter")
    expect(coach.get_by_text("Recent reads by your coach")).to_be_visible()
    expect(coach.get_by_label("Try a question your coach might ask")).to_be_visible()

    tab_to(page, header(learned))  # on past the list
    page.keyboard.press("Enter")
    expect(learned.get_by_text(re.compile(r"\d+ memories learned in the last \d+ weeks"))).to_be_visible()
    expect(learned.locator(".mr-chart")).to_be_visible()

    review = page.get_by_role("tab", name=re.compile("To review"))
    review.focus()
    page.keyboard.press("Enter")
    expect(review).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("region", name="To review").locator(".mr-proposal").first).to_be_visible()
    expect(page).to_have_url(re.compile(r"view=review"))


def test_dark_mode_toggles_and_the_next_page_keeps_it(page: Page, server: Server) -> None:
    log_in(page, server, "alex", "demo-alex")
    expect(page.locator("body.body--dark")).to_have_count(0)
    toggle = page.get_by_role("button", name="Toggle dark mode")
    toggle.click()
    expect(page.locator("body.body--dark")).to_have_count(1)
    page.goto(f"{server.url}/account")
    expect(page.get_by_role("heading", name="Your account")).to_be_visible()
    expect(page.locator("body.body--dark")).to_have_count(1)
    page.get_by_role("button", name="Toggle dark mode").click()
    expect(page.locator("body.body--dark")).to_have_count(0)
    page.goto(f"{server.url}/")
    expect(page.get_by_role("tab", name=re.compile("Memories"))).to_be_visible()
    expect(page.locator("body.body--dark")).to_have_count(0)

"""'What my coach sees' in real Chromium: the block, hiding a memory takes it out of the block, a read
in the log opens its memory; axe-core on the open panel."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import Server, axe_violations, log_in
from tests.e2e.context_locators import dialog, memory_card, memory_menu
from tests.ui.context_support import database, memory_by_content
from tests.ui.test_coach_panel import add_read, coach_token

NURSE = "Works as a nurse on rotating shifts"
KNEE = "Occasional knee soreness"


def coach_panel(page: Page) -> Locator:
    return page.get_by_role("region", name="What my coach sees")


def test_alex_sees_what_the_coach_sees_and_hides_a_memory_from_it(page: Page, server: Server) -> None:
    with database(server.database_url) as engine:
        knee = memory_by_content(engine, "alex", KNEE)
        nurse = memory_by_content(engine, "alex", NURSE)
        add_read(engine, coach_token(engine), [knee.id, nurse.id], query="knee pain", days_ago=1)
    log_in(page, server, "alex", "demo-alex")
    expect(page.get_by_role("heading", name="What your coach remembers")).to_be_visible()

    panel = coach_panel(page)
    panel.get_by_text("What my coach sees", exact=True).click()
    block = panel.get_by_label("The memory block your coach gets")
    expect(block).to_contain_text("MEMORY:")
    expect(block).to_contain_text(NURSE)
    expect(panel).to_contain_text("of 174 tokens used")
    expect(panel).to_contain_text("by josi-coach")
    expect(panel).to_contain_text("Asked about “knee pain”")
    expect(memory_card(page, KNEE)).to_contain_text("Used by your coach 1 time, last 1 day ago")
    assert axe_violations(page) == []

    # A question changes the block.
    panel.get_by_label("Try a question your coach might ask").fill("knee pain")
    expect(block).to_contain_text(KNEE)
    panel.get_by_label("Try a question your coach might ask").fill("")
    expect(block).not_to_contain_text(KNEE)

    # Hide a memory: it stays on the page, marked, and leaves the block.
    card = memory_card(page, NURSE)
    memory_menu(page, NURSE, "Hide from coach")
    expect(card).to_contain_text("Hidden from your coach")
    expect(block).not_to_contain_text(NURSE)
    expect(block).to_contain_text("MEMORY:")
    assert axe_violations(page) == []

    # The read log's memory opens that memory.
    panel.get_by_role("button", name=KNEE).click()
    expect(dialog(page).get_by_text(KNEE).first).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog(page)).to_have_count(0)

    # Show it again: back in the block.
    memory_menu(page, NURSE, "Show to coach")
    expect(card).not_to_contain_text("Hidden from your coach")
    expect(block).to_contain_text(NURSE)

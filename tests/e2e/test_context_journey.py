"""The Context page in real Chromium: review, add, edit, delete and undo, search; axe-core; phone width."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import Server, axe_violations, log_in
from tests.e2e.context_locators import dialog, memories, memory_card, memory_menu, open_view, proposal_card
from tests.ui.context_support import NEW, SEEN_BEFORE, UNSAFE, add_proposals, database

PHONE = {"width": 390, "height": 844}


def open_context(page: Page, server: Server) -> None:
    log_in(page, server, "alex", "demo-alex")
    expect(page.get_by_role("heading", name="What your coach remembers")).to_be_visible()


def test_alex_reviews_adds_edits_deletes_undoes_and_searches(page: Page, server: Server) -> None:
    with database(server.database_url) as engine:
        add_proposals(engine, "alex", [NEW, UNSAFE, SEEN_BEFORE])
    open_context(page, server)
    open_view(page, "To review")
    expect(page).to_have_url(re.compile(r"view=review"))
    expect(proposal_card(page, NEW.content)).to_be_visible()
    expect(proposal_card(page, UNSAFE.content).locator("mark")).to_have_text("<script>alert(1)</script>")
    expect(proposal_card(page, SEEN_BEFORE.content).first).to_contain_text("seen before — will count again (3×)")
    assert axe_violations(page) == []

    # Confirm one proposal, reject another.
    proposal_card(page, NEW.content).get_by_role("button", name="Confirm").click()
    expect(proposal_card(page, NEW.content)).to_have_count(0)
    proposal_card(page, UNSAFE.content).get_by_role("button", name="Reject").click()
    expect(proposal_card(page, UNSAFE.content)).to_have_count(0)
    expect(page.get_by_role("region", name="To review").get_by_text(UNSAFE.content)).to_have_count(0)
    open_view(page, "Memories")
    expect(memory_card(page, NEW.content)).to_be_visible()

    # Add a memory, with the keyboard: Tab/Enter reach the button; Escape closes the dialog.
    page.get_by_role("button", name="Add memory").focus()
    page.keyboard.press("Enter")
    expect(dialog(page)).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog(page)).to_have_count(0)
    page.get_by_role("button", name="Add memory").click()
    dialog(page).get_by_label("Content").fill("Runs with a club on Tuesdays")
    dialog(page).get_by_role("button", name="Save").click()
    expect(dialog(page).get_by_text("Type: choose one.")).to_be_visible()
    dialog(page).get_by_label("Type").click()
    page.get_by_role("option", name="Context").click()
    dialog(page).get_by_label("Tags").fill("context:club")
    expect(page.locator(".q-menu")).to_have_count(0)  # the options list has closed
    assert axe_violations(page) == []
    dialog(page).get_by_role("button", name="Save").click()
    expect(dialog(page)).to_have_count(0)
    card = memory_card(page, "Runs with a club on Tuesdays")
    expect(card).to_contain_text("Added by you")
    expect(card).to_contain_text("Club")  # the tag context:club, in words
    expect(card).not_to_contain_text("context:club")

    # Edit it.
    card.get_by_role("button", name="Edit").click()
    dialog(page).get_by_label("Content").fill("Runs with a club on Tuesdays and Thursdays")
    dialog(page).get_by_role("button", name="Save").click()
    expect(dialog(page)).to_have_count(0)
    edited = memory_card(page, "Runs with a club on Tuesdays and Thursdays")
    expect(edited).to_be_visible()

    # Delete and undo, then delete again: gone after a reload.
    memory_menu(page, "Runs with a club on Tuesdays and Thursdays", "Delete")
    expect(edited).to_have_count(0)
    page.get_by_role("button", name="Undo").click()
    expect(edited).to_be_visible()
    memory_menu(page, "Runs with a club on Tuesdays and Thursdays", "Delete")
    expect(edited).to_have_count(0)
    expect(page.get_by_role("button", name="Undo")).to_be_visible()
    page.reload()
    expect(memories(page).get_by_text("Occasional knee soreness")).to_be_visible()
    expect(page.get_by_text("Runs with a club on Tuesdays and Thursdays")).to_have_count(0)

    # Search.
    page.get_by_label("Search memories").fill("knee")
    expect(memories(page).get_by_text("Prefers morning runs")).to_have_count(0)
    expect(memories(page).get_by_text("Occasional knee soreness")).to_be_visible()
    expect(memories(page).get_by_text("Knee complaints cluster after runs longer than 18 km")).to_be_visible()
    expect(memories(page).get_by_text(re.compile(r"^Injury history \(1\)$"))).to_be_visible()

    # History as a dialog with versions; Escape closes it.
    memory_menu(page, "Occasional knee soreness", "History")
    expect(dialog(page).get_by_text("Imported")).to_be_visible()
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    expect(dialog(page)).to_have_count(0)


def test_context_page_at_phone_width(browser: Browser, server: Server) -> None:
    with database(server.database_url) as engine:
        add_proposals(engine, "alex", [NEW])
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        open_context(page, server)
        open_view(page, "To review")
        expect(proposal_card(page, NEW.content)).to_be_visible()
        proposal_card(page, NEW.content).get_by_role("button", name="Confirm").click()
        expect(proposal_card(page, NEW.content)).to_have_count(0)
        open_view(page, "Memories")
        expect(memory_card(page, NEW.content)).to_be_visible()
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page scrolls sideways by {overflow}px at 390 px"
        page.get_by_role("button", name="Toggle dark mode").click()
        expect(page.locator("body.body--dark")).to_have_count(1)
        assert axe_violations(page) == []
    finally:
        context.close()

"""The review side of issue 11 in real Chromium, each journey at 1280 px and at 390 px: Add memory
with a suggested type, reject and Undo, confirm and Undo, reviewing a proposal with the keyboard alone
(focus moves on), axe-core on the open proposal editor."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, axe_violations, log_in
from tests.e2e.context_locators import dialog, memory_card, proposal_card
from tests.ui.context_support import NEW, REPLACES, add_proposals, database


@pytest.fixture
def page(sized_page: Page) -> Page:
    """Each journey at both widths (this module's `page`, in place of the conftest's 1280 px one)."""
    return sized_page


def open_review(page: Page, server: Server) -> None:
    log_in(page, server, "alex", "demo-alex")
    expect(page.get_by_role("heading", name="What your coach remembers")).to_be_visible()
    page.goto(f"{server.url}/?view=review")
    expect(page.get_by_text("To review").first).to_be_visible()


def test_add_memory_takes_the_suggested_type(page: Page, server: Server) -> None:
    log_in(page, server, "alex", "demo-alex")
    page.get_by_role("button", name="Add memory").click()
    dialog(page).get_by_label("Content").fill("Left knee hurts after long runs")
    expect(dialog(page).get_by_text("Suggested from your text")).to_be_visible()
    expect(dialog(page).get_by_text("Injury history")).to_be_visible()  # preselected in Type
    dialog(page).get_by_role("button", name="Add tag Knee").click()
    tags = dialog(page).get_by_label("Tags")
    tags.fill("long runs")  # plain words: the tag they mean, shown as words
    tags.press("Enter")
    expect(dialog(page).get_by_text("Long runs", exact=True)).to_be_visible()
    expect(dialog(page).get_by_text("Knee", exact=True)).to_be_visible()
    expect(dialog(page).get_by_text("body:knee")).to_have_count(0)
    dialog(page).get_by_role("button", name="Save").click()
    expect(dialog(page)).to_have_count(0)
    page.goto(f"{server.url}/?view=memories")
    card = memory_card(page, "Left knee hurts after long runs")
    expect(card).to_contain_text("Injury history")
    expect(card).to_contain_text("Knee, Long runs")


def test_reject_then_undo_brings_the_proposal_back(page: Page, server: Server) -> None:
    with database(server.database_url) as engine:
        add_proposals(engine, "alex", [NEW])
    open_review(page, server)
    proposal_card(page, NEW.content).get_by_role("button", name="Reject").click()
    expect(proposal_card(page, NEW.content)).to_have_count(0)
    page.get_by_role("button", name="Undo").click()
    expect(proposal_card(page, NEW.content)).to_be_visible()
    expect(proposal_card(page, NEW.content).get_by_role("checkbox")).to_have_accessible_name(
        f"Select proposal: {NEW.content}"
    )


def test_confirm_then_undo_brings_back_the_memory_it_replaced(page: Page, server: Server) -> None:
    with database(server.database_url) as engine:
        add_proposals(engine, "alex", [REPLACES])
    open_review(page, server)
    proposal_card(page, REPLACES.content).get_by_role("button", name="Confirm").click()
    expect(proposal_card(page, REPLACES.content)).to_have_count(0)
    expect(page.get_by_role("status").filter(has_text="Confirmed:")).to_be_visible()
    page.get_by_role("button", name="Undo").click()
    expect(proposal_card(page, REPLACES.content)).to_be_visible()
    expect(proposal_card(page, REPLACES.content)).to_contain_text("Occasional knee soreness")  # will replace it again
    page.goto(f"{server.url}/?view=memories")
    expect(memory_card(page, "Occasional knee soreness")).to_be_visible()
    expect(memory_card(page, REPLACES.content)).to_have_count(0)


def test_keyboard_only_review_moves_focus_to_the_next_proposal(page: Page, server: Server) -> None:
    with database(server.database_url) as engine:
        add_proposals(engine, "alex", [NEW, REPLACES])  # NEW shown first, REPLACES next
    open_review(page, server)
    first = proposal_card(page, NEW.content)
    expect(first).to_be_visible()
    first.get_by_role("checkbox").focus()
    page.keyboard.press("Tab")  # from the card's checkbox on: Keep both (none here), then Confirm
    while not page.evaluate("() => document.activeElement?.textContent?.includes('Confirm')"):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(first).to_have_count(0)
    following = proposal_card(page, REPLACES.content)
    expect(following.get_by_role("button", name="Confirm")).to_be_focused()
    page.keyboard.press("Enter")
    expect(following).to_have_count(0)


def test_the_open_proposal_editor_passes_axe_and_previews_as_typed(page: Page, server: Server) -> None:
    with database(server.database_url) as engine:
        add_proposals(engine, "alex", [REPLACES])
    open_review(page, server)
    proposal_card(page, REPLACES.content).get_by_role("button", name="Edit").click()
    expect(dialog(page)).to_be_visible()
    expect(dialog(page)).to_contain_text("replaces: 'Occasional knee soreness'")
    assert axe_violations(page) == []
    dialog(page).get_by_label("Content").fill("Prefers morning runs")
    dialog(page).get_by_label("Type").click()
    page.get_by_role("option", name="Preference").click()
    expect(page.locator(".q-menu")).to_have_count(0)  # the options list has closed
    expect(dialog(page)).to_contain_text("seen before — will count again")
    assert axe_violations(page) == []

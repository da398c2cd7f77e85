"""Everyday journeys of issue 11 in real Chromium, at 1280 px and at 390 px: merging two near
duplicates, and bringing back a deleted memory from Recently deleted; axe-core on the merge dialog
and on the account page."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, axe_violations, log_in
from tests.e2e.context_locators import dialog, memories, memory_card, memory_menu

NURSE = "Works as a nurse on rotating shifts"
NIGHTS = "Sleeps poorly after night shifts"


def no_sideways_scroll(page: Page) -> None:
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"


def test_merge_two_memories_keeping_the_wording_the_athlete_chose(sized_page: Page, server: Server) -> None:
    page = sized_page
    log_in(page, server, "alex", "demo-alex")
    memories(page).get_by_role("button", name="Select").click()
    memories(page).get_by_role("checkbox", name=f"Select: {NURSE}").click()
    memories(page).get_by_role("checkbox", name=f"Select: {NIGHTS}").click()
    memories(page).get_by_role("button", name="Merge").click()
    expect(dialog(page).get_by_text("Merge two memories")).to_be_visible()
    assert axe_violations(page) == []
    no_sideways_scroll(page)
    dialog(page).get_by_label("Wording to keep").fill("Works night shifts as a nurse and sleeps poorly after them")
    dialog(page).get_by_role("button", name="Merge").click()
    expect(dialog(page)).to_have_count(0)
    merged = memory_card(page, "Works night shifts as a nurse and sleeps poorly after them")
    expect(merged).to_be_visible()
    expect(memory_card(page, NURSE)).to_have_count(0)
    expect(memory_card(page, NIGHTS)).to_have_count(0)
    memory_menu(page, "Works night shifts as a nurse and sleeps poorly after them", "History")
    expect(dialog(page).get_by_text("Merged with another memory").first).to_be_visible()


def test_a_deleted_memory_comes_back_from_recently_deleted(sized_page: Page, server: Server) -> None:
    page = sized_page
    log_in(page, server, "alex", "demo-alex")
    memory_menu(page, NURSE, "Delete")
    expect(memory_card(page, NURSE)).to_have_count(0)
    page.get_by_role("button", name="Your account").click()
    expect(page.get_by_text("Recently deleted", exact=True)).to_be_visible()
    restore = page.get_by_role("button", name=f"Restore: {NURSE}")
    expect(restore).to_be_visible()
    assert axe_violations(page) == []
    no_sideways_scroll(page)
    restore.click()
    expect(page.get_by_text(f"Restored '{NURSE}'")).to_be_visible()
    expect(restore).to_have_count(0)
    page.get_by_role("link", name="← Back to your memory").click()
    expect(memory_card(page, NURSE)).to_be_visible()


def test_a_typed_tag_is_shown_as_typed_never_compiled_or_rendered(sized_page: Page, server: Server) -> None:
    page = sized_page
    log_in(page, server, "alex", "demo-alex")
    page.get_by_role("button", name="Add memory").click()
    hostile = "{{ 7*7 }}</q-chip><b>bold</b>"
    tags = dialog(page).get_by_label("Tags")
    chips = dialog(page).locator(".mr-tag-chip .q-chip__content")
    tags.fill(hostile)
    tags.press("Enter")
    # as a person does: the first chip is there before the next tag is typed (under CI load, typing on at
    # once lost a chip once in 2 workers; see the closing note of 2026-11-24)
    expect(chips).to_have_count(1)
    tags.fill("hotel gyms")  # plain words: a tag of their own, shown in words
    tags.press("Enter")
    expect(chips).to_have_count(2)
    expect(chips.first).to_have_text(hostile)
    expect(chips.nth(1)).to_have_text("Hotel gyms")
    expect(dialog(page).locator("b")).to_have_count(0)
    expect(dialog(page).get_by_text("49", exact=True)).to_have_count(0)

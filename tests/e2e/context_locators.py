"""Where things are on the Context page in real Chromium (shared by the e2e tests; no tests here)."""

from __future__ import annotations

from playwright.sync_api import Locator, Page


def proposal_card(page: Page, content: str) -> Locator:
    return page.locator(".mr-proposal").filter(has=page.get_by_text(content, exact=True))


def memory_card(page: Page, content: str) -> Locator:
    return memories(page).locator(".mr-memory").filter(has=page.get_by_text(content, exact=True))


def memories(page: Page) -> Locator:
    return page.get_by_role("region", name="Memories")


def dialog(page: Page) -> Locator:
    return page.get_by_role("dialog")


def memory_menu(page: Page, content: str, item: str) -> None:
    """Pick `item` from a memory's "more" menu (History, Hide from coach, Show to coach, Delete)."""
    memory_card(page, content).get_by_role("button", name="More actions for").click()
    page.locator(".q-menu").get_by_text(item, exact=True).click()


def open_view(page: Page, name: str) -> None:
    """Switch to the 'To review' or 'Memories' tab."""
    page.get_by_role("tab", name=name).click()

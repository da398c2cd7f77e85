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

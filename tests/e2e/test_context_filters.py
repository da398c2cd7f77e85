"""The Context page's filter fields and first-screen text in real Chromium: Source, Confidence and
Sort by are one element drawn in the browser (ui/components/filter_controls.py) and work the first
time they are opened; text anyone typed (a display name, a memory) reaches the page as escaped JSON
(ui/components/page_json.py) and reads back exactly as typed."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from sqlalchemy import select

from domain import memories as memories_service
from domain.actors import SYSTEM
from domain.enums import MemoryType, Role
from domain.models import User
from domain.schemas import MemoryCreate, parse
from domain.users import create_user
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.e2e.conftest import Server, axe_violations, log_in
from tests.e2e.context_locators import memories

MANUAL = "Keeps long runs on Sunday mornings"  # alex's memory added by hand
NOT_MANUAL = "Prefers morning runs"
NAME = "Zoë “Ø” <b>bold</b> ${x} `y` &amp;"
STATEMENT = "Runs 10 km · 5× a week — café ${1+1} `x` </script><i>not italic</i> & more"


def rows(page: Page) -> list[str]:
    return memories(page).locator(".mr-memory .mr-memory-text").all_inner_texts()


def test_source_confidence_and_sort_work_the_first_time_and_clear_filters_empties_them(
    page: Page, server: Server
) -> None:
    log_in(page, server, "alex", "demo-alex")
    expect(memories(page).locator(".mr-memory")).to_have_count(17)
    fields = memories(page).locator(".mr-filters")

    memories(page).get_by_label("Source").click()  # the first time it is opened
    expect(page.get_by_role("option", name="Added by you")).to_be_visible()
    page.get_by_role("option", name="Added by you").click()
    page.keyboard.press("Escape")
    expect(memories(page).get_by_text(NOT_MANUAL, exact=True)).to_have_count(0)
    assert MANUAL in rows(page)
    expect(fields.get_by_text("Added by you", exact=True)).to_be_visible()  # the field shows its choice

    manual = sorted(rows(page), key=str.lower)
    memories(page).get_by_label("Sort by").click()
    page.get_by_role("option", name="A–Z").click()
    expect(memories(page).locator(".mr-memory .mr-memory-text")).to_have_text(manual)  # in that order

    memories(page).get_by_label("Confidence").click()
    page.get_by_role("option", name="Low confidence").click()
    page.keyboard.press("Escape")
    expect(memories(page).get_by_text("No memories match your search or filters.")).to_be_visible()
    memories(page).get_by_role("button", name="Clear filters").click()
    expect(memories(page).locator(".mr-memory")).to_have_count(17)
    expect(fields.get_by_text("Added by you", exact=True)).to_have_count(0)  # the fields are empty again
    expect(fields.get_by_text("Low confidence", exact=True)).to_have_count(0)
    expect(fields.get_by_text("A–Z", exact=True)).to_be_visible()  # the sort is not a filter: it stays
    expect(page.locator(".q-menu")).to_have_count(0)  # no options list left open for axe to read
    assert axe_violations(page) == []


def test_a_name_and_a_memory_in_any_characters_read_exactly_as_typed(page: Page, server: Server) -> None:
    engine = make_engine(server.database_url)
    try:
        with unit_of_work(engine) as session:
            create_user(session, SYSTEM, username="zoe", password="long enough!", role=Role.ATHLETE, display_name=NAME)
        with unit_of_work(engine) as session:
            zoe = session.scalars(select(User).where(User.username == "zoe")).one()
            data = parse(MemoryCreate, content=STATEMENT, type=MemoryType.PREFERENCE)
            memories_service.add_memory(session, zoe, data=data)
    finally:
        engine.dispose()
    log_in(page, server, "zoe", "long enough!")
    expect(memories(page).locator(".mr-memory")).to_have_count(1)
    assert rows(page) == [STATEMENT]
    expect(page.locator(".mr-user")).to_have_text(NAME)
    assert page.locator(".mr-user b, .mr-memory-text i").count() == 0  # markup stays text

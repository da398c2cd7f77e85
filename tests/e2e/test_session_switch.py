"""An old tab never acts for whoever logs in next in the same browser."""

from __future__ import annotations

from playwright.sync_api import Browser, expect
from sqlalchemy import select

from domain.enums import MemoryStatus
from domain.models import Memory
from domain.visibility import with_inactive
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.e2e.conftest import Server, log_in
from tests.e2e.context_locators import memory_card, memory_menu

CONTENT = "Works as a nurse on rotating shifts"


def test_an_old_tab_cannot_delete_after_another_athlete_logs_in(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    alex_tab = context.new_page()
    log_in(alex_tab, server, "alex", "demo-alex")
    card = memory_card(alex_tab, CONTENT)
    expect(card).to_be_visible()

    other_tab = context.new_page()
    other_tab.goto(server.url)
    other_tab.get_by_role("button", name="Log out").click()
    expect(other_tab.get_by_label("Username")).to_be_visible()
    log_in(other_tab, server, "sam", "demo-sam")
    expect(other_tab.get_by_text("Travels for work most weeks", exact=True).first).to_be_visible()

    memory_menu(alex_tab, CONTENT, "Delete")
    # The old tab is sent away and, since this browser is now sam's, lands on sam's page.
    expect(alex_tab.get_by_text("Travels for work most weeks", exact=True).first).to_be_visible()
    expect(alex_tab.get_by_text(CONTENT, exact=True)).to_have_count(0)
    engine = make_engine(server.database_url)
    with unit_of_work(engine, read_only=True) as session:
        memory = session.scalars(
            select(Memory).where(Memory.content == CONTENT).execution_options(**with_inactive())
        ).one()
    engine.dispose()
    assert memory.status == MemoryStatus.ACTIVE
    context.close()

"""Hostile inputs shown back in a real browser (issue 14): every line of tests/data/hostile_inputs.txt that
the rules accept is stored as alex's memory, a tag, an admin's reason or a display name, then shown on
the Context page, in a memory's History, and in the admin's audit log and its event diff. No dialog
opens, no element is injected, nothing runs, and markup reads back as the text that was typed.

Storage and refusal of each input on SQLite and PostgreSQL are tests/integration/test_hostile_inputs.py;
this is the rendering, on the e2e server's SQLite database."""

from __future__ import annotations

import re

from playwright.sync_api import Dialog, Page, expect
from sqlalchemy import select

from domain import memories
from domain.actors import SYSTEM
from domain.enums import MemoryType, Role
from domain.errors import DomainError
from domain.models import User
from domain.schemas import MemoryCreate, parse
from domain.users import create_user
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.e2e.conftest import Server, log_in
from tests.e2e.context_locators import memories as memories_region
from tests.e2e.context_locators import open_view
from tests.hostile import hostile_inputs

# Anything a stored input could have turned into, anywhere in the page's body.
INJECTED = (
    "script:not([src]):not([type]), iframe, object, embed, img[onerror], svg[onload], [onmouseover], "
    "[onclick]:not(button), a[href^='javascript' i]"
)
MARKUP = "<script>alert('xss')</script>"


def _stored(server: Server) -> tuple[list[str], int]:
    """Store what the rules accept; the accepted contents, and how many display names were taken."""
    engine = make_engine(server.database_url)
    accepted: list[str] = []
    names = 0
    try:
        for number, hostile in enumerate(hostile_inputs()):
            text = hostile.text[:300]
            try:  # one transaction each: a refused input leaves nothing behind
                with unit_of_work(engine) as session:
                    alex = session.scalars(select(User).where(User.username == "alex")).one()
                    data = parse(MemoryCreate, content=f"{number}: {text}", type=MemoryType.PREFERENCE)
                    accepted.append(memories.add_memory(session, alex, data=data).content)
            except DomainError:
                pass  # refused with a message: the integration tests check which and why
            try:
                with unit_of_work(engine) as session:
                    create_user(
                        session,
                        SYSTEM,
                        username=f"h{number}",
                        password="long enough!",
                        role=Role.ATHLETE,
                        display_name=text[:80],
                    )
                    names += 1
            except DomainError:
                pass
    finally:
        engine.dispose()
    return accepted, names


def _no_harm(page: Page, dialogs: list[str], where: str) -> None:
    assert dialogs == [], f"{where}: a dialog opened: {dialogs}"
    found = page.evaluate(
        f"() => [...document.body.querySelectorAll({INJECTED!r})].map(e => e.outerHTML.slice(0, 120))"
    )
    assert found == [], f"{where}: injected elements {found}"
    assert page.evaluate("() => typeof window.__pwned") == "undefined"
    styles = "() => [...document.querySelectorAll('style')].some(s => s.textContent.includes('body{display:none}'))"
    assert page.evaluate(styles) is False, f"{where}: a typed stylesheet took effect"


def _show_all(page: Page) -> None:
    """Press "Show more" until every memory is shown, each press once its rows have come (a fixed pause
    after it let a slow answer be pressed for again, or the list be read before the next page came)."""
    rows = memories_region(page).locator(".mr-memory")
    expect(rows.first).to_be_visible()
    more = page.get_by_role("button", name=re.compile(r"^Show more \(\d+ more\)$"))
    for _ in range(20):
        if not more.is_visible():
            return
        shown = rows.count()
        more.click()
        expect(rows).not_to_have_count(shown)
    raise AssertionError("still more to show after 20 presses of Show more")


def test_hostile_inputs_render_as_text_everywhere(page: Page, server: Server) -> None:
    accepted, names = _stored(server)
    assert len(accepted) >= 40 and names >= 20  # most lines are ordinary text to the rules
    dialogs: list[str] = []

    def opened(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", opened)

    log_in(page, server, "alex", "demo-alex")
    open_view(page, "Memories")
    _show_all(page)
    markup = next(content for content in accepted if MARKUP in content)
    expect(page.get_by_text(markup, exact=True)).to_be_visible()  # the markup, as the text typed
    _no_harm(page, dialogs, "Context page")

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_label("Username")).to_be_visible()
    log_in(page, server, "admin", "demo-admin")
    page.wait_for_url(re.compile(r"/admin"))
    page.goto(f"{server.url}/admin?tab=audit")
    expect(page.get_by_text("Audit chain verified", exact=False)).to_be_visible(timeout=30_000)
    _no_harm(page, dialogs, "audit log")
    page.get_by_role("button", name="Open event #").first.click()
    expect(page.get_by_role("dialog")).to_be_visible()
    _no_harm(page, dialogs, "audit event diff")
    page.goto(f"{server.url}/admin?tab=users")
    expect(page.get_by_text("users", exact=False).first).to_be_visible()
    _no_harm(page, dialogs, "users tab")


QUOTED = 'x" innerHTML="<img src=x onerror=alert(document.domain)>'


def test_a_deleted_memory_with_a_quote_is_named_as_text_on_the_account_page(page: Page, server: Server) -> None:
    """Recently deleted puts a memory's text in its Restore button's accessible name: a quote there once ended
    that value and the rest became a property of the button (innerHTML, running script)."""
    engine = make_engine(server.database_url)
    try:
        with unit_of_work(engine) as session:
            alex = session.scalars(select(User).where(User.username == "alex")).one()
            data = parse(MemoryCreate, content=QUOTED, type=MemoryType.PREFERENCE)
            memory = memories.add_memory(session, alex, data=data)
            stored = memory.content  # as the rules keep it (a first letter may be capitalised)
        with unit_of_work(engine) as session:
            alex = session.scalars(select(User).where(User.username == "alex")).one()
            memories.delete_memory(session, alex, memory_id=memory.id)
    finally:
        engine.dispose()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    log_in(page, server, "alex", "demo-alex")
    expect(page.get_by_role("button", name="Log out")).to_be_visible()  # logged in
    page.goto(f"{server.url}/account")
    assert '" innerHTML="' in stored
    expect(page.get_by_text(stored, exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=f"Restore: {stored}")).to_be_visible()
    _no_harm(page, dialogs, "account page")

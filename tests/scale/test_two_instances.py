"""Two instances on one PostgreSQL database and one Redis: what one writes the other shows, a
concurrent edit never overwrites silently, a login holds on both, and HAProxy keeps a browser on
its instance (pages and NiceGUI's WebSocket alike)."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import func, select

from domain import memories
from domain.enums import AuditAction, AuditTarget, MemoryType
from domain.memory_writes import CONFLICT_MESSAGE
from domain.models import AuditEvent, Memory, User
from domain.schemas import MemoryCreate
from persistence.uow import unit_of_work
from tests.e2e.context_locators import dialog, memory_card
from tests.scale.cluster import Cluster
from tests.scale.conftest import NewPage, log_in

# One cluster per module (the `pair` fixture): `make test` runs with --dist loadgroup, so the module
# stays on one worker while the desktop tests, unmarked, spread over both.
pytestmark = pytest.mark.xdist_group("two_instances")


def unique(text: str) -> str:
    return f"{text} ({uuid.uuid4().int % 100_000})"


def add_through_dialog(page: Page, content: str) -> None:
    page.get_by_role("button", name="Add memory").click()
    dialog(page).get_by_label("Content").fill(content)
    dialog(page).get_by_label("Type").click()
    page.get_by_role("option", name="Context").click()
    dialog(page).get_by_role("button", name="Save").click()
    expect(dialog(page)).to_have_count(0)
    expect(memory_card(page, content)).to_be_visible()


def add_directly(cluster: Cluster, content: str) -> Memory:
    with unit_of_work(cluster.engine) as session:
        alex = session.scalars(select(User).where(User.username == "alex")).one()
        return memories.add_memory(session, alex, data=MemoryCreate(content=content, type=MemoryType.CONTEXT))


def stored(cluster: Cluster, memory_id: int) -> tuple[Memory, int]:
    """The memory as committed, and how many edit events it has."""
    with unit_of_work(cluster.engine, read_only=True) as session:
        memory = session.get(Memory, memory_id)
        edits = session.scalar(
            select(func.count())
            .select_from(AuditEvent)
            .where(
                AuditEvent.target_type == AuditTarget.MEMORY,
                AuditEvent.target_id == memory_id,
                AuditEvent.action == AuditAction.EDIT,
            )
        )
    assert memory is not None
    return memory, int(edits or 0)


def test_a_memory_added_through_one_instance_is_seen_through_the_other(pair: Cluster, new_page: NewPage) -> None:
    first, second = pair.instances
    page_a, page_b = new_page(), new_page()
    log_in(page_a, first.url)
    log_in(page_b, second.url)
    content = unique("Swims with the masters group on Fridays")
    add_through_dialog(page_a, content)
    page_b.reload()
    expect(memory_card(page_b, content)).to_be_visible()


def test_one_memory_edited_through_both_instances_at_once_saves_once_and_shows_the_other_a_conflict(
    pair: Cluster, new_page: NewPage
) -> None:
    content = unique("Commutes to work by bike")
    memory = add_directly(pair, content)
    pages: dict[str, Page] = {}
    texts: dict[str, str] = {}
    for instance in pair.instances:
        page = pages[instance.name] = new_page()
        log_in(page, instance.url)
        memory_card(page, content).get_by_role("button", name="Edit").click()
        texts[instance.name] = f"{content}, edited through {instance.name}"
        dialog(page).get_by_label("Content").fill(texts[instance.name])
    for page in pages.values():  # both saves are sent before either answer comes back
        dialog(page).get_by_role("button", name="Save").click()

    conflicted = []
    for name, page in pages.items():
        expect(dialog(page).get_by_text(CONFLICT_MESSAGE).or_(page.get_by_text("Memory saved."))).to_be_visible()
        if dialog(page).get_by_text(CONFLICT_MESSAGE).count():
            conflicted.append(name)
    assert len(conflicted) == 1, f"one save and one conflict expected, conflicts: {conflicted}"
    loser = conflicted[0]
    winner = next(name for name in pages if name != loser)

    saved, edits = stored(pair, memory.id)
    assert (saved.content, saved.version, edits) == (texts[winner], memory.version + 1, 1)
    # The loser sees what won, keeps their own text, and only an explicit second Save replaces it.
    expect(dialog(pages[loser]).get_by_text(texts[winner], exact=True)).to_be_visible()
    expect(dialog(pages[loser]).get_by_label("Content")).to_have_value(texts[loser])
    dialog(pages[loser]).get_by_role("button", name="Save").click()
    expect(dialog(pages[loser])).to_have_count(0)
    saved, edits = stored(pair, memory.id)
    assert (saved.content, saved.version, edits) == (texts[loser], memory.version + 2, 2)


def test_a_login_through_one_instance_holds_on_the_other_until_logged_out(pair: Cluster, new_page: NewPage) -> None:
    first, second = pair.instances
    page = new_page()
    log_in(page, first.url)
    # The browser sends the same session cookie to the other port (cookies are per host): NiceGUI
    # finds the session's app.storage.user in Redis, signed with the shared secret.
    page.goto(f"{second.url}/")
    expect(page.get_by_role("heading", name="What your coach remembers")).to_be_visible()
    assert page.url == f"{second.url}/"

    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(re.compile(r"/login$"))
    page.goto(f"{first.url}/")
    expect(page).to_have_url(f"{first.url}/login")


def test_through_the_proxy_each_browser_stays_on_its_instance_pages_and_websocket(
    pair: Cluster, new_page: NewPage
) -> None:
    placed = []
    for _ in pair.instances:
        page = new_page()
        sockets = _websockets_of(page)
        log_in(page, pair.proxy_url)
        instance = _instance_cookie(page)
        content = unique("Stretches after every run")
        add_through_dialog(page, content)  # a socket.io event, handled by the instance that built the page
        page.reload()
        expect(memory_card(page, content)).to_be_visible()
        page.goto(f"{pair.proxy_url}/")
        expect(memory_card(page, content)).to_be_visible()
        assert _instance_cookie(page) == instance
        assert sockets and all(url.startswith(pair.proxy_url.replace("http", "ws")) for url in sockets)
        placed.append(instance)
    assert sorted(placed) == ["app1", "app2"]  # round robin: the second browser went to the other instance


def _websockets_of(page: Page) -> list[str]:
    """The URLs of the WebSockets the page opens from now on."""
    urls: list[str] = []
    page.on("websocket", lambda socket: urls.append(socket.url))
    return urls


def _instance_cookie(page: Page) -> str:
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert "MR_INSTANCE" in cookies, f"HAProxy set no instance cookie: {sorted(cookies)}"
    return cookies["MR_INSTANCE"]

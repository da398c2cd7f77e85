"""SIGKILL one of two instances while a browser and the coaching system use it: every change it
acknowledged is in the database, the audit chain is whole, and the browser carries on through
the proxy on the other instance, still logged in."""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass, field

import httpx
import pytest
from playwright.sync_api import expect
from sqlalchemy import func, select

from domain.actors import SYSTEM
from domain.api_tokens import create_token
from domain.audit import verify_chain
from domain.models import AuditEvent, Memory, SourceText
from persistence.uow import unit_of_work
from tests.e2e.context_locators import memory_card
from tests.scale.cluster import Cluster, Instance
from tests.scale.conftest import NewPage, log_in
from tests.scale.test_two_instances import add_through_dialog, unique

# One cluster per module (the `pair` fixture): `make test` runs with --dist loadgroup, so the module
# stays on one worker while the desktop tests, unmarked, spread over both.
pytestmark = pytest.mark.xdist_group("instance_killed")

NOTES_BEFORE_KILL = 10
MAX_NOTES = 2_000  # the writer stops by itself at the latest here


@dataclass
class NoteWriter:
    """Sends activity notes to one instance, one at a time, until it stops answering."""

    instance: Instance
    token: str
    prefix: str = field(default_factory=lambda: f"kill-{uuid.uuid4().hex[:8]}-")
    acknowledged: list[str] = field(default_factory=list)
    failure: str = ""

    def run(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        with httpx.Client(base_url=self.instance.url, headers=headers, timeout=10) as client:
            for number in range(MAX_NOTES):
                reference = f"{self.prefix}{number}"
                note = {"athlete": "alex", "kind": "activity_note", "reference": reference, "text": "Easy 5 km."}
                try:
                    answer = client.post("/api/v1/ingest", json=note)
                except httpx.HTTPError as error:
                    self.failure = type(error).__name__
                    return
                if answer.status_code != 201:
                    self.failure = f"HTTP {answer.status_code}: {answer.text[:200]}"
                    return
                self.acknowledged.append(reference)


def counts(cluster: Cluster) -> dict[str, int]:
    with unit_of_work(cluster.engine, read_only=True) as session:
        return {
            model.__name__: int(session.scalar(select(func.count()).select_from(model)) or 0)
            for model in (Memory, AuditEvent, SourceText)
        }


def stored_references(cluster: Cluster, prefix: str) -> set[str]:
    with unit_of_work(cluster.engine, read_only=True) as session:
        return set(session.scalars(select(SourceText.reference).where(SourceText.reference.startswith(prefix))))


def test_killing_an_instance_loses_no_committed_change(pair: Cluster, new_page: NewPage) -> None:
    page = new_page()
    log_in(page, pair.proxy_url)
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "MR_INSTANCE")
    victim = pair.instance_named(cookie)
    added = unique("Runs hill repeats on Wednesdays")
    add_through_dialog(page, added)
    before = counts(pair)

    with unit_of_work(pair.engine) as session:
        token = create_token(session, SYSTEM, name=f"kill-{uuid.uuid4().hex[:6]}", scopes=("ingest",)).secret
    writer = NoteWriter(victim, token)
    thread = threading.Thread(target=writer.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while len(writer.acknowledged) < NOTES_BEFORE_KILL and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(writer.acknowledged) >= NOTES_BEFORE_KILL, writer.failure
    victim.kill()
    thread.join(timeout=15)
    assert not thread.is_alive() and writer.failure, "the writer should have stopped at the kill"

    after = counts(pair)
    stored = stored_references(pair, writer.prefix)
    acknowledged = set(writer.acknowledged)
    assert acknowledged <= stored  # every note the victim answered for is there
    assert len(stored - acknowledged) <= 1  # at most the one in flight, committed before its answer was lost
    assert after["Memory"] == before["Memory"]
    assert after["SourceText"] == before["SourceText"] + len(stored)
    assert after["AuditEvent"] == before["AuditEvent"] + 1 + len(stored)  # the token, then one per note
    with unit_of_work(pair.engine, read_only=True) as session:
        report = verify_chain(session)
    assert report.ok, report.summary()

    # The browser goes on through the proxy, on the survivor, still logged in (the login is in Redis).
    page.reload()
    expect(memory_card(page, added)).to_be_visible()
    assert next(c["value"] for c in page.context.cookies() if c["name"] == "MR_INSTANCE") != cookie
    add_through_dialog(page, unique("Naps after long rides"))
    assert counts(pair)["Memory"] == before["Memory"] + 1

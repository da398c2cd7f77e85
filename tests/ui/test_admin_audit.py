"""Admin tab "Audit log" in NiceGUI's User fixture: chain status, filters, pages, diff, CSV."""

from __future__ import annotations

import csv
import io
import threading
from datetime import timedelta
from typing import Any

import pytest
from nicegui.testing import User
from sqlalchemy import update
from sqlalchemy.orm import Session

from domain import audit
from domain.actors import SYSTEM
from domain.audit import ChainReport, verify_chain
from domain.audit_checkpoints import record, verify
from domain.enums import AuditAction, AuditTarget
from domain.models import AuditCheckpoint, AuditEvent
from domain.types import utcnow
from persistence.engine import make_engine
from persistence.uow import unit_of_work
from tests.ui.admin_helpers import access_kinds, choose, open_admin, table_lacks, table_shows
from ui.components import admin_audit


def event_count(database_url: str) -> int:
    engine = make_engine(database_url)
    with unit_of_work(engine, read_only=True) as session:
        count = verify_chain(session).events_checked
    engine.dispose()
    return count


def store_check(database_url: str, *, minutes_ago: int, tamper: bool = False) -> int:
    """A result stored by an earlier run, `minutes_ago`; then two more events (and event 2 changed if `tamper`)."""
    engine = make_engine(database_url)
    with unit_of_work(engine, read_only=True) as session:
        report = verify(session, SYSTEM)
    with unit_of_work(engine) as session:
        record(session, SYSTEM, report)
        session.execute(update(AuditCheckpoint).values(verified_at=utcnow() - timedelta(minutes=minutes_ago)))
        for name in ("kim", "lee"):
            audit.record(
                session,
                actor=SYSTEM,
                action=AuditAction.USER_CREATE,
                target_type=AuditTarget.USER,
                target_id=None,
                athlete_id=None,
                after={"username": name},
            )
        if tamper:
            session.execute(update(AuditEvent).where(AuditEvent.seq == 2).values(reason="tampered"))
    engine.dispose()
    return report.verified.seq


async def test_status_line_shows_the_stored_result_then_the_events_since(
    user: User, app_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkpoint = store_check(app_database, minutes_ago=3)
    release = threading.Event()
    started: list[int] = []

    def held_check(session: Session, actor: Any) -> ChainReport:
        release.wait(10)  # a worker thread: the page goes on meanwhile
        report = original(session, actor)
        started.append(report.start_seq)
        return report

    original = admin_audit.chain_status
    monkeypatch.setattr(admin_audit, "chain_status", held_check)
    await open_admin(user, "Audit log")
    await user.should_see(f"Audit chain verified up to event #{checkpoint:,}, 3 minutes ago · checking newer events…")
    release.set()
    await user.should_see(f"Audit chain verified up to event #{checkpoint + 2:,}, just now", retries=50)
    assert started == [checkpoint]  # from the checkpoint, not the whole chain


async def test_a_standing_break_is_shown_and_not_checked_again_on_open(
    user: User, app_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store_check(app_database, minutes_ago=1, tamper=True)
    engine = make_engine(app_database)
    with unit_of_work(engine, read_only=True) as session:
        report = verify(session, SYSTEM, full=True)
    with unit_of_work(engine) as session:
        record(session, SYSTEM, report)
    engine.dispose()
    monkeypatch.setattr(admin_audit, "chain_status", lambda s, a: pytest.fail("checked on open"))
    await open_admin(user, "Audit log")
    await user.should_see("Audit chain broken at event #2: its recorded fields were changed (found just now)")


async def test_the_first_check_of_a_never_verified_chain_covers_every_event(user: User, app_database: str) -> None:
    await open_admin(user, "Audit log")
    await user.should_see(f"Audit chain verified up to event #{event_count(app_database):,}, just now", retries=50)


async def test_filter_by_action_and_open_the_diff(user: User, app_database: str) -> None:
    await open_admin(user, "Audit log")
    with user.scope(marker="audit-filters"):
        choose(user, "Action", "Deleted")  # applies at once: no Apply button
    await table_shows(
        user,
        "audit-table",
        "Deleted: Owns a dog that joins easy runs",
        "Deleted: Prefers running with a club on Thursday evenings",
    )
    await table_lacks(user, "audit-table", "Imported: Occasional knee soreness")
    delete_seq = _seq_of_first_row(user)
    user.find(marker="audit-open").trigger("click", delete_seq)  # the row's button sends its event number
    await user.should_see("Event #")
    await table_shows(user, "event-diff", "State", "Active", "Deleted")
    assert any(kind == "admin_view_audit_event" for kind, _, _ in access_kinds(app_database))


async def test_text_search_and_athlete_filter(user: User) -> None:
    await open_admin(user, "Audit log")
    with user.scope(marker="audit-filters"):
        user.find("Search text").type("knee soreness")
    await table_shows(user, "audit-table", "Imported: Occasional knee soreness")
    await table_lacks(user, "audit-table", "Imported: Travels for work most weeks")
    with user.scope(marker="audit-filters"):
        user.find("Search text").clear()
        choose(user, "Athlete", "sam")
    await table_shows(user, "audit-table", "Imported: Travels for work most weeks")
    await table_lacks(user, "audit-table", "Imported: Occasional knee soreness")


async def test_older_and_newer_pages(user: User) -> None:
    await open_admin(user, "Audit log")
    await user.should_see("Events #")
    first_span = _span(user)
    user.find(marker="audit-older").click()
    await user.should_not_see(first_span)
    older_span = _span(user)
    assert older_span != first_span
    user.find(marker="audit-newer").click()
    await user.should_see(first_span)


def _span(user: User) -> str:
    with user.scope(marker="audit-pager"):
        labels = list(user.find("Events #").elements)
    return str(labels[0].text)


def _seq_of_first_row(user: User) -> int:
    """The newest event's seq, read from the pager's "Events #first–#last" line."""
    return int(_span(user).rsplit("#", 1)[1].replace(",", ""))


async def test_export_csv_downloads_the_filtered_view(user: User) -> None:
    await open_admin(user, "Audit log")
    with user.scope(marker="audit-filters"):
        choose(user, "Action", "Deleted")
    await table_shows(user, "audit-table", "Deleted: Owns a dog that joins easy runs")
    user.find("Export CSV").click()
    response = await user.download.next()
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert {row["action"] for row in rows} == {"delete"}
    assert len(rows) == 2
    await user.should_see("Exported 2 events.")

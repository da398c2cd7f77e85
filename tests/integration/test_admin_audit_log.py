"""The audit log as admins read it: filters, keyset pages, diffs, CSV, chain status."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, event, update

from domain import audit_log, memories
from domain.audit_export import _safe, export_csv
from domain.audit_log import AuditFilter, Summary, audit_event, audit_page, chain_status, diff, summarize
from domain.enums import AccessKind, AuditAction
from domain.models import AuditEvent, User
from domain.schemas import MemoryEdit
from domain.types import utcnow
from persistence.uow import unit_of_work
from tests.factories import make_memory
from tests.integration.admin_helpers import access_events, deleted_memory
from ui.components.labels import summary_text


def _edit(engine: Engine, owner: User, memory_id: int, content: str) -> None:
    with unit_of_work(engine) as session:
        memory = memories.get_memory(session, owner, memory_id=memory_id)
        memories.edit_memory(
            session, owner, memory_id=memory_id, changes=MemoryEdit(content=content), expected_version=memory.version
        )


def test_pages_newest_first_by_keyset_both_ways(engine: Engine, athlete: User, admin: User) -> None:
    for n in range(7):
        make_memory(engine, athlete, f"Memory {n}")
    with unit_of_work(engine) as session:
        first = audit_page(session, admin, page_size=3)
        second = audit_page(session, admin, page_size=3, older_than=first.oldest_seq)
        last = audit_page(session, admin, page_size=3, older_than=second.oldest_seq)
        back = audit_page(session, admin, page_size=3, newer_than=last.newest_seq)
    assert [r.seq for r in first.rows] == [7, 6, 5]
    assert (first.has_newer, first.has_older) == (False, True)
    assert [r.seq for r in second.rows] == [4, 3, 2]
    assert (second.has_newer, second.has_older) == (True, True)
    assert [r.seq for r in last.rows] == [1]
    assert (last.has_newer, last.has_older) == (True, False)
    assert [r.seq for r in back.rows] == [4, 3, 2]
    assert first.rows[0].summary == Summary(AuditAction.CREATE, "Memory 6")
    assert first.rows[0].athlete == "alex"
    assert first.rows[0].actor == "system"


def test_filters_by_actor_athlete_action_date_and_text(
    engine: Engine, athlete: User, other_athlete: User, admin: User
) -> None:
    knee = make_memory(engine, athlete, "Knee pain after long runs")
    make_memory(engine, other_athlete, "Prefers evening runs")
    _edit(engine, athlete, knee.id, "Knee pain after runs over 18 km")
    deleted = deleted_memory(engine, other_athlete, "Travels for work")
    with unit_of_work(engine) as session:
        memories.restore_memory(session, admin, memory_id=deleted.id, reason="Deleted by mistake")
    today = utcnow().date()

    def seqs(**kwargs: Any) -> list[str]:
        with unit_of_work(engine) as session:
            return [r.action for r in audit_page(session, admin, filters=AuditFilter(**kwargs)).rows]

    assert seqs(actor_id=athlete.id) == ["edit"]
    assert seqs(actor_id=admin.id) == ["restore"]
    assert seqs(by_system=True) == ["create", "create", "create"]
    assert seqs(athlete_id=other_athlete.id) == ["restore", "delete", "create", "create"]
    assert seqs(action="delete") == ["delete"]
    assert seqs(text="MISTAKE") == ["restore"]
    assert seqs(text="18 km") == ["edit"]
    assert seqs(text="100%") == []
    assert len(seqs(since=today, until=today)) == 6
    assert seqs(until=today.replace(year=today.year - 1)) == []
    assert seqs(athlete_id=athlete.id, action="edit", text="knee") == ["edit"]


def test_views_opened_rows_and_exports_are_recorded(
    engine: Engine, athlete: User, other_athlete: User, admin: User
) -> None:
    make_memory(engine, athlete, "One")
    make_memory(engine, other_athlete, "Two")
    with unit_of_work(engine) as session:
        audit_page(session, admin)
        audit_event(session, admin, seq=1)
        export_csv(session, admin, filters=AuditFilter(), summary=summary_text)
    assert sorted(e.athlete_id for e in access_events(engine, AccessKind.ADMIN_VIEW_AUDIT)) == sorted(
        [athlete.id, other_athlete.id]
    )
    assert [e.athlete_id for e in access_events(engine, AccessKind.ADMIN_VIEW_AUDIT_EVENT)] == [athlete.id]
    assert len(access_events(engine, AccessKind.ADMIN_EXPORT_AUDIT)) == 2


def test_an_opened_event_shows_a_readable_diff(engine: Engine, athlete: User, admin: User) -> None:
    memory = make_memory(engine, athlete, "Knee pain", tags=["body:knee"])
    _edit(engine, athlete, memory.id, "Knee pain after long runs")
    with unit_of_work(engine) as session:
        row, changes = audit_event(session, admin, seq=2)
    assert row.action == "edit"
    assert row.summary == Summary(AuditAction.EDIT, "Knee pain after long runs", changed=("content", "confidence"))
    by_field = {c.field: (c.before, c.after) for c in changes}
    assert by_field["content"] == ("Knee pain", "Knee pain after long runs")
    assert by_field["confidence"] == ("medium", "high")
    assert "tags" not in by_field


def test_diff_and_summary_of_created_and_redacted_payloads() -> None:
    created = diff(None, {"content": "Likes hills", "tags": ["intensity:hill"], "status": "active"})
    assert [(c.field, c.before, c.after) for c in created] == [
        ("content", None, "Likes hills"),
        ("tags", None, ["intensity:hill"]),
        ("status", None, "active"),
    ]
    removed = summarize(AuditAction.HARD_DELETE, {"content": None, "redacted": True}, None, redacted=True)
    assert removed == Summary(AuditAction.HARD_DELETE, None, hidden=True)
    assert summarize(AuditAction.USER_CREATE, None, {"username": "sam"}, redacted=False).subject == "sam"


def test_csv_export_of_the_filtered_view_is_safe_for_spreadsheets(engine: Engine, athlete: User, admin: User) -> None:
    make_memory(engine, athlete, "=HYPERLINK('http://evil')")
    make_memory(engine, athlete, "Prefers morning runs")
    with unit_of_work(engine) as session:
        everything = export_csv(session, admin, filters=AuditFilter(), summary=summary_text)
        only_hyperlink = export_csv(session, admin, filters=AuditFilter(text="hyperlink"), summary=summary_text)
        capped = export_csv(session, admin, filters=AuditFilter(), summary=summary_text, limit=1)
    rows = list(csv.DictReader(io.StringIO(everything.text)))
    assert [r["seq"] for r in rows] == ["2", "1"]
    assert (rows[1]["action"], rows[1]["summary"]) == ("create", "Created: =HYPERLINK('http://evil')")
    assert only_hyperlink.rows == 1
    hyperlink_row = next(csv.DictReader(io.StringIO(only_hyperlink.text)))
    assert hyperlink_row["athlete"] == "alex"
    assert '"content":"=HYPERLINK' in hyperlink_row["after"]
    assert (capped.rows, capped.truncated) == (1, True)


def test_csv_neutralises_cells_that_would_run_as_formulas() -> None:
    assert _safe("=1+1") == "'=1+1"
    assert _safe("@SUM(A1)") == "'@SUM(A1)"
    assert _safe("plain") == "plain"


def test_chain_status_names_the_first_broken_event(engine: Engine, athlete: User, admin: User) -> None:
    make_memory(engine, athlete, "One")
    make_memory(engine, athlete, "Two")
    with unit_of_work(engine) as session:
        assert chain_status(session, admin).summary() == "Audit chain verified: 2 events"
    with unit_of_work(engine) as session:
        event = session.get(AuditEvent, 1)
        assert event is not None
        event.reason = "tampered"
    with unit_of_work(engine) as session:
        report = chain_status(session, admin)
    assert not report.ok
    assert report.summary().startswith("Audit chain broken at event 1")


def _page_query_plan(engine: Engine, admin: User, filters: AuditFilter) -> str:
    """The plan of the page query a text search runs, as the database would run it."""
    statements: list[tuple[str, Any]] = []

    def keep(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool) -> None:
        if "audit_fts" in statement or "@@" in statement:
            statements.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", keep)
    try:
        with unit_of_work(engine) as session:
            audit_page(session, admin, filters=filters)
    finally:
        event.remove(engine, "before_cursor_execute", keep)
    statement, parameters = statements[-1]  # on PostgreSQL the first tests only the recent events
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            rows = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters).all()
            return "\n".join(str(row[-1]) for row in rows)
        # Few rows: without this the planner would rightly read the whole (tiny) table.
        connection.exec_driver_sql("SET enable_seqscan = off")
        connection.exec_driver_sql("SET enable_indexscan = off")
        return "\n".join(str(row[0]) for row in connection.exec_driver_sql(f"EXPLAIN {statement}", parameters))


def test_text_search_reads_the_index_not_the_log(
    engine: Engine, athlete: User, admin: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audit_log, "RECENT_EVENTS", 2)  # PostgreSQL: the older events through the index
    for n in range(5):
        make_memory(engine, athlete, f"Easy run number {n}")
    plan = _page_query_plan(engine, admin, AuditFilter(text="easy run"))
    if engine.dialect.name == "sqlite":
        assert "VIRTUAL TABLE INDEX" in plan and "SCAN audit_events" not in plan, plan
    else:
        assert "ix_audit_events_search" in plan, plan


def test_text_search_matches_the_words_people_read(engine: Engine, athlete: User, admin: User) -> None:
    make_memory(engine, athlete, "Knee pain after long runs", tags=["body:knee"])
    make_memory(engine, athlete, "Früh am Morgen laufen")

    def found(text: str) -> list[str | None]:
        with unit_of_work(engine) as session:
            return [r.summary.subject for r in audit_page(session, admin, filters=AuditFilter(text=text)).rows]

    assert found("knee") == found("KNE") == found("long runs") == ["Knee pain after long runs"]
    assert found("früh") == ["Früh am Morgen laufen"]
    assert found("nee") == []  # a word's beginning, not any part of it
    assert found("content") == found("tags") == []  # the payloads' keys are not text anyone wrote
    assert len(found("system")) == 2  # the actor
    assert len(found("create")) == 2  # the action


@pytest.mark.parametrize("recent", [250, 2, 1])
def test_text_search_pages_by_keyset_both_ways(
    engine: Engine, athlete: User, admin: User, recent: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL pages are read from the `recent` nearest events, then through the index: the
    same pages wherever that split falls."""
    monkeypatch.setattr(audit_log, "RECENT_EVENTS", recent)
    for n in range(7):
        make_memory(engine, athlete, f"Tempo run {n}" if n % 2 == 0 else f"Long ride {n}")
    text = AuditFilter(text="tempo")
    with unit_of_work(engine) as session:
        first = audit_page(session, admin, filters=text, page_size=2)
        second = audit_page(session, admin, filters=text, page_size=2, older_than=first.oldest_seq)
        back = audit_page(session, admin, filters=text, page_size=2, newer_than=second.newest_seq)
    assert [r.seq for r in first.rows] == [7, 5]
    assert [r.seq for r in second.rows] == [3, 1]
    assert (second.has_newer, second.has_older) == (True, False)
    assert [r.seq for r in back.rows] == [7, 5]
    assert (back.has_newer, back.has_older) == (False, True)


def test_text_search_forgets_what_a_hard_delete_redacted(engine: Engine, athlete: User, admin: User) -> None:
    memory = make_memory(engine, athlete, "Private surgery details")
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory.id)
    with unit_of_work(engine) as session:
        assert len(audit_page(session, admin, filters=AuditFilter(text="surgery")).rows) == 2
        memories.hard_delete_memory(session, admin, memory_id=memory.id, reason="Athlete asked")
    with unit_of_work(engine) as session:
        assert audit_page(session, admin, filters=AuditFilter(text="surgery")).rows == []
        assert [r.action for r in audit_page(session, admin, filters=AuditFilter(text="asked")).rows] == ["hard_delete"]


@pytest.mark.parametrize("recent", [250, 3])
def test_text_with_other_filters_finds_what_each_finds_alone(
    engine: Engine, athlete: User, other_athlete: User, admin: User, recent: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite the other filters also go into the index query (tokens, a seq range); on PostgreSQL
    the recent events are those the other filters select: same rows."""
    monkeypatch.setattr(audit_log, "RECENT_EVENTS", recent)
    knee = make_memory(engine, athlete, "Knee pain after long runs")
    make_memory(engine, other_athlete, "Knee feels fine on hills")
    _edit(engine, athlete, knee.id, "Knee pain after runs over 18 km")
    deleted = deleted_memory(engine, other_athlete, "Knee brace for trail runs")
    with unit_of_work(engine) as session:
        memories.restore_memory(session, admin, memory_id=deleted.id, reason="Knee brace kept")
    today = utcnow().date()
    filters: list[dict[str, Any]] = [
        {"athlete_id": athlete.id},
        {"athlete_id": other_athlete.id},
        {"actor_id": athlete.id},
        {"actor_id": admin.id},
        {"by_system": True},
        {"action": AuditAction.RESTORE},
        {"action": AuditAction.CREATE, "athlete_id": other_athlete.id},
        {"since": today, "until": today},
        {"until": today.replace(year=today.year - 1)},
        {"since": today.replace(year=today.year + 1)},
    ]

    def seqs(**kwargs: Any) -> set[int]:
        with unit_of_work(engine) as session:
            return {r.seq for r in audit_page(session, admin, filters=AuditFilter(**kwargs), page_size=200).rows}

    with_knee = seqs(text="knee")
    assert len(with_knee) == 6
    for kwargs in filters:
        assert seqs(text="knee", **kwargs) == seqs(**kwargs) & with_knee, kwargs


def test_text_with_a_date_range_finds_the_events_of_those_days(engine: Engine, athlete: User, admin: User) -> None:
    for n in range(6):
        make_memory(engine, athlete, f"Knee note {n}")
    now = utcnow()
    with unit_of_work(engine) as session:  # events 1-2 ten days ago, 3-4 five days ago, 5-6 today
        for seq, days in ((1, 10), (2, 10), (3, 5), (4, 5)):
            session.execute(update(AuditEvent).where(AuditEvent.seq == seq).values(at=now - timedelta(days=days)))

    def seqs(**kwargs: Any) -> list[int]:
        with unit_of_work(engine) as session:
            return [r.seq for r in audit_page(session, admin, filters=AuditFilter(text="knee", **kwargs)).rows]

    day = now.date()
    assert seqs(since=day - timedelta(days=5), until=day - timedelta(days=5)) == [4, 3]
    assert seqs(until=day - timedelta(days=5)) == [4, 3, 2, 1]
    assert seqs(since=day - timedelta(days=9)) == [6, 5, 4, 3]
    assert seqs(since=day - timedelta(days=4), until=day - timedelta(days=1)) == []

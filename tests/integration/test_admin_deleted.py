"""Deleted memories across athletes: search, filters, pagination, restore, permanent delete."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine, select

from domain import memories
from domain.admin_deleted import DeletedQuery, delete_permanently, list_deleted, restore_selected
from domain.audit import verify_chain
from domain.enums import AccessKind
from domain.errors import InvalidInput
from domain.models import AuditEvent, Memory, User
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.uow import unit_of_work
from tests.factories import make_memory
from tests.integration.admin_helpers import access_events, deleted_memory


def test_lists_deleted_memories_of_every_athlete_newest_first(
    engine: Engine, athlete: User, other_athlete: User, admin: User
) -> None:
    first = deleted_memory(engine, athlete, "Knee pain after long runs")
    second = deleted_memory(engine, other_athlete, "Prefers evening runs")
    make_memory(engine, athlete, "Still active")
    with unit_of_work(engine) as session:
        page = list_deleted(session, admin)
    assert [row.memory_id for row in page.rows] == [second.id, first.id]
    assert page.total == 2
    assert page.rows[0].athlete_username == "sam"
    assert page.rows[0].deleted_by == "sam"
    assert page.rows[1].content == "Knee pain after long runs"


def test_filters_by_athlete_text_and_date(engine: Engine, athlete: User, other_athlete: User, admin: User) -> None:
    knee = deleted_memory(engine, athlete, "Knee pain after long runs")
    deleted_memory(engine, athlete, "Likes hill repeats")
    deleted_memory(engine, other_athlete, "Knee brace on trails")
    today = utcnow().date()
    with unit_of_work(engine) as session:
        by_athlete = list_deleted(session, admin, query=DeletedQuery(athlete_id=athlete.id))
        by_text = list_deleted(session, admin, query=DeletedQuery(text="knee", athlete_id=athlete.id))
        by_date = list_deleted(session, admin, query=DeletedQuery(deleted_from=today, deleted_to=today))
        too_old = list_deleted(session, admin, query=DeletedQuery(deleted_to=today - timedelta(days=1)))
    assert by_athlete.total == 2
    assert [row.memory_id for row in by_text.rows] == [knee.id]
    assert by_date.total == 3
    assert too_old.total == 0


def test_pages_on_the_server(engine: Engine, athlete: User, admin: User) -> None:
    for n in range(7):
        deleted_memory(engine, athlete, f"Memory number {n}")
    with unit_of_work(engine) as session:
        one = list_deleted(session, admin, query=DeletedQuery(page_size=3))
        three = list_deleted(session, admin, query=DeletedQuery(page_size=3, page=3))
        beyond = list_deleted(session, admin, query=DeletedQuery(page_size=3, page=99))
    assert (one.total, one.pages, len(one.rows)) == (7, 3, 3)
    assert [r.content for r in three.rows] == ["Memory number 0"]
    assert beyond.page == 3


def test_each_view_records_one_access_event_per_athlete_shown(
    engine: Engine, athlete: User, other_athlete: User, admin: User
) -> None:
    deleted_memory(engine, athlete, "One")
    deleted_memory(engine, athlete, "Two")
    deleted_memory(engine, other_athlete, "Three")
    with unit_of_work(engine) as session:
        list_deleted(session, admin)
    events = access_events(engine, AccessKind.ADMIN_VIEW_DELETED)
    assert sorted(e.athlete_id for e in events) == sorted([athlete.id, other_athlete.id])
    assert {e.actor_label for e in events} == {"admin"}


def test_restore_selected_restores_each_with_its_own_audit_event(engine: Engine, athlete: User, admin: User) -> None:
    one = deleted_memory(engine, athlete, "One")
    two = deleted_memory(engine, athlete, "Two")
    with unit_of_work(engine) as session:
        restore_selected(session, admin, memory_ids=[one.id, two.id], reason="Asked by the athlete")
    with unit_of_work(engine, read_only=True) as session:
        active = memories.list_memories(session, athlete).items
        events = list(session.scalars(select(AuditEvent).where(AuditEvent.action == "restore")))
    assert {m.id for m in active} == {one.id, two.id}
    assert [(e.actor_label, e.reason) for e in events] == [("admin", "Asked by the athlete")] * 2


def test_restore_selected_is_all_or_nothing(engine: Engine, athlete: User, admin: User) -> None:
    one = deleted_memory(engine, athlete, "One")
    active = make_memory(engine, athlete, "Active")
    with pytest.raises(InvalidInput), unit_of_work(engine) as session:
        restore_selected(session, admin, memory_ids=[one.id, active.id])
    with unit_of_work(engine, read_only=True) as session:
        assert memories.list_memories(session, athlete).total == 1


def test_permanent_delete_needs_the_athletes_username(engine: Engine, athlete: User, admin: User) -> None:
    memory = deleted_memory(engine, athlete, "Knee pain after long runs")
    with pytest.raises(InvalidInput, match="alex"), unit_of_work(engine) as session:
        delete_permanently(session, admin, memory_id=memory.id, typed_username="sam")
    with unit_of_work(engine) as session:
        delete_permanently(session, admin, memory_id=memory.id, typed_username=" Alex ")
    with unit_of_work(engine, read_only=True) as session:
        assert session.get(Memory, memory.id, execution_options=with_inactive()) is None
        payloads = [
            e.before or e.after
            for e in session.scalars(select(AuditEvent).where(AuditEvent.target_id == memory.id))
            if e.target_type == "memory"
        ]
        assert all(p is not None and p["content"] is None for p in payloads)
        assert verify_chain(session).ok

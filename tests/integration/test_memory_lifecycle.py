"""Memory services against real databases: each change persists and leaves one audit event."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine, func, select

from domain import memories
from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType
from domain.errors import EditConflict, InvalidInput, NotFound, PermissionDenied
from domain.models import AuditEvent, Memory, User
from domain.schemas import MemoryCreate, MemoryEdit
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.uow import unit_of_work
from tests.factories import make_memory, make_user


def audit_count(engine: Engine) -> int:
    with unit_of_work(engine, read_only=True) as session:
        return session.scalar(select(func.count()).select_from(AuditEvent)) or 0


def reload(engine: Engine, memory_id: int) -> Memory | None:
    with unit_of_work(engine, read_only=True) as session:
        return session.get(Memory, memory_id, execution_options=with_inactive())


def test_added_memory_is_manual_high_confidence_and_listed(engine: Engine, athlete: User) -> None:
    with unit_of_work(engine) as session:
        created = memories.add_memory(
            session, athlete, data=MemoryCreate(content="  Runs with a club on Tuesdays ", type=MemoryType.CONTEXT)
        )
    with unit_of_work(engine, read_only=True) as session:
        page = memories.list_memories(session, athlete)
    assert [m.content for m in page.items] == ["Runs with a club on Tuesdays"]
    assert page.items[0].id == created.id
    assert page.items[0].source == MemorySource.MANUAL
    assert page.items[0].confidence == MemoryConfidence.HIGH


def test_edit_by_athlete_sets_high_confidence_and_bumps_version(engine: Engine, athlete: User) -> None:
    memory = make_memory(engine, athlete, confidence=MemoryConfidence.LOW)
    with unit_of_work(engine) as session:
        edited = memories.edit_memory(
            session,
            athlete,
            memory_id=memory.id,
            expected_version=memory.version,
            changes=MemoryEdit(content="Prefers early morning runs", tags=["time:morning"]),
        )
    stored = reload(engine, memory.id)
    assert stored is not None
    assert (stored.content, stored.tags, stored.confidence) == (
        "Prefers early morning runs",
        ["time:morning"],
        MemoryConfidence.HIGH,
    )
    assert stored.version == edited.version == memory.version + 1


@pytest.mark.parametrize(
    "mutation",
    ["add", "edit", "delete", "undo", "restore", "hard_delete", "revert"],
)
def test_each_mutation_leaves_exactly_one_audit_event(
    engine: Engine, athlete: User, admin: User, mutation: str
) -> None:
    memory = make_memory(engine, athlete)
    if mutation in ("undo", "restore", "hard_delete"):
        with unit_of_work(engine) as session:
            memories.delete_memory(session, athlete, memory_id=memory.id)
    if mutation == "revert":
        with unit_of_work(engine) as session:
            memories.edit_memory(
                session, athlete, memory_id=memory.id, expected_version=1, changes=MemoryEdit(content="Changed")
            )
    before = audit_count(engine)
    with unit_of_work(engine) as session:
        current = session.get(Memory, memory.id, execution_options=with_inactive())
        assert current is not None
        if mutation == "add":
            memories.add_memory(session, athlete, data=MemoryCreate(content="New", type=MemoryType.CONTEXT))
        elif mutation == "edit":
            memories.edit_memory(
                session,
                athlete,
                memory_id=memory.id,
                expected_version=current.version,
                changes=MemoryEdit(content="Edited"),
            )
        elif mutation == "delete":
            memories.delete_memory(session, athlete, memory_id=memory.id)
        elif mutation == "undo":
            memories.undo_delete(session, athlete, memory_id=memory.id)
        elif mutation == "restore":
            memories.restore_memory(session, admin, memory_id=memory.id, reason="Deleted by mistake")
        elif mutation == "hard_delete":
            memories.hard_delete_memory(session, admin, memory_id=memory.id)
        else:
            first = memories.memory_history(session, athlete, memory_id=memory.id)[0]
            memories.revert_memory(
                session, athlete, memory_id=memory.id, event_seq=first.seq, expected_version=current.version
            )
    assert audit_count(engine) == before + 1


def test_failure_inside_the_transaction_leaves_neither_change_nor_event(engine: Engine, athlete: User) -> None:
    memory = make_memory(engine, athlete)
    before = audit_count(engine)
    with pytest.raises(RuntimeError), unit_of_work(engine) as session:
        memories.edit_memory(
            session, athlete, memory_id=memory.id, expected_version=1, changes=MemoryEdit(content="Half-written")
        )
        raise RuntimeError("power cut")
    stored = reload(engine, memory.id)
    assert stored is not None and stored.content == "Prefers morning runs"
    assert audit_count(engine) == before


def test_soft_delete_hides_the_memory_and_undo_brings_it_back(engine: Engine, athlete: User) -> None:
    memory = make_memory(engine, athlete)
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory.id)
    with unit_of_work(engine, read_only=True) as session:
        assert memories.list_memories(session, athlete).total == 0
        with pytest.raises(NotFound):
            memories.get_memory(session, athlete, memory_id=memory.id)
    stored = reload(engine, memory.id)
    assert stored is not None and stored.status == MemoryStatus.DELETED and stored.deleted_by_id == athlete.id
    with unit_of_work(engine) as session:
        memories.undo_delete(session, athlete, memory_id=memory.id)
    with unit_of_work(engine, read_only=True) as session:
        assert [m.id for m in memories.list_memories(session, athlete).items] == [memory.id]


def test_undo_is_refused_after_thirty_days(engine: Engine, athlete: User) -> None:
    memory = make_memory(engine, athlete)
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory.id)
    with unit_of_work(engine) as session:
        stored = session.get(Memory, memory.id, execution_options=with_inactive())
        assert stored is not None
        stored.deleted_at = utcnow() - timedelta(days=31)
    with pytest.raises(PermissionDenied, match="ask an admin"), unit_of_work(engine) as session:
        memories.undo_delete(session, athlete, memory_id=memory.id)
    stored = reload(engine, memory.id)
    assert stored is not None and stored.status == MemoryStatus.DELETED


def test_admin_restores_with_reason_recorded(engine: Engine, athlete: User, admin: User) -> None:
    memory = make_memory(engine, athlete)
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory.id)
    with unit_of_work(engine) as session:
        memories.restore_memory(session, admin, memory_id=memory.id, reason="Deleted by mistake")
    with unit_of_work(engine, read_only=True) as session:
        history = memories.memory_history(session, athlete, memory_id=memory.id)
    assert [e.action for e in history] == ["create", "delete", "restore"]
    assert (history[-1].actor_label, history[-1].reason) == ("admin", "Deleted by mistake")


def test_hard_delete_requires_a_soft_deleted_memory_and_redacts_history(
    engine: Engine, athlete: User, admin: User
) -> None:
    memory = make_memory(engine, athlete, content="Secret knee surgery in 2019")
    with pytest.raises(InvalidInput, match="Delete the memory first"), unit_of_work(engine) as session:
        memories.hard_delete_memory(session, admin, memory_id=memory.id)
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory.id)
    with unit_of_work(engine) as session:
        memories.hard_delete_memory(session, admin, memory_id=memory.id)
    assert reload(engine, memory.id) is None
    with unit_of_work(engine, read_only=True) as session:
        payloads = [
            (e.before, e.after)
            for e in session.scalars(
                select(AuditEvent).where(AuditEvent.target_id == memory.id, AuditEvent.target_type == "memory")
            )
        ]
    assert payloads, "the events stay, only their content goes"
    assert "Secret knee surgery" not in repr(payloads)


def test_history_and_revert_to_an_earlier_version(engine: Engine, athlete: User) -> None:
    memory = make_memory(engine, athlete, content="Prefers morning runs")
    with unit_of_work(engine) as session:
        memories.edit_memory(
            session,
            athlete,
            memory_id=memory.id,
            expected_version=1,
            changes=MemoryEdit(content="Prefers evening runs"),
        )
    with unit_of_work(engine) as session:
        history = memories.memory_history(session, athlete, memory_id=memory.id)
        reverted = memories.revert_memory(
            session, athlete, memory_id=memory.id, event_seq=history[0].seq, expected_version=2
        )
    assert reverted.content == "Prefers morning runs"
    with unit_of_work(engine, read_only=True) as session:
        actions = [e.action for e in memories.memory_history(session, athlete, memory_id=memory.id)]
    assert actions == ["create", "edit", "revert"]


def test_stale_edit_is_refused_and_the_first_edit_survives(engine: Engine, athlete: User) -> None:
    memory = make_memory(engine, athlete)
    with unit_of_work(engine) as session:
        memories.edit_memory(
            session, athlete, memory_id=memory.id, expected_version=1, changes=MemoryEdit(content="First tab's edit")
        )
    with pytest.raises(EditConflict, match="changed meanwhile"), unit_of_work(engine) as session:
        memories.edit_memory(
            session, athlete, memory_id=memory.id, expected_version=1, changes=MemoryEdit(content="Second tab's edit")
        )
    stored = reload(engine, memory.id)
    assert stored is not None and stored.content == "First tab's edit"


def test_two_open_sessions_racing_the_second_flush_conflicts(postgres: Engine) -> None:
    """Both sessions read version 1 at once; the one that writes second gets the conflict.

    PostgreSQL only: on SQLite, writers are serialized by BEGIN IMMEDIATE, so two write
    transactions are never open at once (the version check above covers SQLite).
    """
    engine = postgres
    athlete = make_user(engine, "alex")
    memory = make_memory(engine, athlete)
    with unit_of_work(engine) as first, pytest.raises(EditConflict), unit_of_work(engine) as second:
        assert first.get(Memory, memory.id) is not None
        assert second.get(Memory, memory.id) is not None
        memories.edit_memory(
            first, athlete, memory_id=memory.id, expected_version=1, changes=MemoryEdit(content="First")
        )
        first.commit()
        memories.edit_memory(
            second, athlete, memory_id=memory.id, expected_version=1, changes=MemoryEdit(content="Second")
        )
    stored = reload(engine, memory.id)
    assert stored is not None and stored.content == "First"


def test_sorting_by_confidence_follows_the_one_confidence_order(engine: Engine, athlete: User) -> None:
    for content, confidence in [("Low one", "low"), ("High one", "high"), ("Medium one", "medium")]:
        make_memory(engine, athlete, content, confidence=MemoryConfidence(confidence))
    with unit_of_work(engine, read_only=True) as session:
        page = memories.list_memories(session, athlete, query=memories.MemoryQuery(sort="confidence"))
    assert [m.content for m in page.items] == ["High one", "Medium one", "Low one"]

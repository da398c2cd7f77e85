"""Merging two near-duplicate memories, on SQLite and PostgreSQL: one kept with both histories readable."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine, func, select

from domain import memories, merges, replaced
from domain.enums import AuditAction, AuditTarget, MemoryConfidence, MemoryStatus, Role
from domain.errors import EditConflict, InvalidInput, NotFound, PermissionDenied
from domain.models import AuditEvent, Memory, User
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.uow import unit_of_work
from tests.factories import make_memory, make_user


def reload(engine: Engine, memory_id: int) -> Memory:
    with unit_of_work(engine, read_only=True) as session:
        memory = session.get(Memory, memory_id, execution_options=with_inactive())
    assert memory is not None
    return memory


def events(engine: Engine, memory_id: int) -> list[AuditEvent]:
    with unit_of_work(engine, read_only=True) as session:
        return list(
            session.scalars(
                select(AuditEvent)
                .where(AuditEvent.target_type == AuditTarget.MEMORY, AuditEvent.target_id == memory_id)
                .order_by(AuditEvent.seq)
            )
        )


def audit_count(engine: Engine) -> int:
    with unit_of_work(engine, read_only=True) as session:
        return session.scalar(select(func.count()).select_from(AuditEvent)) or 0


def two(engine: Engine, athlete: User) -> tuple[Memory, Memory]:
    earlier = utcnow() - timedelta(days=40)
    keep = make_memory(
        engine, athlete, "Prefers morning runs", tags=["time:morning", "sport:run"], occurrences=2,
        confidence=MemoryConfidence.LOW,
    )  # fmt: skip
    other = make_memory(
        engine, athlete, "Likes to run early in the morning", tags=["sport:run", "time:early"], occurrences=3,
        confidence=MemoryConfidence.MEDIUM, created_at=earlier,
    )  # fmt: skip
    return keep, other


def test_merge_keeps_one_with_both_tags_counts_and_the_earlier_date(engine: Engine, athlete: User) -> None:
    keep, other = two(engine, athlete)
    with unit_of_work(engine) as session:
        merged = merges.merge_memories(
            session, athlete, keep_id=keep.id, other_id=other.id, keep_version=keep.version,
            other_version=other.version,
        )  # fmt: skip
        assert merged.id == keep.id
    stored = reload(engine, keep.id)
    assert stored.status == MemoryStatus.ACTIVE
    assert stored.content == "Prefers morning runs"  # its own wording by default
    assert stored.tags == ["time:morning", "sport:run", "time:early"]
    assert stored.occurrences == 5
    assert stored.confidence == MemoryConfidence.HIGH  # the athlete's own word: "Confirmed by you"
    assert stored.created_at.replace(tzinfo=None) == reload(engine, other.id).created_at.replace(tzinfo=None)
    assert stored.version == keep.version + 1
    archived = reload(engine, other.id)
    assert archived.status == MemoryStatus.ARCHIVED
    assert archived.superseded_by_id == keep.id
    assert archived.archived_at is not None
    assert archived.content == "Likes to run early in the morning"  # unchanged, readable as it was


def test_merge_with_the_other_wording_or_an_edited_one(engine: Engine, athlete: User) -> None:
    keep, other = two(engine, athlete)
    with unit_of_work(engine) as session:
        merges.merge_memories(session, athlete, keep_id=keep.id, other_id=other.id, content="  Runs at dawn ")
    assert reload(engine, keep.id).content == "Runs at dawn"
    keep2, other2 = two(engine, athlete)
    with unit_of_work(engine) as session:
        merges.merge_memories(session, athlete, keep_id=keep2.id, other_id=other2.id, content=other2.content)
    assert reload(engine, keep2.id).content == "Likes to run early in the morning"


def test_merge_leaves_one_audit_event_on_each_and_both_histories_readable(engine: Engine, athlete: User) -> None:
    keep, other = two(engine, athlete)
    before = audit_count(engine)
    with unit_of_work(engine) as session:
        merges.merge_memories(session, athlete, keep_id=keep.id, other_id=other.id, content="Runs at dawn")
    assert audit_count(engine) == before + 2
    kept_event = events(engine, keep.id)[-1]
    assert kept_event.action == AuditAction.MERGE
    assert kept_event.actor_id == athlete.id
    assert kept_event.before is not None and kept_event.after is not None
    assert (kept_event.before["content"], kept_event.after["content"]) == ("Prefers morning runs", "Runs at dawn")
    other_event = events(engine, other.id)[-1]
    assert other_event.action == AuditAction.SUPERSEDE
    assert other_event.after is not None
    assert (other_event.after["status"], other_event.after["superseded_by"]) == ("archived", keep.id)
    with unit_of_work(engine, read_only=True) as session:
        assert [m.id for m in replaced.replaced_by(session, athlete, memory_id=keep.id)] == [other.id]
        assert len(memories.memory_history(session, athlete, memory_id=other.id)) == 2
        assert len(memories.memory_history(session, athlete, memory_id=keep.id)) == 2
        listed = memories.list_memories(session, athlete)
    assert [m.id for m in listed.items] == [keep.id]


def assert_unchanged(engine: Engine, count: int, *pairs: tuple[int, int]) -> None:
    assert audit_count(engine) == count
    for memory_id, version in pairs:
        memory = reload(engine, memory_id)
        assert (memory.status, memory.version) == (MemoryStatus.ACTIVE, version)


def test_another_athletes_memory_is_not_found_and_nothing_changes(
    engine: Engine, athlete: User, other_athlete: User
) -> None:
    mine = make_memory(engine, athlete, "Prefers morning runs")
    theirs = make_memory(engine, other_athlete, "Prefers morning rides")
    count = audit_count(engine)
    for keep_id, other_id in ((mine.id, theirs.id), (theirs.id, mine.id)):
        with pytest.raises(NotFound), unit_of_work(engine) as session:
            merges.merge_memories(session, athlete, keep_id=keep_id, other_id=other_id)
    with pytest.raises(NotFound), unit_of_work(engine) as session:  # nor may the other athlete merge them
        merges.merge_memories(session, other_athlete, keep_id=mine.id, other_id=theirs.id)
    assert_unchanged(engine, count, (mine.id, mine.version), (theirs.id, theirs.version))


def test_the_same_memory_twice_is_refused(engine: Engine, athlete: User) -> None:
    memory = make_memory(engine, athlete)
    count = audit_count(engine)
    with pytest.raises(InvalidInput), unit_of_work(engine) as session:
        merges.merge_memories(session, athlete, keep_id=memory.id, other_id=memory.id)
    assert_unchanged(engine, count, (memory.id, memory.version))


def test_a_deleted_or_archived_memory_is_refused(engine: Engine, athlete: User) -> None:
    keep, gone = make_memory(engine, athlete, "Prefers morning runs"), make_memory(engine, athlete, "Runs early")
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=gone.id)
    count = audit_count(engine)
    for keep_id, other_id in ((keep.id, gone.id), (gone.id, keep.id)):
        with pytest.raises(NotFound), unit_of_work(engine) as session:
            merges.merge_memories(session, athlete, keep_id=keep_id, other_id=other_id)
    assert_unchanged(engine, count, (keep.id, keep.version))
    assert reload(engine, gone.id).status == MemoryStatus.DELETED
    third = make_memory(engine, athlete, "Runs before work")
    with unit_of_work(engine) as session:
        merges.merge_memories(session, athlete, keep_id=keep.id, other_id=third.id)
    with pytest.raises(NotFound), unit_of_work(engine) as session:  # archived by that merge
        merges.merge_memories(session, athlete, keep_id=keep.id, other_id=third.id)


def test_a_stale_version_is_an_edit_conflict_and_nothing_changes(engine: Engine, athlete: User) -> None:
    keep, other = two(engine, athlete)
    count = audit_count(engine)
    with pytest.raises(EditConflict), unit_of_work(engine) as session:
        merges.merge_memories(
            session, athlete, keep_id=keep.id, other_id=other.id, keep_version=keep.version + 1,
            other_version=other.version,
        )  # fmt: skip
    assert_unchanged(engine, count, (keep.id, keep.version), (other.id, other.version))


def test_admins_and_empty_wording_are_refused(engine: Engine, athlete: User) -> None:
    keep, other = two(engine, athlete)
    admin = make_user(engine, "root", Role.ADMIN)
    with pytest.raises(PermissionDenied), unit_of_work(engine) as session:
        merges.merge_memories(session, admin, keep_id=keep.id, other_id=other.id)
    with pytest.raises(InvalidInput), unit_of_work(engine) as session:
        merges.merge_memories(session, athlete, keep_id=keep.id, other_id=other.id, content="   ")
    assert reload(engine, other.id).status == MemoryStatus.ACTIVE

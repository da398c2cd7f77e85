"""An audited change made in a savepoint that is rolled back leaves no audit event, and events the
transaction queued before the savepoint and wrote inside it (a read of the log writes them first)
still commit with it: the history says what happened, and the chain verifies (domain/audit.py)."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, select

from domain import memories
from domain.actors import SYSTEM
from domain.audit_checkpoints import verify
from domain.enums import AuditAction, AuditTarget, MemoryType
from domain.models import AuditEvent, Memory
from domain.schemas import MemoryCreate, MemoryEdit
from persistence.uow import unit_of_work
from tests.factories import make_user


def history(engine: Engine) -> list[tuple[AuditAction, str | None]]:
    with unit_of_work(engine, read_only=True) as session:
        rows = session.scalars(
            select(AuditEvent).where(AuditEvent.target_type == AuditTarget.MEMORY).order_by(AuditEvent.seq)
        )
        return [(row.action, (row.after or {}).get("content")) for row in rows]


def chain_ok(engine: Engine) -> bool:
    with unit_of_work(engine, read_only=True) as session:
        report = verify(session, SYSTEM, full=True)
    return report.ok


class Undo(Exception):
    pass


def test_an_edit_in_a_rolled_back_savepoint_leaves_no_event(engine: Engine) -> None:
    athlete = make_user(engine, "alex")
    with unit_of_work(engine) as session:
        kept = memories.add_memory(
            session, athlete, data=MemoryCreate(content="Likes hills", type=MemoryType.PREFERENCE)
        )
    with unit_of_work(engine) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content="Trains at noon", type=MemoryType.CONTEXT))
        with pytest.raises(Undo), session.begin_nested():
            memories.edit_memory(
                session, athlete, memory_id=kept.id, changes=MemoryEdit(content="Hates hills"), expected_version=1
            )
            raise Undo()
    assert history(engine) == [(AuditAction.CREATE, "Likes hills"), (AuditAction.CREATE, "Trains at noon")]
    assert chain_ok(engine)
    with unit_of_work(engine, read_only=True) as session:  # the edit's row went back with the savepoint too
        assert sorted(session.scalars(select(Memory.content))) == ["Likes hills", "Trains at noon"]


def test_events_written_inside_a_rolled_back_savepoint_are_written_again_at_commit(engine: Engine) -> None:
    athlete = make_user(engine, "alex")
    with unit_of_work(engine) as session:
        first = memories.add_memory(
            session, athlete, data=MemoryCreate(content="Runs at dawn", type=MemoryType.CONTEXT)
        )
        with pytest.raises(Undo), session.begin_nested():
            memories.edit_memory(
                session, athlete, memory_id=first.id, changes=MemoryEdit(content="Runs at dusk"), expected_version=1
            )
            # Reading the history writes the queued events first (the add's and the edit's), in the savepoint.
            assert len(memories.memory_history(session, athlete, memory_id=first.id)) == 2
            raise Undo()
        memories.add_memory(session, athlete, data=MemoryCreate(content="Swims on Sundays", type=MemoryType.CONTEXT))
    assert history(engine) == [(AuditAction.CREATE, "Runs at dawn"), (AuditAction.CREATE, "Swims on Sundays")]
    assert chain_ok(engine)
    with unit_of_work(engine) as session:  # the next write chains onto what was committed
        memories.add_memory(session, athlete, data=MemoryCreate(content="Likes hills", type=MemoryType.PREFERENCE))
    assert chain_ok(engine)

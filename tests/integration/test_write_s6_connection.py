"""A write's statements run on its unit of work's own connection and transaction, also where the
write path takes that connection without Session.connection() (domain/prepared.py
session_connection, issue 9): a row changed in a savepoint goes back with the savepoint, a failed
transaction stays failed and commits nothing (an edit in a savepoint that is rolled back: test_write_s6_savepoint)."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, func, select
from sqlalchemy.exc import IntegrityError, PendingRollbackError

from domain import memories
from domain.enums import MemoryType
from domain.models import AuditEvent, Memory
from domain.prepared import session_connection
from domain.schemas import MemoryCreate
from persistence.uow import unit_of_work
from tests.factories import make_user


def stored(engine: Engine) -> tuple[list[str], int]:
    with unit_of_work(engine, read_only=True) as session:
        contents = sorted(session.scalars(select(Memory.content)))
        return contents, session.scalar(select(func.count()).select_from(AuditEvent)) or 0


def test_it_is_the_connection_the_session_runs_on(engine: Engine) -> None:
    athlete = make_user(engine, "alex")
    with unit_of_work(engine) as session:
        first = session_connection(session)  # begins the transaction, as session.connection() does
        assert first is session.connection()
        memories.add_memory(session, athlete, data=MemoryCreate(content="Runs before work", type=MemoryType.CONTEXT))
        assert session_connection(session) is first
        with session.begin_nested():
            assert session_connection(session) is session.connection() is first
    contents, _ = stored(engine)
    assert contents == ["Runs before work"]


def test_a_failed_transaction_is_not_written_on(engine: Engine) -> None:
    athlete = make_user(engine, "alex")
    with unit_of_work(engine) as session:
        kept = memories.add_memory(
            session, athlete, data=MemoryCreate(content="Likes hills", type=MemoryType.PREFERENCE)
        )
    with pytest.raises(PendingRollbackError), unit_of_work(engine) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content="Trains at noon", type=MemoryType.CONTEXT))
        session.add(Memory(id=kept.id, athlete_id=athlete.id))  # the same id again: the flush fails
        with pytest.raises(IntegrityError):
            session.flush()
        memories.add_memory(session, athlete, data=MemoryCreate(content="Swims on Sundays", type=MemoryType.CONTEXT))
    contents, events = stored(engine)
    assert contents == ["Likes hills"]
    assert events == 1

"""PostgreSQL: while a process's writers keep finding the audit chain's head held by another
transaction (several instances writing), a write of one event asks for the head and leaves its event
waiting in one statement (domain/audit.py _take_head_or_defer, issue 9): one round trip fewer for
most writes of 8 writer processes. What a user and an operator see stays the same: each change is
saved at once, its event waits signed and is chained in order by the next writer that gets the head,
and `audit verify` passes."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from domain import memories
from domain.actors import SYSTEM
from domain.audit_checkpoints import verify
from domain.enums import AuditTarget, MemoryType
from domain.models import AuditEvent, AuditPending, User
from domain.schemas import MemoryCreate, MemoryEdit
from persistence.audit_seal import FileSeal, seal_engine
from persistence.settings import Settings
from persistence.uow import unit_of_work
from tests.factories import make_user
from tests.integration.audit_helpers import head_held
from tests.statements import captured


@pytest.fixture
def sealed(postgres: Engine, tmp_path: Path) -> FileSeal:
    return seal_engine(postgres, Settings(database_url=str(postgres.url), data_dir=tmp_path))


def in_thread(work: Any) -> Any:
    """Run `work` in another thread (the held head is this thread's); it must not queue for the head."""
    results: list[Any] = []
    thread = threading.Thread(target=lambda: results.append(work()), daemon=True)
    thread.start()
    thread.join(20)
    assert not thread.is_alive(), "the writer queued for the head another transaction holds"
    return results[0]


def add(engine: Engine, athlete: User, content: str) -> tuple[int, int]:
    """The new memory's id, and how many statements the write ran."""
    with captured(engine) as statements, unit_of_work(engine) as session:
        memory_id = memories.add_memory(
            session, athlete, data=MemoryCreate(content=content, type=MemoryType.CONTEXT)
        ).id
    return memory_id, len(statements)


def waiting(engine: Engine) -> int:
    with engine.connect() as connection:
        return connection.scalar(select(func.count()).select_from(AuditPending)) or 0


def test_writes_that_find_the_head_held_run_one_statement_fewer_and_every_event_is_chained_in_order(
    postgres: Engine, sealed: FileSeal
) -> None:
    athlete = make_user(postgres, "alex")
    dawn, free = add(postgres, athlete, "Runs at dawn")  # the head free: asked for alone, the event chained
    free_edit = _edit(postgres, athlete, dawn, "Runs at dawn, edited")
    with head_held(postgres):
        first = in_thread(lambda: add(postgres, athlete, "Waiting fact 0"))
        later = [in_thread(lambda n=n: add(postgres, athlete, f"Waiting fact {n}")) for n in (1, 2)]
        edited = in_thread(
            lambda: _edit(postgres, athlete, first[0], "Waiting fact 0, edited"),
        )
        assert waiting(postgres) == 4  # saved at once, each event waiting
        with unit_of_work(postgres, read_only=True) as session:
            assert memories.get_memory(session, athlete, memory_id=first[0]).content == "Waiting fact 0, edited"
    assert first[1] == free  # the first to find it held asked for it alone, then wrote its event waiting
    assert {statements for _, statements in later} == {free - 1}  # the next ones: one statement for both
    assert edited == free_edit - 1
    # The next writer finds the head free in the same statement: it reads what waits and chains it (two
    # statements), then its own event, as a writer that asked for the head alone would.
    _, statements = add(postgres, athlete, "Chaining fact")
    assert statements == free + 2
    assert waiting(postgres) == 0
    _, statements = add(postgres, athlete, "After")  # no longer held: asked for alone again
    assert statements == free
    with unit_of_work(postgres, read_only=True) as session:
        contents = [
            (row.after or {}).get("content")
            for row in session.scalars(select(AuditEvent).order_by(AuditEvent.seq))
            if row.target_type == AuditTarget.MEMORY
        ]
    assert contents == [
        "Runs at dawn",
        "Runs at dawn, edited",
        "Waiting fact 0",
        "Waiting fact 1",
        "Waiting fact 2",
        "Waiting fact 0, edited",
        "Chaining fact",
        "After",
    ]
    with unit_of_work(postgres, read_only=True) as session:
        report = verify(session, SYSTEM, full=True)
    assert report.ok, report.summary()
    anchor = sealed.anchor()
    assert anchor is not None and anchor.seq == report.verified.seq


def _edit(engine: Engine, athlete: User, memory_id: int, content: str) -> int:
    with captured(engine) as statements, unit_of_work(engine) as session:
        memories.edit_memory(
            session, athlete, memory_id=memory_id, changes=MemoryEdit(content=content), expected_version=1
        )
    return len(statements)

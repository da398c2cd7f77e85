"""The statements one write runs (issue 9): each is a round trip on PostgreSQL and a statement's
worth of work on SQLite, so a write's cost follows their number. Pinned per write, with what the
write leaves behind (the memory, the proposal, a chain that verifies), so a change that adds one
is seen here first."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.orm import Session

from domain import memories, proposals
from domain.audit import verify_chain
from domain.enums import MemoryStatus, MemoryType, ProposalStatus
from domain.models import Memory, Proposal, User
from domain.schemas import MemoryCreate, MemoryEdit
from persistence.uow import unit_of_work
from tests.factories import make_pending_proposal


@contextmanager
def statements(engine: Engine) -> Iterator[list[str]]:
    """Each statement sent to the database meanwhile, by its first words (a table's name included)."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        seen.append(" ".join(sql.replace("(", " ").split()[:3]))

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def write(engine: Engine, work: Callable[[Session], Any]) -> tuple[Any, list[str]]:
    with statements(engine) as seen, unit_of_work(engine) as session:
        result = work(session)
    return result, seen


def audit_writes(seen: list[str]) -> list[str]:
    return [s for s in seen if "audit_events" in s or "audit_head" in s or s.startswith("WITH moved_head")]


def test_each_write_runs_its_few_statements_and_the_chain_verifies(engine: Engine, athlete: User) -> None:
    postgres = engine.dialect.name == "postgresql"
    # this process now knows the chain's head (SQLite)
    make_pending_proposal(engine, athlete, "Warm-up fact", "body:shin")

    added, seen = write(
        engine,
        lambda s: memories.add_memory(
            s, athlete, data=MemoryCreate(content="Left knee pain", type=MemoryType.INJURY_HISTORY, tags=["body:knee"])
        ),
    )
    assert len(seen) == 4, seen  # the memory, its tag row, the event and the head's move (PostgreSQL: try the head)
    memory_id = added.id

    _, seen = write(
        engine,
        lambda s: memories.edit_memory(
            s, athlete, memory_id=memory_id, changes=MemoryEdit(content="Left knee pain, long runs"), expected_version=1
        ),
    )
    assert len(seen) == 5, seen  # read the memory, then the add's four

    _, seen = write(engine, lambda s: memories.delete_memory(s, athlete, memory_id=memory_id))
    assert len(seen) == 5, seen

    new = make_pending_proposal(engine, athlete, "Right hip pain on hills", "body:hip")
    confirmed, seen = write(engine, lambda s: proposals.confirm(s, athlete, proposal_id=new))
    # lock the athlete (PostgreSQL), read the proposal, dedup's lookup, the memory and its tag row, the
    # proposal's decision, then its two events: with the head's move one statement on PostgreSQL
    assert len(seen) == (8 if postgres else 7), seen
    assert len(audit_writes(seen)) == 2, seen  # PostgreSQL: take the head, then events + move; SQLite: move, events
    if postgres:
        assert seen[-1].startswith("WITH moved_head"), seen

    again = make_pending_proposal(engine, athlete, "Right hip pain on hills", "body:hip")
    counted, seen = write(engine, lambda s: proposals.confirm(s, athlete, proposal_id=again))
    assert counted.id == confirmed.id
    assert len(seen) == (8 if postgres else 7), seen

    with unit_of_work(engine, read_only=True) as session:
        kept = session.get_one(Memory, confirmed.id)
        assert (kept.occurrences, kept.status) == (2, MemoryStatus.ACTIVE)
        assert session.get_one(Proposal, again).status == ProposalStatus.CONFIRMED
        report = verify_chain(session)
    assert report.ok, report.summary()

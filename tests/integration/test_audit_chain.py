"""The audit log's hash chain: it verifies, and any tampering is caught at the tampered event."""

from __future__ import annotations

from sqlalchemy import Engine, select, update

from domain import memories
from domain.audit import verify_chain
from domain.models import AuditEvent, User
from domain.schemas import MemoryEdit
from persistence.uow import unit_of_work
from tests.factories import make_memory


def history_of_changes(engine: Engine, athlete: User) -> list[int]:
    memory = make_memory(engine, athlete)
    for n in range(3):
        with unit_of_work(engine) as session:
            memories.edit_memory(
                session,
                athlete,
                memory_id=memory.id,
                expected_version=n + 1,
                changes=MemoryEdit(content=f"Version {n + 2}"),
            )
    with unit_of_work(engine, read_only=True) as session:
        return list(session.scalars(select(AuditEvent.seq).order_by(AuditEvent.seq)))


def verify(engine: Engine) -> tuple[bool, int | None, int]:
    with unit_of_work(engine, read_only=True) as session:
        report = verify_chain(session)
    return report.ok, report.first_bad_seq, report.events_checked


def test_an_untouched_chain_verifies(engine: Engine, athlete: User) -> None:
    seqs = history_of_changes(engine, athlete)
    assert seqs == [1, 2, 3, 4]
    assert verify(engine) == (True, None, 4)


def test_editing_a_stored_payload_fails_at_that_event(engine: Engine, athlete: User) -> None:
    history_of_changes(engine, athlete)
    with unit_of_work(engine) as session:
        event = session.get(AuditEvent, 3)
        assert event is not None
        event.after = {**(event.after or {}), "content": "Something the athlete never said"}
    assert verify(engine)[:2] == (False, 3)


def test_editing_a_stored_field_fails_at_that_event(engine: Engine, athlete: User) -> None:
    history_of_changes(engine, athlete)
    with unit_of_work(engine) as session:
        session.execute(update(AuditEvent).where(AuditEvent.seq == 2).values(actor_label="admin"))
    assert verify(engine)[:2] == (False, 2)


def test_deleting_an_event_fails_where_it_was(engine: Engine, athlete: User) -> None:
    history_of_changes(engine, athlete)
    with unit_of_work(engine) as session:
        event = session.get(AuditEvent, 2)
        session.delete(event)
    assert verify(engine)[:2] == (False, 3)


def test_reordering_events_fails_at_the_first_moved_one(engine: Engine, athlete: User) -> None:
    history_of_changes(engine, athlete)
    with unit_of_work(engine) as session:
        session.execute(update(AuditEvent).where(AuditEvent.seq == 2).values(seq=-2))
        session.execute(update(AuditEvent).where(AuditEvent.seq == 3).values(seq=2))
        session.execute(update(AuditEvent).where(AuditEvent.seq == -2).values(seq=3))
    assert verify(engine)[:2] == (False, 2)


def test_dropping_the_newest_event_is_caught(engine: Engine, athlete: User) -> None:
    history_of_changes(engine, athlete)
    with unit_of_work(engine) as session:
        session.delete(session.get(AuditEvent, 4))
    ok, first_bad, _ = verify(engine)
    assert (ok, first_bad) == (False, 4)


def test_hard_delete_redacts_content_and_the_chain_still_verifies(engine: Engine, athlete: User, admin: User) -> None:
    memory = make_memory(engine, athlete, content="Private surgery details")
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory.id)
    with unit_of_work(engine) as session:
        memories.hard_delete_memory(session, admin, memory_id=memory.id, reason="Athlete asked")
    assert verify(engine) == (True, None, 3)
    with unit_of_work(engine, read_only=True) as session:
        dump = repr([(e.before, e.after) for e in session.scalars(select(AuditEvent))])
    assert "Private surgery details" not in dump

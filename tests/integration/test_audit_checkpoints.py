"""Verify from a checkpoint: only the events after it are read, yet every tampering is still caught
(after the checkpoint, at the checkpoint's own event, and before it with --full)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, delete, select, update

from domain import audit, memories
from domain.actors import SYSTEM
from domain.audit import ChainReport
from domain.audit_checkpoints import StoredCheck, last_check, record, verify
from domain.enums import AuditAction, AuditTarget
from domain.models import AuditCheckpoint, AuditEvent, AuditHead, User
from domain.types import utcnow
from persistence.uow import unit_of_work
from tests.factories import make_memory
from tests.integration.test_audit_chain import history_of_changes


def check(engine: Engine, *, full: bool = False) -> tuple[ChainReport, StoredCheck]:
    """One run as the CLI and the Audit tab do it: a read-only check, then its result stored."""
    with unit_of_work(engine, read_only=True) as session:
        report = verify(session, SYSTEM, full=full)
    with unit_of_work(engine) as session:
        stored = record(session, SYSTEM, report)
    return report, stored


def add_events(engine: Engine, count: int) -> None:
    with unit_of_work(engine) as session:
        for n in range(count):
            audit.record(
                session,
                actor=SYSTEM,
                action=AuditAction.USER_CREATE,
                target_type=AuditTarget.USER,
                target_id=1000 + n,
                athlete_id=None,
                after={"username": f"user{n}"},
            )


def change(engine: Engine, seq: int, **values: Any) -> None:
    with unit_of_work(engine) as session:
        session.execute(update(AuditEvent).where(AuditEvent.seq == seq).values(**values))


def test_a_second_run_reads_only_the_events_after_the_checkpoint(engine: Engine, athlete: User) -> None:
    history_of_changes(engine, athlete)
    first, stored = check(engine)
    assert (first.ok, first.start_seq, first.events_checked, stored.seq, stored.full) == (True, 0, 4, 4, True)
    add_events(engine, 3)
    second, stored = check(engine)
    assert (second.ok, second.start_seq, second.events_checked, second.verified.seq) == (True, 4, 3, 7)
    assert second.summary() == "Audit chain verified up to event #7 (3 new since the checkpoint at #4)"
    assert (stored.ok, stored.seq, stored.full) == (True, 7, False)
    third, _ = check(engine)
    assert (third.start_seq, third.events_checked) == (7, 0)


def test_the_same_result_again_refreshes_the_stored_time_instead_of_adding_a_row(engine: Engine, athlete: User) -> None:
    history_of_changes(engine, athlete)
    _, first = check(engine)
    _, again = check(engine)
    assert again.verified_at >= first.verified_at and again.full  # the run that started at #1 still counts
    with unit_of_work(engine, read_only=True) as session:
        assert len(session.scalars(select(AuditCheckpoint)).all()) == 1


def test_a_change_after_the_checkpoint_is_caught(engine: Engine, athlete: User) -> None:
    history_of_changes(engine, athlete)
    check(engine)
    add_events(engine, 3)
    change(engine, 6, actor_label="admin")
    report, stored = check(engine)
    assert (report.ok, report.first_bad_seq, report.start_seq) == (False, 6, 4)
    assert (stored.ok, stored.seq, stored.problem) == (False, 6, "its recorded fields were changed")


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        ({"actor_label": "admin"}, "its recorded fields were changed"),
        ({"after": {"content": "Something never said"}}, "its before/after payload was changed"),
        ({"hash": "f" * 64}, "its hash differs from the one the checkpoint recorded"),
    ],
)
def test_a_change_to_the_checkpointed_event_is_caught(
    engine: Engine, athlete: User, values: dict[str, Any], problem: str
) -> None:
    history_of_changes(engine, athlete)
    check(engine)
    add_events(engine, 2)
    change(engine, 4, **values)
    report, _ = check(engine)
    assert (report.ok, report.first_bad_seq, report.problem) == (False, 4, problem)


def test_a_change_before_the_checkpoint_is_caught_by_a_full_run(engine: Engine, athlete: User) -> None:
    history_of_changes(engine, athlete)
    check(engine)
    change(engine, 2, reason="tampered")
    quick, _ = check(engine)
    assert quick.ok  # it read nothing before the checkpoint: that is what makes it quick
    full, stored = check(engine, full=True)
    assert (full.ok, full.first_bad_seq, stored.ok) == (False, 2, False)


def test_a_break_once_found_stands_until_a_run_over_it_passes(engine: Engine, athlete: User) -> None:
    history_of_changes(engine, athlete)
    check(engine)
    add_events(engine, 2)
    check(engine)  # a checkpoint at #6
    change(engine, 2, reason="tampered")
    check(engine, full=True)
    again, _ = check(engine)  # starts below the break, not from #6
    assert (again.ok, again.first_bad_seq, again.start_seq) == (False, 2, 0)
    with unit_of_work(engine, read_only=True) as session:
        standing = last_check(session, SYSTEM)
    assert standing is not None and (standing.ok, standing.seq) == (False, 2)
    change(engine, 2, reason=None)  # repaired (say, from a backup)
    repaired, stored = check(engine)
    assert (repaired.ok, stored.ok, stored.seq) == (True, True, 6)
    assert check(engine)[0].start_seq == 6


def test_cutting_the_chain_back_below_a_checkpoint_is_caught(engine: Engine, athlete: User) -> None:
    """Drop the newest events and rewind the head to match: the chain alone looks whole."""
    history_of_changes(engine, athlete)
    add_events(engine, 2)
    check(engine)  # a checkpoint at #6
    with unit_of_work(engine) as session:
        kept = session.scalars(select(AuditEvent).where(AuditEvent.seq == 4)).one()
        session.execute(delete(AuditEvent).where(AuditEvent.seq > 4))
        session.execute(update(AuditHead).values(seq=4, hash=kept.hash))
    assert not check(engine)[0].ok
    full, _ = check(engine, full=True)
    assert (full.ok, full.first_bad_seq) == (False, 5)
    assert full.problem == "event 6 was verified at a checkpoint and is now missing or changed"


def test_an_event_past_the_head_is_caught(engine: Engine, athlete: User) -> None:
    history_of_changes(engine, athlete)
    check(engine)
    with unit_of_work(engine) as session:
        newest = session.scalars(select(AuditEvent).where(AuditEvent.seq == 4)).one()
        session.add(
            AuditEvent(
                **{c.name: getattr(newest, c.name) for c in AuditEvent.__table__.columns if c.name != "seq"}, seq=5
            )
        )
    report, _ = check(engine)
    assert (report.ok, report.problem) == (False, "event 5 is past the head of the chain")


def test_hard_delete_after_a_checkpoint_redacts_and_still_verifies(engine: Engine, athlete: User, admin: User) -> None:
    memory = make_memory(engine, athlete, content="Private surgery details")
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory.id)
    check(engine)  # the checkpoint is the delete event, which the hard delete then redacts
    with unit_of_work(engine) as session:
        memories.hard_delete_memory(session, admin, memory_id=memory.id, reason="Athlete asked")
    report, _ = check(engine)
    assert (report.ok, report.start_seq, report.events_checked) == (True, 2, 1)
    assert check(engine, full=True)[0].ok


def test_the_stored_result_reads_as_the_tab_shows_it(engine: Engine, athlete: User) -> None:
    with unit_of_work(engine, read_only=True) as session:
        assert last_check(session, SYSTEM) is None
    history_of_changes(engine, athlete)
    check(engine)
    with unit_of_work(engine) as session:
        session.execute(update(AuditCheckpoint).values(verified_at=utcnow() - timedelta(minutes=3)))
    with unit_of_work(engine, read_only=True) as session:
        stored = last_check(session, SYSTEM)
    assert stored is not None and (stored.ok, stored.seq, stored.events_checked) == (True, 4, 4)
    assert utcnow() - stored.verified_at >= timedelta(minutes=3)

"""Promises a review found broken once: kept here so they stay kept."""

from __future__ import annotations

from sqlalchemy import Engine, select, update

from domain import memories, proposals
from domain.audit import verify_chain
from domain.audit_log import AuditFilter, audit_page
from domain.enums import MemoryStatus, MemoryType, SourceKind
from domain.ingest import ingest
from domain.models import AuditEvent, Memory, Proposal, User
from domain.schemas import MemoryCreate
from domain.visibility import with_inactive
from persistence.uow import unit_of_work
from tests.factories import make_memory
from ui.components.labels import summary_text


def send(engine: Engine, athlete: User, text: str, reference: str) -> list[Proposal]:
    with unit_of_work(engine) as session:
        return ingest(session, athlete=athlete, kind=SourceKind.USER_MESSAGE, reference=reference, text=text).proposals


def test_bulk_confirm_honours_keep_both(engine: Engine, athlete: User) -> None:
    old = make_memory(engine, athlete, "Occasional knee soreness", type=MemoryType.INJURY_HISTORY, tags=["body:knee"])
    [knee] = send(engine, athlete, "Left knee pain started around km 15 of the long run.", "a")
    [morning] = send(engine, athlete, "I prefer morning runs.", "b")
    with unit_of_work(engine) as session:
        proposals.confirm_many(session, athlete, proposal_ids=[knee.id, morning.id], keep_both=[knee.id])
    with unit_of_work(engine, read_only=True) as session:
        kept = session.get(Memory, old.id, execution_options=with_inactive())
        assert memories.list_memories(session, athlete).total == 3
    assert kept is not None and kept.status == MemoryStatus.ACTIVE


def test_hard_delete_removes_the_text_from_the_proposal_it_came_from(
    engine: Engine, athlete: User, admin: User
) -> None:
    [proposal] = send(engine, athlete, "I prefer morning runs.", "m1")
    with unit_of_work(engine) as session:
        memory = proposals.confirm(session, athlete, proposal_id=proposal.id)
        memories.delete_memory(session, athlete, memory_id=memory.id)
    with unit_of_work(engine) as session:
        memories.hard_delete_memory(session, admin, memory_id=memory.id)
    with unit_of_work(engine, read_only=True) as session:
        stored = session.get(Proposal, proposal.id)
        events = session.scalars(select(AuditEvent).where(AuditEvent.target_type.in_(["memory", "proposal"]))).all()
        report = verify_chain(session)
    assert stored is not None and "morning" not in stored.content.lower()
    assert "morning" not in repr([(e.before, e.after, e.reason) for e in events]).lower()
    assert report.ok, report.summary()


def test_switching_on_the_redacted_flag_does_not_hide_tampering(engine: Engine, athlete: User) -> None:
    memory = make_memory(engine, athlete, "Has two kids")
    with unit_of_work(engine) as session:
        session.execute(
            update(AuditEvent)
            .where(AuditEvent.target_id == memory.id)
            .values(after={"content": "Has three kids, tampered"}, redacted=True)
        )
    with unit_of_work(engine, read_only=True) as session:
        report = verify_chain(session)
    assert (report.ok, report.first_bad_seq) == (False, 1)


def test_a_removed_memorys_id_is_never_given_to_another(
    engine: Engine, athlete: User, other_athlete: User, admin: User
) -> None:
    first = make_memory(engine, athlete, "Alex's private note")
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=first.id)
    with unit_of_work(engine) as session:
        memories.hard_delete_memory(session, admin, memory_id=first.id, reason="asked by alex")
    with unit_of_work(engine) as session:
        theirs = memories.add_memory(session, other_athlete, data=MemoryCreate(content="Sam's", type="context"))
    assert theirs.id != first.id
    with unit_of_work(engine, read_only=True) as session:
        history = memories.memory_history(session, other_athlete, memory_id=theirs.id)
    assert [(e.action, e.actor_label) for e in history] == [("create", "sam")]


def test_audit_text_search_finds_accented_words(engine: Engine, athlete: User, admin: User) -> None:
    with unit_of_work(engine) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content="Läuft gern früh am Morgen", type="preference"))
    with unit_of_work(engine) as session:
        found = audit_page(session, admin, filters=AuditFilter(text="früh"))
    assert len(found.rows) == 1


def test_the_audit_log_summarises_a_hard_delete_as_redacted(engine: Engine, athlete: User, admin: User) -> None:
    memory = make_memory(engine, athlete, "Private note")
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory.id)
    with unit_of_work(engine) as session:
        memories.hard_delete_memory(session, admin, memory_id=memory.id)
    with unit_of_work(engine) as session:
        newest = audit_page(session, admin).rows[0]
    assert (newest.action, summary_text(newest.summary)) == ("hard_delete", "Deleted permanently: (content redacted)")

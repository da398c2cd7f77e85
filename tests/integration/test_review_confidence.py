"""Confidence after the athlete's actions, undoing a reject, and what a memory replaced (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine, select

from domain import memories, proposals, replaced
from domain.content import normalize
from domain.enums import (
    AuditAction,
    AuditTarget,
    MemoryConfidence,
    MemorySource,
    MemoryStatus,
    MemoryType,
    ProposalStatus,
)
from domain.errors import InvalidInput, NotFound, PermissionDenied
from domain.import_marks import IMPORT_EXTRACTOR
from domain.models import AuditEvent, Memory, Proposal, User
from domain.schemas import MemoryEdit, ProposalEdit
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.uow import unit_of_work
from tests.factories import make_memory

LOW = MemoryConfidence.LOW
HIGH = MemoryConfidence.HIGH


def propose(
    engine: Engine,
    athlete: User,
    content: str,
    *,
    memory_type: MemoryType = MemoryType.PREFERENCE,
    tags: tuple[str, ...] = (),
    confidence: MemoryConfidence = LOW,
    extractor: str = "rules",
) -> int:
    with unit_of_work(engine) as session:
        proposal = Proposal(
            athlete_id=athlete.id,
            type=memory_type,
            content=content,
            normalized_content=normalize(content),
            source=MemorySource.USER_MESSAGE,
            confidence=confidence,
            tags=list(tags),
            extractor=extractor,
            status=ProposalStatus.PENDING,
            created_at=utcnow(),
        )
        return proposals.add_proposal(session, proposal, actor=athlete).id


def confirm(engine: Engine, athlete: User, proposal_id: int, edits: ProposalEdit | None = None) -> Memory:
    with unit_of_work(engine) as session:
        return proposals.confirm(session, athlete, proposal_id=proposal_id, edits=edits)


def stored(engine: Engine, memory_id: int) -> Memory:
    with unit_of_work(engine, read_only=True) as session:
        memory = session.get(Memory, memory_id, execution_options=with_inactive())
        assert memory is not None
        return memory


def test_confirming_a_low_proposal_makes_a_confirmed_memory(engine: Engine, athlete: User) -> None:
    memory = confirm(engine, athlete, propose(engine, athlete, "Prefers trail runs"))
    assert stored(engine, memory.id).confidence == HIGH


def test_confirming_one_seen_before_confirms_it_in_one_event(engine: Engine, athlete: User) -> None:
    existing = make_memory(engine, athlete, "Prefers trail runs", confidence=LOW)
    memory = confirm(engine, athlete, propose(engine, athlete, "Prefers trail runs"))
    after = stored(engine, existing.id)
    assert (memory.id, after.occurrences, after.confidence) == (existing.id, 2, HIGH)
    with unit_of_work(engine, read_only=True) as session:
        actions = session.scalars(
            select(AuditEvent.action).where(
                AuditEvent.target_type == AuditTarget.MEMORY, AuditEvent.target_id == existing.id
            )
        ).all()
    assert actions == [AuditAction.CREATE, AuditAction.COUNT_AGAIN]


def test_an_imported_proposal_confirmed_unchanged_keeps_its_files_confidence(engine: Engine, athlete: User) -> None:
    imported = propose(engine, athlete, "Sleeps badly before races", extractor=f"{IMPORT_EXTRACTOR}:m13")
    assert stored(engine, confirm(engine, athlete, imported).id).confidence == LOW
    edited = propose(engine, athlete, "Sleeps badly before big races", extractor=f"{IMPORT_EXTRACTOR}:m13")
    memory = confirm(engine, athlete, edited, ProposalEdit(content="Sleeps badly before every race"))
    assert stored(engine, memory.id).confidence == HIGH


def test_restoring_a_version_keeps_the_memory_confirmed(engine: Engine, athlete: User) -> None:
    memory = make_memory(engine, athlete, "Prefers morning runs", confidence=LOW, tags=["time:morning"])
    with unit_of_work(engine) as session:
        edited = memories.edit_memory(
            session,
            athlete,
            memory_id=memory.id,
            changes=MemoryEdit(content="Prefers early morning runs"),
            expected_version=memory.version,
        )
        version = edited.version
    with unit_of_work(engine, read_only=True) as session:
        first = memories.memory_history(session, athlete, memory_id=memory.id)[0]
    with unit_of_work(engine) as session:
        memories.revert_memory(session, athlete, memory_id=memory.id, event_seq=first.seq, expected_version=version)
    after = stored(engine, memory.id)
    assert (after.content, after.tags, after.confidence) == ("Prefers morning runs", ["time:morning"], HIGH)
    with unit_of_work(engine, read_only=True) as session:
        last = memories.memory_history(session, athlete, memory_id=memory.id)[-1]
    assert (last.action, (last.after or {})["confidence"]) == (AuditAction.REVERT, "high")  # the History agrees


def reject(engine: Engine, athlete: User, proposal_id: int) -> None:
    with unit_of_work(engine) as session:
        proposals.reject(session, athlete, proposal_id=proposal_id)


def test_the_athlete_can_undo_their_reject_and_it_is_audited(engine: Engine, athlete: User) -> None:
    proposal_id = propose(engine, athlete, "Prefers trail runs")
    reject(engine, athlete, proposal_id)
    with unit_of_work(engine) as session:
        reopened = proposals.reopen_rejected(session, athlete, proposal_id=proposal_id)
        assert (reopened.status, reopened.decided_at, reopened.decided_by_id) == (ProposalStatus.PENDING, None, None)
    with unit_of_work(engine, read_only=True) as session:
        assert [item.proposal.id for item in proposals.list_pending(session, athlete).items] == [proposal_id]
        event = session.scalars(
            select(AuditEvent).where(AuditEvent.target_id == proposal_id).order_by(AuditEvent.seq.desc())
        ).first()
    assert event is not None and event.action == AuditAction.PROPOSAL_REOPEN
    assert ((event.before or {})["status"], (event.after or {})["status"]) == ("rejected", "pending")
    assert stored(engine, confirm(engine, athlete, proposal_id).id).content == "Prefers trail runs"


def test_undoing_a_reject_is_for_its_own_athlete_soon_after(engine: Engine, athlete: User, other_athlete: User) -> None:
    proposal_id = propose(engine, athlete, "Prefers trail runs")
    with unit_of_work(engine) as session, pytest.raises(InvalidInput):
        proposals.reopen_rejected(session, athlete, proposal_id=proposal_id)  # still pending
    reject(engine, athlete, proposal_id)
    with unit_of_work(engine) as session, pytest.raises(NotFound):
        proposals.reopen_rejected(session, other_athlete, proposal_id=proposal_id)
    later = utcnow() + proposals.REOPEN_WINDOW + timedelta(seconds=1)
    with unit_of_work(engine) as session, pytest.raises(PermissionDenied):
        proposals.reopen_rejected(session, athlete, proposal_id=proposal_id, now=later)
    with unit_of_work(engine, read_only=True) as session:
        kept = session.get(Proposal, proposal_id)
        assert kept is not None and kept.status == ProposalStatus.REJECTED


def test_a_memory_reaches_the_ones_it_replaced(engine: Engine, athlete: User, other_athlete: User) -> None:
    knee = ("body:knee",)
    first = confirm(
        engine, athlete, propose(engine, athlete, "Sore knee", memory_type=MemoryType.INJURY_HISTORY, tags=knee)
    )
    second = confirm(
        engine,
        athlete,
        propose(engine, athlete, "Knee pain on hills", memory_type=MemoryType.INJURY_HISTORY, tags=knee),
    )
    third = confirm(
        engine,
        athlete,
        propose(engine, athlete, "Knee pain after long runs", memory_type=MemoryType.INJURY_HISTORY, tags=knee),
    )
    assert stored(engine, first.id).status == MemoryStatus.ARCHIVED
    with unit_of_work(engine, read_only=True) as session:
        assert [m.content for m in replaced.replaced_by(session, athlete, memory_id=third.id)] == [
            "Knee pain on hills",
            "Sore knee",
        ]
        assert [m.id for m in replaced.replaced_by(session, athlete, memory_id=second.id)] == [first.id]
        assert memories.memory_history(session, athlete, memory_id=first.id)[-1].action == AuditAction.SUPERSEDE
        with pytest.raises(NotFound):
            replaced.replaced_by(session, other_athlete, memory_id=third.id)

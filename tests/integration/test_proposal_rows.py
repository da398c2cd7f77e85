"""A proposal is read as one Core row and decided by one versioned UPDATE (domain/memory_writes.py):
the same object session.get gives, a stale version is an EditConflict and writes nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, select, text

from domain.enums import ProposalStatus, SourceKind
from domain.errors import EditConflict
from domain.ingest import ingest
from domain.memory_writes import change_proposal_row, load_proposal
from domain.models import AuditEvent, Proposal, User
from domain.proposals import reject
from persistence.uow import unit_of_work


def a_pending_proposal(engine: Engine, athlete: User) -> int:
    with unit_of_work(engine) as session:
        ingest(session, athlete=athlete, kind=SourceKind.USER_MESSAGE, reference="m1", text="I prefer morning runs")
    with unit_of_work(engine, read_only=True) as session:
        proposal_id = session.scalar(select(Proposal.id).where(Proposal.athlete_id == athlete.id))
    assert proposal_id is not None
    return proposal_id


def test_a_loaded_proposal_is_the_sessions_own(engine: Engine, athlete: User) -> None:
    proposal_id = a_pending_proposal(engine, athlete)
    with unit_of_work(engine, read_only=True) as session:
        proposal = load_proposal(session, proposal_id)
        assert proposal is not None and session.get(Proposal, proposal_id) is proposal
        assert proposal.status == ProposalStatus.PENDING and not session.dirty
        assert load_proposal(session, proposal_id + 1000) is None


def test_a_stale_version_is_an_edit_conflict_and_writes_nothing(engine: Engine, athlete: User) -> None:
    proposal_id = a_pending_proposal(engine, athlete)
    with unit_of_work(engine, read_only=True) as session:
        events = session.scalar(select(AuditEvent.seq).order_by(AuditEvent.seq.desc()).limit(1))
    with pytest.raises(EditConflict, match="meanwhile"), unit_of_work(engine) as session:
        proposal = load_proposal(session, proposal_id)
        assert proposal is not None
        session.execute(text("UPDATE proposals SET version = version + 1 WHERE id = :id"), {"id": proposal_id})
        change_proposal_row(session, proposal, {"status": ProposalStatus.REJECTED}, "decided meanwhile")
    with unit_of_work(engine, read_only=True) as session:
        stored = session.get_one(Proposal, proposal_id)
        assert (stored.status, stored.version) == (ProposalStatus.PENDING, 1)
        assert session.scalar(select(AuditEvent.seq).order_by(AuditEvent.seq.desc()).limit(1)) == events


def test_a_decision_writes_the_row_once_with_the_next_version(engine: Engine, athlete: User) -> None:
    proposal_id = a_pending_proposal(engine, athlete)
    with unit_of_work(engine) as session:
        reject(session, athlete, proposal_id=proposal_id)
    with unit_of_work(engine, read_only=True) as session:
        stored = session.get_one(Proposal, proposal_id)
        assert (stored.status, stored.version, stored.decided_by_id) == (ProposalStatus.REJECTED, 2, athlete.id)
        assert stored.decided_at is not None

"""Retention purge on SQLite and PostgreSQL: the run removes exactly what the dry run listed."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import Engine, select

from domain.actors import SYSTEM
from domain.audit import verify_chain
from domain.enums import AccessKind, MemoryConfidence, MemorySource, MemoryStatus, MemoryType, ProposalStatus
from domain.models import AccessEvent, AuditEvent, Memory, Proposal, User
from domain.retention import RetentionPeriods, plan_purge, run_purge
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.uow import unit_of_work
from tests.factories import make_memory
from tests.integration.admin_helpers import access_events, count

PERIODS = RetentionPeriods(archived_days=90, proposal_days=90, access_days=90)


def _archive(engine: Engine, owner: User, content: str, days_ago: int, superseded_by: int | None = None) -> Memory:
    """An archived memory as the proposals flow leaves it (built directly: this is test data)."""
    return make_memory(
        engine,
        owner,
        content,
        status=MemoryStatus.ARCHIVED,
        archived_at=utcnow() - timedelta(days=days_ago),
        superseded_by_id=superseded_by,
    )


def _proposal(engine: Engine, owner: User, status: ProposalStatus, decided_days_ago: int | None) -> int:
    now = utcnow()
    with unit_of_work(engine) as session:
        proposal = Proposal(
            athlete_id=owner.id,
            type=MemoryType.PREFERENCE,
            content="Prefers hills",
            normalized_content="prefers hills",
            source=MemorySource.USER_MESSAGE,
            confidence=MemoryConfidence.MEDIUM,
            tags=[],
            evidence=[],
            extractor="test",
            status=status,
            created_at=now - timedelta(days=200),
            decided_at=None if decided_days_ago is None else now - timedelta(days=decided_days_ago),
        )
        session.add(proposal)
        session.flush()
        return proposal.id


def _access(engine: Engine, kind: str, days_ago: int) -> int:
    with unit_of_work(engine) as session:
        event = AccessEvent(at=utcnow() - timedelta(days=days_ago), actor_label="x", kind=kind)
        session.add(event)
        session.flush()
        return event.id


def test_purge_removes_exactly_what_the_dry_run_listed(engine: Engine, athlete: User, admin: User) -> None:
    current = make_memory(engine, athlete, "Runs 18 km long runs")
    old_link = _archive(engine, athlete, "Runs 12 km long runs", 200)
    old = _archive(engine, athlete, "Runs 15 km long runs", 120, superseded_by=current.id)
    with unit_of_work(engine) as session:  # the older link points at the newer archived one
        older = session.get(Memory, old_link.id, execution_options=with_inactive())
        assert older is not None
        older.superseded_by_id = old.id
    recent = _archive(engine, athlete, "Runs 16 km long runs", 10)
    due_proposal = _proposal(engine, athlete, ProposalStatus.EXPIRED, 100)
    _proposal(engine, athlete, ProposalStatus.EXPIRED, 10)
    _proposal(engine, athlete, ProposalStatus.REJECTED, 150)
    _proposal(engine, athlete, ProposalStatus.PENDING, None)
    old_login = _access(engine, "login", 91)
    old_view = _access(engine, "admin_view_deleted", 120)
    _access(engine, "login_failed", 30)
    audit_before = count(engine, AuditEvent)

    with unit_of_work(engine) as session:
        plan = plan_purge(session, admin, periods=PERIODS)
    assert [item.memory_id for item in plan.archived] == [old_link.id, old.id]
    assert plan.proposal_ids == [due_proposal]
    assert plan.access_event_ids == [old_login, old_view]
    assert (plan.login_event_count, plan.other_access_count) == (1, 1)
    assert plan.lines()[0] == "Archived memories older than 90 days: 2"
    assert count(engine, AuditEvent) == audit_before  # the dry run changes nothing but the access log

    with unit_of_work(engine) as session:
        result = run_purge(session, admin, plan=plan)
    assert result.memory_ids == [old_link.id, old.id]
    assert result.proposal_ids == plan.proposal_ids
    assert result.access_event_ids == plan.access_event_ids

    with unit_of_work(engine, read_only=True) as session:
        left = set(session.scalars(select(Memory.id).execution_options(**with_inactive())))
        assert left == {current.id, recent.id}
        assert len(list(session.scalars(select(Proposal.id)))) == 3
        events = list(session.scalars(select(AuditEvent).order_by(AuditEvent.seq)))
        # Every earlier event is still there: the purge only appends.
        assert len(events) == audit_before + 3
        purges = [e for e in events if e.action == "purge"]
        assert [e.target_id for e in purges] == [old_link.id, old.id]
        assert all(e.before is not None and e.before["content"] is None for e in purges)
        assert events[-1].action == "retention_run"
        assert events[-1].after is not None and events[-1].after["archived_memories"] == 2
        # The surviving memory's own history is untouched.
        kept = [e for e in events if e.target_type == "memory" and e.target_id == current.id]
        assert kept and not any(e.redacted for e in kept)
        assert verify_chain(session).ok
    remaining_access = {e.id for e in access_events(engine)}
    assert old_login not in remaining_access and old_view not in remaining_access


def test_a_second_dry_run_finds_nothing_and_a_changed_item_is_spared(
    engine: Engine, athlete: User, admin: User
) -> None:
    archived = _archive(engine, athlete, "Runs 12 km long runs", 200)
    with unit_of_work(engine) as session:
        plan = plan_purge(session, admin, periods=PERIODS)
    assert len(plan.archived) == 1
    with unit_of_work(engine) as session:  # meanwhile, the memory is brought back
        memory = session.get(Memory, archived.id, execution_options=with_inactive())
        assert memory is not None
        memory.status, memory.archived_at = MemoryStatus.ACTIVE, None
    with unit_of_work(engine) as session:
        result = run_purge(session, admin, plan=plan)
    assert result.memory_ids == []
    with unit_of_work(engine) as session:
        assert plan_purge(session, admin, periods=PERIODS).is_empty


def test_periods_are_configurable_and_the_system_can_run_it(engine: Engine, athlete: User) -> None:
    _archive(engine, athlete, "Runs 12 km long runs", 40)
    _access(engine, "login", 40)
    with unit_of_work(engine) as session:
        default = plan_purge(session, SYSTEM, periods=PERIODS)
        short = plan_purge(session, SYSTEM, periods=RetentionPeriods(30, 30, 30))
    assert default.is_empty
    assert (len(short.archived), len(short.access_event_ids)) == (1, 1)
    with unit_of_work(engine) as session:
        run_purge(session, SYSTEM, plan=short)
    with unit_of_work(engine, read_only=True) as session:
        last = session.scalars(select(AuditEvent).order_by(AuditEvent.seq.desc())).first()
        assert last is not None and (last.action, last.actor_label) == ("retention_run", "system")
    assert access_events(engine, AccessKind.ADMIN_VIEW_RETENTION) == []

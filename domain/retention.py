"""Retention: what a purge would remove now (the plan), and the purge that removes exactly that.

Removed by a purge, each past its own period (persistence settings, default 90 days):
archived memories (by `archived_at`), expired proposals (by when they expired), access and
login events and the coaching system's reads (by `at`, the access-event period). Audit events
are never removed: the hash chain keeps every one, so memory-change events of memories that
still exist (and of those that do not) stay.

Archived memories leave one at a time, each with its own audit event (action `purge`) whose
payload keeps digests but not content, as a hard delete does; earlier events of the memory
are redacted the same way. The whole run then records one `retention_run` event with counts.
Proposals and access events are not memories and leave by id-bounded bulk deletes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, Select, delete, func, select
from sqlalchemy.orm import Session

from domain import audit
from domain.access_log import record_admin_view
from domain.actors import Actor, require_admin_or_system
from domain.coach_reads import purge_reads, reads_before
from domain.enums import LOGIN_KINDS, AccessKind, AuditAction, AuditTarget, MemoryStatus, ProposalStatus
from domain.memory_writes import remove_memory
from domain.models import AccessEvent, Memory, Proposal, User
from domain.types import utcnow
from domain.visibility import with_inactive

CHUNK = 500
SAMPLE = 20


@dataclass(frozen=True)
class RetentionPeriods:
    archived_days: int = 90
    proposal_days: int = 90
    access_days: int = 90


@dataclass(frozen=True)
class ArchivedItem:
    memory_id: int
    athlete_id: int
    content: str
    archived_at: datetime | None


@dataclass(frozen=True)
class PurgePlan:
    """What a purge would remove, computed at `now`. Running the plan removes exactly this."""

    now: datetime
    periods: RetentionPeriods
    archived: list[ArchivedItem]
    proposal_ids: list[int]
    access_event_ids: list[int]
    login_event_count: int
    other_access_count: int
    coach_read_ids: list[int] = field(default_factory=list)  # the coaching system's reads: access events too

    @property
    def archived_cutoff(self) -> datetime:
        return self.now - timedelta(days=self.periods.archived_days)

    @property
    def proposal_cutoff(self) -> datetime:
        return self.now - timedelta(days=self.periods.proposal_days)

    @property
    def access_cutoff(self) -> datetime:
        return self.now - timedelta(days=self.periods.access_days)

    @property
    def is_empty(self) -> bool:
        return not (self.archived or self.proposal_ids or self.access_event_ids or self.coach_read_ids)

    def lines(self) -> list[str]:
        return [
            f"Archived memories older than {self.periods.archived_days} days: {len(self.archived):,}",
            f"Expired proposals older than {self.periods.proposal_days} days: {len(self.proposal_ids):,}",
            f"Login events older than {self.periods.access_days} days: {self.login_event_count:,}",
            f"Access events older than {self.periods.access_days} days: {self.other_access_count:,}",
            f"Coach reads older than {self.periods.access_days} days: {len(self.coach_read_ids):,}",
        ]


@dataclass(frozen=True)
class PurgeResult:
    memory_ids: list[int]
    proposal_ids: list[int]
    access_event_ids: list[int]
    coach_read_ids: list[int] = field(default_factory=list)

    def lines(self) -> list[str]:
        removed = [
            f"Removed {len(self.memory_ids):,} archived memories, {len(self.proposal_ids):,} expired proposals "
            f"and {len(self.access_event_ids):,} access and login events."
        ]
        if self.coach_read_ids:
            removed.append(f"Removed {len(self.coach_read_ids):,} coach reads.")
        return removed


def plan_purge(
    session: Session,
    actor: Actor | None,
    *,
    periods: RetentionPeriods,
    now: datetime | None = None,
) -> PurgePlan:
    """The dry run, by an admin or the system. An admin's look at it is recorded (it shows
    archived memories' content)."""
    who = require_admin_or_system(actor)
    now = now or utcnow()
    probe = PurgePlan(now, periods, [], [], [], 0, 0)
    archived = [
        ArchivedItem(memory.id, memory.athlete_id, memory.content, memory.archived_at)
        for memory in session.scalars(_archived_query(probe.archived_cutoff))
    ]
    proposal_ids = list(
        session.scalars(
            select(Proposal.id)
            .where(Proposal.status == ProposalStatus.EXPIRED, _expired_at() < probe.proposal_cutoff)
            .order_by(Proposal.id)
        )
    )
    access_rows = session.execute(
        select(AccessEvent.id, AccessEvent.kind).where(AccessEvent.at < probe.access_cutoff).order_by(AccessEvent.id)
    ).all()
    logins = sum(1 for row in access_rows if row.kind in LOGIN_KINDS)
    plan = PurgePlan(
        now=now,
        periods=periods,
        archived=archived,
        proposal_ids=proposal_ids,
        access_event_ids=[row.id for row in access_rows],
        login_event_count=logins,
        other_access_count=len(access_rows) - logins,
        coach_read_ids=reads_before(session, probe.access_cutoff),
    )
    if isinstance(who, User):
        record_admin_view(
            session,
            who,
            kind=AccessKind.ADMIN_VIEW_RETENTION,
            athlete_ids=[item.athlete_id for item in archived[:SAMPLE]],
            detail="purge plan",
        )
    return plan


def run_purge(session: Session, actor: Actor | None, *, plan: PurgePlan) -> PurgeResult:
    """Remove what `plan` listed and is still due (an item restored or changed meanwhile stays)."""
    who = require_admin_or_system(actor)
    memory_ids = _purge_memories(session, who, plan)
    proposal_ids = _purge_proposals(session, plan)
    access_ids = _purge_access_events(session, plan)
    read_ids = purge_reads(session, plan.coach_read_ids, plan.access_cutoff)
    result = PurgeResult(memory_ids, proposal_ids, access_ids, read_ids)
    audit.record(
        session,
        actor=who,
        action=AuditAction.RETENTION_RUN,
        target_type=AuditTarget.RETENTION,
        target_id=None,
        athlete_id=None,
        after={
            "archived_memories": len(memory_ids),
            "expired_proposals": proposal_ids,
            "access_events": len(access_ids),
            "coach_reads": len(read_ids),
            "periods_days": [plan.periods.archived_days, plan.periods.proposal_days, plan.periods.access_days],
        },
    )
    return result


def _archived_query(cutoff: datetime) -> Select[Memory]:
    return (
        select(Memory)
        .where(Memory.status == MemoryStatus.ARCHIVED, Memory.archived_at < cutoff)
        .order_by(Memory.archived_at, Memory.id)
        .execution_options(**with_inactive())
    )


def _expired_at() -> ColumnElement[datetime]:
    return func.coalesce(Proposal.decided_at, Proposal.created_at)


def _purge_memories(session: Session, who: Actor, plan: PurgePlan) -> list[int]:
    wanted = [item.memory_id for item in plan.archived]
    due: list[Memory] = []
    for start in range(0, len(wanted), CHUNK):
        due += session.scalars(
            select(Memory)
            .where(
                Memory.id.in_(wanted[start : start + CHUNK]),
                Memory.status == MemoryStatus.ARCHIVED,
                Memory.archived_at < plan.archived_cutoff,
            )
            .execution_options(**with_inactive())
        )
    due.sort(key=lambda m: (m.archived_at or plan.now, m.id))  # oldest first: a chain's older links go first
    removed = [memory.id for memory in due]
    for memory in due:
        _purge_memory(session, who, memory, plan.periods.archived_days)
    return removed


def _purge_memory(session: Session, who: Actor, memory: Memory, days: int) -> None:
    remove_memory(
        session, who, memory, action=AuditAction.PURGE, reason=f"Retention: archived more than {days} days ago"
    )


def _purge_proposals(session: Session, plan: PurgePlan) -> list[int]:
    removed: list[int] = []
    for start in range(0, len(plan.proposal_ids), CHUNK):
        chunk = plan.proposal_ids[start : start + CHUNK]
        due = list(
            session.scalars(
                select(Proposal.id).where(
                    Proposal.id.in_(chunk),
                    Proposal.status == ProposalStatus.EXPIRED,
                    _expired_at() < plan.proposal_cutoff,
                )
            )
        )
        if due:
            session.execute(delete(Proposal).where(Proposal.id.in_(due)))
        removed += due
    return sorted(removed)


def _purge_access_events(session: Session, plan: PurgePlan) -> list[int]:
    removed: list[int] = []
    for start in range(0, len(plan.access_event_ids), CHUNK):
        chunk = plan.access_event_ids[start : start + CHUNK]
        due = list(
            session.scalars(
                select(AccessEvent.id).where(AccessEvent.id.in_(chunk), AccessEvent.at < plan.access_cutoff)
            )
        )
        if due:
            session.execute(delete(AccessEvent).where(AccessEvent.id.in_(due)))
        removed += due
    return sorted(removed)

"""Proposals: memories suggested by extraction, waiting for the athlete's decision."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import ColumnElement, Integer, bindparam, func, select
from sqlalchemy.orm import Session

from domain import audit, confidence
from domain.actors import SYSTEM, Actor, require_athlete
from domain.dedup import ConfirmPreview, Wanted, candidates, preview_one
from domain.enums import AuditAction, AuditTarget, MemoryConfidence, MemoryStatus, MemoryType, ProposalStatus
from domain.errors import InvalidInput, NotFound, PermissionDenied
from domain.import_marks import apply_import_marks, is_imported
from domain.memory_rows import RowReader, reading
from domain.memory_writes import (
    change_memory,
    change_proposal_row,
    count_again,
    insert_memory,
    load_proposal,
    new_memory,
    supersede,
)
from domain.models import Memory, Proposal, SourceText, User
from domain.schemas import ProposalEdit
from domain.types import utcnow

DEFAULT_MAX_AGE = timedelta(days=30)
REOPEN_WINDOW = timedelta(minutes=10)
"""How long the athlete can undo their own reject (the page's Undo); after it, the proposal stays rejected."""
TOO_LATE_TO_REOPEN = "Too late to undo this reject."
MAX_BULK = 1000
NOT_FOUND = "Proposal not found."
OnConflict = Literal["replace", "keep_both"]
_LOCK_ATHLETE = select(User.id).where(User.id == bindparam("athlete_id")).with_for_update(key_share=True)
DECISION_ACTIONS = {
    ProposalStatus.CONFIRMED: AuditAction.PROPOSAL_CONFIRM,
    ProposalStatus.REJECTED: AuditAction.PROPOSAL_REJECT,
    ProposalStatus.EXPIRED: AuditAction.PROPOSAL_EXPIRE,
}


@dataclass(frozen=True)
class PendingItem:
    proposal: Proposal
    source: SourceText | None
    preview: ConfirmPreview


@dataclass(frozen=True)
class PendingPage:
    items: list[PendingItem]
    total: int


def proposal_snapshot(proposal: Proposal) -> dict[str, object]:
    return {
        "content": proposal.content,
        "type": proposal.type.value,
        "tags": list(proposal.tags),
        "confidence": proposal.confidence.value,
        "status": proposal.status.value,
        "memory_id": proposal.memory_id,
        "source_text_id": proposal.source_text_id,
    }


def add_proposal(session: Session, proposal: Proposal, *, actor: Actor) -> Proposal:
    """Store a new pending proposal with its audit event."""
    session.add(proposal)
    session.flush()
    audit.record(
        session,
        actor=actor,
        action=AuditAction.PROPOSE,
        target_type=AuditTarget.PROPOSAL,
        target_id=proposal.id,
        athlete_id=proposal.athlete_id,
        after=proposal_snapshot(proposal),
    )
    return proposal


def _pending_filter(athlete_id: int, max_age: timedelta) -> list[ColumnElement[bool]]:
    return [
        Proposal.athlete_id == athlete_id,
        Proposal.status == ProposalStatus.PENDING,
        Proposal.created_at >= utcnow() - max_age,
    ]


_COUNT_PENDING = RowReader(
    select(func.count())
    .select_from(Proposal)
    .where(
        Proposal.athlete_id == bindparam("b_athlete_id", type_=Integer),
        Proposal.status == bindparam("b_status", type_=Proposal.status.type),
        Proposal.created_at >= bindparam("b_since", type_=Proposal.created_at.type),
    )
)


def count_pending(session: Session, actor: User | None, *, max_age: timedelta = DEFAULT_MAX_AGE) -> int:
    """`_pending_filter`'s count, by a statement built once (memory_rows.RowReader: the Context
    page reads it on every open)."""
    user = require_athlete(actor)
    values = {"b_athlete_id": user.id, "b_status": ProposalStatus.PENDING, "b_since": utcnow() - max_age}
    ((count,),) = _COUNT_PENDING.tuples(reading(session), values)
    return int(count or 0)


def list_pending(
    session: Session,
    actor: User | None,
    *,
    limit: int = 20,
    offset: int = 0,
    max_age: timedelta = DEFAULT_MAX_AGE,
) -> PendingPage:
    """Newest first, each with its evidence and what confirming it would do. Three queries,
    however many memories the athlete has (dedup looks up the page's candidates only)."""
    user = require_athlete(actor)
    where = _pending_filter(user.id, max_age)
    total = session.scalar(select(func.count()).select_from(Proposal).where(*where)) or 0
    rows = session.execute(
        select(Proposal, SourceText)
        .outerjoin(SourceText, SourceText.id == Proposal.source_text_id)
        .where(*where)
        .order_by(Proposal.created_at.desc(), Proposal.id.desc())
        .limit(max(1, min(limit, 200)))
        .offset(max(0, offset))
    ).all()
    index = candidates(session, user.id, [Wanted(p.content, p.type, p.tags) for p, _ in rows])
    items = [PendingItem(p, s, index.preview(p.content, p.type, p.tags)) for p, s in rows]
    return PendingPage(items=items, total=total)


def _own_pending(session: Session, user: User, proposal_id: int) -> Proposal:
    proposal = load_proposal(session, proposal_id)
    if proposal is None or proposal.athlete_id != user.id:
        raise NotFound(NOT_FOUND)
    if proposal.status != ProposalStatus.PENDING:
        raise InvalidInput(f"This proposal was already {proposal.status.value}.")
    return proposal


def preview_confirm(
    session: Session, actor: User | None, *, proposal_id: int, edits: ProposalEdit | None = None
) -> ConfirmPreview:
    user = require_athlete(actor)
    proposal = _own_pending(session, user, proposal_id)
    return preview_one(session, user.id, Wanted(*_decided_fields(proposal, edits)))


def _decided_fields(proposal: Proposal, edits: ProposalEdit | None) -> tuple[str, MemoryType, list[str]]:
    edits = edits or ProposalEdit()
    return (
        edits.content if edits.content is not None else proposal.content,
        edits.type if edits.type is not None else proposal.type,
        list(edits.tags) if edits.tags is not None else list(proposal.tags),
    )


def confirm(
    session: Session,
    actor: User | None,
    *,
    proposal_id: int,
    edits: ProposalEdit | None = None,
    on_conflict: OnConflict = "replace",
) -> Memory:
    """Apply a proposal: create a memory, count an existing one again, or supersede one."""
    user = require_athlete(actor)
    # One athlete's confirms queue here (PostgreSQL: FOR NO KEY UPDATE, which other writers' foreign-key
    # checks do not wait for), so two confirms of one fact count it twice instead of making two memories.
    # Taken first, before any memory row. SQLite's writers queue anyway (BEGIN IMMEDIATE): no statement.
    connection = session.connection()
    if connection.dialect.name != "sqlite":
        connection.execute(_LOCK_ATHLETE, {"athlete_id": user.id})
    proposal = _own_pending(session, user, proposal_id)
    edited = edits is not None and bool(edits.model_dump(exclude_none=True))
    decided = _decided_fields(proposal, edits)
    preview = preview_one(session, user.id, Wanted(*decided))
    reason = f"Confirmed proposal #{proposal.id}"
    replaced = preview.memory if preview.outcome == "replaces" and on_conflict == "replace" else None
    # What confirming does to confidence: domain.confidence.
    decided_confidence = confidence.on_confirm(
        proposal.confidence, imported_unchanged=is_imported(proposal) and not edited
    )
    if preview.outcome == "seen_before" and preview.memory is not None:
        memory = _count_again(session, user, preview.memory, decided_confidence, reason)
    else:
        occurrences = 1
        if replaced is not None:
            occurrences = preview.occurrences_after  # the replaced memory's count carries on
            reason += f", replacing memory #{replaced.id}"
        memory = _new_memory(session, user, proposal, decided, decided_confidence, occurrences, reason)
        if replaced is not None:
            supersede(session, user, replaced, by=memory)
    _decide(session, user, proposal, ProposalStatus.CONFIRMED, memory_id=memory.id)
    return memory


def _count_again(session: Session, user: User, memory: Memory, decided: MemoryConfidence, reason: str) -> Memory:
    """The same fact confirmed again: one more occurrence, and the athlete's confirmation (one event)."""
    if not confidence.confirmed(decided):
        return count_again(session, user, memory, reason=reason)  # the M13 rule of three
    changes = {"occurrences": memory.occurrences + 1, "confidence": decided}
    return change_memory(session, user, memory, action=AuditAction.COUNT_AGAIN, changes=changes, reason=reason)


def _new_memory(
    session: Session,
    user: User,
    proposal: Proposal,
    decided: tuple[str, MemoryType, list[str]],
    confidence: MemoryConfidence,
    occurrences: int,
    reason: str,
) -> Memory:
    content, memory_type, tags = decided
    now = utcnow()
    memory = new_memory(
        athlete_id=user.id,
        type=memory_type,
        content=content,
        source=proposal.source,
        source_reference=proposal.source_reference,
        confidence=confidence,
        occurrences=occurrences,
        tags=tags,
        status=MemoryStatus.ACTIVE,
        created_at=now,
        updated_at=now,
    )
    apply_import_marks(memory, proposal)  # an imported memory keeps its own dates (domain.import_marks)
    return insert_memory(session, user, memory, reason=reason)


def _decide(
    session: Session, actor: Actor, proposal: Proposal, status: ProposalStatus, *, memory_id: int | None = None
) -> None:
    _change(
        session,
        actor,
        proposal,
        DECISION_ACTIONS[status],
        conflict="This proposal was decided meanwhile (another tab or device).",
        status=status,
        decided_at=utcnow(),
        decided_by_id=actor.id if isinstance(actor, User) else None,
        memory_id=memory_id,
    )


def _change(
    session: Session,
    actor: Actor,
    proposal: Proposal,
    action: AuditAction,
    *,
    conflict: str,
    reason: str | None = None,
    **fields: object,
) -> None:
    """The one write path for a proposal's state: the row (version-checked) and its audit event."""
    before = proposal_snapshot(proposal)
    change_proposal_row(session, proposal, fields, conflict)
    audit.record(
        session,
        actor=actor,
        action=action,
        target_type=AuditTarget.PROPOSAL,
        target_id=proposal.id,
        athlete_id=proposal.athlete_id,
        before=before,
        after=proposal_snapshot(proposal),
        reason=reason,
    )


def reject(session: Session, actor: User | None, *, proposal_id: int) -> None:
    user = require_athlete(actor)
    _decide(session, user, _own_pending(session, user, proposal_id), ProposalStatus.REJECTED)


def _check_bulk(proposal_ids: Sequence[int]) -> list[int]:
    unique = list(dict.fromkeys(proposal_ids))
    if not unique:
        raise InvalidInput("Select at least one proposal.")
    if len(unique) > MAX_BULK:
        raise InvalidInput(f"Select at most {MAX_BULK} proposals at once.")
    return unique


def confirm_many(
    session: Session, actor: User | None, *, proposal_ids: Sequence[int], keep_both: Collection[int] = ()
) -> int:
    """Confirm a selection in one transaction: all of it or, on any error, none of it.

    Proposals listed in `keep_both` do not replace the memory they overlap with. Each one's
    dedup looks up its candidates after the ones before it were written, so it sees them.
    """
    user = require_athlete(actor)
    ids = _check_bulk(proposal_ids)
    for proposal_id in ids:
        on_conflict: OnConflict = "keep_both" if proposal_id in keep_both else "replace"
        confirm(session, user, proposal_id=proposal_id, on_conflict=on_conflict)
    return len(ids)


def reject_many(session: Session, actor: User | None, *, proposal_ids: Sequence[int]) -> int:
    user = require_athlete(actor)
    ids = _check_bulk(proposal_ids)
    for proposal_id in ids:
        reject(session, user, proposal_id=proposal_id)
    return len(ids)


def expire_stale(session: Session, *, max_age: timedelta = DEFAULT_MAX_AGE, now: datetime | None = None) -> int:
    """Mark pending proposals older than max_age as expired (each audited, by the system)."""
    cutoff = (now or utcnow()) - max_age
    stale = session.scalars(
        select(Proposal).where(Proposal.status == ProposalStatus.PENDING, Proposal.created_at < cutoff)
    ).all()
    for proposal in stale:
        _decide(session, SYSTEM, proposal, ProposalStatus.EXPIRED)
    return len(stale)


def reopen_rejected(session: Session, actor: User | None, *, proposal_id: int, now: datetime | None = None) -> Proposal:
    """Undo the athlete's own reject: the proposal is pending again, as it was (audited).

    Only the athlete who rejected it, within REOPEN_WINDOW of the reject; an expired, confirmed or
    pending proposal is left as it is. The proposal's age still counts from when it was proposed.
    """
    user = require_athlete(actor)
    proposal = own_recent_decision(
        session, user, proposal_id, ProposalStatus.REJECTED, now=now or utcnow(), too_late=TOO_LATE_TO_REOPEN
    )
    reopen(session, user, proposal, reason="Reject undone")
    return proposal


def own_recent_decision(
    session: Session, user: User, proposal_id: int, status: ProposalStatus, *, now: datetime, too_late: str
) -> Proposal:
    """The athlete's own proposal, decided `status` by them within REOPEN_WINDOW (what an Undo may undo)."""
    proposal = load_proposal(session, proposal_id)
    if proposal is None or proposal.athlete_id != user.id:
        raise NotFound(NOT_FOUND)
    if proposal.status != status:
        raise InvalidInput(f"This proposal is {proposal.status.value}, not {status.value}.")
    decided_at = proposal.decided_at
    if proposal.decided_by_id != user.id or decided_at is None or now - decided_at > REOPEN_WINDOW:
        raise PermissionDenied(too_late)
    return proposal


def reopen(session: Session, user: User, proposal: Proposal, *, reason: str) -> None:
    """The athlete's decision undone: the proposal is pending again, linked to no memory (audited)."""
    _change(
        session,
        user,
        proposal,
        AuditAction.PROPOSAL_REOPEN,
        conflict="This proposal changed meanwhile (another tab or device).",
        reason=reason,
        status=ProposalStatus.PENDING,
        decided_at=None,
        decided_by_id=None,
        memory_id=None,
    )

"""Undo of the athlete's own confirm, for a short while after it (the page's Undo).

A confirm did one of three things (domain.proposals.confirm): made a new memory, possibly
archiving the one it replaced; or counted an existing memory again. Undoing it puts back what
was there before and the proposal in "To review", as if it had never been decided:

- a new memory is removed for good (its text stays on the proposal, which is pending again); a
  memory it replaced is active again, as it was;
- a memory counted again gets its earlier count and confidence back.

Only while every memory the confirm touched is still as the confirm left it (its state equals
the state in the confirm's own audit event); after any other change the athlete edits or deletes
the memory instead. Each step is an audited change through the one write path
(domain.memory_writes). A selection is undone newest confirm first, so a confirm that counted
again a memory made by an earlier one in the same selection is undone before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from domain.actors import require_athlete
from domain.enums import AuditAction, AuditTarget, MemoryConfidence, MemoryStatus, ProposalStatus
from domain.errors import EditConflict, InvalidInput, PermissionDenied
from domain.memory_writes import change_memory, remove_memory, snapshot
from domain.models import AuditEvent, Memory, Proposal, User
from domain.proposals import DEFAULT_MAX_AGE, MAX_BULK, own_recent_decision, reopen
from domain.types import utcnow
from domain.visibility import with_inactive

TOO_LATE = "Too late to undo this confirm: edit or delete the memory instead."
TOO_OLD = (
    "Too late to undo: this suggestion is old enough to expire as soon as it is back, and the memory "
    "would be gone with it. Edit or delete the memory instead."
)
CHANGED_SINCE = "This memory changed after you confirmed it: edit or delete it instead."
REASON = "Confirm undone"
_VOLATILE = ("version",)  # changes with every write, whatever it changed


def undo_confirm(
    session: Session,
    actor: User | None,
    *,
    proposal_id: int,
    now: datetime | None = None,
    max_age: timedelta = DEFAULT_MAX_AGE,
) -> Proposal:
    """`max_age`: the age at which pending proposals expire (the app's setting)."""
    user = require_athlete(actor)
    # The same per-athlete queue as confirm (domain.proposals.confirm), taken first.
    session.execute(select(User.id).where(User.id == user.id).with_for_update(key_share=True))
    proposal = _own_confirmed(session, user, proposal_id, now or utcnow(), max_age)
    _lock_memories(session, [proposal])
    return _undo_one(session, user, proposal, _confirm_event(session, proposal).seq)


def undo_confirm_many(
    session: Session,
    actor: User | None,
    *,
    proposal_ids: Sequence[int],
    now: datetime | None = None,
    max_age: timedelta = DEFAULT_MAX_AGE,
) -> int:
    """Undo a selection's confirms in one transaction, newest first: all of them or none."""
    user = require_athlete(actor)
    ids = list(dict.fromkeys(proposal_ids))
    if not ids or len(ids) > MAX_BULK:
        raise InvalidInput(f"Choose between 1 and {MAX_BULK} proposals.")
    session.execute(select(User.id).where(User.id == user.id).with_for_update(key_share=True))
    moment = now or utcnow()
    confirmed = [_own_confirmed(session, user, proposal_id, moment, max_age) for proposal_id in ids]
    _lock_memories(session, confirmed)
    # Every audit read before the first write queues an event: a read after it writes the queue,
    # which takes the audit head (domain.audit), and the head is always the last lock.
    seqs = {proposal.id: _confirm_event(session, proposal).seq for proposal in confirmed}
    for proposal in sorted(confirmed, key=lambda p: seqs[p.id], reverse=True):
        _undo_one(session, user, proposal, seqs[proposal.id])
    return len(confirmed)


def _lock_memories(session: Session, proposals: Sequence[Proposal]) -> None:
    """Lock (PostgreSQL) the memories the confirms made or counted again, and those they replaced,
    before anything else: rows before the audit head, as every write path. An edit in another tab
    either committed before (the state check sees it) or waits for this undo."""
    made = [p.memory_id for p in proposals if p.memory_id is not None]
    if made:
        session.execute(
            select(Memory.id)
            .where(or_(Memory.id.in_(made), Memory.superseded_by_id.in_(made)))
            .order_by(Memory.id)
            .with_for_update()
            .execution_options(**with_inactive())
        )


def _own_confirmed(session: Session, user: User, proposal_id: int, now: datetime, max_age: timedelta) -> Proposal:
    proposal = own_recent_decision(session, user, proposal_id, ProposalStatus.CONFIRMED, now=now, too_late=TOO_LATE)
    if proposal.created_at < now - max_age:  # back in "To review" it would expire at once (domain.proposals)
        raise PermissionDenied(TOO_OLD)
    return proposal


def _confirm_event(session: Session, proposal: Proposal) -> AuditEvent:
    event = session.scalars(
        select(AuditEvent)
        .where(
            AuditEvent.target_type == AuditTarget.PROPOSAL,
            AuditEvent.target_id == proposal.id,
            AuditEvent.action == AuditAction.PROPOSAL_CONFIRM,
        )
        .order_by(AuditEvent.seq.desc())
        .limit(1)
    ).first()
    if event is None:
        raise InvalidInput(CHANGED_SINCE)
    return event


def _memory_event_before(session: Session, memory_id: int, seq: int) -> AuditEvent | None:
    return session.scalars(
        select(AuditEvent)
        .where(
            AuditEvent.target_type == AuditTarget.MEMORY,
            AuditEvent.target_id == memory_id,
            AuditEvent.seq < seq,
        )
        .order_by(AuditEvent.seq.desc())
        .limit(1)
    ).first()


def _unchanged_since(memory: Memory, event: AuditEvent) -> bool:
    def stable(state: dict[str, Any]) -> dict[str, Any]:
        return {name: value for name, value in state.items() if name not in _VOLATILE}

    return event.after is not None and stable(snapshot(memory)) == stable(event.after)


def _undo_one(session: Session, user: User, proposal: Proposal, confirm_seq: int) -> Proposal:
    memory = (
        session.get(Memory, proposal.memory_id, execution_options=with_inactive(), populate_existing=True)
        if proposal.memory_id is not None
        else None
    )
    made = _memory_event_before(session, memory.id, confirm_seq) if memory is not None else None
    if memory is None or made is None or not _unchanged_since(memory, made):
        raise EditConflict(CHANGED_SINCE)
    if made.action == AuditAction.COUNT_AGAIN and made.before is not None:
        change_memory(
            session,
            user,
            memory,
            action=AuditAction.CONFIRM_UNDO,
            changes={
                "occurrences": made.before["occurrences"],
                "confidence": MemoryConfidence(made.before["confidence"]),
            },
            reason=REASON,
        )
        reopen(session, user, proposal, reason=REASON)
    elif made.action in (AuditAction.CREATE, AuditAction.IMPORT):
        replaced = _replaced_by_this_confirm(session, memory, after_seq=made.seq, before_seq=confirm_seq)
        reopen(session, user, proposal, reason=REASON)  # unlinked first: the removal below redacts linked proposals
        for old in replaced:
            change_memory(
                session,
                user,
                old,
                action=AuditAction.CONFIRM_UNDO,
                touch=False,
                changes={"status": MemoryStatus.ACTIVE, "archived_at": None, "superseded_by_id": None},
                reason=REASON,
            )
        remove_memory(session, user, memory, action=AuditAction.HARD_DELETE, reason=REASON)
    else:
        raise EditConflict(CHANGED_SINCE)
    return proposal


def _replaced_by_this_confirm(session: Session, memory: Memory, *, after_seq: int, before_seq: int) -> list[Memory]:
    replaced = []
    for old in session.scalars(
        select(Memory).where(Memory.superseded_by_id == memory.id).execution_options(**with_inactive())
    ):
        event = _memory_event_before(session, old.id, before_seq)
        if event is None or event.seq < after_seq or event.action != AuditAction.SUPERSEDE:
            raise EditConflict(CHANGED_SINCE)
        if not _unchanged_since(old, event):
            raise EditConflict(CHANGED_SINCE)
        replaced.append(old)
    return replaced

"""The one write path for memories: every change is a row write plus one audit event.

No bulk update()/delete() statements on memories anywhere: they would bypass the
version check and the audit log.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from domain import audit, memory_tags
from domain.actors import Actor
from domain.dedup import HIGH_CONFIDENCE_OCCURRENCES
from domain.enums import AuditAction, AuditTarget, MemoryConfidence, MemoryStatus
from domain.errors import EditConflict
from domain.models import AuditEvent, Memory, Proposal
from domain.types import utcnow
from domain.visibility import with_inactive

CONTENT_FIELDS = ("content", "type", "tags", "confidence")
REDACTED_FIELDS = ("content", "tags")
REMOVED_TEXT = "(removed for good)"
CONFLICT_MESSAGE = "This memory changed meanwhile (another tab or device). Nothing was overwritten."


def snapshot(memory: Memory) -> dict[str, Any]:
    return {
        "content": memory.content,
        "type": memory.type.value,
        "tags": list(memory.tags),
        "confidence": memory.confidence.value,
        "occurrences": memory.occurrences,
        "source": memory.source.value,
        "source_reference": memory.source_reference,
        "status": memory.status.value,
        "superseded_by": memory.superseded_by_id,
        "hidden_from_coach": bool(memory.hidden_from_coach),
        "version": memory.version,
    }


def redacted(payload: dict[str, Any] | None) -> dict[str, Any] | None:
    if payload is None:
        return None
    return {**payload, **{field: None for field in REDACTED_FIELDS}, "redacted": True}


def insert_memory(
    session: Session,
    actor: Actor,
    memory: Memory,
    *,
    action: AuditAction = AuditAction.CREATE,
    reason: str | None = None,
) -> Memory:
    session.add(memory)
    session.flush()
    memory_tags.sync(session, memory, None, memory_tags.tag_state(memory))
    audit.record(
        session,
        actor=actor,
        action=action,
        target_type=AuditTarget.MEMORY,
        target_id=memory.id,
        athlete_id=memory.athlete_id,
        after=snapshot(memory),
        reason=reason,
    )
    return memory


def remove_memory(session: Session, actor: Actor, memory: Memory, *, action: AuditAction, reason: str | None) -> None:
    """Delete the row for good, with one audit event that names what it redacted.

    The memory's own audit payloads, and those of the proposals that became it, lose their
    content but keep their digests, so the chain still verifies; so do those proposal rows.
    Memories it superseded are unlinked.
    """
    memory_tags.sync(session, memory, memory_tags.tag_state(memory), None)
    proposals = session.scalars(select(Proposal).where(Proposal.memory_id == memory.id)).all()
    for proposal in proposals:
        proposal.content, proposal.normalized_content, proposal.tags = REMOVED_TEXT, "", []
    targets = [(AuditTarget.MEMORY, memory.id)] + [(AuditTarget.PROPOSAL, p.id) for p in proposals]
    redactions: dict[str, list[str | None]] = {}  # under the removal event's own hash (domain.audit)
    for target_type, target_id in targets:
        for event in session.scalars(
            select(AuditEvent).where(AuditEvent.target_type == target_type, AuditEvent.target_id == target_id)
        ):
            event.before, event.after, event.redacted = redacted(event.before), redacted(event.after), True
            redactions[str(event.seq)] = [audit.digest(event.before), audit.digest(event.after)]
    for linked in session.scalars(
        select(Memory).where(Memory.superseded_by_id == memory.id).execution_options(**with_inactive())
    ):
        linked.superseded_by_id = None
    audit.record(
        session,
        actor=actor,
        action=action,
        target_type=AuditTarget.MEMORY,
        target_id=memory.id,
        athlete_id=memory.athlete_id,
        before=redacted(snapshot(memory)),
        after={audit.REDACTED_PROPOSALS: [p.id for p in proposals], audit.REDACTED_EVENTS: redactions},
        reason=reason,
    )
    session.delete(memory)
    try:
        session.flush()
    except StaleDataError:
        raise EditConflict(CONFLICT_MESSAGE) from None


def change_memory(
    session: Session,
    actor: Actor,
    memory: Memory,
    *,
    action: AuditAction,
    changes: dict[str, Any],
    reason: str | None = None,
    expected_version: int | None = None,
    touch: bool = True,
) -> Memory:
    if expected_version is not None and memory.version != expected_version:
        raise EditConflict(CONFLICT_MESSAGE, current_version=memory.version)
    before, tags_before = snapshot(memory), memory_tags.tag_state(memory)
    for name, value in changes.items():
        setattr(memory, name, value)
    if touch:
        memory.updated_at = utcnow()
    try:
        session.flush()
    except StaleDataError:
        raise EditConflict(CONFLICT_MESSAGE) from None
    memory_tags.sync(session, memory, tags_before, memory_tags.tag_state(memory))
    audit.record(
        session,
        actor=actor,
        action=action,
        target_type=AuditTarget.MEMORY,
        target_id=memory.id,
        athlete_id=memory.athlete_id,
        before=before,
        after=snapshot(memory),
        reason=reason,
    )
    return memory


def count_again(session: Session, actor: Actor, memory: Memory, *, reason: str) -> Memory:
    """The same fact seen again: one more occurrence; from the M13 seed's threshold on, high confidence."""
    occurrences = memory.occurrences + 1
    changes: dict[str, Any] = {"occurrences": occurrences}
    if occurrences >= HIGH_CONFIDENCE_OCCURRENCES:
        changes["confidence"] = MemoryConfidence.HIGH
    return change_memory(session, actor, memory, action=AuditAction.COUNT_AGAIN, changes=changes, reason=reason)


def supersede(session: Session, actor: Actor, old: Memory, *, by: Memory) -> None:
    """A newer memory replaces `old`, which is archived and points to it."""
    change_memory(
        session,
        actor,
        old,
        action=AuditAction.SUPERSEDE,
        touch=False,
        changes={"status": MemoryStatus.ARCHIVED, "archived_at": utcnow(), "superseded_by_id": by.id},
        reason=f"Replaced by memory #{by.id}",
    )


def set_hidden_from_coach(
    session: Session, actor: Actor, memory: Memory, *, hidden: bool, expected_version: int | None = None
) -> Memory:
    """Hide a memory from the coach or show it again; it stays the athlete's, unchanged otherwise."""
    return change_memory(
        session,
        actor,
        memory,
        action=AuditAction.HIDE if hidden else AuditAction.UNHIDE,
        changes={"hidden_from_coach": hidden},
        expected_version=expected_version,
        touch=False,
    )

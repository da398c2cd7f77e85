"""Memory services. Each takes the acting user and checks permission itself; none commits."""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from domain import confidence, memory_lists
from domain.actors import require_admin, require_athlete, require_login
from domain.enums import (
    AuditAction,
    AuditTarget,
    MemorySource,
    MemoryStatus,
    MemoryType,
)
from domain.errors import InvalidInput, NotFound, PermissionDenied
from domain.memory_lists import owner_scope
from domain.memory_writes import (
    CONTENT_FIELDS,
    change_memory,
    insert_memory,
    load_memory,
    new_memory,
    remove_memory,
)
from domain.models import AuditEvent, Memory, User
from domain.schemas import MemoryCreate, MemoryEdit, clean_line
from domain.types import utcnow
from domain.visibility import with_inactive

UNDO_WINDOW = timedelta(days=30)
"""How long an athlete can bring back a memory they deleted themselves: the Undo bar and their
'Recently deleted' list share it (domain/recently_deleted.py); after it, an admin restores."""
# Listing lives in domain/memory_lists.py; these names stay reachable from here for this module's callers.
MAX_PAGE = memory_lists.MAX_PAGE
MemoryPage = memory_lists.MemoryPage
MemoryQuery = memory_lists.MemoryQuery
list_memories = memory_lists.list_memories
NOT_FOUND = "Memory not found."


def count_by_type(session: Session, actor: User | None, *, athlete_id: int | None = None) -> dict[MemoryType, int]:
    owner_id = owner_scope(actor, athlete_id)
    rows = session.execute(select(Memory.type, func.count()).where(Memory.athlete_id == owner_id).group_by(Memory.type))
    counts = {memory_type: 0 for memory_type in MemoryType}
    counts.update({row[0]: row[1] for row in rows})
    return counts


def get_memory(session: Session, actor: User | None, *, memory_id: int) -> Memory:
    """An athlete gets only their own active memory; an admin any memory in any state."""
    user = require_login(actor)
    if user.is_admin:
        memory = session.get(Memory, memory_id, execution_options=with_inactive())
    else:
        memory = session.get(Memory, memory_id)
        if memory is not None and (memory.athlete_id != user.id or memory.status != MemoryStatus.ACTIVE):
            memory = None
    if memory is None:
        raise NotFound(NOT_FOUND)
    return memory


def get_memories(session: Session, actor: User | None, *, memory_ids: Collection[int]) -> dict[int, Memory]:
    """What `get_memory` gives for each id, in one query; the ids it would refuse are left out."""
    user = require_login(actor)
    wanted = sorted(set(memory_ids))
    if not wanted:
        return {}
    stmt = select(Memory).where(Memory.id.in_(wanted))
    if user.is_admin:
        stmt = stmt.execution_options(**with_inactive())
    else:
        stmt = stmt.where(Memory.athlete_id == user.id, Memory.status == MemoryStatus.ACTIVE)
    return {memory.id: memory for memory in session.scalars(stmt)}


def _own_memory(
    session: Session, actor: User | None, memory_id: int, *, any_status: bool = False
) -> tuple[User, Memory]:
    user = require_athlete(actor)
    memory = load_memory(session, memory_id, any_status=any_status)
    if memory is None or memory.athlete_id != user.id:
        raise NotFound(NOT_FOUND)
    return user, memory


def add_memory(session: Session, actor: User | None, *, data: MemoryCreate) -> Memory:
    user = require_athlete(actor)
    now = utcnow()
    memory = new_memory(
        athlete_id=user.id,
        type=data.type,
        content=data.content,
        source=MemorySource.MANUAL,
        confidence=confidence.CONFIRMED,
        occurrences=1,
        tags=list(data.tags),
        status=MemoryStatus.ACTIVE,
        created_at=now,
        updated_at=now,
    )
    return insert_memory(session, user, memory)


def edit_memory(
    session: Session, actor: User | None, *, memory_id: int, changes: MemoryEdit, expected_version: int
) -> Memory:
    user, memory = _own_memory(session, actor, memory_id)
    values = changes.model_dump(exclude_none=True)
    # The athlete's own word is the strongest evidence there is (domain.confidence).
    values["confidence"] = confidence.CONFIRMED
    return change_memory(
        session, user, memory, action=AuditAction.EDIT, changes=values, expected_version=expected_version
    )


def delete_memory(
    session: Session, actor: User | None, *, memory_id: int, expected_version: int | None = None
) -> Memory:
    user, memory = _own_memory(session, actor, memory_id)
    return change_memory(
        session,
        user,
        memory,
        action=AuditAction.DELETE,
        changes={"status": MemoryStatus.DELETED, "deleted_at": utcnow(), "deleted_by_id": user.id},
        expected_version=expected_version,
        touch=False,
    )


def undo_delete(session: Session, actor: User | None, *, memory_id: int) -> Memory:
    user, memory = _own_memory(session, actor, memory_id, any_status=True)
    if memory.status != MemoryStatus.DELETED:
        raise NotFound(NOT_FOUND)
    if memory.deleted_by_id != user.id or memory.deleted_at is None or utcnow() - memory.deleted_at > UNDO_WINDOW:
        raise PermissionDenied("Too late to undo: ask an admin to restore this memory.")
    return change_memory(
        session,
        user,
        memory,
        action=AuditAction.UNDO_DELETE,
        changes={"status": MemoryStatus.ACTIVE, "deleted_at": None, "deleted_by_id": None},
        touch=False,
    )


def _any_memory(session: Session, memory_id: int) -> Memory:
    memory = session.get(Memory, memory_id, execution_options=with_inactive())
    if memory is None:
        raise NotFound(NOT_FOUND)
    return memory


def restore_memory(session: Session, actor: User | None, *, memory_id: int, reason: str | None = None) -> Memory:
    admin = require_admin(actor)
    memory = _any_memory(session, memory_id)
    if memory.status != MemoryStatus.DELETED:
        raise InvalidInput("Only a deleted memory can be restored.")
    return change_memory(
        session,
        admin,
        memory,
        action=AuditAction.RESTORE,
        changes={"status": MemoryStatus.ACTIVE, "deleted_at": None, "deleted_by_id": None},
        reason=_clean_reason(reason),
        touch=False,
    )


def hard_delete_memory(session: Session, actor: User | None, *, memory_id: int, reason: str | None = None) -> None:
    """Remove a soft-deleted memory for good; its audit payloads keep digests, lose content."""
    admin = require_admin(actor)
    memory = _any_memory(session, memory_id)
    if memory.status != MemoryStatus.DELETED:
        raise InvalidInput("Delete the memory first; only a deleted memory can be removed for good.")
    remove_memory(session, admin, memory, action=AuditAction.HARD_DELETE, reason=_clean_reason(reason))


def memory_history(session: Session, actor: User | None, *, memory_id: int) -> list[AuditEvent]:
    """The owner reads the history of active memories and of those a newer one replaced."""
    user = require_login(actor)
    memory = _any_memory(session, memory_id)
    readable = (MemoryStatus.ACTIVE, MemoryStatus.ARCHIVED)
    if not user.is_admin and (memory.athlete_id != user.id or memory.status not in readable):
        raise NotFound(NOT_FOUND)
    return list(
        session.scalars(
            select(AuditEvent)
            .where(
                AuditEvent.target_type == AuditTarget.MEMORY,
                AuditEvent.target_id == memory_id,
                AuditEvent.athlete_id == memory.athlete_id,
            )
            .order_by(AuditEvent.seq)
        )
    )


def revert_memory(
    session: Session, actor: User | None, *, memory_id: int, event_seq: int, expected_version: int
) -> Memory:
    """Bring back the content, type and tags the memory had after one event. Choosing a version is
    the athlete confirming it, so it is stored as confirmed whatever that version's confidence was
    (domain.confidence)."""
    user, memory = _own_memory(session, actor, memory_id)
    event = session.get(AuditEvent, event_seq)
    if event is None or event.target_type != AuditTarget.MEMORY or event.target_id != memory.id or not event.after:
        raise NotFound("That version of this memory was not found.")
    version = {name: event.after[name] for name in CONTENT_FIELDS}
    changes = {
        "content": version["content"],
        "type": MemoryType(version["type"]),
        "tags": list(version["tags"]),
        "confidence": confidence.CONFIRMED,
    }
    return change_memory(
        session,
        user,
        memory,
        action=AuditAction.REVERT,
        changes=changes,
        expected_version=expected_version,
        reason=f"Restored the version of event #{event_seq}",
    )


def _clean_reason(reason: str | None) -> str | None:
    return clean_line(reason, label="Reason", field="reason", limit=500)

"""Memory services. Each takes the acting user and checks permission itself; none commits."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Literal

from sqlalchemy import Select, case, func, select
from sqlalchemy.orm import Session

from domain.actors import require_admin, require_athlete, require_login
from domain.enums import (
    CONFIDENCE_RANK,
    AuditAction,
    AuditTarget,
    MemoryConfidence,
    MemorySource,
    MemoryStatus,
    MemoryType,
)
from domain.errors import InvalidInput, NotFound, PermissionDenied
from domain.memory_writes import (
    CONTENT_FIELDS,
    change_memory,
    insert_memory,
    remove_memory,
)
from domain.models import AuditEvent, Memory, User
from domain.schemas import MemoryCreate, MemoryEdit
from domain.search import text_match
from domain.types import utcnow
from domain.visibility import with_inactive

UNDO_WINDOW = timedelta(minutes=10)
MAX_PAGE = 200
NOT_FOUND = "Memory not found."
SortKey = Literal["updated", "confidence"]


@dataclass(frozen=True)
class MemoryQuery:
    types: frozenset[MemoryType] = field(default_factory=frozenset)
    sources: frozenset[MemorySource] = field(default_factory=frozenset)
    confidences: frozenset[MemoryConfidence] = field(default_factory=frozenset)
    text: str = ""
    sort: SortKey = "updated"
    limit: int = 50
    offset: int = 0


@dataclass(frozen=True)
class MemoryPage:
    items: list[Memory]
    total: int


def _owner_scope(actor: User | None, athlete_id: int | None) -> int:
    """The athlete whose memories the actor may read: their own, or any for an admin."""
    user = require_login(actor)
    if user.is_admin:
        if athlete_id is None:
            raise InvalidInput("Say whose memories to list.", field="athlete_id")
        return athlete_id
    if athlete_id is not None and athlete_id != user.id:
        raise NotFound("Athlete not found.")
    return user.id


def list_memories(
    session: Session,
    actor: User | None,
    *,
    query: MemoryQuery | None = None,
    athlete_id: int | None = None,
) -> MemoryPage:
    query = query or MemoryQuery()
    owner_id = _owner_scope(actor, athlete_id)
    stmt = select(Memory).where(Memory.athlete_id == owner_id)
    stmt = _filtered(session, stmt, query, owner_id)
    total = session.scalar(select(func.count()).select_from(stmt.subquery())) or 0
    limit = max(1, min(query.limit, MAX_PAGE))
    items = list(session.scalars(_sorted(stmt, query.sort).limit(limit).offset(max(0, query.offset))))
    return MemoryPage(items=items, total=total)


def _filtered(session: Session, stmt: Select[Memory], query: MemoryQuery, owner_id: int) -> Select[Memory]:
    if query.types:
        stmt = stmt.where(Memory.type.in_(query.types))
    if query.sources:
        stmt = stmt.where(Memory.source.in_(query.sources))
    if query.confidences:
        stmt = stmt.where(Memory.confidence.in_(query.confidences))
    if query.text.strip():
        stmt = stmt.where(text_match(session, query.text, owner_id))
    return stmt


def _sorted(stmt: Select[Memory], sort: SortKey) -> Select[Memory]:
    if sort == "confidence":
        rank = case(CONFIDENCE_RANK, value=Memory.confidence, else_=0)
        return stmt.order_by(rank.desc(), Memory.occurrences.desc(), Memory.updated_at.desc(), Memory.id)
    return stmt.order_by(Memory.updated_at.desc(), Memory.id.desc())


def count_by_type(session: Session, actor: User | None, *, athlete_id: int | None = None) -> dict[MemoryType, int]:
    owner_id = _owner_scope(actor, athlete_id)
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


def _own_memory(
    session: Session, actor: User | None, memory_id: int, *, any_status: bool = False
) -> tuple[User, Memory]:
    user = require_athlete(actor)
    options = with_inactive() if any_status else {}
    memory = session.get(Memory, memory_id, execution_options=options)
    if memory is None or memory.athlete_id != user.id:
        raise NotFound(NOT_FOUND)
    return user, memory


def add_memory(session: Session, actor: User | None, *, data: MemoryCreate) -> Memory:
    user = require_athlete(actor)
    now = utcnow()
    memory = Memory(
        athlete_id=user.id,
        type=data.type,
        content=data.content,
        source=MemorySource.MANUAL,
        confidence=MemoryConfidence.HIGH,
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
    # The athlete's own word is the strongest evidence there is.
    values["confidence"] = MemoryConfidence.HIGH
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
    """Bring back the content, type, tags and confidence the memory had after one event."""
    user, memory = _own_memory(session, actor, memory_id)
    event = session.get(AuditEvent, event_seq)
    if event is None or event.target_type != AuditTarget.MEMORY or event.target_id != memory.id or not event.after:
        raise NotFound("That version of this memory was not found.")
    version = {name: event.after[name] for name in CONTENT_FIELDS}
    changes = {
        "content": version["content"],
        "type": MemoryType(version["type"]),
        "tags": list(version["tags"]),
        "confidence": MemoryConfidence(version["confidence"]),
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
    if reason is None or not reason.strip():
        return None
    reason = " ".join(reason.split())
    if len(reason) > 500:
        raise InvalidInput("Reason: at most 500 characters.", field="reason")
    return reason

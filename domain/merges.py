"""Merging two near-duplicate memories of one athlete into one.

The athlete keeps one of the two (`keep_id`) with the wording they chose; the other is archived
and points to it (`superseded_by`), as a memory replaced by a newer one is (domain.dedup), so it
stays readable with its own history from the kept one's (domain.replaced). Both changes go
through the one write path (domain.memory_writes.change_memory): each is version-checked and
leaves its own audit event.

The kept memory gets both memories' tags (its own first), the sum of their occurrences, the
earlier of their creation dates, and stays hidden from the coach if either was. Choosing the
wording is the athlete's own word on it, so it is "Confirmed by you" (domain.confidence).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from domain import confidence
from domain.actors import require_athlete
from domain.enums import AuditAction, MemoryStatus
from domain.errors import InvalidInput, NotFound
from domain.memory_writes import change_memory
from domain.models import Memory, User
from domain.schemas import MemoryEdit, parse
from domain.types import utcnow

NOT_FOUND = "Memory not found."


def _own_active(session: Session, user: User, memory_id: int) -> Memory:
    memory = session.get(Memory, memory_id)  # the default filter leaves out deleted and archived ones
    if memory is None or memory.athlete_id != user.id or memory.status != MemoryStatus.ACTIVE:
        raise NotFound(NOT_FOUND)
    return memory


def merge_memories(
    session: Session,
    actor: User | None,
    *,
    keep_id: int,
    other_id: int,
    content: str | None = None,
    keep_version: int | None = None,
    other_version: int | None = None,
) -> Memory:
    """Merge `other_id` into `keep_id`, which gets `content` (default: its own); returns the kept memory."""
    user = require_athlete(actor)
    if keep_id == other_id:
        raise InvalidInput("Choose two different memories to merge.")
    keep = _own_active(session, user, keep_id)
    other = _own_active(session, user, other_id)
    merged = parse(
        MemoryEdit,
        content=keep.content if content is None else content,
        tags=list(keep.tags) + [tag for tag in other.tags if tag not in keep.tags],
    )
    assert merged.content is not None and merged.tags is not None  # both given above
    change_memory(
        session,
        user,
        other,
        action=AuditAction.SUPERSEDE,
        changes={"status": MemoryStatus.ARCHIVED, "archived_at": utcnow(), "superseded_by_id": keep.id},
        reason=f"Merged into memory #{keep.id}",
        expected_version=other_version,
        touch=False,
    )
    return change_memory(
        session,
        user,
        keep,
        action=AuditAction.MERGE,
        changes={
            "content": merged.content,
            "tags": merged.tags,
            "occurrences": keep.occurrences + other.occurrences,
            "confidence": confidence.CONFIRMED,
            "created_at": min(keep.created_at, other.created_at),
            "hidden_from_coach": bool(keep.hidden_from_coach or other.hidden_from_coach),
        },
        reason=f"Merged with memory #{other.id}",
        expected_version=keep_version,
    )

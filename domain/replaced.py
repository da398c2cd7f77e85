"""The memories a memory replaced: archived when a newer one superseded them (domain.dedup), still
readable by their athlete from the memory that replaced them, with their own history."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from domain.actors import require_login
from domain.enums import MemoryStatus
from domain.errors import NotFound
from domain.models import Memory, User
from domain.visibility import with_inactive

MAX_REPLACED = 50
"""At most this many, newest first: a chain of replacements longer than this is cut."""


def replaced_by(session: Session, actor: User | None, *, memory_id: int) -> list[Memory]:
    """What `memory_id` replaced, directly or through the memories it replaced, newest first.

    An athlete reads this for their own active or archived memory only (anything else is "not
    found"); an admin for any memory.
    """
    user = require_login(actor)
    memory = session.get(Memory, memory_id, execution_options=with_inactive())
    readable = (MemoryStatus.ACTIVE, MemoryStatus.ARCHIVED)
    if memory is None or (not user.is_admin and (memory.athlete_id != user.id or memory.status not in readable)):
        raise NotFound("Memory not found.")
    found: list[Memory] = []
    seen = {memory.id}
    frontier = [memory.id]
    while frontier and len(found) < MAX_REPLACED:
        rows = session.scalars(
            select(Memory)
            .where(
                Memory.superseded_by_id.in_(frontier),
                Memory.athlete_id == memory.athlete_id,
                Memory.status == MemoryStatus.ARCHIVED,
            )
            .order_by(Memory.archived_at.desc(), Memory.id.desc())
            .execution_options(**with_inactive())
        ).all()
        fresh = [row for row in rows if row.id not in seen]
        seen.update(row.id for row in fresh)
        found += fresh
        frontier = [row.id for row in fresh]
    return found[:MAX_REPLACED]

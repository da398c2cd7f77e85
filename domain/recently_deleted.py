"""An athlete's 'Recently deleted': the memories they deleted themselves within the undo window,
newest first, each brought back by `memories.undo_delete`. Older ones, and those an admin or
retention removed, are for an admin to restore."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from domain.actors import require_athlete
from domain.enums import MemoryStatus
from domain.memories import UNDO_WINDOW
from domain.models import Memory, User
from domain.types import utcnow
from domain.visibility import with_inactive

PAGE = 50


@dataclass(frozen=True)
class RecentlyDeleted:
    items: list[Memory]
    total: int


def list_recently_deleted(session: Session, actor: User | None, *, limit: int = PAGE) -> RecentlyDeleted:
    user = require_athlete(actor)
    mine = (
        Memory.athlete_id == user.id,
        Memory.status == MemoryStatus.DELETED,
        Memory.deleted_by_id == user.id,
        Memory.deleted_at >= utcnow() - UNDO_WINDOW,
    )
    inactive = with_inactive()  # on each statement run: the soft-delete filter would hide them all
    total = session.scalar(select(func.count(Memory.id)).where(*mine).execution_options(**inactive)) or 0
    page = (
        select(Memory)
        .where(*mine)
        .order_by(Memory.deleted_at.desc(), Memory.id.desc())
        .limit(max(1, min(limit, PAGE)))
        .execution_options(**inactive)
    )
    return RecentlyDeleted(list(session.scalars(page)), total)

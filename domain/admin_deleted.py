"""Soft-deleted memories across athletes, for the admin console: find, restore, remove.

Pages are offset-based with a total: the deleted set is small next to the audit log,
and an admin wants "page 2 of 7". One query per page, whatever its size.

A text search counts at most COUNT_CAP matches ("1,000+"): a common word is in tens of
thousands of deleted memories at a million, and counting them all would cost more than the
page itself, which reads the newest deletions first and stops when it is full.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import Select, String, func, select, type_coerce
from sqlalchemy.orm import Session, aliased

from domain.access_log import record_admin_view
from domain.actors import require_admin
from domain.enums import AccessKind, MemoryStatus, MemoryType
from domain.errors import InvalidInput, NotFound
from domain.memories import hard_delete_memory, restore_memory
from domain.models import Memory, User
from domain.paging import clamp_page, page_count
from domain.search import deleted_text_match, text_match
from domain.users import normalize_username
from domain.visibility import with_inactive

MAX_PAGE_SIZE = 100
COUNT_CAP = 1_000


@dataclass(frozen=True)
class DeletedQuery:
    text: str = ""
    athlete_id: int | None = None
    deleted_from: date | None = None  # inclusive, UTC day
    deleted_to: date | None = None  # inclusive, UTC day
    page: int = 1
    page_size: int = 25


@dataclass(frozen=True)
class DeletedRow:
    memory_id: int
    athlete_id: int
    athlete_username: str
    athlete_name: str
    content: str
    type: MemoryType
    deleted_at: datetime | None
    deleted_by: str | None


@dataclass(frozen=True)
class DeletedPage:
    rows: list[DeletedRow]
    total: int
    page: int
    page_size: int
    capped: bool = False  # more than `total` match: a text search counts no further than COUNT_CAP

    @property
    def pages(self) -> int:
        return page_count(self.total, self.page_size)


def day_start(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def list_deleted(session: Session, actor: User | None, *, query: DeletedQuery | None = None) -> DeletedPage:
    """Newest deletion first; records an access event for each athlete on the page."""
    admin = require_admin(actor)
    query = query or DeletedQuery()
    size = max(1, min(query.page_size, MAX_PAGE_SIZE))
    searching = bool(query.text.strip())
    across = searching and query.athlete_id is None and session.get_bind().dialect.name == "postgresql"
    # Across athletes on PostgreSQL, the count reads the words' index alone: its deleted entries already say
    # the status, so intersecting them with the status index's 50,000 entries was work thrown away.
    counting = _filtered(session, query, status_by_index=not across)
    counted = (counting.limit(COUNT_CAP + 1) if searching else counting).subquery()
    total = session.scalar(select(func.count()).select_from(counted).execution_options(**with_inactive())) or 0
    capped = searching and total > COUNT_CAP
    total = COUNT_CAP if capped else total
    page = clamp_page(query.page, total, size)
    # A common word (capped count): the page walks the deletions newest first and keeps the matches.
    stmt = _filtered(session, query, words_by_index=not (across and capped))
    owner, remover = aliased(User), aliased(User)
    rows_stmt = (
        stmt.join(owner, owner.id == Memory.athlete_id)
        .outerjoin(remover, remover.id == Memory.deleted_by_id)
        .add_columns(owner.username, owner.display_name, remover.username)
        .order_by(Memory.deleted_at.desc(), Memory.id.desc())
        .limit(size)
        .offset((page - 1) * size)
    )
    rows = [
        DeletedRow(
            memory_id=memory.id,
            athlete_id=memory.athlete_id,
            athlete_username=username,
            athlete_name=display_name,
            content=memory.content,
            type=memory.type,
            deleted_at=memory.deleted_at,
            deleted_by=deleted_by,
        )
        for memory, username, display_name, deleted_by in session.execute(rows_stmt)
    ]
    record_admin_view(
        session,
        admin,
        kind=AccessKind.ADMIN_VIEW_DELETED,
        athlete_ids=[r.athlete_id for r in rows],
        detail=f"page {page}",
    )
    return DeletedPage(rows=rows, total=total, page=page, page_size=size, capped=capped)


def _filtered(
    session: Session, query: DeletedQuery, *, status_by_index: bool = True, words_by_index: bool = True
) -> Select[Memory]:
    """The deleted memories `query` asks for. `status_by_index=False` / `words_by_index=False` write the status or
    the words so that no index can serve that condition, steering PostgreSQL's plan (see list_deleted)."""
    is_deleted = (
        Memory.status == MemoryStatus.DELETED
        if status_by_index
        else type_coerce(Memory.status, String).concat("") == MemoryStatus.DELETED.value
    )
    stmt = select(Memory).where(is_deleted).execution_options(**with_inactive())
    if query.athlete_id is not None:
        stmt = stmt.where(Memory.athlete_id == query.athlete_id)
    if query.deleted_from is not None:
        stmt = stmt.where(Memory.deleted_at >= day_start(query.deleted_from))
    if query.deleted_to is not None:
        stmt = stmt.where(Memory.deleted_at < day_start(query.deleted_to + timedelta(days=1)))
    if query.text.strip() and query.athlete_id is not None:
        stmt = stmt.where(text_match(session, query.text, query.athlete_id))
    elif query.text.strip():
        # Across athletes: only deleted memories' entries of the index are read (domain/search.py).
        stmt = stmt.where(deleted_text_match(session, query.text, by_index=words_by_index))
    return stmt


def restore_selected(
    session: Session, actor: User | None, *, memory_ids: list[int], reason: str | None = None
) -> list[Memory]:
    """Restore each memory through the audited write path: one event per memory, all or none."""
    require_admin(actor)
    if not memory_ids:
        raise InvalidInput("Select at least one memory to restore.")
    return [restore_memory(session, actor, memory_id=mid, reason=reason) for mid in dict.fromkeys(memory_ids)]


def delete_permanently(
    session: Session, actor: User | None, *, memory_id: int, typed_username: str, reason: str | None = None
) -> None:
    """Hard delete, once the admin has typed the owning athlete's username to confirm."""
    require_admin(actor)
    memory = session.get(Memory, memory_id, execution_options=with_inactive())
    if memory is None:
        raise NotFound("Memory not found.")
    owner = session.get(User, memory.athlete_id)
    expected = owner.username if owner else ""
    if normalize_username(typed_username) != expected:
        raise InvalidInput(f"Type the athlete's username ({expected}) to confirm.", field="confirmation")
    hard_delete_memory(session, actor, memory_id=memory_id, reason=reason)

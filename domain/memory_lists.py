"""Reading an athlete's memories as lists: filters, search, sort, pages, one page per type.

The Context page asks for every shown type at once (`list_memories_by_type`): one grouped count
and one statement that takes each type's first page from the index on (athlete, status, type,
updated_at, id), so a page costs the rows it shows, not the athlete's whole store. "Show more"
continues after the last shown memory (`list_more`, keyset), never by OFFSET, which re-reads
every row it skips.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import ColumnElement, Select, and_, case, func, literal, or_, select, tuple_, union_all
from sqlalchemy.orm import Session

import domain.visibility  # noqa: F401  registers the active-only filter these queries rely on
from domain.actors import require_login
from domain.enums import CONFIDENCE_RANK, MemoryConfidence, MemorySource, MemoryType
from domain.errors import InvalidInput, NotFound
from domain.models import Memory, SourceText, User
from domain.search import text_match

MAX_PAGE = 200
SortKey = Literal["updated", "created", "alpha", "seen", "confidence"]
"""updated: last changed first (the default, read in index order); created: newest first; alpha: A–Z
by content, case folded by the database; seen: most often seen first; confidence: highest first.
`updated`, `created` and `seen` are read in the order of an index on (athlete, status, …);
`alpha` and `confidence` order the athlete's matching rows in the database. A page costs one
statement in every sort, and "Show more" goes on from the last shown row by keyset, never by OFFSET."""


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


@dataclass(frozen=True)
class MemoryCursor:
    """Where a page ended, in either sort order: the next page starts after this memory."""

    id: int
    updated_at: datetime
    confidence: MemoryConfidence
    occurrences: int
    created_at: datetime | None = None
    content: str = ""

    @classmethod
    def after(cls, memory: Memory) -> MemoryCursor:
        return cls(
            memory.id, memory.updated_at, memory.confidence, memory.occurrences, memory.created_at, memory.content
        )


def owner_scope(actor: User | None, athlete_id: int | None) -> int:
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
    """One page by OFFSET with the count of every match (for callers that want "page n of m")."""
    query = query or MemoryQuery()
    owner_id = owner_scope(actor, athlete_id)
    stmt = _filtered(session, query, owner_id)
    total = session.scalar(select(func.count()).select_from(stmt.subquery())) or 0
    items = list(
        session.scalars(stmt.order_by(*_order(query.sort)).limit(_limit(query.limit)).offset(max(0, query.offset)))
    )
    return MemoryPage(items=items, total=total)


def list_memories_by_type(
    session: Session,
    actor: User | None,
    *,
    query: MemoryQuery,
    limits: Mapping[MemoryType, int],
    athlete_id: int | None = None,
) -> dict[MemoryType, MemoryPage]:
    """The first page of each type in `limits`, with each type's count: two statements in all
    (one grouped count, one union of a limited page per type), however many types are shown."""
    owner_id = owner_scope(actor, athlete_id)
    wanted = {t: _limit(n) for t, n in limits.items()}
    if not wanted:
        return {}
    shared = _conditions(session, _of_types(query, ()), owner_id)
    counted = select(Memory.type, func.count()).where(Memory.type.in_(wanted), *shared).group_by(Memory.type)
    totals: dict[Any, int] = {row[0]: row[1] for row in session.execute(counted)}
    order = _order(query.sort)
    pages = [
        select(page.c.id)
        for t, n in wanted.items()
        if totals.get(t)
        for page in [select(Memory.id).where(Memory.type == t, *shared).order_by(*order).limit(n).subquery()]
    ]
    items: dict[MemoryType, list[Memory]] = {t: [] for t in wanted}
    if pages:
        for memory in session.scalars(select(Memory).where(Memory.id.in_(union_all(*pages))).order_by(*order)):
            items[memory.type].append(memory)
    return {t: MemoryPage(items=items[t], total=totals.get(t, 0)) for t in wanted}


@dataclass(frozen=True)
class MemoryView:
    """The Context page's list: the first page of the query (its types, or every type), with how
    many memories of each type match the other filters (for the type chips)."""

    items: list[Memory]
    total: int  # matches of the query, its type filter included
    counts: dict[MemoryType, int]  # matches per type, whatever the query's type filter


def memory_view(
    session: Session, actor: User | None, *, query: MemoryQuery, athlete_id: int | None = None
) -> MemoryView:
    """Two statements: one grouped count (from the index on athlete, status, type) and one page."""
    owner_id = owner_scope(actor, athlete_id)
    shared = _conditions(session, _of_types(query, ()), owner_id)
    counted = select(Memory.type, func.count()).where(*shared).group_by(Memory.type)
    counts: dict[MemoryType, int] = {MemoryType(row[0]): row[1] for row in session.execute(counted)}
    total = sum(n for t, n in counts.items() if not query.types or t in query.types)
    items: list[Memory] = []
    if total:
        stmt = _filtered(session, query, owner_id).order_by(*_order(query.sort)).limit(_limit(query.limit))
        items = list(session.scalars(stmt))
    return MemoryView(items=items, total=total, counts=counts)


def source_dates(session: Session, actor: User | None, memories: list[Memory]) -> dict[int, datetime]:
    """When each memory's source text (its activity note or message) arrived, by memory id; one
    statement on the (athlete, kind, reference) key. Memories without a stored source are left out."""
    references = {m.source_reference for m in memories if m.source_reference}
    if not references:
        return {}
    owners = {owner_scope(actor, m.athlete_id) for m in memories}
    rows = session.execute(
        select(SourceText.athlete_id, SourceText.reference, SourceText.received_at).where(
            SourceText.athlete_id.in_(owners), SourceText.reference.in_(references)
        )
    )
    received = {(athlete, reference): at for athlete, reference, at in rows}
    return {
        m.id: received[(m.athlete_id, m.source_reference)]
        for m in memories
        if m.source_reference and (m.athlete_id, m.source_reference) in received
    }


def list_more(
    session: Session,
    actor: User | None,
    *,
    query: MemoryQuery,
    after: MemoryCursor,
    athlete_id: int | None = None,
) -> list[Memory]:
    """The next `query.limit` memories after `after`, in the query's order (no count, no OFFSET)."""
    owner_id = owner_scope(actor, athlete_id)
    stmt = _filtered(session, query, owner_id).where(_after(query.sort, after))
    return list(session.scalars(stmt.order_by(*_order(query.sort)).limit(_limit(query.limit))))


def _of_types(query: MemoryQuery, types: Any) -> MemoryQuery:
    return MemoryQuery(
        types=frozenset(types), sources=query.sources, confidences=query.confidences, text=query.text, sort=query.sort
    )


def _limit(limit: int) -> int:
    return max(1, min(limit, MAX_PAGE))


def _filtered(session: Session, query: MemoryQuery, owner_id: int) -> Select[Any]:
    return select(Memory).where(*_conditions(session, query, owner_id))


def _conditions(session: Session, query: MemoryQuery, owner_id: int) -> list[ColumnElement[bool]]:
    conditions = [Memory.athlete_id == owner_id]
    if len(query.types) == 1:
        conditions.append(Memory.type == next(iter(query.types)))
    elif query.types:
        conditions.append(Memory.type.in_(query.types))
    if query.sources:
        conditions.append(Memory.source.in_(query.sources))
    if query.confidences:
        conditions.append(Memory.confidence.in_(query.confidences))
    if query.text.strip():
        conditions.append(text_match(session, query.text, owner_id))
    return conditions


def _rank() -> ColumnElement[int]:
    return case(CONFIDENCE_RANK, value=Memory.confidence, else_=0)


def _order(sort: SortKey) -> list[ColumnElement[Any]]:
    if sort == "confidence":
        return [_rank().desc(), Memory.occurrences.desc(), Memory.updated_at.desc(), Memory.id.asc()]
    if sort == "created":
        return [Memory.created_at.desc(), Memory.id.desc()]
    if sort == "alpha":
        return [func.lower(Memory.content).asc(), Memory.id.asc()]
    if sort == "seen":
        return [Memory.occurrences.desc(), Memory.updated_at.desc(), Memory.id.desc()]
    return [Memory.updated_at.desc(), Memory.id.desc()]


def _after(sort: SortKey, cursor: MemoryCursor) -> ColumnElement[bool]:
    if sort == "updated":
        # A row comparison: both databases walk the (..., updated_at, id) index from the cursor.
        return tuple_(Memory.updated_at, Memory.id) < (cursor.updated_at, cursor.id)  # typed as the columns
    if sort == "created":
        created = cursor.created_at or cursor.updated_at
        return or_(Memory.created_at < created, and_(Memory.created_at == created, Memory.id < cursor.id))
    if sort == "alpha":
        folded, after = func.lower(Memory.content), func.lower(literal(cursor.content))  # folded as the order is
        return or_(folded > after, and_(folded == after, Memory.id > cursor.id))
    if sort == "seen":
        return or_(
            Memory.occurrences < cursor.occurrences,
            and_(
                Memory.occurrences == cursor.occurrences,
                or_(
                    Memory.updated_at < cursor.updated_at,
                    and_(Memory.updated_at == cursor.updated_at, Memory.id < cursor.id),
                ),
            ),
        )
    rank = CONFIDENCE_RANK.get(cursor.confidence, 0)
    return or_(
        _rank() < rank,
        and_(
            _rank() == rank,
            or_(
                Memory.occurrences < cursor.occurrences,
                and_(
                    Memory.occurrences == cursor.occurrences,
                    or_(
                        Memory.updated_at < cursor.updated_at,
                        and_(Memory.updated_at == cursor.updated_at, Memory.id > cursor.id),
                    ),
                ),
            ),
        ),
    )

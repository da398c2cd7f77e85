"""Reading an athlete's memories as lists: filters, search, sort, pages, one page per type."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy import ColumnElement, Select, case, func, select
from sqlalchemy.orm import Session, aliased

from domain.actors import require_login
from domain.enums import CONFIDENCE_RANK, MemoryConfidence, MemorySource, MemoryType
from domain.errors import InvalidInput, NotFound
from domain.models import Memory, User
from domain.search import text_match

MAX_PAGE = 200
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
    query = query or MemoryQuery()
    owner_id = owner_scope(actor, athlete_id)
    stmt = _filtered(session, select(Memory).where(Memory.athlete_id == owner_id), query, owner_id)
    total = session.scalar(select(func.count()).select_from(stmt.subquery())) or 0
    limit = max(1, min(query.limit, MAX_PAGE))
    items = list(session.scalars(stmt.order_by(*_order(query.sort)).limit(limit).offset(max(0, query.offset))))
    return MemoryPage(items=items, total=total)


def list_memories_by_type(
    session: Session,
    actor: User | None,
    *,
    query: MemoryQuery,
    limits: Mapping[MemoryType, int],
    athlete_id: int | None = None,
) -> dict[MemoryType, MemoryPage]:
    """The first page of each type in `limits`, with each type's count: two queries in all
    (one grouped count, one ranked per type), however many types are shown."""
    owner_id = owner_scope(actor, athlete_id)
    wanted = {t: max(1, min(n, MAX_PAGE)) for t, n in limits.items()}
    if not wanted:
        return {}
    narrowed = MemoryQuery(
        types=frozenset(wanted), sources=query.sources, confidences=query.confidences, text=query.text, sort=query.sort
    )
    stmt = _filtered(session, select(Memory).where(Memory.athlete_id == owner_id), narrowed, owner_id)
    counted = stmt.subquery()
    totals: dict[Any, int] = {
        row[0]: row[1] for row in session.execute(select(counted.c.type, func.count()).group_by(counted.c.type))
    }
    rank = func.row_number().over(partition_by=Memory.type, order_by=_order(query.sort)).label("rank")
    ranked = stmt.add_columns(rank).subquery()
    memory = aliased(Memory, ranked)
    limit_of_type = case(dict(wanted), value=ranked.c.type, else_=0)
    rows = session.scalars(select(memory).where(ranked.c.rank <= limit_of_type).order_by(ranked.c.rank))
    items: dict[MemoryType, list[Memory]] = {t: [] for t in wanted}
    for row in rows:
        items[row.type].append(row)
    return {t: MemoryPage(items=items[t], total=totals.get(t, 0)) for t in wanted}


def _filtered(session: Session, stmt: Select[Any], query: MemoryQuery, owner_id: int) -> Select[Any]:
    if query.types:
        stmt = stmt.where(Memory.type.in_(query.types))
    if query.sources:
        stmt = stmt.where(Memory.source.in_(query.sources))
    if query.confidences:
        stmt = stmt.where(Memory.confidence.in_(query.confidences))
    if query.text.strip():
        stmt = stmt.where(text_match(session, query.text, owner_id))
    return stmt


def _order(sort: SortKey) -> list[ColumnElement[Any]]:
    if sort == "confidence":
        rank = case(CONFIDENCE_RANK, value=Memory.confidence, else_=0)
        return [rank.desc(), Memory.occurrences.desc(), Memory.updated_at.desc(), Memory.id.asc()]
    return [Memory.updated_at.desc(), Memory.id.desc()]

"""Reading an athlete's memories as lists: filters, search, sort, pages, one page per type.

The Context page reads one list (`memory_view`): one grouped count per type and one page, taken
from the index on (athlete, status, type, updated_at, id), so a page costs the rows it shows, not
the athlete's whole store (`list_memories_by_type`, a first page per type, is no longer on it). "Show more"
continues after the last shown memory (`list_more`, keyset), never by OFFSET, which re-reads
every row it skips. A search on PostgreSQL is counted up to COUNT_CAP matches ("1,000+" beyond),
and with more than that its pages read the athlete's rows in index order and keep the matches.

The Context page's reads (`memory_view`, `list_more`, `active_counts`, `source_dates`) run
statements built and compiled once per shape (how many values each filter has, the search's form,
the sort) with every value a bind parameter (domain/memory_rows.py's RowReader): the same SQL as
the ORM queries they replace (the soft-delete filter written out as the ORM's option adds it,
last), without building a select, its conditions and its cache key again on every page (issue 9:
several hundred microseconds of Python per statement, in the page's worker thread, holding the
interpreter lock the event loop needs). Memories come back as the session's objects
(load_memories), since the page edits and deletes through them; counts and dates as values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from typing import Any, Literal, cast

from sqlalchemy import (
    ColumnElement,
    Integer,
    Select,
    String,
    Table,
    and_,
    bindparam,
    case,
    func,
    literal_column,
    or_,
    select,
    tuple_,
    union_all,
)
from sqlalchemy.orm import Session

from domain.actors import require_login
from domain.enums import CONFIDENCE_RANK, MemoryConfidence, MemorySource, MemoryType
from domain.errors import InvalidInput, NotFound
from domain.memory_rows import RowReader, load_memories, reading
from domain.models import Memory, SourceText, User
from domain.search import MatchForm, match_condition, match_values, owner_column, reads_marked_index, text_match
from domain.visibility import VISIBLE  # also registers the active-only filter the ORM queries here rely on

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
    shared = _conditions(session, _of_types(query, ()), owner_id, typed=True)
    every_type = _conditions(session, _of_types(query, ()), owner_id)
    counted = select(Memory.type, func.count()).where(Memory.type.in_(wanted), *every_type).group_by(Memory.type)
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
    many memories of each type match the other filters (for the type chips).

    A search on PostgreSQL counts at most COUNT_CAP + 1 matches (see memory_view). `capped`: more
    than COUNT_CAP memories match the query, and `total` is COUNT_CAP + 1. `per_type`: `counts` holds
    every type's matches; False when more than COUNT_CAP match in all types together (then it is empty)."""

    items: list[Memory]
    total: int  # matches of the query, its type filter included
    counts: dict[MemoryType, int]  # matches per type, whatever the query's type filter
    capped: bool = False
    per_type: bool = True


COUNT_CAP = 1_000
"""A search on PostgreSQL counts its matches up to this many (and one more, to know there are more).
Its index of marked words (domain/search.py) tells which memories match, not their type or status,
so an exact count reads a table page for every match: for 'run' in 6,134 of the 17,723 memories of
the athlete with 20,000 (a million in all), 6,131 pages, 10-11 ms of server CPU for the count and as
much for the page. Counted to 1,001: about 1,000 pages (the words' index alone costs 2.5 ms). A list
that long is read a page at a time; "1,000+" says what matters. SQLite counts in its text index
and stays exact."""
_WALKED_SORTS = frozenset({"updated", "created", "seen"})  # read in the order of an index on (athlete, status, ...)


def memory_view(
    session: Session, actor: User | None, *, query: MemoryQuery, athlete_id: int | None = None
) -> MemoryView:
    """Two statements: one grouped count (from the index on athlete, status, type) and one page;
    a search on PostgreSQL with more than COUNT_CAP matches in all types and a type filter counts
    the filter's matches in a third."""
    owner_id = owner_scope(actor, athlete_id)
    shape, values = _shape(session, query, owner_id)
    if shape.search == "tsvector":
        return _searched_view(session, query, shape, values)
    counts = _counts(session, replace(shape, types=0), values)
    total = sum(n for t, n in counts.items() if not query.types or t in query.types)
    return MemoryView(items=_first_page(session, query, shape, values, total), total=total, counts=counts)


def _searched_view(session: Session, query: MemoryQuery, shape: ListShape, values: dict[str, Any]) -> MemoryView:
    """memory_view of a search on PostgreSQL: counted up to COUNT_CAP + 1 matches; with more, the page
    reads the athlete's rows in its sort's index order and keeps the matches (form tsvector_many)."""
    bounded = {**values, "b_cap": COUNT_CAP + 1}
    counts = _counts(session, replace(shape, types=0), bounded, reader=_bounded_counts_reader)
    per_type = sum(counts.values()) <= COUNT_CAP
    if per_type:
        total = sum(n for t, n in counts.items() if not query.types or t in query.types)
    elif query.types:
        total = _bounded_total_reader(shape).tuples(reading(session), bounded)[0][0]
    else:
        total = COUNT_CAP + 1
    capped = total > COUNT_CAP
    if capped and query.sort in _WALKED_SORTS:
        shape = replace(shape, search="tsvector_many")
    items = _first_page(session, query, shape, values, total)
    return MemoryView(items=items, total=total, counts=counts if per_type else {}, capped=capped, per_type=per_type)


def _first_page(
    session: Session, query: MemoryQuery, shape: ListShape, values: dict[str, Any], total: int
) -> list[Memory]:
    if not total:
        return []
    return load_memories(session, _page(shape, after=False), {**values, "b_limit": _limit(query.limit)})


def active_counts(session: Session, *, athlete_id: int) -> dict[MemoryType, int]:
    """How many active memories the athlete has of each type (every type, 0 where none). A building
    block: the caller has checked that its actor may read this athlete's memories (overview does)."""
    counts = dict.fromkeys(MemoryType, 0)
    counts.update(_counts(session, _ALL, {"b_athlete_id": athlete_id}))
    return counts


def source_dates(session: Session, actor: User | None, memories: list[Memory]) -> dict[int, datetime]:
    """When each memory's source text (its activity note or message) arrived, by memory id; one
    statement on the (athlete, kind, reference) key. Memories without a stored source are left out."""
    references = list({m.source_reference: None for m in memories if m.source_reference})
    if not references:
        return {}
    owners = list({owner_scope(actor, m.athlete_id): None for m in memories})
    values: dict[str, Any] = {f"b_owner_{n}": owner for n, owner in enumerate(owners)}
    values.update({f"b_reference_{n}": reference for n, reference in enumerate(references)})
    rows = _source_dates(len(owners), len(references)).tuples(reading(session), values)
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
    many: bool = False,
) -> list[Memory]:
    """The next `query.limit` memories after `after`, in the query's order (no count, no OFFSET).
    `many`: the search has more than COUNT_CAP matches (its MemoryView was `capped`), so on PostgreSQL
    the page reads the athlete's rows in index order and keeps the matches; the same memories either way."""
    owner_id = owner_scope(actor, athlete_id)
    shape, values = _shape(session, query, owner_id)
    if many and shape.search == "tsvector" and query.sort in _WALKED_SORTS:
        shape = replace(shape, search="tsvector_many")
    values.update(_after_values(query.sort, after))
    return load_memories(session, _page(shape, after=True), {**values, "b_limit": _limit(query.limit)})


def _of_types(query: MemoryQuery, types: Any) -> MemoryQuery:
    return MemoryQuery(
        types=frozenset(types), sources=query.sources, confidences=query.confidences, text=query.text, sort=query.sort
    )


def _limit(limit: int) -> int:
    return max(1, min(limit, MAX_PAGE))


def _filtered(session: Session, query: MemoryQuery, owner_id: int) -> Select[Any]:
    return select(Memory).where(*_conditions(session, query, owner_id))


def _conditions(
    session: Session, query: MemoryQuery, owner_id: int, *, typed: bool = False
) -> list[ColumnElement[bool]]:
    """The query's conditions (`typed`: the statement adds a type of its own)."""
    searched = reads_marked_index(session, query.text) and not (query.types or typed)
    conditions = [owner_column(searched=searched) == owner_id]
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


# ---- the statements of the Context page's reads, built once per shape ----

_MEMORIES = cast(Table, Memory.__table__)
MatchShape = MatchForm | Literal[""]


@dataclass(frozen=True)
class ListShape:
    """What a list statement's SQL depends on: how many values each filter has, the search's form
    ("" when there is no search), and the sort."""

    types: int
    sources: int
    confidences: int
    search: MatchShape
    sort: SortKey


_ALL = ListShape(0, 0, 0, "", "updated")


def _shape(session: Session, query: MemoryQuery, owner_id: int) -> tuple[ListShape, dict[str, Any]]:
    """The statement shape of `query` and its values, as `_conditions` would have them."""
    values: dict[str, Any] = {"b_athlete_id": owner_id}
    for prefix, chosen in (("b_type", query.types), ("b_source", query.sources), ("b_confidence", query.confidences)):
        values.update({f"{prefix}_{n}": value for n, value in enumerate(chosen)})
    search: MatchShape = ""
    if query.text.strip():
        search, matched = match_values(session, query.text, owner_id)
        values.update(matched)
    shape = ListShape(len(query.types), len(query.sources), len(query.confidences), search, query.sort)
    return shape, values


def _one_of(column: Any, prefix: str, count: int, *, equal_for_one: bool = False) -> list[ColumnElement[bool]]:
    """`column` equal to one of `count` bound values, as `_conditions` writes it (types: `==` for one)."""
    if not count:
        return []
    binds = [bindparam(f"{prefix}_{n}", type_=column.type) for n in range(count)]
    return [column == binds[0]] if count == 1 and equal_for_one else [column.in_(binds)]


# The soft-delete filter's status written into the statement, not bound: PostgreSQL plans a statement prepared by the
# driver once for any values after a few runs (when the plans it made for the values it saw cost more on average: a
# few searches for a common word do that), and with the status a parameter, that plan read every active memory's
# entry in the (status, deleted_at) index to intersect with a search's matches: 889,873 entries for 6,134 matches
# at a million memories, 16 of the count's 33 ms; with 'active' written in, it knows the condition leaves out little.
_VISIBLE = literal_column(f"'{VISIBLE.value}'", Memory.status.type)


def _where(shape: ListShape, *, after: bool) -> list[ColumnElement[bool]]:
    """`_conditions` as bind parameters (and `_after`), then the soft-delete filter where the ORM's
    option puts it (last)."""
    owner = owner_column(searched=shape.search == "tsvector" and not shape.types)
    conditions: list[ColumnElement[bool]] = [owner == bindparam("b_athlete_id", type_=Integer)]
    conditions += _one_of(Memory.type, "b_type", shape.types, equal_for_one=True)
    conditions += _one_of(Memory.source, "b_source", shape.sources)
    conditions += _one_of(Memory.confidence, "b_confidence", shape.confidences)
    if shape.search:
        conditions.append(match_condition(shape.search))
    if after:
        conditions.append(_after(shape.sort))
    conditions.append(Memory.status == _VISIBLE)
    return conditions


@lru_cache(maxsize=256)
def _counts_reader(shape: ListShape) -> RowReader:
    return RowReader(select(Memory.type, func.count()).where(*_where(shape, after=False)).group_by(Memory.type))


@lru_cache(maxsize=64)
def _bounded_counts_reader(shape: ListShape) -> RowReader:
    """_counts_reader's counts over the first b_cap matches found (in no particular order)."""
    matched = select(Memory.type).where(*_where(shape, after=False)).limit(bindparam("b_cap", type_=Integer))
    found = matched.subquery("matched")
    return RowReader(select(found.c.type, func.count()).group_by(found.c.type))


@lru_cache(maxsize=64)
def _bounded_total_reader(shape: ListShape) -> RowReader:
    """How many memories match the shape's conditions, its types included, up to b_cap."""
    matched = select(Memory.id).where(*_where(shape, after=False)).limit(bindparam("b_cap", type_=Integer))
    return RowReader(select(func.count()).select_from(matched.subquery("matched")))


def _counts(
    session: Session,
    shape: ListShape,
    values: dict[str, Any],
    *,
    reader: Callable[[ListShape], RowReader] = _counts_reader,
) -> dict[MemoryType, int]:
    rows = reader(shape).tuples(reading(session), values)
    return {MemoryType(memory_type): count for memory_type, count in rows}


@lru_cache(maxsize=256)
def _page(shape: ListShape, *, after: bool) -> RowReader:
    """A page of whole memory rows (b_limit of them), in the sort's order."""
    stmt = select(_MEMORIES).where(*_where(shape, after=after)).order_by(*_order(shape.sort))
    return RowReader(stmt.limit(bindparam("b_limit", type_=Integer)))


def _after(sort: SortKey) -> ColumnElement[bool]:
    """Where the page after a cursor starts, in the sort's order (keyset); the cursor's values are
    bind parameters (`_after_values`)."""
    updated = bindparam("b_after_updated_at", type_=Memory.updated_at.type)
    memory_id = bindparam("b_after_id", type_=Integer)
    if sort == "updated":
        # A row comparison: both databases walk the (..., updated_at, id) index from the cursor.
        return tuple_(Memory.updated_at, Memory.id) < tuple_(updated, memory_id)
    if sort == "created":
        created = bindparam("b_after_created_at", type_=Memory.created_at.type)
        return or_(Memory.created_at < created, and_(Memory.created_at == created, Memory.id < memory_id))
    if sort == "alpha":
        folded, content = func.lower(Memory.content), func.lower(bindparam("b_after_content", type_=String))
        return or_(folded > content, and_(folded == content, Memory.id > memory_id))
    occurrences = bindparam("b_after_occurrences", type_=Integer)
    if sort == "seen":
        return or_(
            Memory.occurrences < occurrences,
            and_(
                Memory.occurrences == occurrences,
                or_(Memory.updated_at < updated, and_(Memory.updated_at == updated, Memory.id < memory_id)),
            ),
        )
    rank = bindparam("b_after_rank", type_=Integer)
    return or_(
        _rank() < rank,
        and_(
            _rank() == rank,
            or_(
                Memory.occurrences < occurrences,
                and_(
                    Memory.occurrences == occurrences,
                    or_(Memory.updated_at < updated, and_(Memory.updated_at == updated, Memory.id > memory_id)),
                ),
            ),
        ),
    )


def _after_values(sort: SortKey, cursor: MemoryCursor) -> dict[str, Any]:
    values: dict[str, Any] = {"b_after_id": cursor.id}
    if sort == "created":
        values["b_after_created_at"] = cursor.created_at or cursor.updated_at
    elif sort == "alpha":
        values["b_after_content"] = cursor.content
    else:
        values["b_after_updated_at"] = cursor.updated_at
        if sort != "updated":
            values["b_after_occurrences"] = cursor.occurrences
        if sort == "confidence":
            values["b_after_rank"] = CONFIDENCE_RANK.get(cursor.confidence, 0)
    return values


@lru_cache(maxsize=64)
def _source_dates(owners: int, references: int) -> RowReader:
    columns = SourceText.athlete_id, SourceText.reference, SourceText.received_at
    return RowReader(
        select(*columns).where(
            SourceText.athlete_id.in_([bindparam(f"b_owner_{n}", type_=Integer) for n in range(owners)]),
            SourceText.reference.in_([bindparam(f"b_reference_{n}", type_=String) for n in range(references)]),
        )
    )

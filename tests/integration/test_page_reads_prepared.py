"""The Context page's reads run statements built once (domain/memory_lists.py, domain/overview.py,
domain/proposals.py, domain/search.py, the coach usage in domain/coach_reads.py, the user in
domain/users.py, issue 9). Each
gives exactly what the ORM query it replaced gave (written out here as it was), for an athlete
with memories of every type, source, confidence and state (deleted, archived, hidden from the
coach), ties in every sort, another athlete's rows beside them, pages of every size and their
edges, and searches: words, prefixes, no match, no words, another athlete's or a deleted memory's
word, and (on SQLite) a word common enough to be read the other way."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import ColumnElement, Engine, and_, case, func, literal, or_, select, tuple_
from sqlalchemy.orm import Session

from domain import memories, proposals
from domain.actors import SYSTEM
from domain.api_tokens import Caller, create_token
from domain.coach_context import set_hidden
from domain.coach_reads import Usage, record_read, usage_counts
from domain.enums import (
    CONFIDENCE_RANK,
    ApiScope,
    MemoryConfidence,
    MemorySource,
    MemoryStatus,
    MemoryType,
    ProposalStatus,
    SourceKind,
)
from domain.memory_lists import (
    MemoryCursor,
    MemoryQuery,
    SortKey,
    active_counts,
    list_more,
    memory_view,
    source_dates,
)
from domain.memory_writes import insert_memory
from domain.models import CoachRead, CoachReadMemory, Memory, Proposal, SourceText, User
from domain.overview import learned_per_week, overview, week_start
from domain.search import COMMON_MATCHES, text_match
from domain.types import utcnow
from domain.users import get_user
from persistence.uow import unit_of_work
from tests.factories import make_memory

SORTS: tuple[SortKey, ...] = ("updated", "created", "alpha", "seen", "confidence")
TYPES, SOURCES, CONFIDENCES = list(MemoryType), list(MemorySource), list(MemoryConfidence)
SEARCHES = ("knee", "KNEE pain", "kne", "calf knee", "zzqx", "!!", "marathon", "surgery", "Müdigkeit")
FILTERS = (
    {},
    {"types": frozenset([MemoryType.INJURY_HISTORY])},
    {"types": frozenset([MemoryType.PREFERENCE, MemoryType.CONTEXT])},
    {"sources": frozenset([MemorySource.MANUAL])},
    {"sources": frozenset([MemorySource.ACTIVITY_NOTE, MemorySource.USER_MESSAGE])},
    {"confidences": frozenset([MemoryConfidence.HIGH])},
    {
        "types": frozenset([MemoryType.INJURY_HISTORY, MemoryType.TRAINING_RESPONSE]),
        "sources": frozenset([MemorySource.ACTIVITY_NOTE]),
        "confidences": frozenset([MemoryConfidence.LOW, MemoryConfidence.MEDIUM]),
    },
)
COLUMNS = [column.key for column in Memory.__table__.columns]
USER_COLUMNS = [column.key for column in User.__table__.columns]
WORDS = ("Knee pain after long runs", "calf tightness", "knee AND Calf", "Prefers morning runs", "Müdigkeit nach")


# ---- the queries as they were (the ORM, its soft-delete filter, a statement built per call) ----


def old_conditions(session: Session, query: MemoryQuery, owner_id: int) -> list[ColumnElement[bool]]:
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


def old_rank() -> ColumnElement[int]:
    return case(CONFIDENCE_RANK, value=Memory.confidence, else_=0)


def old_order(sort: SortKey) -> list[ColumnElement[Any]]:
    if sort == "confidence":
        return [old_rank().desc(), Memory.occurrences.desc(), Memory.updated_at.desc(), Memory.id.asc()]
    if sort == "created":
        return [Memory.created_at.desc(), Memory.id.desc()]
    if sort == "alpha":
        return [func.lower(Memory.content).asc(), Memory.id.asc()]
    if sort == "seen":
        return [Memory.occurrences.desc(), Memory.updated_at.desc(), Memory.id.desc()]
    return [Memory.updated_at.desc(), Memory.id.desc()]


def old_after(sort: SortKey, cursor: MemoryCursor) -> ColumnElement[bool]:
    if sort == "updated":
        return tuple_(Memory.updated_at, Memory.id) < (cursor.updated_at, cursor.id)
    if sort == "created":
        created = cursor.created_at or cursor.updated_at
        return or_(Memory.created_at < created, and_(Memory.created_at == created, Memory.id < cursor.id))
    if sort == "alpha":
        folded, after = func.lower(Memory.content), func.lower(literal(cursor.content))
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
        old_rank() < rank,
        and_(
            old_rank() == rank,
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


def old_view(session: Session, user: User, query: MemoryQuery) -> tuple[list[Memory], int, dict[MemoryType, int]]:
    every_type = MemoryQuery(sources=query.sources, confidences=query.confidences, text=query.text, sort=query.sort)
    counted = (
        select(Memory.type, func.count()).where(*old_conditions(session, every_type, user.id)).group_by(Memory.type)
    )
    counts = {MemoryType(row[0]): row[1] for row in session.execute(counted)}
    total = sum(n for t, n in counts.items() if not query.types or t in query.types)
    items: list[Memory] = []
    if total:
        stmt = select(Memory).where(*old_conditions(session, query, user.id)).order_by(*old_order(query.sort))
        items = list(session.scalars(stmt.limit(max(1, min(query.limit, 200)))))
    return items, total, counts


def old_more(session: Session, user: User, query: MemoryQuery, after: MemoryCursor) -> list[Memory]:
    stmt = select(Memory).where(*old_conditions(session, query, user.id)).where(old_after(query.sort, after))
    return list(session.scalars(stmt.order_by(*old_order(query.sort)).limit(max(1, min(query.limit, 200)))))


def old_counts_by_type(session: Session, user: User) -> dict[MemoryType, int]:
    rows = session.execute(select(Memory.type, func.count()).where(Memory.athlete_id == user.id).group_by(Memory.type))
    counts = {memory_type: 0 for memory_type in MemoryType}
    counts.update({row[0]: row[1] for row in rows})
    return counts


def old_count_pending(session: Session, user: User, max_age: timedelta) -> int:
    since = utcnow() - max_age
    stmt = (
        select(func.count())
        .select_from(Proposal)
        .where(Proposal.athlete_id == user.id, Proposal.status == ProposalStatus.PENDING, Proposal.created_at >= since)
    )
    return session.scalar(stmt) or 0


def old_learned_per_week(session: Session, user: User, weeks: int, now: datetime) -> list[tuple[Any, int]]:
    first = week_start(now) - timedelta(weeks=weeks - 1)
    starts = [first + timedelta(weeks=i) for i in range(weeks)]
    bounds = [datetime(day.year, day.month, day.day, tzinfo=now.tzinfo) for day in starts]
    ends: list[datetime | None] = [*bounds[1:], None]
    created = Memory.created_at
    per_week = [
        func.sum(case((created >= start if end is None else and_(created >= start, created < end), 1), else_=0))
        for start, end in zip(bounds, ends, strict=True)
    ]
    stmt = select(*per_week).where(
        Memory.athlete_id == user.id, Memory.status == MemoryStatus.ACTIVE, created >= bounds[0]
    )
    row = session.execute(stmt).one()
    return [(week, int(count or 0)) for week, count in zip(starts, row, strict=True)]


def old_source_dates(session: Session, items: list[Memory]) -> dict[int, datetime]:
    references = {m.source_reference for m in items if m.source_reference}
    if not references:
        return {}
    owners = {m.athlete_id for m in items}
    rows = session.execute(
        select(SourceText.athlete_id, SourceText.reference, SourceText.received_at).where(
            SourceText.athlete_id.in_(owners), SourceText.reference.in_(references)
        )
    )
    received = {(athlete, reference): at for athlete, reference, at in rows}
    return {
        m.id: received[(m.athlete_id, m.source_reference)]
        for m in items
        if m.source_reference and (m.athlete_id, m.source_reference) in received
    }


# ---- the data ----


def old_usage_counts(session: Session, user: User, memory_ids: list[int]) -> dict[int, Usage]:
    rows = session.execute(
        select(CoachReadMemory.memory_id, func.count(), func.max(CoachRead.at))
        .join(CoachRead, CoachRead.id == CoachReadMemory.read_id)
        .where(CoachReadMemory.memory_id.in_(memory_ids), CoachRead.athlete_id == user.id)
        .group_by(CoachReadMemory.memory_id)
    )
    return {memory_id: Usage(count=count, last_at=last_at) for memory_id, count, last_at in rows}


def values_of(items: list[Memory]) -> list[dict[str, Any]]:
    return [{key: getattr(m, key) for key in COLUMNS} for m in items]


def new_memory(owner: User, index: int, at: datetime, **fields: Any) -> Memory:
    values: dict[str, Any] = {
        "athlete_id": owner.id,
        "type": TYPES[index % len(TYPES)],
        "content": f"{WORDS[index % len(WORDS)]} {index // 3}",  # ties in the alphabetical sort too
        "source": SOURCES[index % len(SOURCES)],
        "source_reference": f"note-{index % 7}" if index % 3 else None,
        "confidence": CONFIDENCES[index % len(CONFIDENCES)],
        "occurrences": 1 + index % 4,
        "tags": ["body:knee"] if index % 2 else [],
        "status": MemoryStatus.ACTIVE,
        "created_at": at - timedelta(days=index * 3, minutes=index % 5),
        "updated_at": at - timedelta(minutes=index // 4),  # four at a time share an update time
    }
    values.update(fields)
    return Memory(**values)


@pytest.fixture
def stored(engine: Engine, athlete: User, other_athlete: User) -> Iterator[User]:
    """60 memories of the athlete in every type, source and confidence, with ties in every sort;
    some hidden from the coach, some deleted, some archived; the other athlete's memories with the
    same words and references; source texts, coach reads and proposals of both."""
    now = utcnow()
    with unit_of_work(engine) as session:
        mine = [insert_memory(session, SYSTEM, new_memory(athlete, n, now)) for n in range(60)]
        for n in range(8):
            insert_memory(session, SYSTEM, new_memory(other_athlete, n, now))
        for n, status in enumerate([MemoryStatus.ARCHIVED, MemoryStatus.ARCHIVED]):
            insert_memory(session, SYSTEM, new_memory(athlete, 60 + n, now, status=status, archived_at=now))
        for owner in (athlete, other_athlete):
            for n in range(5):  # note-5 and note-6 are nobody's: those memories show no date
                kind = SourceKind.ACTIVITY_NOTE if n % 2 else SourceKind.USER_MESSAGE
                session.add(
                    SourceText(
                        athlete_id=owner.id,
                        kind=kind,
                        reference=f"note-{n}",
                        text=f"note {n}",
                        received_at=now - timedelta(days=n, hours=owner.id),
                    )
                )
        token = create_token(session, SYSTEM, name="coach", scopes=["read"]).token
        caller = Caller(token.id, token.name, frozenset([ApiScope.READ]))
        served = [m.id for m in mine[:12]]
        for n in range(4):
            at = now - timedelta(hours=n)
            record_read(session, caller, athlete_id=athlete.id, kind="context", memory_ids=served[n:], at=at)
        # another athlete's read that names the athlete's memories counts for neither
        record_read(session, caller, athlete_id=other_athlete.id, kind="context", memory_ids=served[:3], at=now)
        for owner, n, status, age in itertools.product(
            (athlete, other_athlete),
            range(3),
            (ProposalStatus.PENDING, ProposalStatus.REJECTED),
            (timedelta(days=1), timedelta(days=45)),
        ):
            proposals.add_proposal(
                session,
                Proposal(
                    athlete_id=owner.id,
                    source_text_id=None,
                    type=TYPES[n],
                    content=f"Proposal {n}",
                    normalized_content=f"proposal {n}",
                    source=MemorySource.USER_MESSAGE,
                    source_reference=None,
                    confidence=MemoryConfidence.MEDIUM,
                    tags=[],
                    evidence=[],
                    extractor="test",
                    status=status,
                    created_at=now - age,
                ),
                actor=SYSTEM,
            )
    with unit_of_work(engine) as session:
        for memory in mine[50:54]:
            memories.delete_memory(session, athlete, memory_id=memory.id)
        for memory in mine[40:46]:
            set_hidden(session, athlete, memory_id=memory.id, hidden=True)
    make_memory(engine, other_athlete, "Knee surgery in 2019", type=MemoryType.INJURY_HISTORY)
    gone = make_memory(engine, athlete, "Marathon training block", type=MemoryType.CONTEXT)
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=gone.id)
    yield athlete


def queries() -> Iterator[MemoryQuery]:
    for sort, filters in itertools.product(SORTS, FILTERS):
        for text in ("", *SEARCHES):
            for limit in (1, 20):
                yield MemoryQuery(text=text, sort=sort, limit=limit, **filters)
    for limit in (0, 56, 57, 500):  # nothing asked, every active one of the athlete's (56), more
        yield MemoryQuery(limit=limit)


# ---- the reads ----


def test_the_list_and_its_pages_are_what_the_orm_queries_read(engine: Engine, stored: User) -> None:
    compared = 0
    for query in queries():
        with unit_of_work(engine, read_only=True) as session:
            user = session.get(User, stored.id)
            old_items, old_total, old_counts = old_view(session, user, query)
            expected = values_of(old_items)
            session.expunge_all()  # the new read must load the rows itself, not find the old objects
            session.info.clear()  # and count a search's matches itself (domain.search._is_common)
            user = session.get(User, stored.id)
            view = memory_view(session, user, query=query)
            assert (view.total, view.counts) == (old_total, old_counts), query
            assert values_of(view.items) == expected, query
            assert all(m in session and not session.is_modified(m) for m in view.items)
            # "Show more" after every shown memory: the last, and ones inside the page (ties)
            for at in {0, len(view.items) // 2, len(view.items) - 1} if view.items else set():
                cursor = MemoryCursor.after(view.items[at])
                more = list_more(session, user, query=query, after=cursor)
                assert values_of(more) == values_of(old_more(session, user, query, cursor)), (query, at)
                compared += 1
    assert compared > 500


def test_show_more_reaches_the_end_as_the_orm_query_did(engine: Engine, stored: User) -> None:
    for sort in SORTS:
        query = MemoryQuery(sort=sort, limit=7)
        with unit_of_work(engine, read_only=True) as session:
            user = session.get(User, stored.id)
            shown = memory_view(session, user, query=query).items
            while True:
                cursor = MemoryCursor.after(shown[-1])
                old = values_of(old_more(session, user, query, cursor))
                more = list_more(session, user, query=query, after=cursor)
                assert values_of(more) == old, sort
                if not more:
                    break
                shown += more
            assert len(shown) == 56  # every active memory of the athlete, each once
            assert len({m.id for m in shown}) == 56


def test_a_search_of_a_common_word_reads_as_the_orm_query_did(engine: Engine, athlete: User) -> None:
    """More than COMMON_MATCHES matches: SQLite reads the list's index and keeps the matches."""
    now = utcnow()
    with unit_of_work(engine) as session:
        for n in range(COMMON_MATCHES + 5):
            word = "tempo" if n % 4 else "easy"
            insert_memory(session, SYSTEM, new_memory(athlete, n, now, content=f"{word} run number {n // 2}"))
    for text, sort in itertools.product(("tempo", "run", "easy run", "tem"), SORTS):
        query = MemoryQuery(text=text, sort=sort, limit=20)
        with unit_of_work(engine, read_only=True) as session:
            user = session.get(User, athlete.id)
            old_items, old_total, old_counts = old_view(session, user, query)
            expected = values_of(old_items)
            old_next = values_of(old_more(session, user, query, MemoryCursor.after(old_items[-1])))
            session.expunge_all()
            session.info.clear()
            user = session.get(User, athlete.id)
            view = memory_view(session, user, query=query)
            assert (view.total, view.counts, values_of(view.items)) == (old_total, old_counts, expected)
            more = list_more(session, user, query=query, after=MemoryCursor.after(view.items[-1]))
            assert values_of(more) == old_next


def test_the_overview_counts_are_what_the_orm_queries_read(engine: Engine, stored: User, other_athlete: User) -> None:
    now = utcnow()
    with unit_of_work(engine, read_only=True) as session:
        for user in (session.get(User, stored.id), session.get(User, other_athlete.id)):
            assert active_counts(session, athlete_id=user.id) == old_counts_by_type(session, user)
            for age in (timedelta(days=2), timedelta(days=30), timedelta(days=60)):
                assert proposals.count_pending(session, user, max_age=age) == old_count_pending(session, user, age)
            for weeks in (1, 12, 52):
                new = [(w.week_start, w.count) for w in learned_per_week(session, user, weeks=weeks, now=now)]
                assert new == old_learned_per_week(session, user, weeks, now)
        mine = active_counts(session, athlete_id=stored.id)
    assert sum(mine.values()) == 56 and all(mine.values())
    with unit_of_work(engine, read_only=True) as session:
        assert proposals.count_pending(session, session.get(User, stored.id)) == 3


def test_the_page_overview_from_the_list_counts_is_the_overview_read_alone(engine: Engine, stored: User) -> None:
    """The Context page opens unfiltered: its overview takes the list's counts (ui/pages/home.py)."""
    with unit_of_work(engine, read_only=True) as session:
        user = session.get(User, stored.id)
        for limit in (1, 20):
            view = memory_view(session, user, query=MemoryQuery(limit=limit))
            assert overview(session, user, counts=view.counts) == overview(session, user)
        with_no_injury = {t: n for t, n in view.counts.items() if t != MemoryType.INJURY_HISTORY}
        alone = overview(session, user, counts=with_no_injury)
        assert list(alone.counts) == list(MemoryType) and alone.counts[MemoryType.INJURY_HISTORY] == 0


def test_source_dates_are_what_the_orm_query_read(engine: Engine, stored: User) -> None:
    with unit_of_work(engine, read_only=True) as session:
        user = session.get(User, stored.id)
        every = memory_view(session, user, query=MemoryQuery(limit=200)).items
        dated = 0
        for size in (0, 1, 2, 20, len(every)):
            for start in (0, 10, 30):
                shown = every[start : start + size]
                dates = source_dates(session, user, shown)
                assert dates == old_source_dates(session, shown)
                dated += len(dates)
        assert dated


def test_coach_usage_is_what_the_orm_query_read(engine: Engine, stored: User, other_athlete: User) -> None:
    """ "Used by your coach N times, last …": the same counts and times for pages of every size, ids
    served to the coach and never served, and the other athlete's memories (whose reads name the
    athlete's ids too) among them."""
    with unit_of_work(engine, read_only=True) as session:
        user = session.get(User, stored.id)
        mine = sorted(session.scalars(select(Memory.id).where(Memory.athlete_id == stored.id)))
        theirs = list(session.scalars(select(Memory.id).where(Memory.athlete_id == other_athlete.id)))
        used = 0
        for ids in (mine[:1], mine[:12], mine[5:25], mine, [*mine[:6], *theirs, 10**9], []):
            usage = usage_counts(session, user, ids)
            assert usage == old_usage_counts(session, user, ids)
            used += len(usage)
        assert used  # some of the athlete's memories were served


def test_the_user_every_page_reads_is_what_session_get_read(engine: Engine, athlete: User, other_athlete: User) -> None:
    """Every page open and action reads its user (domain.users.get_user, a statement built once): the
    same user as session.get, its role, name, disabled flag and session epoch as stored now (a
    password reset or a disabled account ends the tab's session), none for an id nobody has."""
    with unit_of_work(engine) as session:
        session.get(User, other_athlete.id).disabled = True  # type: ignore[union-attr]
        session.get(User, other_athlete.id).session_epoch += 1  # type: ignore[union-attr]
    for user_id in (athlete.id, other_athlete.id):
        with unit_of_work(engine, read_only=True) as session:
            expected = {c: getattr(session.get(User, user_id), c) for c in USER_COLUMNS}
        with unit_of_work(engine, read_only=True) as session:
            read = get_user(session, user_id)
            assert read is not None
            assert {c: getattr(read, c) for c in USER_COLUMNS} == expected
            assert get_user(session, user_id) is read is session.get(User, user_id)  # the session's one object
            assert read.is_admin is False
    with unit_of_work(engine, read_only=True) as session:
        assert get_user(session, 10**9) is None
        disabled = get_user(session, other_athlete.id)
        assert disabled is not None and disabled.disabled and disabled.session_epoch == expected["session_epoch"]


def test_a_user_changed_in_the_same_unit_of_work_is_read_as_changed(engine: Engine, athlete: User) -> None:
    with unit_of_work(engine) as session:
        user = get_user(session, athlete.id)
        assert user is not None
        user.display_name = "Renamed"
        session.flush()
        session.expire(user)  # as a commit leaves what the session holds
        again = get_user(session, athlete.id)
        assert again is user and again.display_name == "Renamed"
    with unit_of_work(engine, read_only=True) as session:
        assert get_user(session, athlete.id).display_name == "Renamed"  # type: ignore[union-attr]

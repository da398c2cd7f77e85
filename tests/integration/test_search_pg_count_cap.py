"""The Context page's search counted up to COUNT_CAP on PostgreSQL, against the list it replaced.

For every filter combination (types, sources, confidences, sort) and words common and rare, the
page's list (`memory_view`, then "Show more" with `list_more`) shows the same memories in the same
order as the plain list with its exact count (`list_memories`, the ORM query with the search's
condition); its count is the exact one up to COUNT_CAP and says "more than COUNT_CAP" beyond, and
the type chips' counts are exact whenever they are given. On SQLite every count stays exact.

The athlete has 2,600 memories, 'knee' in about 2,200 of them, so that the search passes COUNT_CAP
in all types, in one type and under a source or confidence filter, and stays under it in others."""

from __future__ import annotations

from datetime import timedelta
from itertools import product
from typing import Any

import pytest
from sqlalchemy import Engine, insert
from sqlalchemy.orm import Session

from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType
from domain.memory_lists import (
    COUNT_CAP,
    MemoryCursor,
    MemoryQuery,
    SortKey,
    list_memories,
    list_more,
    memory_view,
)
from domain.models import Memory, User
from domain.types import utcnow
from persistence.uow import unit_of_work
from tests.factories import make_user
from tests.statements import captured, plan_nodes

FIRST, MORE = 20, 40
MEMORIES = 2_600
TYPE_FILTERS = [
    frozenset(),
    frozenset({MemoryType.INJURY_HISTORY}),
    frozenset({MemoryType.CONTEXT}),
    frozenset({MemoryType.CONTEXT, MemoryType.PREFERENCE}),
]
SOURCE_FILTERS = [frozenset(), frozenset({MemorySource.USER_MESSAGE}), frozenset({MemorySource.ACTIVITY_NOTE})]
CONFIDENCE_FILTERS = [frozenset(), frozenset({MemoryConfidence.HIGH})]
SORTS: list[SortKey] = ["updated", "created", "alpha", "seen", "confidence"]
WORDS = ["knee", "knee pain", "hill", "plantar", "the"]  # common, common pair, middling, rare, no lexeme


def _type(n: int) -> MemoryType:
    return MemoryType.INJURY_HISTORY if n % 5 < 3 else list(MemoryType)[n % 5]


def _content(n: int) -> str:
    if n % 47 == 0:
        return f"Plantar fascia sore, note {n}"
    if n % 6 == 5:
        return f"prefers hill repeats, note {n}"
    body = "Knee pain after long runs" if n % 4 else "knee felt fine on the hill"
    return f"{body}, note {n % 500}"


@pytest.fixture
def searched(engine: Engine) -> tuple[User, User]:
    return _fill(engine)


@pytest.fixture
def searched_postgres(postgres: Engine) -> tuple[User, User]:
    return _fill(postgres)


def _fill(engine: Engine) -> tuple[User, User]:
    """The athlete (2,600 memories: a few deleted or archived) and another with the same words."""
    athlete, other = make_user(engine, "casey"), make_user(engine, "robin")
    now = utcnow()
    rows = [
        {
            "athlete_id": owner.id,
            "type": _type(n),
            "content": _content(n),
            "source": MemorySource.USER_MESSAGE if n % 4 else MemorySource.ACTIVITY_NOTE,
            "confidence": [MemoryConfidence.HIGH, MemoryConfidence.MEDIUM][n % 2],
            "occurrences": 1 + n % 4,
            "tags": ["body:knee"] if n % 9 == 0 else [],
            "status": MemoryStatus.DELETED
            if n % 50 == 1
            else MemoryStatus.ARCHIVED
            if n % 50 == 2
            else MemoryStatus.ACTIVE,
            "created_at": now - timedelta(minutes=n // 2),
            "updated_at": now - timedelta(minutes=(n * 7) % 900),  # ties across the list
            "version": 1,
        }
        for owner, count in ((athlete, MEMORIES), (other, 300))
        for n in range(count)
    ]
    with engine.begin() as connection:
        connection.execute(insert(Memory), rows)
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("VACUUM ANALYZE memories")
    return athlete, other


def _reference(session: Session, athlete: User, query: MemoryQuery, limit: int) -> tuple[list[int], int]:
    """The first `limit` matches in order and their exact count, as the list read them before."""
    page = list_memories(session, athlete, query=MemoryQuery(**{**vars(query), "limit": limit, "offset": 0}))
    return [m.id for m in page.items], page.total


def _exact_counts(session: Session, athlete: User, query: MemoryQuery) -> dict[MemoryType, int]:
    found = {
        t: _reference(session, athlete, MemoryQuery(**{**vars(query), "types": frozenset({t})}), 1)[1]
        for t in MemoryType
    }
    return {t: n for t, n in found.items() if n}


@pytest.mark.parametrize("sort", SORTS)
@pytest.mark.parametrize("words", WORDS)
def test_the_searched_list_shows_what_the_exact_list_shows(
    engine: Engine, searched: tuple[User, User], words: str, sort: SortKey
) -> None:
    athlete, _other = searched
    postgres = engine.dialect.name == "postgresql"
    seen_capped = seen_exact = 0
    with unit_of_work(engine, read_only=True) as session:
        for types, sources, confidences in product(TYPE_FILTERS, SOURCE_FILTERS, CONFIDENCE_FILTERS):
            query = MemoryQuery(types=types, sources=sources, confidences=confidences, text=words, sort=sort)
            expected, exact = _reference(session, athlete, query, FIRST + 2 * MORE)
            view = memory_view(session, athlete, query=MemoryQuery(**{**vars(query), "limit": FIRST}))
            label = f"{words!r} {sort} {sorted(types)} {sorted(sources)} {sorted(confidences)}"
            assert [m.id for m in view.items] == expected[:FIRST], label
            assert all(m.athlete_id == athlete.id and m.status == MemoryStatus.ACTIVE for m in view.items)
            if postgres and exact > COUNT_CAP:
                assert (view.capped, view.total) == (True, COUNT_CAP + 1), label
                seen_capped += 1
            else:
                assert (view.capped, view.total) == (False, exact), label
                seen_exact += 1
            every_type = _reference(session, athlete, MemoryQuery(**{**vars(query), "types": frozenset()}), 1)[1]
            assert view.per_type == (not postgres or every_type <= COUNT_CAP), label
            assert view.counts == (_exact_counts(session, athlete, query) if view.per_type else {}), label
            for many in {view.capped, not view.capped}:  # "Show more" as the page asks, and the other way
                shown = [m.id for m in view.items]
                while len(shown) < len(expected) and shown:
                    after = MemoryCursor.after(session.get_one(Memory, shown[-1]))
                    more = list_more(
                        session, athlete, query=MemoryQuery(**{**vars(query), "limit": MORE}), after=after, many=many
                    )
                    if not more:
                        break
                    shown += [m.id for m in more]
                assert shown[: len(expected)] == expected, f"{label} many={many}"
    if postgres and words in ("knee", "knee pain"):
        assert seen_capped and seen_exact, "both ways were compared"


def test_a_capped_count_still_reads_only_the_athletes_memories(engine: Engine, searched: tuple[User, User]) -> None:
    """The other athlete's 'knee' memories are never among the athlete's, capped or not."""
    athlete, other = searched
    with unit_of_work(engine, read_only=True) as session:
        mine = memory_view(session, athlete, query=MemoryQuery(text="knee", limit=200))
        theirs = memory_view(session, other, query=MemoryQuery(text="knee", limit=200))
    assert {m.athlete_id for m in mine.items} == {athlete.id}
    assert {m.athlete_id for m in theirs.items} == {other.id}
    assert not theirs.capped and theirs.total < 300


def _rows_read(nodes: list[dict[str, Any]], node_type: str) -> int:
    found = [n for n in nodes if n["Node Type"] == node_type]
    return sum(n["Actual Rows"] + n.get("Rows Removed by Filter", 0) for n in found)


def test_a_common_word_reads_a_thousand_matches_and_a_page_of_rows(
    postgres: Engine, searched_postgres: tuple[User, User]
) -> None:
    """Work read from the plans of the statements the list runs (EXPLAIN ANALYZE), never timed: 'knee' is in
    about 2,100 of the athlete's active memories; the count reads at most COUNT_CAP + 1 of them (and the
    deleted or archived ones it meets), the page reads the athlete's rows newest first until 20 match."""
    athlete, _other = searched_postgres
    with unit_of_work(postgres, read_only=True) as session:
        session.get(User, athlete.id)
        with captured(postgres) as seen:
            view = memory_view(session, athlete, query=MemoryQuery(text="knee", limit=FIRST))
        assert view.capped and len(view.items) == FIRST
        counted, page = seen
        connection = session.connection()
        assert _rows_read(plan_nodes(connection, counted, analyze=True), "Bitmap Heap Scan") <= COUNT_CAP * 1.1
        page_plan = plan_nodes(connection, page, analyze=True)
        assert not [n for n in page_plan if "Bitmap" in n["Node Type"]], "no read of every match"
        assert 0 < _rows_read(page_plan, "Index Scan") <= 3 * FIRST

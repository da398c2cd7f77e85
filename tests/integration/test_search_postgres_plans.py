"""PostgreSQL: an athlete's search does not look the athlete up in another index beside the index of
marked words, and runs in one process. Work is read from the plans of the statements the services
run (EXPLAIN), never timed.

The words' index holds only the athlete's entries for the words (domain/search.py), so reading
the athlete's share of another index to intersect with them is work thrown away: at a million
memories, 17,723 index entries for 6,909 matches, most of a search's CPU. A type's page is the
exception: (athlete, status, type) leaves out the other types' matches. And a search plans no
parallel workers (migration 0016), even where the planner would find them worth it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, insert, select
from sqlalchemy.orm import Session

from domain import memories
from domain.coach_context import coach_memories
from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType
from domain.memory_lists import MemoryCursor, MemoryQuery, list_memories_by_type, list_more, memory_view
from domain.models import Memory, User
from domain.types import utcnow
from persistence.uow import unit_of_work
from tests.factories import make_user
from tests.statements import Statement, captured, plan_nodes, plan_nodes_of

Read = Callable[[Session, User], Any]
PARALLEL_COSTS = (
    "parallel_setup_cost",
    "parallel_tuple_cost",
    "min_parallel_table_scan_size",
    "min_parallel_index_scan_size",
)

READS: dict[str, Read] = {
    "the Context page's list": lambda s, a: memory_view(s, a, query=MemoryQuery(text="knee", limit=5)),
    "a page by offset": lambda s, a: memories.list_memories(s, a, query=MemoryQuery(text="knee", offset=3)),
    "the coach's memory list (API)": lambda s, a: coach_memories(s, a, text="knee", limit=5),
    "a page of each type": lambda s, a: list_memories_by_type(
        s, a, query=MemoryQuery(text="knee pain"), limits=dict.fromkeys(MemoryType, 3)
    ),
}


@pytest.fixture
def postgres_athlete(postgres: Engine) -> User:
    """An athlete with 600 memories, 'knee' in a third of them, beside three athletes with as many."""
    athletes = [make_user(postgres, name) for name in ("alex", "sam", "kim", "lee")]
    now = utcnow()
    rows = [
        {
            "athlete_id": athlete.id,
            "type": list(MemoryType)[n % len(MemoryType)],
            "content": f"Knee pain after long runs, week {n}" if n % 3 == 0 else f"Prefers morning runs, week {n}",
            "source": MemorySource.USER_MESSAGE,
            "confidence": MemoryConfidence.MEDIUM,
            "occurrences": 1,
            "tags": [],
            "status": MemoryStatus.DELETED if n % 20 == 0 else MemoryStatus.ACTIVE,
            "created_at": now,
            "updated_at": now,
            "version": 1,
        }
        for athlete in athletes
        for n in range(600)
    ]
    with postgres.begin() as connection:
        connection.execute(insert(Memory), rows)
    with postgres.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql("VACUUM ANALYZE memories")
    return athletes[0]


def athlete_lookups(connection: Connection, statement: Statement) -> list[str]:
    """The index conditions of the statement's plan that look the athlete up."""
    conditions = [str(node.get("Index Cond", "")) for node in plan_nodes(connection, statement)]
    return [c for c in conditions if "athlete_id =" in c]


def searches(statements: list[Statement]) -> list[Statement]:
    return [s for s in statements if "mr_owned_tsquery" in s[0]]


@pytest.mark.parametrize("name", list(READS))
def test_an_athletes_search_looks_the_athlete_up_in_no_other_index(
    postgres: Engine, postgres_athlete: User, name: str
) -> None:
    with unit_of_work(postgres, read_only=True) as session:
        session.get(User, postgres_athlete.id)
        with captured(postgres) as seen:
            READS[name](session, postgres_athlete)
        connection = session.connection()
        statements = searches(seen)
        assert statements
        counted = [s for s in statements if "count(" in s[0]]
        assert counted, "a count of the matches"
        for statement in statements if name != "a page of each type" else counted:  # its pages are typed
            assert athlete_lookups(connection, statement) == [], statement[0]


def test_show_more_of_a_search_looks_the_athlete_up_in_no_other_index(postgres: Engine, postgres_athlete: User) -> None:
    query = MemoryQuery(text="knee", limit=10)
    with unit_of_work(postgres, read_only=True) as session:
        first = memory_view(session, postgres_athlete, query=query)
        with captured(postgres) as seen:
            more = list_more(session, postgres_athlete, query=query, after=MemoryCursor.after(first.items[-1]))
        assert len(more) == 10 and not {m.id for m in more} & {m.id for m in first.items}
        connection = session.connection()
        (statement,) = searches(seen)
        assert athlete_lookups(connection, statement) == []


def test_a_search_finds_the_athletes_matches_and_only_theirs(postgres: Engine, postgres_athlete: User) -> None:
    """Without the athlete's index in the plan, the scope still holds: 190 of 600 are 'knee' and
    active (every third, less the deleted ones), and every one shown is the athlete's."""
    with unit_of_work(postgres, read_only=True) as session:
        view = memory_view(session, postgres_athlete, query=MemoryQuery(text="knee", limit=200))
        paged = memories.list_memories(session, postgres_athlete, query=MemoryQuery(text="knee", limit=200))
        owners = set(session.scalars(select(Memory.athlete_id).where(Memory.id.in_([m.id for m in view.items]))))
    assert view.total == paged.total == 190 == len(view.items)
    assert {m.id for m in view.items} == {m.id for m in paged.items}
    assert owners == {postgres_athlete.id}
    assert all("Knee" in m.content and m.status == MemoryStatus.ACTIVE for m in view.items)


TYPED: dict[str, Read] = {
    "a type's list": lambda s, a: memory_view(
        s, a, query=MemoryQuery(text="knee", types=frozenset({MemoryType.INJURY_HISTORY}), sort="alpha")
    ),
}


def test_a_type_filter_still_counts_from_the_words_alone(postgres: Engine, postgres_athlete: User) -> None:
    """A type's page may intersect the matches with the athlete's (athlete, status, type) index, which
    leaves out the other types' matches; its counts, every type's, do not look the athlete up."""
    with unit_of_work(postgres, read_only=True) as session:
        session.get(User, postgres_athlete.id)
        with captured(postgres) as seen:
            view = TYPED["a type's list"](session, postgres_athlete)
        assert view.total == view.counts[MemoryType.INJURY_HISTORY] and len(view.counts) == len(MemoryType)
        counts, _page = searches(seen)
        assert athlete_lookups(session.connection(), counts) == []


@pytest.mark.parametrize("name", [*READS, *TYPED])
def test_a_search_plans_no_parallel_workers(postgres: Engine, postgres_athlete: User, name: str) -> None:
    """Parallel workers made free to the planner: a search still runs in one process."""
    with unit_of_work(postgres, read_only=True) as session:
        session.get(User, postgres_athlete.id)
        connection = session.connection()
        for setting in PARALLEL_COSTS:
            connection.exec_driver_sql(f"SET LOCAL {setting} = 0")
        with captured(postgres) as seen:
            {**READS, **TYPED}[name](session, postgres_athlete)
        for statement in searches(seen):
            planned = [node["Node Type"] for node in plan_nodes(connection, statement)]
            assert not {"Gather", "Gather Merge"} & set(planned), planned


def generic_plan(connection: Connection, statement: Statement) -> list[dict[str, Any]]:
    """The plan PostgreSQL makes for the statement's SQL once for any values, as it does for a statement the driver
    has prepared after it has run a few times (when the plans for the values it saw cost more on average)."""
    names: list[str] = []

    def placeholder(found: re.Match[str]) -> str:
        if found[1] not in names:
            names.append(found[1])
        return f"${names.index(found[1]) + 1}"

    sql = re.sub(r"%\((\w+)\)s", placeholder, statement[0])
    connection.exec_driver_sql("SET LOCAL plan_cache_mode = force_generic_plan")
    connection.exec_driver_sql(f"PREPARE generic_read AS {sql}")
    try:
        values = ", ".join(_literal(statement[1][n]) for n in names)
        raw = connection.exec_driver_sql(f"EXPLAIN (FORMAT JSON) EXECUTE generic_read({values})").scalar_one()
    finally:
        connection.exec_driver_sql("DEALLOCATE generic_read")
    return plan_nodes_of(raw)


def _literal(value: Any) -> str:
    """A test's own value (numbers, words, times) written as SQL."""
    if isinstance(value, list):
        return "ARRAY[" + ", ".join(_literal(v) for v in value) + "]::text[]"
    if isinstance(value, int):
        return str(value)
    text = value.isoformat() if hasattr(value, "isoformat") else str(value)
    return "'" + text.replace("'", "''") + "'"


def test_a_search_planned_once_for_any_values_reads_no_status_index(postgres: Engine, postgres_athlete: User) -> None:
    """The soft-delete filter's status is written into the list's statements: planned for any values, a search's
    count and page would otherwise intersect their matches with every active memory's entry in the (status,
    deleted_at) index (889,873 entries for 6,134 matches at a million memories)."""
    query = MemoryQuery(text="knee", limit=10)
    with unit_of_work(postgres, read_only=True) as session:
        with captured(postgres) as seen:
            first = memory_view(session, postgres_athlete, query=query)
            list_more(session, postgres_athlete, query=query, after=MemoryCursor.after(first.items[-1]))
        connection = session.connection()
        statements = searches(seen)
        assert len(statements) == 3
        for statement in statements:
            used = {node.get("Index Name") for node in generic_plan(connection, statement)}
            assert "ix_memories_status_deleted_at" not in used, statement[0]

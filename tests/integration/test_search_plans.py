"""Search reads only its own part of the index: checked on the statements the services run.

Work is counted, never timed: on SQLite, EXPLAIN QUERY PLAN of the list's statement and the
number of index entries its MATCH expression reads; on PostgreSQL, EXPLAIN ANALYZE's row count
of the index scan. Another athlete's matching memories must not be among them.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Connection, Engine, text

from domain import memories, search
from domain.admin_deleted import DeletedQuery, list_deleted
from domain.enums import MemoryType
from domain.memory_lists import MemoryQuery, list_memories_by_type
from domain.models import User
from domain.search import COMMON_MATCHES, DELETED, owner_mark
from persistence.uow import unit_of_work
from tests.factories import make_memory
from tests.integration.admin_helpers import deleted_memory
from tests.statements import Statement, captured, plan_nodes

OTHERS = 150


def matching(engine: Engine, statements: list[Statement]) -> list[Statement]:
    """The statements that search the text index (on SQLite, but for how often the word is met)."""
    word = "memories_fts" if engine.dialect.name == "sqlite" else "mr_owned_tsquery"
    return [s for s in statements if word in s[0] and s not in frequency_probes(statements)]


def frequency_probes(statements: list[Statement]) -> list[Statement]:
    """SQLite: the count, in the index alone and bounded, that picks how the list reads its matches."""
    return [s for s in statements if " ".join(s[0].split()).startswith("SELECT count(*) AS count_1 FROM (SELECT rowid")]


def sqlite_plan(connection: Connection, statement: Statement) -> list[str]:
    rows = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement[0]}", statement[1])
    return [row[3] for row in rows]


def sqlite_entries_read(connection: Connection, statement: Statement) -> int:
    """How many index entries the statement's MATCH expression reads."""
    fts_query = next(p for p in statement[1] if isinstance(p, str) and p.startswith("owned : "))
    return int(
        connection.execute(
            text("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH :q"), {"q": fts_query}
        ).scalar_one()
    )


def postgres_index_rows(connection: Connection, statement: Statement) -> list[int]:
    """Rows each scan of the marked-word index returned (no scan of it: an empty list)."""
    nodes = plan_nodes(connection, statement, analyze=True)
    return [int(node["Actual Rows"]) for node in nodes if node.get("Index Name") == "ix_memories_owned_tsv"]


@pytest.fixture
def crowded(engine: Engine, athlete: User, other_athlete: User) -> None:
    """The athlete has one knee among many memories; another athlete has many knees."""
    make_memory(engine, athlete, "Knee pain on descents", type=MemoryType.INJURY_HISTORY)
    for index in range(OTHERS):
        make_memory(engine, athlete, f"Prefers morning runs, number {index}")
        make_memory(engine, other_athlete, f"Knee niggle number {index}", type=MemoryType.INJURY_HISTORY)
    if engine.dialect.name != "sqlite":
        with engine.begin() as connection:
            connection.exec_driver_sql("ANALYZE memories")


@pytest.mark.usefixtures("crowded")
def test_the_memory_lists_search_reads_only_the_athletes_entries(engine: Engine, athlete: User) -> None:
    with unit_of_work(engine, read_only=True) as session:
        with captured(engine) as seen:
            pages = list_memories_by_type(
                session, athlete, query=MemoryQuery(text="knee"), limits=dict.fromkeys(MemoryType, 10)
            )
        assert [m.content for m in pages[MemoryType.INJURY_HISTORY].items] == ["Knee pain on descents"]
        searching = matching(engine, seen)
        assert len(searching) == 2, "the grouped count and the pages"
        connection = session.connection()
        for probe in frequency_probes(seen):
            assert f'"{owner_mark(athlete.id)}knee"*' in str(probe[1]) and COMMON_MATCHES + 1 in probe[1]
        for statement in searching:
            if engine.dialect.name == "sqlite":
                plan = sqlite_plan(connection, statement)
                assert any(step.startswith("SCAN memories_fts VIRTUAL TABLE INDEX 0:M") for step in plan), plan
                assert not any(step.startswith("SCAN memories") and "fts" not in step for step in plan), plan
                assert f'"{owner_mark(athlete.id)}knee"*' in str(statement[1])
                assert sqlite_entries_read(connection, statement) == 1, "not the other athlete's knees"
            else:
                assert postgres_index_rows(connection, statement) == [1], "not the other athlete's knees"


@pytest.mark.usefixtures("crowded")
def test_the_coach_and_single_lists_search_the_same_way(engine: Engine, athlete: User) -> None:
    from domain.coach_context import coach_memories

    with unit_of_work(engine, read_only=True) as session:
        with captured(engine) as seen:
            single = memories.list_memories(session, athlete, query=MemoryQuery(text="knee"))
            coach = coach_memories(session, athlete, text="knee")
        assert [m.content for m in single.items] == [m.content for m in coach.items] == ["Knee pain on descents"]
        connection = session.connection()
        for statement in matching(engine, seen):
            if engine.dialect.name == "sqlite":
                assert sqlite_entries_read(connection, statement) == 1
            else:
                assert postgres_index_rows(connection, statement) == [1]


def test_the_admins_search_of_deleted_memories_reads_only_deleted_entries(
    engine: Engine, athlete: User, other_athlete: User, admin: User
) -> None:
    gone = deleted_memory(engine, athlete, "Knee brace on trails")
    deleted_memory(engine, other_athlete, "Knee tape")
    for index in range(OTHERS):
        make_memory(engine, other_athlete, f"Knee niggle number {index}")
        deleted_memory(engine, other_athlete, f"Prefers morning runs, number {index}")
    if engine.dialect.name != "sqlite":
        with engine.begin() as connection:
            connection.exec_driver_sql("ANALYZE memories")
    with unit_of_work(engine) as session:
        with captured(engine) as seen:
            page = list_deleted(session, admin, query=DeletedQuery(text="knee"))
            own = list_deleted(session, admin, query=DeletedQuery(text="knee", athlete_id=athlete.id))
        assert sorted(r.content for r in page.rows) == ["Knee brace on trails", "Knee tape"]
        assert [r.memory_id for r in own.rows] == [gone.id]
        connection = session.connection()
        across_athletes = matching(engine, seen)[:2]  # the count and the page of the first search
        if engine.dialect.name == "sqlite":
            assert all(f'"{owner_mark(DELETED)}knee"*' in str(s[1]) for s in across_athletes)
            assert all(sqlite_entries_read(connection, s) == 2 for s in across_athletes), "not the active knees"
        else:
            assert [postgres_index_rows(connection, s) for s in across_athletes] == [[2], [2]]


def test_deleting_and_restoring_moves_a_memory_in_and_out_of_the_deleted_search(
    engine: Engine, athlete: User, admin: User
) -> None:
    memory = make_memory(engine, athlete, "Knee brace on trails")

    def found() -> list[int]:
        with unit_of_work(engine) as session:
            return [r.memory_id for r in list_deleted(session, admin, query=DeletedQuery(text="brace")).rows]

    assert found() == []
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory.id)
    assert found() == [memory.id]
    with unit_of_work(engine) as session:
        memories.restore_memory(session, admin, memory_id=memory.id)
    assert found() == []
    with unit_of_work(engine, read_only=True) as session:
        assert [m.id for m in memories.list_memories(session, athlete, query=MemoryQuery(text="brace")).items] == [
            memory.id
        ]


@pytest.mark.parametrize("common_from", [0, 10_000])
def test_a_common_word_gives_the_same_lists_however_its_matches_are_read(
    engine: Engine, athlete: User, common_from: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite reads a word with many matches along the list's index (`id + 0`), a rare one by id:
    every sort, page, count and "show more" is the same either way."""
    for index in range(12):
        make_memory(engine, athlete, f"Easy run {index} by the river", type=MemoryType.PREFERENCE)
        make_memory(engine, athlete, f"Knee sore after run {index}", type=MemoryType.INJURY_HISTORY)
        make_memory(engine, athlete, f"Swims on Fridays {index}", type=MemoryType.CONTEXT)

    def lists() -> list[Any]:
        seen = []
        with unit_of_work(engine, read_only=True) as session:
            for sort in ("updated", "created", "alpha", "seen", "confidence"):
                page = memories.list_memories(session, athlete, query=MemoryQuery(text="run", sort=sort, limit=5))
                seen.append((sort, page.total, [m.content for m in page.items]))
                by_type = list_memories_by_type(
                    session, athlete, query=MemoryQuery(text="run", sort=sort), limits=dict.fromkeys(MemoryType, 4)
                )
                seen.append({t.value: (p.total, [m.content for m in p.items]) for t, p in by_type.items()})
        return seen

    expected = lists()
    monkeypatch.setattr(search, "COMMON_MATCHES", common_from)
    assert lists() == expected
    assert expected[0][1] == 24  # "run" in 24 memories, "River"/"Swims" not

"""The memory list as the Context page asks for it: each type's first page and count at once."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, event

from domain import memories
from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.memory_lists import (
    MemoryCursor,
    MemoryQuery,
    SortKey,
    list_memories,
    list_memories_by_type,
    list_more,
    memory_view,
)
from domain.models import Memory, User
from domain.types import utcnow
from persistence.uow import unit_of_work
from tests.factories import make_memory

TYPES = list(MemoryType)


@pytest.fixture
def stored(engine: Engine, athlete: User, other_athlete: User) -> None:
    """40 memories of every type, source and confidence; some share an update time (ties);
    one deleted, one of another athlete: neither may ever be listed."""
    start = utcnow()
    for index in range(40):
        make_memory(
            engine,
            athlete,
            f"{'Knee' if index % 3 == 0 else 'Calf'} note {index}",
            type=TYPES[index % len(TYPES)],
            source=list(MemorySource)[index % len(MemorySource)],
            confidence=list(MemoryConfidence)[index % 3],
            occurrences=1 + index % 4,
            updated_at=start - timedelta(minutes=index // 4),
        )
    gone = make_memory(engine, athlete, "Knee note deleted", type=MemoryType.INJURY_HISTORY)
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=gone.id)
    make_memory(engine, other_athlete, "Knee surgery in 2019", type=MemoryType.INJURY_HISTORY)


FREQUENCY_PROBE = "SELECT count(*) AS count_1 FROM (SELECT rowid FROM memories_fts"


@contextmanager
def statements(engine: Engine) -> Iterator[list[str]]:
    """The list's statements. On SQLite a text search also asks its index, once per unit of work,
    whether the word has more than COMMON_MATCHES matches (a bounded count that picks how the list
    reads them); that probe is kept apart, in `probes`, and checked to be the only extra."""
    seen: list[str] = []
    probes: list[str] = []

    def count(*args: Any) -> None:
        statement = str(args[2])
        is_probe = " ".join(statement.split()).startswith(
            "SELECT count(*) AS count_1 FROM (SELECT rowid FROM memories_fts"
        )
        (probes if is_probe else seen).append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(probes) <= 1, probes


@pytest.mark.usefixtures("stored")
@pytest.mark.parametrize(
    "query",
    [
        MemoryQuery(),
        MemoryQuery(text="knee"),
        MemoryQuery(sort="confidence"),
        MemoryQuery(confidences=frozenset({MemoryConfidence.HIGH}), text="note"),
    ],
)
def test_each_type_gets_the_page_and_count_a_single_list_would_give(
    engine: Engine, athlete: User, query: MemoryQuery
) -> None:
    limits = {t: 3 + i for i, t in enumerate(TYPES)}
    with unit_of_work(engine, read_only=True) as session:
        grouped = list_memories_by_type(session, athlete, query=query, limits=limits)
        for memory_type, limit in limits.items():
            single = list_memories(
                session,
                athlete,
                query=MemoryQuery(
                    types=frozenset({memory_type}),
                    confidences=query.confidences,
                    text=query.text,
                    sort=query.sort,
                    limit=limit,
                ),
            )
            assert [m.id for m in grouped[memory_type].items] == [m.id for m in single.items]
            assert grouped[memory_type].total == single.total


@pytest.mark.usefixtures("stored")
def test_all_types_cost_two_statements_and_show_only_ones_own(engine: Engine, athlete: User) -> None:
    with unit_of_work(engine, read_only=True) as session:
        session.get(User, athlete.id)  # the unit's own first statements are not the list's
        with statements(engine) as seen:
            pages = list_memories_by_type(
                session, athlete, query=MemoryQuery(text="knee"), limits=dict.fromkeys(TYPES, 10)
            )
    assert len(seen) == 2
    assert all("2019" not in m.content for page in pages.values() for m in page.items)
    assert sum(page.total for page in pages.values()) == 14


FILTER_CHOICES: dict[str, list[Any]] = {
    "types": [frozenset(), frozenset({MemoryType.INJURY_HISTORY}), frozenset({MemoryType.CONTEXT, MemoryType.INSIGHT})],
    "sources": [frozenset(), frozenset({MemorySource.USER_MESSAGE, MemorySource.MANUAL})],
    "confidences": [
        frozenset(),
        frozenset({MemoryConfidence.HIGH}),
        frozenset({MemoryConfidence.HIGH, MemoryConfidence.LOW}),
    ],
    "text": ["", "knee", "note 1", "zebra"],
    "sort": ["updated", "confidence"],
}


@pytest.mark.usefixtures("stored")
def test_every_filter_combination_gives_each_shown_types_page_and_count(engine: Engine, athlete: User) -> None:
    """The grouped call against one single list per type, over every combination of filters."""
    with unit_of_work(engine, read_only=True) as session:
        for choice in itertools.product(*FILTER_CHOICES.values()):
            query = MemoryQuery(**dict(zip(FILTER_CHOICES, choice, strict=True)))
            shown = query.types or frozenset(TYPES)
            limits = {t: 2 + i for i, t in enumerate(TYPES) if t in shown}
            grouped = list_memories_by_type(session, athlete, query=query, limits=limits)
            assert set(grouped) == set(limits), query
            for memory_type, limit in limits.items():
                single = list_memories(
                    session,
                    athlete,
                    query=MemoryQuery(
                        types=frozenset({memory_type}),
                        sources=query.sources,
                        confidences=query.confidences,
                        text=query.text,
                        sort=query.sort,
                        limit=limit,
                    ),
                )
                assert [m.id for m in grouped[memory_type].items] == [m.id for m in single.items], query
                assert grouped[memory_type].total == single.total, query
                assert all("deleted" not in m.content for m in grouped[memory_type].items)


@pytest.mark.usefixtures("stored")
@pytest.mark.parametrize("sort", ["updated", "created", "alpha", "seen", "confidence"])
@pytest.mark.parametrize("text", ["", "note"])
def test_show_more_continues_after_the_last_shown_memory(
    engine: Engine, athlete: User, sort: SortKey, text: str
) -> None:
    """Pages of three after a cursor give the whole list once, in order, through every tie."""
    query = MemoryQuery(types=frozenset({MemoryType.INJURY_HISTORY, MemoryType.CONTEXT}), text=text, sort=sort)
    with unit_of_work(engine, read_only=True) as session:
        everything = [m.id for m in list_memories(session, athlete, query=query).items]
        paged = [m.id for m in list_memories(session, athlete, query=MemoryQuery(**{**vars(query), "limit": 3})).items]
        last = session.get(Memory, paged[-1])
        while last is not None:
            more = list_more(
                session, athlete, query=MemoryQuery(**{**vars(query), "limit": 3}), after=MemoryCursor.after(last)
            )
            paged += [m.id for m in more]
            last = more[-1] if more else None
    assert len(everything) == 16
    assert paged == everything


@pytest.mark.usefixtures("stored")
def test_show_more_is_one_statement_and_only_ones_own(engine: Engine, athlete: User, other_athlete: User) -> None:
    query = MemoryQuery(types=frozenset({MemoryType.INJURY_HISTORY}), limit=50)
    with unit_of_work(engine, read_only=True) as session:
        first = list_memories(session, athlete, query=MemoryQuery(**{**vars(query), "limit": 1})).items[0]
        with statements(engine) as seen:
            more = list_more(session, athlete, query=query, after=MemoryCursor.after(first))
        theirs = list_more(session, other_athlete, query=query, after=MemoryCursor.after(first))
    assert len(seen) == 1
    assert len(more) == 7
    assert all(m.athlete_id == athlete.id for m in more)
    assert all(m.athlete_id == other_athlete.id for m in theirs)


@pytest.mark.usefixtures("stored")
@pytest.mark.parametrize("sort", ["updated", "created", "alpha", "seen", "confidence"])
def test_the_page_view_is_two_statements_with_counts_per_type(engine: Engine, athlete: User, sort: SortKey) -> None:
    """The Context page's list: the first page of one type (or all) and every type's count under the
    other filters, as a single list and grouped counts would give them."""
    with unit_of_work(engine, read_only=True) as session:
        session.get(User, athlete.id)
        for types in (frozenset(), frozenset({MemoryType.CONTEXT})):
            query = MemoryQuery(types=types, text="note", sort=sort, limit=5)
            with statements(engine) as seen:
                view = memory_view(session, athlete, query=query)
            assert len(seen) == 2
            single = list_memories(session, athlete, query=query)
            assert [m.id for m in view.items] == [m.id for m in single.items]
            assert view.total == single.total
            grouped = list_memories_by_type(
                session, athlete, query=MemoryQuery(text="note", sort=sort), limits=dict.fromkeys(TYPES, 1)
            )
            assert view.counts == {t: page.total for t, page in grouped.items() if page.total}


@pytest.mark.usefixtures("stored")
def test_alpha_sort_is_case_folded(engine: Engine, athlete: User) -> None:
    with unit_of_work(engine, read_only=True) as session:
        items = list_memories(session, athlete, query=MemoryQuery(sort="alpha", limit=200)).items
    contents = [m.content for m in items]
    assert contents == sorted(contents, key=str.lower)

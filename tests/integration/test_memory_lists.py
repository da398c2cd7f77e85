"""The memory list as the Context page asks for it: each type's first page and count at once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import Engine, event

from domain.enums import MemoryConfidence, MemoryType
from domain.memory_lists import MemoryQuery, list_memories, list_memories_by_type
from domain.models import User
from persistence.uow import unit_of_work
from tests.factories import make_memory

TYPES = list(MemoryType)


@pytest.fixture
def stored(engine: Engine, athlete: User, other_athlete: User) -> None:
    for index in range(40):
        make_memory(
            engine,
            athlete,
            f"{'Knee' if index % 3 == 0 else 'Calf'} note {index}",
            type=TYPES[index % len(TYPES)],
            confidence=list(MemoryConfidence)[index % 3],
            occurrences=1 + index % 4,
        )
    make_memory(engine, other_athlete, "Knee surgery in 2019", type=MemoryType.INJURY_HISTORY)


@contextmanager
def statements(engine: Engine) -> Iterator[list[str]]:
    seen: list[str] = []

    def count(*args: Any) -> None:
        seen.append(str(args[2]))

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


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

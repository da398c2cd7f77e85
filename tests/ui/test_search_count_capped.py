"""A search with more than 1,000 matches on PostgreSQL: the list says "1,000+" and shows them a page
at a time, and a search with fewer says how many exactly (the app on a PostgreSQL schema of its own)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from nicegui.testing import User
from sqlalchemy import insert, select

from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType
from domain.models import Memory
from domain.models import User as Account
from domain.types import utcnow
from persistence.demo import load_demo
from persistence.uow import unit_of_work
from tests.databases import postgres_engine, postgres_url
from tests.ui.context_support import eventually, listed, open_context, show_type

KNEES = 1_150  # 'knee' in this many of alex's memories, 700 of them injuries


@pytest.fixture
def app_database(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> Iterator[str]:
    """The demo data on a PostgreSQL schema of its own, with many of alex's memories about a knee."""
    with postgres_engine() as engine:
        load_demo(engine)
        with unit_of_work(engine, read_only=True) as session:
            alex = session.scalars(select(Account).where(Account.username == "alex")).one()
            schema = session.connection().exec_driver_sql("SELECT current_schema()").scalar_one()
        now = utcnow()
        rows: list[dict[str, object]] = [
            {
                "athlete_id": alex.id,
                "type": MemoryType.INJURY_HISTORY if n < 700 else MemoryType.CONTEXT,
                "content": f"Knee twinge on descent number {n}",
                "source": MemorySource.ACTIVITY_NOTE,
                "confidence": MemoryConfidence.MEDIUM,
                "occurrences": 1,
                "tags": [],
                "status": MemoryStatus.ACTIVE,
                "created_at": now - timedelta(days=400, minutes=n),
                "updated_at": now - timedelta(days=400, minutes=n),
                "version": 1,
            }
            for n in range(KNEES)
        ]
        with engine.begin() as connection:
            connection.execute(insert(Memory), rows)
        url = f"{postgres_url()}?options=-csearch_path%3D{schema}"
        monkeypatch.setenv("MEMORY_REVIEW_DATABASE_URL", url)
        monkeypatch.setenv("MEMORY_REVIEW_DATA_DIR", str(tmp_path))
        monkeypatch.delenv("MEMORY_REVIEW_DEMO", raising=False)
        yield url


async def test_a_search_with_over_a_thousand_matches_says_1000_plus(user: User) -> None:
    await open_context(user)
    user.find(marker="search").type("knee")
    await user.should_see("All (1,000+)")
    await user.should_see("Show more (20 of 1,000+ shown)")
    await user.should_see("Injury history")  # no count: the types were not counted one by one
    await user.should_not_see("Injury history (")
    assert len(listed(user)) == 20
    user.find(marker="more-memories").click()
    await eventually(lambda: len(listed(user)) == 60)
    await user.should_see("Show more (60 of 1,000+ shown)")
    assert len(set(listed(user))) == 60  # each once, newest first as before
    show_type(user, "context")
    await user.should_see("Context (450)")  # the chosen type counted on its own
    await user.should_see("Show more (390 more)")  # a reload keeps as many rows as were shown
    await user.should_see("All (1,000+)")


async def test_a_search_with_fewer_matches_counts_every_type(user: User) -> None:
    await open_context(user)
    user.find(marker="search").type("descent 11")  # 11, 110-119 (injuries) and 1100-1149 (context)
    await user.should_see("All (61)")
    await user.should_see("Injury history (11)")
    await user.should_see("Context (50)")
    await user.should_see("Show more (41 more)")

"""The athlete's overview on the demo data set: counts and what was learned per week."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from itertools import pairwise

from sqlalchemy import Engine, select

from domain.enums import MemoryStatus
from domain.models import User
from domain.overview import learned_per_week, overview, week_start
from persistence.demo import load_demo
from persistence.uow import unit_of_work
from tests.factories import make_memory, make_user


def test_overview_counts_and_learned_per_week(engine: Engine) -> None:
    load_demo(engine)
    with unit_of_work(engine, read_only=True) as session:
        alex = session.scalars(select(User).where(User.username == "alex")).one()
        data = overview(session, alex)
        weeks = learned_per_week(session, alex, weeks=30)
    assert sum(data.counts.values()) == 17  # alex's active demo memories; the two deleted ones are not counted
    assert len(data.learned_per_week) == 12
    assert data.learned_per_week[-1].week_start == week_start(datetime.now(UTC))
    assert sum(w.count for w in weeks) == 17  # all created within 30 weeks (the oldest 150 days ago)
    assert all(b.week_start - a.week_start == timedelta(weeks=1) for a, b in pairwise(weeks))


def test_a_memory_made_at_the_stroke_of_monday_counts_in_that_week_only(engine: Engine) -> None:
    athlete = make_user(engine, "wren")
    now = datetime(2026, 11, 25, 15, 0, tzinfo=UTC)  # a Wednesday
    monday = datetime(2026, 11, 23, tzinfo=UTC)
    for when in (monday, monday - timedelta(seconds=1), monday - timedelta(weeks=1), now):
        make_memory(engine, athlete, f"made {when.isoformat()}", created_at=when, updated_at=when)
    make_memory(engine, athlete, "deleted", created_at=now, updated_at=now, status=MemoryStatus.DELETED)
    with unit_of_work(engine, read_only=True) as session:
        weeks = learned_per_week(session, athlete, weeks=3, now=now)
    assert [(w.week_start, w.count) for w in weeks] == [
        (date(2026, 11, 9), 0),
        (date(2026, 11, 16), 2),  # its Monday and its last second
        (date(2026, 11, 23), 2),  # Monday 00:00 and today; the deleted memory is not counted
    ]

"""The athlete's overview on the demo data set: counts and what was learned per week."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import pairwise

from sqlalchemy import Engine, select

from domain.models import User
from domain.overview import learned_per_week, overview, week_start
from persistence.demo import load_demo
from persistence.uow import unit_of_work


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

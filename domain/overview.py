"""The athlete's overview: memories per type, pending proposals, what was learned per week."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import BindParameter, Integer, and_, bindparam, case, func, select
from sqlalchemy.orm import Session

from domain import proposals
from domain.actors import require_athlete
from domain.enums import MemoryStatus, MemoryType
from domain.memory_lists import active_counts
from domain.memory_rows import RowReader, reading
from domain.models import Memory, User
from domain.types import utcnow

DEFAULT_WEEKS = 12
MAX_WEEKS = 104


@dataclass(frozen=True)
class WeekCount:
    week_start: date  # the Monday (UTC) the week begins
    count: int


@dataclass(frozen=True)
class Overview:
    counts: dict[MemoryType, int]
    pending: int
    learned_per_week: list[WeekCount]


def week_start(when: datetime | date) -> date:
    day = when.date() if isinstance(when, datetime) else when
    return day - timedelta(days=day.weekday())


def learned_per_week(
    session: Session, actor: User | None, *, weeks: int = DEFAULT_WEEKS, now: datetime | None = None
) -> list[WeekCount]:
    """Active memories created per week, oldest week first, the current week last: one query that
    counts in the database (over the athlete's created-at index), not one row per memory here."""
    user = require_athlete(actor)
    weeks = max(1, min(weeks, MAX_WEEKS))
    zone = (now or utcnow()).tzinfo
    first = week_start(now or utcnow()) - timedelta(weeks=weeks - 1)
    starts = [first + timedelta(weeks=i) for i in range(weeks)]
    bounds = [datetime(day.year, day.month, day.day, tzinfo=zone) for day in starts]
    params = {"athlete_id": user.id, **{f"start_{n}": start for n, start in enumerate(bounds)}}
    (row,) = _per_week_counts(weeks).tuples(reading(session), params)
    return [WeekCount(week, int(count or 0)) for week, count in zip(starts, row, strict=True)]


@lru_cache(maxsize=8)
def _per_week_counts(weeks: int) -> RowReader:
    """Built and compiled once per number of weeks, with the week starts as parameters, so a page
    load does not build a dozen CASE expressions again (memory_rows.RowReader). The last week is
    open-ended. Active memories only: a Core statement, so the ORM's soft-delete option does not
    add its own status filter."""
    created = Memory.created_at
    starts = [bindparam(f"start_{n}", type_=created.type) for n in range(weeks)]
    ends: list[BindParameter[Any] | None] = [*starts[1:], None]
    per_week = [
        func.sum(case((created >= start if end is None else and_(created >= start, created < end), 1), else_=0))
        for start, end in zip(starts, ends, strict=True)
    ]
    return RowReader(
        select(*per_week).where(
            Memory.athlete_id == bindparam("athlete_id", type_=Integer),
            Memory.status == MemoryStatus.ACTIVE,
            created >= starts[0],
        )
    )


def overview(
    session: Session,
    actor: User | None,
    *,
    weeks: int = DEFAULT_WEEKS,
    proposal_max_age: timedelta = proposals.DEFAULT_MAX_AGE,
    counts: Mapping[MemoryType, int] | None = None,
) -> Overview:
    """`counts`: the athlete's active memories per type, when the caller has just read them in the
    same unit of work (the Context page's unfiltered list counts them: memory_lists.memory_view),
    so they are not read twice; types without memories may be left out."""
    user = require_athlete(actor)
    if counts is None:
        counts = active_counts(session, athlete_id=user.id)
    return Overview(
        counts={**dict.fromkeys(MemoryType, 0), **counts},
        pending=proposals.count_pending(session, user, max_age=proposal_max_age),
        learned_per_week=learned_per_week(session, user, weeks=weeks),
    )

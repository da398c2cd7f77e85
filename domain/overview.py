"""The athlete's overview: memories per type, pending proposals, what was learned per week."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import ColumnElement, and_, case, func, select
from sqlalchemy.orm import Session

from domain import proposals
from domain.actors import require_athlete
from domain.enums import MemoryStatus, MemoryType
from domain.memories import count_by_type
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
    ends: list[datetime | None] = [*bounds[1:], None]  # the current week is open-ended
    per_week = [func.sum(case((_within(start, end), 1), else_=0)) for start, end in zip(bounds, ends, strict=True)]
    row = session.execute(
        select(*per_week).where(
            Memory.athlete_id == user.id,
            Memory.status == MemoryStatus.ACTIVE,
            Memory.created_at >= bounds[0],
        )
    ).one()
    return [WeekCount(week, int(count or 0)) for week, count in zip(starts, row, strict=True)]


def _within(start: datetime, end: datetime | None) -> ColumnElement[bool]:
    if end is None:
        return Memory.created_at >= start
    return and_(Memory.created_at >= start, Memory.created_at < end)


def overview(
    session: Session,
    actor: User | None,
    *,
    weeks: int = DEFAULT_WEEKS,
    proposal_max_age: timedelta = proposals.DEFAULT_MAX_AGE,
) -> Overview:
    user = require_athlete(actor)
    return Overview(
        counts=count_by_type(session, user),
        pending=proposals.count_pending(session, user, max_age=proposal_max_age),
        learned_per_week=learned_per_week(session, user, weeks=weeks),
    )

"""The athlete's overview: memories per type, pending proposals, what was learned per week."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import select
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
    """Active memories created per week, oldest week first, the current week last (one query)."""
    user = require_athlete(actor)
    weeks = max(1, min(weeks, MAX_WEEKS))
    first = week_start(now or utcnow()) - timedelta(weeks=weeks - 1)
    since = datetime(first.year, first.month, first.day, tzinfo=(now or utcnow()).tzinfo)
    created = session.scalars(
        select(Memory.created_at).where(
            Memory.athlete_id == user.id,
            Memory.status == MemoryStatus.ACTIVE,
            Memory.created_at >= since,
        )
    )
    counts = {first + timedelta(weeks=i): 0 for i in range(weeks)}
    for at in created:
        key = week_start(at)
        if key in counts:
            counts[key] += 1
    return [WeekCount(week, count) for week, count in counts.items()]


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

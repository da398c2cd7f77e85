"""Access events: an admin who looks at athlete data leaves a record of it.

These rows are operational (not hash-chained) and retention purges them after the
configured period. Each view records one event per athlete whose data it showed, so
"who looked at my data" is one indexed question per athlete.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy.orm import Session

from domain.enums import AccessKind
from domain.models import AccessEvent, User
from domain.types import utcnow

MAX_DETAIL = 500


def record_admin_view(
    session: Session,
    admin: User,
    *,
    kind: AccessKind,
    athlete_ids: Iterable[int | None],
    detail: str | None = None,
) -> list[AccessEvent]:
    """Record that `admin` saw data of these athletes; one event with no athlete if none."""
    distinct: Sequence[int | None] = sorted({athlete_id for athlete_id in athlete_ids if athlete_id is not None})
    now = utcnow()
    text = detail[:MAX_DETAIL] if detail else None
    events = [
        AccessEvent(
            at=now, actor_id=admin.id, actor_label=admin.username, kind=kind, athlete_id=athlete_id, detail=text
        )
        for athlete_id in (distinct or [None])
    ]
    session.add_all(events)
    session.flush()
    return events

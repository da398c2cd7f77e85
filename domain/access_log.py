"""Access events: an admin who looks at athlete data leaves a record of it.

These rows are operational (not hash-chained) and retention purges them after the
configured period. Each view records one event per athlete whose data it showed, so
"who looked at my data" is one indexed question per athlete.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy.orm import Session

from domain.models import AccessEvent, User
from domain.types import utcnow

MAX_DETAIL = 500

ADMIN_VIEW_DELETED = "admin_view_deleted"
ADMIN_VIEW_AUDIT = "admin_view_audit"
ADMIN_VIEW_AUDIT_EVENT = "admin_view_audit_event"
ADMIN_EXPORT_AUDIT = "admin_export_audit"
ADMIN_VIEW_USERS = "admin_view_users"
ADMIN_VIEW_RETENTION = "admin_view_retention"
LOGIN_KINDS = ("login", "login_failed")


def record_admin_view(
    session: Session,
    admin: User,
    *,
    kind: str,
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

"""CSV export of the audit log's filtered view; the export itself is an access event.

The action column holds the stored value (`hard_delete`), stable for spreadsheets and scripts;
the summary column is worded by the caller's `summary` function, as the admin reads it on screen.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.orm import Session

from domain.access_log import record_admin_view
from domain.actors import require_admin
from domain.audit import canonical_json
from domain.audit_log import AuditFilter, AuditRow, Summary, iter_rows
from domain.enums import AccessKind
from domain.models import User

EXPORT_LIMIT = 100_000
COLUMNS = ("seq", "at", "actor", "action", "athlete", "target", "summary", "reason", "redacted", "before", "after")
# A spreadsheet would run a cell starting with one of these as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class CsvExport:
    text: str
    rows: int
    truncated: bool


def export_csv(
    session: Session,
    actor: User | None,
    *,
    filters: AuditFilter,
    summary: Callable[[Summary], str],
    limit: int = EXPORT_LIMIT,
) -> CsvExport:
    """The filtered view, newest first, up to `limit` events."""
    admin = require_admin(actor)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    athletes: set[int] = set()
    count = 0
    truncated = False
    for row in iter_rows(session, filters):
        if count == limit:
            truncated = True
            break
        writer.writerow(_cells(row, summary(row.summary)))
        if row.athlete_id is not None:
            athletes.add(row.athlete_id)
        count += 1
    record_admin_view(
        session, admin, kind=AccessKind.ADMIN_EXPORT_AUDIT, athlete_ids=athletes, detail=f"CSV export of {count} events"
    )
    return CsvExport(text=buffer.getvalue(), rows=count, truncated=truncated)


def _cells(row: AuditRow, summary: str) -> list[str]:
    values = [
        str(row.seq),
        row.at.isoformat(timespec="seconds"),
        row.actor,
        row.action,
        row.athlete or "",
        row.target,
        summary,
        row.reason or "",
        "yes" if row.redacted else "no",
        canonical_json(row.before) if row.before is not None else "",
        canonical_json(row.after) if row.after is not None else "",
    ]
    return [_safe(value) for value in values]


def _safe(value: str) -> str:
    return "'" + value if value.startswith(_FORMULA_START) else value

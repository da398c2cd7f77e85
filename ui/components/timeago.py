"""'3 days ago' and friends."""

from __future__ import annotations

from datetime import datetime

from domain.types import utcnow


def time_ago(when: datetime, now: datetime | None = None) -> str:
    seconds = int(((now or utcnow()) - when).total_seconds())
    if seconds < 60:
        return "just now"
    for size, unit in (
        (31_536_000, "year"),
        (2_592_000, "month"),
        (604_800, "week"),
        (86_400, "day"),
        (3_600, "hour"),
        (60, "minute"),
    ):
        if seconds >= size:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''} ago"
    return "just now"

"""Waiting audit events no writer will chain, set aside once (PostgreSQL, issue 9).

A writer that takes the chain's head reads the events waiting in audit_pending (domain.audit). One
whose MAC does not match its fields (slipped in or changed by someone without the key), or which
copies one chained already (its waiting id is an event's `pending_id`), is moved to audit_refused
in that writer's transaction: so it is read and checked once, not again by every commit after it,
and it stays as evidence. `audit verify` fails while any is kept, and the admin's Audit tab lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, func, select, text
from sqlalchemy.orm import Session

from domain.actors import Actor, require_admin_or_system
from domain.models import AuditPending, AuditRefused

NOT_SIGNED = "not written by the app, or changed after it was"
COPIED = "a copy of event #{seq}, chained already"
SHOWN = 20  # the admin's list: the newest ones, and how many in all

_COLUMNS = [column.name for column in AuditPending.__table__.columns if column.name != "id"]
_NAMES = ", ".join(f'"{name}"' for name in _COLUMNS)
_FROM_WAITING = ", ".join(f'p."{name}"' for name in _COLUMNS)
# The refused rows out of audit_pending and into audit_refused, in one statement.
_REFUSE = text(
    "WITH r AS (SELECT * FROM unnest(CAST(:ids AS bigint[]), CAST(:problems AS text[]), "
    "CAST(:chained AS integer[])) AS r(id, problem, chained_as)), "
    "moved AS (DELETE FROM audit_pending AS p USING r WHERE p.id = r.id "
    f"RETURNING now(), r.problem, r.chained_as, p.id, {_FROM_WAITING}) "
    f"INSERT INTO audit_refused (refused_at, problem, chained_as, pending_id, {_NAMES}) SELECT * FROM moved"
)


@dataclass(frozen=True)
class Refusal:
    pending_id: int
    problem: str
    chained_as: int | None = None  # a copy: the seq of the event it copies


def refuse(connection: Connection, refusals: list[Refusal]) -> None:
    """Move these waiting events to audit_refused (the caller holds the head and commits)."""
    connection.execute(
        _REFUSE,
        {
            "ids": [refusal.pending_id for refusal in refusals],
            "problems": [refusal.problem for refusal in refusals],
            "chained": [refusal.chained_as for refusal in refusals],
        },
    )


@dataclass(frozen=True)
class RefusedEvent:
    """One refused event as the admin reads it: what it claimed, and why it was refused."""

    pending_id: int
    refused_at: datetime
    problem: str
    action: str | None
    actor_label: str | None
    target: str
    at: datetime | None


@dataclass(frozen=True)
class RefusedEvents:
    count: int
    newest: list[RefusedEvent]


def refused_events(session: Session, actor: Actor | None) -> RefusedEvents:
    """How many waiting events were refused, and the newest `SHOWN` of them."""
    require_admin_or_system(actor)
    count = session.scalar(select(func.count()).select_from(AuditRefused)) or 0
    if not count:
        return RefusedEvents(0, [])
    rows = session.scalars(select(AuditRefused).order_by(AuditRefused.id.desc()).limit(SHOWN))
    return RefusedEvents(count, [_shown(row) for row in rows])


def refused_problem(session: Session) -> str | None:
    """For `audit verify`: the first refused event, and how many there are; None if none."""
    count = session.scalar(select(func.count()).select_from(AuditRefused)) or 0
    if not count:
        return None
    first = session.scalars(select(AuditRefused).order_by(AuditRefused.id).limit(1)).one()
    others = f" ({count - 1:,} more refused)" if count > 1 else ""
    return f"an event waiting to be chained (#{first.pending_id}) was refused and set aside: {first.problem}{others}"


def _shown(row: AuditRefused) -> RefusedEvent:
    target = f"{row.target_type or '?'} {row.target_id}" if row.target_id is not None else (row.target_type or "?")
    return RefusedEvent(row.pending_id, row.refused_at, row.problem, row.action, row.actor_label, target, row.at)

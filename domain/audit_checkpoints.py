"""Verified checkpoints of the audit chain, so a routine check reads only the events since the last one.

Every verify run stores its result (models.AuditCheckpoint). A passing run's row is a checkpoint,
and the next run starts from the newest one (domain.audit.verify_chain `start`): it checks that
event again, reads only the events after it, and each later checkpoint's event must still carry
its hash. A failing run's row stands until a run that started below it passes; while it stands,
runs start below it, so a break once found is found again until it is repaired.

Trust: a checkpoint records a hash of the keyed chain (domain.audit: an HMAC under a key kept
outside the database), so whoever can rewrite events in the database cannot recompute hashes
that match, and a checkpoint cannot vouch for a forged event; cutting events off the end and
rewinding the head (checkpoints and all) is caught by the anchor kept outside the database,
which every run compares as well. Events written before the key existed (the legacy part) are
only as trustworthy as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, exists, func, select
from sqlalchemy.orm import Session, aliased

from domain.actors import Actor, require_admin_or_system
from domain.audit import ChainReport, Checkpoint, chain_before_reading, verify_chain
from domain.models import AuditCheckpoint
from domain.types import utcnow


@dataclass(frozen=True)
class StoredCheck:
    """The result that stands, as the admin reads it."""

    ok: bool
    seq: int  # verified up to this event; when not ok, the first bad one
    problem: str | None
    verified_at: datetime
    events_checked: int  # by the run that stored it
    full: bool  # that run started at the first event


def verify(session: Session, actor: Actor | None, *, full: bool = False) -> ChainReport:
    """Check the chain from the newest usable checkpoint, or all of it (`full`, or no checkpoint yet).

    Read-only: store the result with `record`, in a short write of its own."""
    require_admin_or_system(actor)
    chain_before_reading(session)  # events committed and not chained yet (a writer killed before it chained them)
    start = None if full else _start(session)
    after = start.seq if start is not None else 0
    known = session.execute(
        select(AuditCheckpoint.seq, AuditCheckpoint.hash).where(AuditCheckpoint.ok, AuditCheckpoint.seq > after)
    )
    return verify_chain(session, start=start, known={seq: hash_ for seq, hash_ in known if hash_})


def record(session: Session, actor: Actor | None, report: ChainReport) -> StoredCheck:
    """Store a run's result; the same result as the newest row only refreshes that row's time."""
    require_admin_or_system(actor)
    seq = report.verified.seq if report.ok else (report.first_bad_seq or 0)
    newest = session.scalars(select(AuditCheckpoint).order_by(AuditCheckpoint.id.desc()).limit(1)).first()
    same = newest is not None and (newest.ok, newest.seq, newest.problem) == (report.ok, seq, report.problem)
    if newest is not None and same and (not report.ok or newest.hash == report.verified.hash):
        newest.verified_at = utcnow()
        newest.from_seq = min(newest.from_seq, report.start_seq)  # never narrows what a past run covered
        return _stored(newest)
    row = AuditCheckpoint(
        seq=seq,
        hash=report.verified.hash if report.ok else None,
        from_seq=report.start_seq,
        events_checked=report.events_checked,
        ok=report.ok,
        problem=report.problem,
        verified_at=utcnow(),
    )
    session.add(row)
    session.flush()
    return _stored(row)


def last_check(session: Session, actor: Actor | None) -> StoredCheck | None:
    """A standing break if there is one, else the newest passing result; None before the first run."""
    require_admin_or_system(actor)
    row = session.scalars(
        select(AuditCheckpoint)
        .where(~AuditCheckpoint.ok, ~_cleared())
        .order_by(AuditCheckpoint.seq, AuditCheckpoint.id.desc())
        .limit(1)
    ).first()
    if row is None:
        row = session.scalars(
            select(AuditCheckpoint).where(AuditCheckpoint.ok).order_by(AuditCheckpoint.id.desc()).limit(1)
        ).first()
    return _stored(row) if row is not None else None


def _start(session: Session) -> Checkpoint | None:
    """The highest checkpoint below every standing break (a run from there finds the break again)."""
    below = session.scalar(select(func.min(AuditCheckpoint.seq)).where(~AuditCheckpoint.ok, ~_cleared()))
    stmt = select(AuditCheckpoint.seq, AuditCheckpoint.hash).where(AuditCheckpoint.ok, AuditCheckpoint.seq > 0)
    if below is not None:
        stmt = stmt.where(AuditCheckpoint.seq < below)
    row = session.execute(stmt.order_by(AuditCheckpoint.seq.desc(), AuditCheckpoint.id.desc()).limit(1)).first()
    return Checkpoint(row.seq, row.hash) if row is not None and row.hash else None


def _cleared() -> ColumnElement[bool]:
    """A failing row is cleared by a later passing run that started below its bad event."""
    later = aliased(AuditCheckpoint)
    return exists().where(later.ok, later.id > AuditCheckpoint.id, later.from_seq < AuditCheckpoint.seq)


def _stored(row: AuditCheckpoint) -> StoredCheck:
    return StoredCheck(row.ok, row.seq, row.problem, row.verified_at, row.events_checked, row.from_seq == 0)

"""The audit log: one hash-chained event per change, written in the caller's transaction.

Each event's hash covers digests of its before/after payloads rather than the payloads,
so a hard delete can redact content from the payloads and the chain still verifies.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Container, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Select, func, select
from sqlalchemy import event as orm_event
from sqlalchemy.orm import Session, SessionTransaction

from domain.actors import Actor, actor_identity
from domain.enums import REMOVAL_ACTIONS, AuditAction, AuditTarget
from domain.models import GENESIS_HASH, AuditEvent, AuditHead
from domain.types import utcnow

REDACTED_PROPOSALS = "redacted_proposals"  # a removal event's list of proposals it redacted
_HEAD_KEY = "memory_review_audit_head"


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def digest(payload: dict[str, Any] | None) -> str | None:
    if payload is None:
        return None
    return hashlib.sha256(canonical_json(payload).encode()).hexdigest()


def _timestamp(at: datetime) -> str:
    return at.isoformat(timespec="microseconds")


def event_hash(event: ChainedEvent, prev_hash: str) -> str:
    body = {
        "seq": event.seq,
        "at": _timestamp(event.at),
        "actor_id": event.actor_id,
        "actor_label": event.actor_label,
        "action": event.action,
        "athlete_id": event.athlete_id,
        "target_type": event.target_type,
        "target_id": event.target_id,
        "before_digest": event.before_digest,
        "after_digest": event.after_digest,
        "reason": event.reason,
    }
    return hashlib.sha256((prev_hash + canonical_json(body)).encode()).hexdigest()


def record(
    session: Session,
    *,
    actor: Actor,
    action: AuditAction,
    target_type: AuditTarget,
    target_id: int | None,
    athlete_id: int | None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str | None = None,
) -> AuditEvent:
    actor_id, actor_label = actor_identity(actor)
    head = _locked_head(session)
    event = AuditEvent(
        seq=head.seq + 1,
        at=utcnow(),
        actor_id=actor_id,
        actor_label=actor_label,
        action=action,
        athlete_id=athlete_id,
        target_type=target_type,
        target_id=target_id,
        before=before,
        after=after,
        before_digest=digest(before),
        after_digest=digest(after),
        redacted=False,
        reason=reason,
        prev_hash=head.hash,
    )
    event.hash = event_hash(event, head.hash)
    head.seq, head.hash = event.seq, event.hash
    session.add(event)
    return event


def _locked_head(session: Session) -> AuditHead:
    """The chain head, locked once per transaction (FOR UPDATE on PostgreSQL; SQLite writers
    already hold the write lock), then kept in the session for the transaction's next events."""
    head = session.info.get(_HEAD_KEY)
    if head is None:
        head = session.execute(select(AuditHead).where(AuditHead.id == 1).with_for_update()).scalar_one()
        session.info[_HEAD_KEY] = head
    return head


@orm_event.listens_for(Session, "after_transaction_end")
def _forget_head(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:
        session.info.pop(_HEAD_KEY, None)


class ChainedEvent(Protocol):
    """An event as the chain covers it: a mapped AuditEvent, or a row of its columns (verify reads rows)."""

    seq: int
    at: datetime
    actor_id: int | None
    actor_label: str
    action: AuditAction
    athlete_id: int | None
    target_type: AuditTarget
    target_id: int | None
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    before_digest: str | None
    after_digest: str | None
    redacted: bool
    reason: str | None
    prev_hash: str
    hash: str


@dataclass(frozen=True)
class Checkpoint:
    """A point of the chain found whole: event `seq` has `hash` (seq 0 is the genesis)."""

    seq: int
    hash: str


GENESIS = Checkpoint(0, GENESIS_HASH)


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    events_checked: int
    first_bad_seq: int | None = None
    problem: str | None = None
    verified: Checkpoint = GENESIS  # the last event found whole: the chain's head when ok
    start_seq: int = 0  # the checkpoint the run started from; 0: the first event

    def summary(self) -> str:
        if not self.ok:
            return f"Audit chain broken at event {self.first_bad_seq}: {self.problem}"
        if self.start_seq == 0:
            return f"Audit chain verified: {self.events_checked:,} events"
        return (
            f"Audit chain verified up to event #{self.verified.seq:,} "
            f"({self.events_checked:,} new since the checkpoint at #{self.start_seq:,})"
        )


def verify_chain(
    session: Session,
    *,
    start: Checkpoint | None = None,
    known: Mapping[int, str] | None = None,
    batch_size: int = 5000,
) -> ChainReport:
    """Recompute the chain from the first event, or from `start`: a checkpoint, whose event is
    checked again (still there, same hash, unchanged) and only the events after it are read.

    `known` (seq → hash, from earlier checkpoints) are events that must still exist with those
    hashes: so cutting events off the end of the chain and rewinding the head is caught too.
    Events are read up to the head as it was first read, so writers may go on meanwhile.
    """
    head = session.execute(select(AuditHead.seq, AuditHead.hash).where(AuditHead.id == 1)).first()
    removed = _RemovedTargets(session)
    start_seq = start.seq if start is not None else 0
    verified = start or GENESIS
    checked = 0

    def broken(seq: int, problem: str) -> ChainReport:
        return ChainReport(False, checked, seq, problem, verified, start_seq)

    if start is not None and (problem := _recheck(session, start, removed)):
        return broken(start.seq, problem)
    known = {seq: hash_ for seq, hash_ in (known or {}).items() if seq > verified.seq}
    for event in _events_after(session, verified.seq, head.seq if head else None, batch_size):
        problem = _check(event, verified.seq + 1, verified.hash, removed)
        if problem is None and known.get(event.seq, event.hash) != event.hash:
            problem = "its hash differs from the one a checkpoint recorded"
        if problem:
            return broken(event.seq, problem)
        verified = Checkpoint(event.seq, event.hash)
        checked += 1
    if head is not None and (head.seq != verified.seq or head.hash != verified.hash):
        return broken(verified.seq + 1, "events after this point are missing")
    if problem := _beyond_head(session, verified, known):
        return broken(verified.seq + 1, problem)
    return ChainReport(True, checked, verified=verified, start_seq=start_seq)


def _columns() -> Select[Any]:
    """Rows of the event's columns, not mapped objects: half the work per event of a full run."""
    return select(*AuditEvent.__table__.columns)


def _events_after(session: Session, after: int, up_to: int | None, batch_size: int) -> Iterator[ChainedEvent]:
    last = after
    while True:
        stmt = _columns().where(AuditEvent.seq > last)
        if up_to is not None:
            stmt = stmt.where(AuditEvent.seq <= up_to)
        batch: list[ChainedEvent] = list(session.execute(stmt.order_by(AuditEvent.seq).limit(batch_size)))
        if not batch:
            return
        yield from batch
        last = batch[-1].seq


def _recheck(session: Session, start: Checkpoint, removed: Container[tuple[AuditTarget, int | None]]) -> str | None:
    """The checkpoint's own event: its hash covers its link to the event before it."""
    event: ChainedEvent | None = session.execute(_columns().where(AuditEvent.seq == start.seq)).first()
    if event is None:
        return "this event was verified at a checkpoint and is now missing"
    if event.hash != start.hash:
        return "its hash differs from the one the checkpoint recorded"
    return _check(event, start.seq, event.prev_hash, removed)


def _beyond_head(session: Session, verified: Checkpoint, known: Mapping[int, str]) -> str | None:
    """Events past the head that is read again now: an event written meanwhile moved the head with it
    (one transaction), so an event still past it, or a checkpoint's event gone, means tampering."""
    newest = session.scalar(select(func.max(AuditEvent.seq)))  # first: the head then is at least as new
    head_seq = session.scalar(select(AuditHead.seq).where(AuditHead.id == 1))
    if head_seq is not None and newest is not None and newest > head_seq:
        return f"event {newest} is past the head of the chain"
    later = {seq: hash_ for seq, hash_ in known.items() if seq > verified.seq}
    if not later:
        return None
    rows = session.execute(select(AuditEvent.seq, AuditEvent.hash).where(AuditEvent.seq.in_(later)))
    found = {seq: hash_ for seq, hash_ in rows}
    for seq in sorted(later):
        if found.get(seq) != later[seq]:
            return f"event {seq} was verified at a checkpoint and is now missing or changed"
    return None


class _RemovedTargets:
    """What removal events (hard delete, retention purge) redacted: only these may be redacted.
    Read when first asked, so a run over events that carry no redaction never reads them."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self._targets: set[tuple[AuditTarget, int | None]] | None = None

    def __contains__(self, target: object) -> bool:
        if self._targets is not None and target in self._targets:
            return True
        self._targets = _removed_targets(self._session)  # first use, or a removal committed since
        return target in self._targets


def _removed_targets(session: Session) -> set[tuple[AuditTarget, int | None]]:
    targets: set[tuple[AuditTarget, int | None]] = set()
    for target_id, after in session.execute(
        select(AuditEvent.target_id, AuditEvent.after).where(AuditEvent.action.in_(REMOVAL_ACTIONS))
    ):
        targets.add((AuditTarget.MEMORY, target_id))
        targets.update((AuditTarget.PROPOSAL, pid) for pid in (after or {}).get(REDACTED_PROPOSALS, []))
    return targets


def _properly_redacted(event: ChainedEvent, removed: Container[tuple[AuditTarget, int | None]]) -> bool:
    payloads = [p for p in (event.before, event.after) if p is not None]
    return (event.target_type, event.target_id) in removed and all(
        p.get("redacted") is True and p.get("content") is None and p.get("tags") is None for p in payloads
    )


def _check(
    event: ChainedEvent, expected_seq: int, prev_hash: str, removed: Container[tuple[AuditTarget, int | None]]
) -> str | None:
    if event.seq != expected_seq:
        return f"expected event {expected_seq} here; an event is missing or out of order"
    if event.prev_hash != prev_hash:
        return "it does not follow the event before it"
    payload_changed = digest(event.before) != event.before_digest or digest(event.after) != event.after_digest
    if payload_changed and not (event.redacted and _properly_redacted(event, removed)):
        return "its before/after payload was changed"
    if event_hash(event, prev_hash) != event.hash:
        return "its recorded fields were changed"
    return None

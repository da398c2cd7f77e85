"""The audit log: one hash-chained event per change, written in the caller's transaction.

Each event's hash covers digests of its before/after payloads rather than the payloads,
so a hard delete can redact content from the payloads and the chain still verifies.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import event as orm_event
from sqlalchemy import select
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


def event_hash(event: AuditEvent, prev_hash: str) -> str:
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


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    events_checked: int
    first_bad_seq: int | None = None
    problem: str | None = None

    def summary(self) -> str:
        if self.ok:
            return f"Audit chain verified: {self.events_checked:,} events"
        return f"Audit chain broken at event {self.first_bad_seq}: {self.problem}"


def verify_chain(session: Session, *, batch_size: int = 5000) -> ChainReport:
    prev_hash = GENESIS_HASH
    expected_seq = 1
    checked = 0
    removed = _removed_targets(session)
    for event in _events_in_order(session, batch_size):
        problem = _check(event, expected_seq, prev_hash, removed)
        if problem:
            return ChainReport(False, checked, event.seq, problem)
        prev_hash = event.hash
        expected_seq += 1
        checked += 1
    head = session.get(AuditHead, 1)
    if head is not None and (head.seq != checked or head.hash != prev_hash):
        return ChainReport(False, checked, checked + 1, "events after this point are missing")
    return ChainReport(True, checked)


def _events_in_order(session: Session, batch_size: int) -> Iterator[AuditEvent]:
    last = 0
    while True:
        batch = list(
            session.scalars(select(AuditEvent).where(AuditEvent.seq > last).order_by(AuditEvent.seq).limit(batch_size))
        )
        if not batch:
            return
        yield from batch
        last = batch[-1].seq
        for event in batch:
            session.expunge(event)


def _removed_targets(session: Session) -> set[tuple[AuditTarget, int | None]]:
    """What removal events (hard delete, retention purge) redacted: only these may be redacted."""
    targets: set[tuple[AuditTarget, int | None]] = set()
    for target_id, after in session.execute(
        select(AuditEvent.target_id, AuditEvent.after).where(AuditEvent.action.in_(REMOVAL_ACTIONS))
    ):
        targets.add((AuditTarget.MEMORY, target_id))
        targets.update((AuditTarget.PROPOSAL, pid) for pid in (after or {}).get(REDACTED_PROPOSALS, []))
    return targets


def _properly_redacted(event: AuditEvent, removed: set[tuple[AuditTarget, int | None]]) -> bool:
    payloads = [p for p in (event.before, event.after) if p is not None]
    return (event.target_type, event.target_id) in removed and all(
        p.get("redacted") is True and p.get("content") is None and p.get("tags") is None for p in payloads
    )


def _check(
    event: AuditEvent, expected_seq: int, prev_hash: str, removed: set[tuple[AuditTarget, int | None]]
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

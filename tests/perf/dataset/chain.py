"""Audit events for the generator, hashed with the domain's own functions (domain.audit), so
`memory-review audit verify` passes over generated data as over data the services wrote."""

from __future__ import annotations

import random
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from domain.audit import digest, event_hash
from domain.enums import AuditAction, AuditTarget


class Chain:
    """The next events of the chain, continuing from the head the database had."""

    def __init__(self, seq: int, head_hash: str, limit: int | None = None, keep: float = 1.0, seed: int = 0) -> None:
        self.seq = seq
        self.hash = head_hash
        self.limit = limit
        self.keep = keep  # the share of events written (the others are left out; the chain stays whole)
        self.thinning = random.Random(seed)  # its own, so the rows do not depend on `keep`
        self.written = 0

    def full(self) -> bool:
        return self.limit is not None and self.written >= self.limit

    def event(
        self,
        *,
        at: datetime,
        actor: tuple[int | None, str],
        action: AuditAction,
        target: AuditTarget,
        target_id: int | None,
        athlete_id: int | None,
        before: dict[str, Any] | None = None,
        after: dict[str, Any] | None = None,
        reason: str | None = None,
    ) -> dict[str, Any] | None:
        """The row of the next event, or None once `limit` events were made."""
        if self.full() or (self.keep < 1 and self.thinning.random() >= self.keep):
            return None
        row: dict[str, Any] = {
            "seq": self.seq + 1,
            "at": at,
            "actor_id": actor[0],
            "actor_label": actor[1],
            "action": action.value,
            "athlete_id": athlete_id,
            "target_type": target.value,
            "target_id": target_id,
            "before": before,
            "after": after,
            "before_digest": digest(before),
            "after_digest": digest(after),
            "redacted": False,
            "reason": reason,
            "prev_hash": self.hash,
        }
        row["hash"] = event_hash(SimpleNamespace(**row), self.hash)
        self.seq, self.hash = row["seq"], row["hash"]
        self.written += 1
        return row

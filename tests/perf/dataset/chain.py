"""Audit events for the generator, hashed with the domain's own functions (domain.audit), so
`memory-review audit verify` passes over generated data as over data the services wrote."""

from __future__ import annotations

import hashlib
import random
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from domain.audit import canonical_json, event_hash
from domain.enums import AuditAction, AuditTarget


class RawJson(str):
    """A payload already serialised; stored as it is (the writer does not encode it again)."""


def _payload(value: dict[str, Any] | None) -> tuple[RawJson | None, str | None]:
    """The stored text and the digest of a payload from one serialisation: the canonical form
    domain.audit.digest hashes is also valid JSON to store (it reads back as the same dict)."""
    if value is None:
        return None, None
    text = canonical_json(value)
    return RawJson(text), hashlib.sha256(text.encode()).hexdigest()


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

    def admit(self) -> bool:
        """Whether the next event is written (ask once per event, before building its payloads)."""
        if self.full():
            return False
        return self.keep >= 1 or self.thinning.random() < self.keep

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
    ) -> dict[str, Any]:
        """The row of the next event (after `admit()` said yes)."""
        before_text, before_digest = _payload(before)
        after_text, after_digest = _payload(after)
        row: dict[str, Any] = {
            "seq": self.seq + 1,
            "at": at,
            "actor_id": actor[0],
            "actor_label": actor[1],
            "action": action.value,
            "athlete_id": athlete_id,
            "target_type": target.value,
            "target_id": target_id,
            "before": before_text,
            "after": after_text,
            "before_digest": before_digest,
            "after_digest": after_digest,
            "redacted": False,
            "reason": reason,
            "prev_hash": self.hash,
        }
        row["hash"] = event_hash(SimpleNamespace(**row), self.hash)
        self.seq, self.hash = row["seq"], row["hash"]
        self.written += 1
        return row

"""One walk through a year of use, in time order: what every athlete stored, decided and deleted.

Each step is a memory (typed in, or a confirmed proposal with its source text) or a proposal the
athlete rejected or let expire; later consequences (an edit, a delete, a rejection) wait in a
heap until the walk reaches their time. So ids grow with time and the audit chain's `at` never
goes backwards, as in a database the services filled. Pending proposals arrive in the last days.
"""

from __future__ import annotations

import heapq
import itertools
import random
from array import array
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from domain.content import normalize
from domain.enums import (
    AuditAction,
    AuditTarget,
    MemoryConfidence,
    MemorySource,
    MemoryStatus,
    MemoryType,
    ProposalStatus,
)
from tests.perf.dataset.chain import Chain
from tests.perf.dataset.phrases import Phrase, edited, note, phrase
from tests.perf.dataset.writer import BulkWriter

TYPES = list(MemoryType)
TYPE_WEIGHTS = [30, 20, 15, 10, 25]  # injury, preference, context, insight, training response
CONFIDENCES = [MemoryConfidence.HIGH, MemoryConfidence.MEDIUM, MemoryConfidence.LOW]
PROPOSED_SHARE = 0.6  # memories that came from a confirmed proposal (the rest typed in or pattern analysis)
DELETED_SHARE = 0.05
ARCHIVED_SHARE = 0.06  # each is superseded by the next memory of its athlete and type
EDITED_SHARE = 0.08
# create; ingest, propose and confirm of the proposed; edit; delete; supersede (an estimate)
IMPLIED_PER_MEMORY = 1 + PROPOSED_SHARE * 3 + EDITED_SHARE + DELETED_SHARE + ARCHIVED_SHARE * 0.9
READ_SIZE = 12  # memories one coach read serves
PENDING_WINDOW = timedelta(days=3)
EXPIRY = timedelta(days=30)
COACH_LABEL = "token:bench-coach"


Payload = dict[str, Any] | Callable[[], dict[str, Any]] | None


@dataclass
class Athlete:
    id: int
    username: str
    memories: int
    pending: int
    recent: deque[int] = field(default_factory=lambda: deque(maxlen=READ_SIZE))


@dataclass
class Ids:
    memory: int
    proposal: int
    source: int
    read: int

    def take(self, name: str) -> int:
        value: int = getattr(self, name)
        setattr(self, name, value + 1)
        return value


@dataclass(frozen=True)
class Later:
    """An event the walk writes when it reaches `at`."""

    at: datetime
    make: Callable[[], None]


def _snapshot(row: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A memory as domain.memory_writes.snapshot records it."""
    values = {
        "content": row["content"],
        "type": row["type"],
        "tags": list(row["tags"]),
        "confidence": row["confidence"],
        "occurrences": row["occurrences"],
        "source": row["source"],
        "source_reference": row["source_reference"],
        "status": MemoryStatus.ACTIVE.value,
        "superseded_by": None,
        "hidden_from_coach": False,
        "version": 1,
    }
    values.update(changes)
    return values


class Walk:
    def __init__(
        self,
        *,
        rng: random.Random,
        writer: BulkWriter,
        chain: Chain,
        ids: Ids,
        athletes: list[Athlete],
        admin: tuple[int, str],
        token_id: int | None,
        start: datetime,
        now: datetime,
        rejected: int,
        reads_per_memory: float,
    ) -> None:
        self.rng, self.writer, self.chain, self.ids = rng, writer, chain, ids
        self.athletes, self.admin, self.token_id = athletes, admin, token_id
        self.start, self.now = start, now
        self.rejected = rejected
        self.reads_per_memory = reads_per_memory
        self.later: list[tuple[datetime, int, Later]] = []
        self.tie = itertools.count()
        self.waiting: dict[tuple[int, str], list[dict[str, Any]]] = {}  # archived, awaiting their successor
        self.superseded: list[dict[str, Any]] = []  # (old id, new id, at): set on the old rows afterwards
        self.content_key: Callable[[str], str] | None = None
        self.tag_rows: Callable[..., list[dict[str, Any]]] | None = None

    # -- the walk -------------------------------------------------------------------------------

    def run(self) -> None:
        slots = array("i", (i for i, a in enumerate(self.athletes) for _ in range(a.memories)))
        self.rng.shuffle(slots)
        proposal_slots = array("i", (self.rng.randrange(len(self.athletes)) for _ in range(self.rejected)))
        end = self.now - PENDING_WINDOW
        total = len(slots) + len(proposal_slots)
        span = (end - self.start).total_seconds()
        m = p = 0
        for step in range(total):
            at = self.start + timedelta(seconds=span * (step + self.rng.random()) / total)
            self._catch_up(at)
            left_m, left_p = len(slots) - m, len(proposal_slots) - p
            if self.rng.random() * (left_m + left_p) < left_m:
                self._memory(self.athletes[slots[m]], at)
                m += 1
            else:
                self._decided_proposal(self.athletes[proposal_slots[p]], at)
                p += 1
        pending = [a for a in self.athletes for _ in range(a.pending)]
        self.rng.shuffle(pending)
        window = (PENDING_WINDOW - timedelta(minutes=1)).total_seconds()
        for step, athlete in enumerate(pending):
            at = end + timedelta(seconds=window * (step + self.rng.random()) / len(pending))
            self._catch_up(at)
            self._proposal(athlete, at, ProposalStatus.PENDING, None)
        self._catch_up(self.now)

    def _catch_up(self, at: datetime) -> None:
        while self.later and self.later[0][0] <= at:
            heapq.heappop(self.later)[2].make()

    def _schedule(self, at: datetime, make: Callable[[], None]) -> None:
        heapq.heappush(self.later, (at, next(self.tie), Later(at, make)))

    def _after(self, at: datetime, *, max_days: float, reserve: timedelta = timedelta(0)) -> datetime:
        """A later moment, before the end of the walk."""
        later = at + timedelta(days=self.rng.random() * max_days, seconds=1)
        return min(later, self.now - reserve - timedelta(seconds=self.rng.randrange(1, 3600)))

    def _event(self, *, before: Payload = None, after: Payload = None, **kwargs: Any) -> None:
        """One event, if the chain admits it; payloads given as functions are built only then."""
        if self.chain.admit():
            before = before() if callable(before) else before
            after = after() if callable(after) else after
            self.writer.add("audit_events", self.chain.event(before=before, after=after, **kwargs))

    # -- steps ----------------------------------------------------------------------------------

    def _memory(self, athlete: Athlete, at: datetime) -> None:
        rng = self.rng
        memory_type = rng.choices(TYPES, TYPE_WEIGHTS)[0]
        said = phrase(rng, memory_type)
        memory_id = self.ids.take("memory")
        proposed = rng.random() < PROPOSED_SHARE
        if proposed:
            kind = rng.choice([MemorySource.ACTIVITY_NOTE, MemorySource.USER_MESSAGE])
            source, reference = kind, f"{kind.value}-{self.ids.source}"
        elif memory_type == MemoryType.INSIGHT:
            source, reference = MemorySource.PATTERN_ANALYSIS, None
        else:
            source, reference = MemorySource.MANUAL, None
        roll = rng.random()
        status = (
            MemoryStatus.DELETED
            if roll < DELETED_SHARE
            else MemoryStatus.ARCHIVED
            if roll < DELETED_SHARE + ARCHIVED_SHARE
            else MemoryStatus.ACTIVE
        )
        occurrences = 1 + (rng.random() < 0.1) * rng.randrange(1, 5)
        row: dict[str, Any] = {
            "id": memory_id,
            "athlete_id": athlete.id,
            "type": memory_type.value,
            "content": said.content,
            "source": source.value,
            "source_reference": reference,
            "confidence": (MemoryConfidence.HIGH if occurrences >= 3 else rng.choice(CONFIDENCES)).value,
            "occurrences": occurrences,
            "tags": list(said.tags),
            "status": status.value,
            "created_at": at,
            "updated_at": at,
            "deleted_at": None,
            "deleted_by_id": None,
            "archived_at": at + timedelta(days=1) if status == MemoryStatus.ARCHIVED else None,
            "superseded_by_id": None,
            "expires_at": None,
            "hidden_from_coach": False,
            "version": 1,
        }
        if self.content_key is not None:
            row["content_key"] = self.content_key(row["content"])
        actor = (athlete.id, athlete.username)
        created = partial(_snapshot, dict(row))  # as it was created, whatever changes later
        edit = delete = None
        if rng.random() < EDITED_SHARE:
            edited_at = self._after(at, max_days=60)
            before = _snapshot(row, content=edited(rng, row["content"]))
            row["version"] += 1
            row["updated_at"] = edited_at
            edit = (edited_at, actor, AuditAction.EDIT, row, before, _snapshot(row, version=row["version"]))
        if status == MemoryStatus.DELETED:
            deleted_at = max(self._after(at, max_days=120), row["updated_at"])
            by = actor if rng.random() < 0.9 else self.admin
            before = _snapshot(row, version=row["version"])
            row.update(version=row["version"] + 1, updated_at=deleted_at, deleted_at=deleted_at, deleted_by_id=by[0])
            after = _snapshot(row, status=MemoryStatus.DELETED.value, version=row["version"])
            delete = (deleted_at, by, AuditAction.DELETE, row, before, after)
        self.writer.add("memories", row)  # final state; parents before children (see writer.ORDER)
        if proposed:
            self._proposal(athlete, at, ProposalStatus.CONFIRMED, row, said)
        self._event(
            at=at,
            actor=actor,
            action=AuditAction.CREATE,
            target=AuditTarget.MEMORY,
            target_id=memory_id,
            athlete_id=athlete.id,
            after=created,
        )
        self._maybe_supersede(athlete, row, at)
        for later in (edit, delete):
            if later is not None:
                self._schedule(later[0], partial(self._memory_event, *later))
        if status == MemoryStatus.ARCHIVED:
            self.waiting.setdefault((athlete.id, row["type"]), []).append(row)
        elif status == MemoryStatus.ACTIVE:
            athlete.recent.append(memory_id)
            if self.tag_rows is not None:
                for tag_row in self.tag_rows(
                    memory_id=memory_id,
                    athlete_id=athlete.id,
                    memory_type=row["type"],
                    tags=row["tags"],
                    updated_at=row["updated_at"],
                ):
                    self.writer.add("memory_tags", tag_row)
        if rng.random() < self.reads_per_memory:
            self._coach_read(athlete, at)

    def _memory_event(
        self,
        at: datetime,
        actor: tuple[int | None, str],
        action: AuditAction,
        row: dict[str, Any],
        before: dict[str, Any],
        after: dict[str, Any],
    ) -> None:
        self._event(
            at=at,
            actor=actor,
            action=action,
            target=AuditTarget.MEMORY,
            target_id=row["id"],
            athlete_id=row["athlete_id"],
            before=before,
            after=after,
        )

    def _maybe_supersede(self, athlete: Athlete, new: dict[str, Any], at: datetime) -> None:
        """An active memory replaces the oldest archived one of its athlete and type waiting for it."""
        waiting = self.waiting.get((athlete.id, new["type"]))
        if new["status"] != MemoryStatus.ACTIVE.value or not waiting:
            return
        old = waiting.pop(0)
        self.superseded.append({"id": old["id"], "superseded_by_id": new["id"], "archived_at": at})
        before = _snapshot(old)
        after = _snapshot(old, status=MemoryStatus.ARCHIVED.value, superseded_by=new["id"], version=2)
        self._memory_event(at, (athlete.id, athlete.username), AuditAction.SUPERSEDE, old, before, after)

    def _decided_proposal(self, athlete: Athlete, at: datetime) -> None:
        expire_at = at + EXPIRY
        if self.rng.random() < 0.2 and expire_at < self.now - PENDING_WINDOW:
            self._proposal(athlete, at, ProposalStatus.EXPIRED, None, decided_at=expire_at)
        else:
            self._proposal(athlete, at, ProposalStatus.REJECTED, None)

    def _proposal(
        self,
        athlete: Athlete,
        at: datetime,
        status: ProposalStatus,
        memory: dict[str, Any] | None,
        said: Phrase | None = None,
        decided_at: datetime | None = None,
    ) -> None:
        """A source text, the proposal made from it, and its decision (at once when confirmed)."""
        rng = self.rng
        if said is None:
            said = phrase(rng, rng.choices(TYPES, TYPE_WEIGHTS)[0])
        memory_type = memory["type"] if memory else None
        kind = memory["source"] if memory else rng.choice(["activity_note", "user_message"])
        source_id = self.ids.take("source")
        reference = f"{kind}-{source_id}"
        text, start, end = note(rng, said.first_person)
        received = at - timedelta(seconds=rng.randrange(60, 3600)) if memory else at
        self.writer.add(
            "source_texts",
            {"id": source_id, "athlete_id": athlete.id, "kind": kind, "reference": reference, "text": text,
             "received_at": received},
        )  # fmt: skip
        coach = (None, COACH_LABEL)
        ingest: Payload = partial(dict, kind=kind, reference=reference, characters=len(text))
        self._event(at=received, actor=coach, action=AuditAction.INGEST, target=AuditTarget.SOURCE_TEXT,
                    target_id=source_id, athlete_id=athlete.id, after=ingest)  # fmt: skip
        proposal_id = self.ids.take("proposal")
        row: dict[str, Any] = {
            "id": proposal_id,
            "athlete_id": athlete.id,
            "source_text_id": source_id,
            "type": memory_type or rng.choices(TYPES, TYPE_WEIGHTS)[0].value,
            "content": memory["content"] if memory else said.content,
            "normalized_content": normalize(memory["content"] if memory else said.content),
            "source": kind,
            "source_reference": reference,
            "confidence": memory["confidence"] if memory else rng.choice(CONFIDENCES).value,
            "tags": list(said.tags),
            "evidence_start": start,
            "evidence_end": end,
            "evidence": [reference],
            "extractor": "rules",
            "status": ProposalStatus.PENDING.value,
            "created_at": received,
            "decided_at": None,
            "decided_by_id": None,
            "memory_id": None,
            "version": 1,
        }
        proposed = partial(self._proposal_snapshot, dict(row))
        self._event(at=received, actor=coach, action=AuditAction.PROPOSE, target=AuditTarget.PROPOSAL,
                    target_id=proposal_id, athlete_id=athlete.id, after=proposed)  # fmt: skip
        if status != ProposalStatus.PENDING:
            if memory is not None:
                decided = at
            else:
                decided = decided_at or self._after(at, max_days=7, reserve=PENDING_WINDOW)
                decided = max(decided, at + timedelta(seconds=1))
            by = None if status == ProposalStatus.EXPIRED else athlete.id
            row.update(status=status.value, decided_at=decided, decided_by_id=by, version=2)
            row["memory_id"] = memory["id"] if memory else None
            action = {
                ProposalStatus.CONFIRMED: AuditAction.PROPOSAL_CONFIRM,
                ProposalStatus.REJECTED: AuditAction.PROPOSAL_REJECT,
                ProposalStatus.EXPIRED: AuditAction.PROPOSAL_EXPIRE,
            }[status]
            actor = (None, "system") if by is None else (athlete.id, athlete.username)
            after = partial(self._proposal_snapshot, row)

            def decide() -> None:
                self._event(at=decided, actor=actor, action=action, target=AuditTarget.PROPOSAL,
                            target_id=proposal_id, athlete_id=athlete.id, before=proposed, after=after)  # fmt: skip

            if memory is not None:
                decide()
            else:
                self._schedule(decided, decide)
        self.writer.add("proposals", row)

    @staticmethod
    def _proposal_snapshot(row: dict[str, Any]) -> dict[str, Any]:
        return {
            "content": row["content"],
            "type": row["type"],
            "tags": list(row["tags"]),
            "confidence": row["confidence"],
            "status": row["status"],
            "memory_id": row["memory_id"],
            "source_text_id": row["source_text_id"],
        }

    def _coach_read(self, athlete: Athlete, at: datetime) -> None:
        """The coaching system read this athlete's context (kept in coach_reads, not in the audit log)."""
        if not athlete.recent:
            return
        read_id = self.ids.take("read")
        query = self.rng.choice([None, "knee", "long run", "morning", "race plan"])
        self.writer.add(
            "coach_reads",
            {"id": read_id, "at": at, "athlete_id": athlete.id, "token_id": self.token_id,
             "token_name": COACH_LABEL.removeprefix("token:"), "kind": "context", "query": query,
             "max_tokens": 174, "block": None},
        )  # fmt: skip
        for position, memory_id in enumerate(dict.fromkeys(reversed(athlete.recent))):
            self.writer.add("coach_read_memories", {"read_id": read_id, "memory_id": memory_id, "position": position})

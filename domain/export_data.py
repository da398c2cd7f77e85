"""What an export holds: the athlete's active memories and the archived ones they replaced.

Deleted memories are left out (the athlete deleted them). Memories hidden from the coach are in
the athlete's own export, marked; an export for the coaching system (the API) leaves them out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from domain.actors import Actor, SystemActor, TokenActor
from domain.enums import MemoryStatus, Role
from domain.errors import InvalidInput, PermissionDenied
from domain.models import Memory, Proposal, User
from domain.types import utcnow
from domain.visibility import with_inactive

APP_NAME = "memory-review"
APP_VERSION = "0.1.0"
EXPORT_FORMATS = ("m13", "pam")


@dataclass(frozen=True)
class ExportData:
    athlete: User
    memories: list[Memory]
    archived: list[Memory]
    extractors: dict[int, str] = field(default_factory=dict)  # memory id -> the extractor of its proposal
    exported_at: datetime = field(default_factory=utcnow)


def memory_ref(memory_id: int | None) -> str | None:
    return None if memory_id is None else f"mem_{memory_id}"


def iso(value: datetime) -> str:
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def check_format(name: str) -> str:
    value = (name or "").strip().lower()
    if value not in EXPORT_FORMATS:
        raise InvalidInput(
            f"Format: unknown value {name[:20]!r}; allowed: {', '.join(EXPORT_FORMATS)}.", field="format"
        )
    return value


def check_export_actor(actor: Actor | None, athlete: User) -> bool:
    """Who may export: the athlete, the system (CLI), or a coach token (without hidden memories).
    Returns whether hidden memories are included."""
    if athlete.role != Role.ATHLETE:
        raise InvalidInput("Only an athlete's memory can be exported.", field="athlete")
    if isinstance(actor, TokenActor):
        return False
    if isinstance(actor, SystemActor):
        return True
    if isinstance(actor, User) and actor.id == athlete.id and not actor.disabled:
        return True
    raise PermissionDenied("Only the athlete can download their memory.")


def collect(session: Session, athlete: User, *, include_hidden: bool) -> ExportData:
    where = [Memory.athlete_id == athlete.id, Memory.status.in_([MemoryStatus.ACTIVE, MemoryStatus.ARCHIVED])]
    if not include_hidden:
        where.append(Memory.hidden_from_coach.is_(False))
    rows = session.scalars(select(Memory).where(*where).order_by(Memory.id).execution_options(**with_inactive()))
    memories: list[Memory] = []
    archived: list[Memory] = []
    for memory in rows:
        (memories if memory.status == MemoryStatus.ACTIVE else archived).append(memory)
    rows_of_proposals = session.execute(
        select(Proposal.memory_id, Proposal.extractor).where(
            Proposal.athlete_id == athlete.id, Proposal.memory_id.is_not(None)
        )
    )
    extractors = {memory_id: extractor for memory_id, extractor in rows_of_proposals if memory_id is not None}
    return ExportData(athlete, memories, archived, extractors)

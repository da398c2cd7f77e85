"""Import: a file's memories become pending proposals for the athlete to review, never memories.

Each proposal says where it came from ("Imported from FILE, entry N") and carries the memory's
own dates (domain.import_marks), so confirming it keeps them. The dedup preview of the Context
page applies as for any proposal. Contents already waiting for review, or repeated in the file,
are not proposed twice. The whole file is checked first (domain.import_parse): on any problem
nothing is stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath

from sqlalchemy import select
from sqlalchemy.orm import Session

from domain.actors import Actor, SystemActor, TokenActor
from domain.content import normalize
from domain.enums import ProposalStatus, Role
from domain.errors import InvalidInput, PermissionDenied
from domain.import_marks import IMPORT_EXTRACTOR, ImportMarks, evidence_lines
from domain.import_parse import FORMAT_LABELS, ImportItem, ParsedFile, parse_file
from domain.models import Proposal, User
from domain.proposals import add_proposal
from domain.types import utcnow

MAX_FILE_NAME = 80


@dataclass(frozen=True)
class ImportPlan:
    file_name: str
    parsed: ParsedFile
    new: list[ImportItem] = field(default_factory=list)
    skipped: int = 0  # already waiting for review, or repeated in the file

    @property
    def format_label(self) -> str:
        return FORMAT_LABELS[self.parsed.format]

    def summary(self) -> str:
        parts = [f"{len(self.new)} proposal{'s' if len(self.new) != 1 else ''} to review from {self.file_name}"]
        parts.append(f"({self.format_label})")
        if self.skipped:
            parts.append(f"; {self.skipped} skipped (already waiting for review or repeated in the file)")
        if self.parsed.history:
            parts.append(
                f"; {self.parsed.history} archived entr{'ies' if self.parsed.history != 1 else 'y'} "
                "kept as history only"
            )
        return " ".join(parts[:2]) + "".join(parts[2:]) + "."


@dataclass(frozen=True)
class ImportResult:
    plan: ImportPlan
    proposals: list[Proposal]


def clean_file_name(name: str) -> str:
    base = PurePath((name or "").replace("\\", "/")).name.strip()
    base = "".join(ch for ch in base if ch.isprintable()) or "file"
    return base[:MAX_FILE_NAME]


def check_import_actor(actor: Actor | None, athlete: User) -> None:
    """The athlete themself, an admin (for a chosen athlete), or the system (the CLI)."""
    if athlete.role != Role.ATHLETE:
        raise InvalidInput("Memories can be imported only for an athlete.", field="athlete")
    if isinstance(actor, TokenActor):
        raise PermissionDenied("An API token cannot import memories.")
    if isinstance(actor, SystemActor):
        return
    if isinstance(actor, User) and not actor.disabled and (actor.is_admin or actor.id == athlete.id):
        return
    raise PermissionDenied("Only the athlete or an admin can import memories.")


def _pending_contents(session: Session, athlete_id: int) -> set[str]:
    rows = session.scalars(
        select(Proposal.normalized_content).where(
            Proposal.athlete_id == athlete_id, Proposal.status == ProposalStatus.PENDING
        )
    )
    return set(rows)


def plan_import(session: Session, actor: Actor | None, *, athlete: User, file_name: str, data: bytes) -> ImportPlan:
    """What importing the file would propose; writes nothing. InvalidInput names the first problem."""
    check_import_actor(actor, athlete)
    name = clean_file_name(file_name)
    parsed = parse_file(name, data)
    known = _pending_contents(session, athlete.id)
    new: list[ImportItem] = []
    for item in parsed.items:
        key = normalize(item.content)
        if not key or key in known:
            continue
        known.add(key)
        new.append(item)
    return ImportPlan(name, parsed, new, skipped=len(parsed.items) - len(new))


def import_file(session: Session, actor: Actor | None, *, athlete: User, file_name: str, data: bytes) -> ImportResult:
    """Propose the file's memories (each proposal audited); the caller's unit of work commits."""
    plan = plan_import(session, actor, athlete=athlete, file_name=file_name, data=data)
    audit_actor = actor if actor is not None else SystemActor()
    now = utcnow()
    made = []
    for item in plan.new:
        marks = ImportMarks(item.created_at, item.updated_at, item.occurrences, item.hidden)
        proposal = Proposal(
            athlete_id=athlete.id,
            source_text_id=None,
            type=item.type,
            content=item.content,
            normalized_content=normalize(item.content),
            source=item.source,
            source_reference=item.source_reference or f"Imported from {plan.file_name}"[:200],
            confidence=item.confidence,
            tags=list(item.tags),
            evidence=evidence_lines(f"Imported from {plan.file_name}, {item.label}", marks),
            extractor=f"{IMPORT_EXTRACTOR}:{plan.parsed.format}",
            status=ProposalStatus.PENDING,
            created_at=now,
        )
        made.append(add_proposal(session, proposal, actor=audit_actor))
    return ImportResult(plan, made)

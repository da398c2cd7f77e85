"""Ingest: text from the coaching system becomes evidence and pending proposals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from domain import audit
from domain.actors import SystemActor
from domain.content import normalize
from domain.enums import AuditAction, AuditTarget, MemorySource, ProposalStatus, Role, SourceKind
from domain.errors import InvalidInput
from domain.extraction import Candidate, Extractor, default_extractors
from domain.insights import propose_insights
from domain.models import Proposal, SourceText, User
from domain.proposals import add_proposal
from domain.schemas import check_source_text, clean_reference, clean_source_text
from domain.types import utcnow
from domain.users import find_user

COACHING_SYSTEM = SystemActor("coaching-system")


@dataclass(frozen=True)
class IngestResult:
    source_text: SourceText | None
    proposals: list[Proposal] = field(default_factory=list)
    created: bool = False


def find_athlete(session: Session, username: str) -> User:
    user = find_user(session, username)
    if user is None or user.role != Role.ATHLETE:
        raise InvalidInput(f"Unknown athlete '{username.strip()[:64]}'.", field="athlete")
    return user


def parse_kind(kind: str | SourceKind) -> SourceKind:
    try:
        return SourceKind(kind)
    except ValueError:
        allowed = ", ".join(k.value for k in SourceKind)
        raise InvalidInput(f"Kind: unknown value {str(kind)[:40]!r}; allowed: {allowed}.", field="kind") from None


def ingest(
    session: Session,
    *,
    athlete: User,
    kind: str | SourceKind,
    reference: str,
    text: str,
    actor: SystemActor = COACHING_SYSTEM,
    received_at: datetime | None = None,
    extractors: Sequence[Extractor] | None = None,
) -> IngestResult:
    """Store the text and propose what it says. Sending the same reference again adds nothing.

    `actor` names the sender in the audit log: the coaching system, or the CLI or demo loader.
    """
    source_kind = parse_kind(kind)
    check_source_text(text)
    text = clean_source_text(text)  # no NUL, control or direction characters (domain.content)
    reference = clean_reference(reference)
    if athlete.role != Role.ATHLETE:
        raise InvalidInput("Only an athlete's notes and messages can be ingested.", field="athlete")
    if not text.strip():
        return IngestResult(None)
    existing = session.scalar(
        select(SourceText).where(
            SourceText.athlete_id == athlete.id, SourceText.kind == source_kind, SourceText.reference == reference
        )
    )
    if existing is not None:
        return IngestResult(existing)
    source = SourceText(
        athlete_id=athlete.id, kind=source_kind, reference=reference, text=text, received_at=received_at or utcnow()
    )
    session.add(source)
    session.flush()
    audit.record(
        session,
        actor=actor,
        action=AuditAction.INGEST,
        target_type=AuditTarget.SOURCE_TEXT,
        target_id=source.id,
        athlete_id=athlete.id,
        after={"kind": source_kind.value, "reference": reference, "characters": len(text)},
    )
    candidates = [
        c
        for e in (extractors or default_extractors())
        for c in e.extract(text, MemorySource(source_kind.value), reference)
    ]
    proposals = _propose(session, athlete, source, candidates, actor)
    proposals += propose_insights(session, athlete, proposals, actor=actor)
    return IngestResult(source, proposals, created=True)


def _known_contents(session: Session, athlete_id: int, contents: set[str]) -> set[str]:
    """Which of `contents` are pending (not proposed twice) or rejected (not proposed again): only
    these are read, not every proposal the athlete ever rejected."""
    if not contents:
        return set()
    rows = session.scalars(
        select(Proposal.normalized_content).where(
            Proposal.athlete_id == athlete_id,
            Proposal.status.in_([ProposalStatus.PENDING, ProposalStatus.REJECTED]),
            Proposal.normalized_content.in_(contents),
        )
    )
    return set(rows)


def _propose(
    session: Session,
    athlete: User,
    source: SourceText,
    candidates: Sequence[Candidate],
    actor: SystemActor,
) -> list[Proposal]:
    normalized_contents = [normalize(c.content) for c in candidates]
    known = _known_contents(session, athlete.id, set(normalized_contents) - {""})
    made: list[Proposal] = []
    for candidate, normalized in zip(candidates, normalized_contents, strict=True):
        if not normalized or normalized in known:
            continue
        known.add(normalized)
        proposal = Proposal(
            athlete_id=athlete.id,
            source_text_id=source.id,
            type=candidate.type,
            content=candidate.content,
            normalized_content=normalized,
            source=MemorySource(source.kind.value),
            source_reference=source.reference,
            confidence=candidate.confidence,
            tags=list(candidate.tags),
            evidence_start=candidate.evidence_start,
            evidence_end=candidate.evidence_end,
            evidence=[],
            extractor=candidate.extractor,
            status=ProposalStatus.PENDING,
            created_at=utcnow(),
        )
        made.append(add_proposal(session, proposal, actor=actor))
    return made

"""Pattern analysis over stored observations (M13 §5.4): a recurring injury becomes an insight proposal."""

from __future__ import annotations

from collections import Counter

from sqlalchemy import select
from sqlalchemy.orm import Session

from domain import audit
from domain.dedup import normalize
from domain.enums import MemoryConfidence, MemorySource, MemoryType, ProposalStatus
from domain.models import Memory, Proposal, User
from domain.proposals import proposal_snapshot
from domain.types import utcnow

RECURRING_AT = 3
EXTRACTOR = "pattern_analysis"


def _body_parts(tags: list[str]) -> set[str]:
    return {tag.split(":", 1)[1] for tag in tags if tag.startswith("body:")}


def propose_insights(session: Session, athlete: User, *, actor: User | None, actor_label: str) -> list[Proposal]:
    """One insight proposal per body part observed 3+ times, unless one exists already."""
    counts: Counter[str] = Counter()
    evidence: dict[str, list[str]] = {}
    injuries = session.scalars(
        select(Memory).where(Memory.athlete_id == athlete.id, Memory.type == MemoryType.INJURY_HISTORY)
    )
    for memory in injuries:
        for part in _body_parts(memory.tags):
            counts[part] += memory.occurrences
            evidence.setdefault(part, []).append(f"memory #{memory.id}")
    proposals = session.scalars(
        select(Proposal).where(Proposal.athlete_id == athlete.id, Proposal.status != ProposalStatus.EXPIRED)
    ).all()
    covered: set[str] = set()
    for proposal in proposals:
        parts = _body_parts(proposal.tags)
        if proposal.type == MemoryType.INSIGHT:
            covered |= parts
        elif proposal.type == MemoryType.INJURY_HISTORY and proposal.status == ProposalStatus.PENDING:
            for part in parts:
                counts[part] += 1
                evidence.setdefault(part, []).append(proposal.source_reference or f"proposal #{proposal.id}")
    covered |= _parts_with_insight_memory(session, athlete.id)
    made = []
    for part, count in sorted(counts.items()):
        if count >= RECURRING_AT and part not in covered:
            made.append(_propose(session, athlete, part, count, evidence[part], actor, actor_label))
    return made


def _parts_with_insight_memory(session: Session, athlete_id: int) -> set[str]:
    rows = session.scalars(
        select(Memory.tags).where(Memory.athlete_id == athlete_id, Memory.type == MemoryType.INSIGHT)
    )
    return {part for tags in rows for part in _body_parts(tags)}


def _propose(
    session: Session,
    athlete: User,
    part: str,
    count: int,
    evidence: list[str],
    actor: User | None,
    actor_label: str,
) -> Proposal:
    content = f"Recurring {part} issues: observed {count} times"
    proposal = Proposal(
        athlete_id=athlete.id,
        source_text_id=None,
        type=MemoryType.INSIGHT,
        content=content,
        normalized_content=normalize(content),
        source=MemorySource.PATTERN_ANALYSIS,
        source_reference=None,
        confidence=MemoryConfidence.HIGH,
        tags=[f"body:{part}"],
        evidence=evidence[:10],
        extractor=EXTRACTOR,
        status=ProposalStatus.PENDING,
        created_at=utcnow(),
    )
    session.add(proposal)
    session.flush()
    audit.record(
        session,
        actor=actor,
        actor_label=actor_label,
        action="propose",
        target_type="proposal",
        target_id=proposal.id,
        athlete_id=athlete.id,
        after=proposal_snapshot(proposal),
    )
    return proposal

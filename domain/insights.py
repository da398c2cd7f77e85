"""Runs pattern analysis over what is stored: a recurring injury becomes an insight proposal."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from domain.actors import Actor
from domain.content import normalize
from domain.enums import MemoryType, ProposalStatus
from domain.models import Memory, Proposal, User
from domain.pattern_analysis import Insight, Observation, new_insights
from domain.proposals import add_proposal
from domain.types import utcnow

EXTRACTOR = "pattern_analysis"
MAX_EVIDENCE = 10


def propose_insights(session: Session, athlete: User, *, actor: Actor) -> list[Proposal]:
    """Confirmed injury memories count their occurrences, pending injury proposals one each."""
    memories = session.scalars(
        select(Memory).where(
            Memory.athlete_id == athlete.id, Memory.type.in_([MemoryType.INJURY_HISTORY, MemoryType.INSIGHT])
        )
    ).all()
    proposals = session.scalars(
        select(Proposal).where(
            Proposal.athlete_id == athlete.id,
            Proposal.type.in_([MemoryType.INJURY_HISTORY, MemoryType.INSIGHT]),
            Proposal.status.in_([ProposalStatus.PENDING, ProposalStatus.REJECTED]),
        )
    ).all()
    observations = [
        Observation(m.type, tuple(m.tags), m.content, m.source_reference or f"memory #{m.id}", m.occurrences)
        for m in memories
        if m.type == MemoryType.INJURY_HISTORY
    ] + [
        Observation(p.type, tuple(p.tags), p.content, p.source_reference or f"proposal #{p.id}")
        for p in proposals
        if p.type == MemoryType.INJURY_HISTORY and p.status == ProposalStatus.PENDING
    ]
    existing = [(m.content, m.tags) for m in memories if m.type == MemoryType.INSIGHT] + [
        (p.content, p.tags) for p in proposals if p.type == MemoryType.INSIGHT
    ]
    return [_propose(session, athlete, insight, actor) for insight in new_insights(observations, existing)]


def _propose(session: Session, athlete: User, insight: Insight, actor: Actor) -> Proposal:
    proposal = Proposal(
        athlete_id=athlete.id,
        source_text_id=None,
        type=insight.type,
        content=insight.content,
        normalized_content=normalize(insight.content),
        source=insight.source,
        source_reference=None,
        confidence=insight.confidence,
        tags=list(insight.tags),
        evidence=list(insight.evidence[:MAX_EVIDENCE]),
        extractor=EXTRACTOR,
        status=ProposalStatus.PENDING,
        created_at=utcnow(),
    )
    return add_proposal(session, proposal, actor=actor)

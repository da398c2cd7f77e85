"""Runs pattern analysis over what is stored: a recurring injury becomes an insight proposal."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from domain.actors import Actor
from domain.content import normalize
from domain.enums import MemoryType, ProposalStatus
from domain.models import Memory, MemoryTag, Proposal, User
from domain.pattern_analysis import Insight, Observation, covered_parts, new_insights
from domain.proposals import add_proposal
from domain.types import utcnow
from domain.visibility import VISIBLE

EXTRACTOR = "pattern_analysis"
MAX_EVIDENCE = 10


def propose_insights(session: Session, athlete: User, new: Sequence[Proposal], *, actor: Actor) -> list[Proposal]:
    """Recurring injuries the `new` proposals may have completed. Only their body parts are counted
    again (every other part's count is unchanged since the last ingest counted it), and only parts no
    insight covers yet, read as plain rows from the memory_tags index and the pending injury
    proposals (an uncovered part has fewer observations than the threshold): an ingest's cost grows
    with the athlete's insights, not with their memories. Confirmed injury memories count their
    occurrences, pending injury proposals one each."""
    parts = {t for p in new if p.type == MemoryType.INJURY_HISTORY for t in p.tags if t.startswith("body:")}
    if not parts:
        return []
    mine = Memory.athlete_id == athlete.id, Memory.status == VISIBLE
    existing: list[tuple[str, list[str]]] = [
        (content, tags)
        for query in (
            select(Memory.content, Memory.tags).where(*mine, Memory.type == MemoryType.INSIGHT),
            select(Proposal.content, Proposal.tags).where(
                Proposal.athlete_id == athlete.id,
                Proposal.type == MemoryType.INSIGHT,
                Proposal.status.in_([ProposalStatus.PENDING, ProposalStatus.REJECTED]),
            ),
        )
        for content, tags in session.execute(query)
    ]
    covered = covered_parts(existing)
    parts = {p for p in parts if p.removeprefix("body:") not in covered}
    if not parts:
        return []
    injured = select(MemoryTag.memory_id).where(
        MemoryTag.athlete_id == athlete.id, MemoryTag.type == MemoryType.INJURY_HISTORY, MemoryTag.tag.in_(parts)
    )
    memories = session.execute(
        select(Memory.id, Memory.content, Memory.tags, Memory.source_reference, Memory.occurrences)
        .where(*mine, Memory.id.in_(injured))
        .order_by(Memory.id)
    )
    pending = session.execute(
        select(Proposal.id, Proposal.content, Proposal.tags, Proposal.source_reference)
        .where(
            Proposal.athlete_id == athlete.id,
            Proposal.type == MemoryType.INJURY_HISTORY,
            Proposal.status == ProposalStatus.PENDING,
        )
        .order_by(Proposal.id)
    )
    injury = MemoryType.INJURY_HISTORY
    observations = [
        Observation(injury, tuple(tags), content, reference or f"memory #{id_}", occurrences)
        for id_, content, tags, reference, occurrences in memories
    ] + [
        Observation(injury, tuple(tags), content, reference or f"proposal #{id_}")
        for id_, content, tags, reference in pending
        if parts.intersection(tags)
    ]
    found = [i for i in new_insights(observations, existing) if i.tags[0] in parts]
    return [_propose(session, athlete, insight, actor) for insight in found]


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

"""Ingest as the API offers it: one text from one token, answered with the proposals it made,
and the same answer when the same athlete + kind + reference comes again."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from domain.api_tokens import Caller, note_use
from domain.coach_context import athlete_by_username
from domain.enums import SourceKind
from domain.ingest import ingest
from domain.models import Proposal


@dataclass(frozen=True)
class IngestAnswer:
    athlete: str
    created: bool
    proposals: list[Proposal]


def ingest_for_token(
    session: Session, caller: Caller, *, username: str, kind: SourceKind, reference: str, text: str
) -> IngestAnswer:
    """The proposals drawn from this text, in the order they were made (insights that pattern
    analysis draws from all memories are proposed as well, but belong to no one text)."""
    athlete = athlete_by_username(session, username)
    result = ingest(session, athlete=athlete, kind=kind, reference=reference, text=text, actor=caller.actor)
    note_use(session, caller.token_id)
    proposals: list[Proposal] = []
    if result.source_text is not None:
        proposals = list(
            session.scalars(
                select(Proposal).where(Proposal.source_text_id == result.source_text.id).order_by(Proposal.id)
            )
        )
    return IngestAnswer(athlete=athlete.username, created=result.created, proposals=proposals)

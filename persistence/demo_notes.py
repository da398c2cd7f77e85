"""Ingests the demo notes and messages, so demo mode starts with proposals to review."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Engine

from domain.ingest import find_athlete, ingest
from persistence.demo import DEMO
from persistence.uow import unit_of_work


def ingest_demo_notes(engine: Engine, notes: list[dict[str, Any]], *, athlete: str) -> int:
    made = 0
    with unit_of_work(engine) as session:
        owner = find_athlete(session, athlete)
        for note in notes:
            received = note.get("received_at")
            result = ingest(
                session,
                athlete=owner,
                kind=note["kind"],
                reference=str(note["reference"]),
                text=note["text"],
                actor=DEMO,
                received_at=datetime.fromisoformat(str(received)) if received else None,
            )
            made += len(result.proposals)
    return made

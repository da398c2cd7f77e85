"""Ingest (extraction + database writes) notes per second, and one bulk confirm of 500 proposals."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from domain import proposals
from domain.enums import MemoryConfidence, MemorySource, MemoryType
from domain.ingest import ingest
from domain.models import Proposal
from persistence.engine import make_engine
from persistence.migrate import upgrade
from persistence.uow import unit_of_work
from tests.extraction_eval import load_cases
from tests.factories import make_user
from tests.perf.figures import record

CASES = Path(__file__).resolve().parents[1] / "data" / "extraction_cases.yaml"
NOTES = 1_000
BULK = 500


def run(quick: bool = False) -> None:
    notes, bulk = (200, 100) if quick else (NOTES, BULK)
    texts = [case.text for case in load_cases(CASES)]
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{Path(tmp) / 'bench.sqlite3'}")
        upgrade(engine)
        athlete = make_user(engine, "bench")
        started = time.perf_counter()
        for n in range(notes):
            with unit_of_work(engine) as session:
                ingest(session, athlete=athlete, kind="activity_note", reference=f"act_{n}", text=texts[n % len(texts)])
        ingest_rate = notes / (time.perf_counter() - started)

        with unit_of_work(engine) as session:
            ids = []
            for n in range(bulk):
                proposal = Proposal(
                    athlete_id=athlete.id,
                    type=MemoryType.CONTEXT,
                    content=f"Bench fact {n}",
                    normalized_content=f"bench fact {n}",
                    source=MemorySource.USER_MESSAGE,
                    confidence=MemoryConfidence.MEDIUM,
                    tags=[],
                    evidence=[],
                    extractor="bench",
                )
                session.add(proposal)
                session.flush()
                ids.append(proposal.id)
        started = time.perf_counter()
        with unit_of_work(engine) as session:
            confirmed = proposals.confirm_many(session, athlete, proposal_ids=ids)
        bulk_seconds = time.perf_counter() - started
        engine.dispose()
    print(f"ingest (extract + store + propose, one transaction per note): {ingest_rate:,.0f} notes/s over {notes:,}")
    print(f"bulk confirm of {confirmed} proposals in one transaction:     {bulk_seconds * 1000:,.0f} ms")
    record("ingest_notes_per_s", ingest_rate)
    record(f"bulk_confirm_ms_{bulk}", bulk_seconds * 1000)


if __name__ == "__main__":
    run()

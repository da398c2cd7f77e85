"""The fingerprint the context route checks its prepared memories against, kept per SQLite connection
until the database changes (domain.coach_index.fingerprint). Two engines on one file stand for two
processes; the route's own tests (test_routes) see the same through the server."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session

from domain.coach_index import fingerprint
from domain.enums import MemoryConfidence, MemorySource, MemoryStatus, MemoryType
from domain.models import Memory
from domain.types import utcnow
from persistence.engine import make_engine
from persistence.migrate import upgrade
from persistence.uow import unit_of_work
from tests.factories import make_memory, make_user


def test_a_commit_elsewhere_or_a_change_of_its_own_changes_the_fingerprint(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'app.sqlite3'}"
    mine, other = make_engine(url), make_engine(url)
    upgrade(mine)
    athlete = make_user(mine, "ann")
    make_memory(mine, athlete, "Knee pain after long runs")
    with unit_of_work(mine, read_only=True) as session:
        first = fingerprint(session, athlete.id)
    with unit_of_work(mine, read_only=True) as session:
        assert fingerprint(session, athlete.id) == first  # nothing changed: the kept one
    make_memory(other, athlete, "Prefers morning runs")  # another connection commits
    with unit_of_work(mine, read_only=True) as session:
        second = fingerprint(session, athlete.id)
    assert second != first and second[0] == 2
    with unit_of_work(mine) as session:  # a change this connection makes itself, not yet committed
        make_memory_in(session, athlete.id, "Works night shifts")
        assert fingerprint(session, athlete.id)[0] == 3
    mine.dispose()
    other.dispose()


def test_a_change_rolled_back_leaves_no_fingerprint_behind(tmp_path: Path) -> None:
    """A memory added and then rolled back: the next read on the same connection counts what is stored,
    not the rolled-back memory (SQLite's stamp is the same after the rollback as before it)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'app.sqlite3'}", pool_size=1, max_overflow=0)
    upgrade(engine)
    athlete = make_user(engine, "ann")
    make_memory(engine, athlete, "Knee pain after long runs")
    with unit_of_work(engine, read_only=True) as session:
        before = fingerprint(session, athlete.id)
    try:
        with unit_of_work(engine) as session:
            make_memory_in(session, athlete.id, "Works night shifts")
            assert fingerprint(session, athlete.id)[0] == 2
            raise RuntimeError("the change fails")
    except RuntimeError:
        pass
    with unit_of_work(engine, read_only=True) as session:
        assert fingerprint(session, athlete.id) == before
    engine.dispose()


def make_memory_in(session: Session, athlete_id: int, content: str) -> None:
    now = utcnow()
    session.add(
        Memory(
            athlete_id=athlete_id,
            type=MemoryType.CONTEXT,
            content=content,
            source=MemorySource.MANUAL,
            confidence=MemoryConfidence.HIGH,
            occurrences=1,
            tags=[],
            status=MemoryStatus.ACTIVE,
            created_at=now,
            updated_at=now,
        )
    )
    session.flush()

"""Migration 0015: the waiting-id index of audit events holds only events that waited (SQLite and
PostgreSQL). A write chained in place adds no entry to it; a waiting id is still unique and still
found through it; downgrading and upgrading again keep every event, and the chain verifies."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from domain import memories
from domain.audit import verify_chain
from domain.enums import MemoryType
from domain.schemas import MemoryCreate
from persistence.migrate import alembic_config, upgrade
from persistence.uow import unit_of_work
from tests.databases import unmigrated_engine
from tests.factories import make_user

BEFORE = "0014_coach_stamps_at_commit"
LOOKUP = "SELECT seq FROM audit_events WHERE pending_id = 12345"


@pytest.fixture(params=["sqlite", "postgresql"])
def bare_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    with unmigrated_engine(request.param, tmp_path) as engine:
        yield engine


def definition(engine: Engine) -> str:
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            sql = "SELECT sql FROM sqlite_master WHERE name = 'ux_audit_pending_id'"
        else:
            sql = (
                "SELECT indexdef FROM pg_indexes"
                " WHERE indexname = 'ux_audit_pending_id' AND schemaname = current_schema()"
            )
        return str(connection.execute(text(sql)).scalar_one())


def lookup_plan(engine: Engine) -> str:
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            rows = connection.execute(text(f"EXPLAIN QUERY PLAN {LOOKUP}")).all()
            return " ".join(str(row[-1]) for row in rows)
        connection.execute(text("SET LOCAL enable_seqscan = off"))  # a tiny table: ask whether the index can serve
        return " ".join(str(row[0]) for row in connection.execute(text(f"EXPLAIN {LOOKUP}")))


def add(engine: Engine, content: str) -> None:
    athlete = make_user(engine, content.split()[0].lower())
    with unit_of_work(engine) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content=content, type=MemoryType.CONTEXT))


def events(engine: Engine) -> list[tuple[int, str]]:
    with unit_of_work(engine, read_only=True) as session:
        rows = session.execute(text("SELECT seq, hash FROM audit_events ORDER BY seq")).all()
        report = verify_chain(session)
    assert report.ok, report.summary()
    return [(seq, hash_) for seq, hash_ in rows]


def entries(engine: Engine) -> int | None:
    """Entries in the index's b-tree (SQLite, counted on its pages); None on PostgreSQL."""
    if engine.dialect.name != "sqlite":
        return None
    with engine.connect() as connection:
        sql = "SELECT coalesce(sum(ncell), 0) FROM dbstat WHERE name = 'ux_audit_pending_id' AND pagetype = 'leaf'"
        return int(connection.execute(text(sql)).scalar_one())


def test_the_index_holds_only_waited_events_and_still_serves_lookups(bare_engine: Engine) -> None:
    command.upgrade(alembic_config(bare_engine), BEFORE)
    assert "WHERE" not in definition(bare_engine).upper()
    add(bare_engine, "Alex swims on Mondays")
    kept = events(bare_engine)
    assert entries(bare_engine) in (len(kept), None)  # before: an entry per event
    upgrade(bare_engine)
    assert "pending_id IS NOT NULL" in definition(bare_engine)
    assert "ux_audit_pending_id" in lookup_plan(bare_engine)
    add(bare_engine, "Sam runs on Sundays")
    assert events(bare_engine)[: len(kept)] == kept
    assert entries(bare_engine) in (0, None)  # every event so far was chained in place: none
    with pytest.raises(IntegrityError), bare_engine.begin() as connection:  # a waiting id is still unique
        connection.execute(text("UPDATE audit_events SET pending_id = 7 WHERE seq IN (1, 2)"))
    command.downgrade(alembic_config(bare_engine), BEFORE)
    assert "WHERE" not in definition(bare_engine).upper()
    after_downgrade = events(bare_engine)
    upgrade(bare_engine)
    assert events(bare_engine) == after_downgrade

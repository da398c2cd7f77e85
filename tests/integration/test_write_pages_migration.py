"""Migration 0010 (fewer pages per audited write) on a populated database, SQLite and PostgreSQL:
upgrading and downgrading keep every memory, tag row, search entry and audit event, the chain
verifies, and the writes after it behave as before (search follows adds, edits and soft deletes)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Engine, text

from domain import memories
from domain.admin_deleted import DeletedQuery, list_deleted
from domain.audit import verify_chain
from domain.enums import MemoryType, Role
from domain.memory_lists import MemoryQuery, list_memories
from domain.models import User
from domain.schemas import MemoryCreate, MemoryEdit
from persistence.migrate import alembic_config, upgrade
from persistence.uow import unit_of_work
from tests.databases import unmigrated_engine
from tests.factories import make_user

# what the coach index's fingerprint read before migration 0013 (domain/coach_index.py), from the list index
MEMORY_ROWS = "SELECT count(*), coalesce(sum(version), 0), coalesce(max(id), 0) FROM memories WHERE athlete_id = :a"
PARENTS = ("0003_dedup_keys", "0004_audit_checkpoints", "0006_coach_api", "0007_search_scope_admin", "0009_list_sorts")


@pytest.fixture(params=["sqlite", "postgresql"])
def bare_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An empty database that no migration has touched yet."""
    with unmigrated_engine(request.param, tmp_path) as engine:
        yield engine


def upgrade_to_parents(engine: Engine) -> None:
    for revision in PARENTS:
        command.upgrade(alembic_config(engine), revision)


def fill(engine: Engine) -> tuple[User, User]:
    """Through the services: memories with tags, an edit, a soft delete, each audited."""
    athlete, admin = make_user(engine, "alex"), make_user(engine, "root", Role.ADMIN)
    facts = [
        ("Knee pain after long runs", MemoryType.INJURY_HISTORY, ["body:knee"]),
        ("Prefers morning runs", MemoryType.PREFERENCE, ["time:morning"]),
        ("Knee brace on trails", MemoryType.CONTEXT, ["body:knee"]),
        ("Swims on Mondays", MemoryType.CONTEXT, []),
    ]
    ids = []
    for content, type_, tags in facts:
        with unit_of_work(engine) as session:
            data = MemoryCreate(content=content, type=type_, tags=tags)
            ids.append(memories.add_memory(session, athlete, data=data).id)
    with unit_of_work(engine) as session:
        changes = MemoryEdit(content="Swims on Mondays and Thursdays")
        memories.edit_memory(session, athlete, memory_id=ids[3], changes=changes, expected_version=1)
    with unit_of_work(engine) as session:
        memories.delete_memory(session, athlete, memory_id=ids[2])
    return athlete, admin


def state(engine: Engine, athlete: User, admin: User) -> dict[str, object]:
    """What the changed structures serve: search (athlete's and admin's), lists, tags, memory rows, audit."""
    with unit_of_work(engine, read_only=True) as session:

        def listed(words: str) -> list[str]:
            return sorted(m.content for m in list_memories(session, athlete, query=MemoryQuery(text=words)).items)

        result: dict[str, object] = {
            "knee": listed("knee"),
            "morning": listed("morning"),
            "thursdays": listed("thursdays"),
            "all": listed(""),
            "deleted": [r.content for r in list_deleted(session, admin, query=DeletedQuery(text="brace")).rows],
            "tags": sorted(session.execute(text("SELECT memory_id, tag FROM memory_tags")).all()),
            "memory_rows": tuple(session.execute(text(MEMORY_ROWS), {"a": athlete.id}).one()),
            "audit_events": session.scalar(text("SELECT count(*) FROM audit_events")),
        }
        if engine.dialect.name == "sqlite":
            audit_hits = "SELECT rowid FROM audit_fts WHERE audit_fts MATCH 'body : \"knee\"*' ORDER BY rowid"
            result["audit_fts"] = list(session.scalars(text(audit_hits)))
            result["memories_fts"] = sorted(session.execute(text("SELECT rowid, owned FROM memories_fts")).all())
        report = verify_chain(session)
        session.rollback()  # list_deleted records an access event; nothing to keep here
    assert report.ok, report.summary()
    return result


def test_upgrade_and_downgrade_keep_what_a_populated_database_serves(bare_engine: Engine) -> None:
    upgrade_to_parents(bare_engine)
    athlete, admin = fill(bare_engine)
    before = state(bare_engine, athlete, admin)
    assert before["knee"] == ["Knee pain after long runs"]
    assert before["deleted"] == ["Knee brace on trails"]
    upgrade(bare_engine)
    assert state(bare_engine, athlete, admin) == before
    command.downgrade(alembic_config(bare_engine), PARENTS[-1])
    assert state(bare_engine, athlete, admin) == before
    upgrade(bare_engine)
    assert state(bare_engine, athlete, admin) == before


def test_after_the_upgrade_search_follows_each_write(bare_engine: Engine) -> None:
    upgrade(bare_engine)
    athlete, admin = fill(bare_engine)
    with unit_of_work(bare_engine) as session:
        data = MemoryCreate(
            content="Sore calves after hill repeats", type=MemoryType.INJURY_HISTORY, tags=["body:calf"]
        )
        memory_id = memories.add_memory(session, athlete, data=data).id
    assert state(bare_engine, athlete, admin)["knee"] == ["Knee pain after long runs"]
    with unit_of_work(bare_engine, read_only=True) as session:
        found = [m.id for m in list_memories(session, athlete, query=MemoryQuery(text="calves")).items]
    assert found == [memory_id]
    with unit_of_work(bare_engine) as session:
        memories.delete_memory(session, athlete, memory_id=memory_id)
    with unit_of_work(bare_engine, read_only=True) as session:
        assert list_memories(session, athlete, query=MemoryQuery(text="calves")).items == []
        deleted = [r.memory_id for r in list_deleted(session, admin, query=DeletedQuery(text="calves")).rows]
        session.rollback()
    assert deleted == [memory_id]
    with unit_of_work(bare_engine) as session:
        tags = session.execute(text("SELECT tag FROM memory_tags WHERE memory_id = :id"), {"id": memory_id}).all()
    assert tags == []  # a deleted memory's tags leave the dedup table, as before

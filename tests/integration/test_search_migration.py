"""Migration 0007 re-indexes memories that already exist: a database at 0002 keeps its search."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Engine, text

from domain.admin_deleted import DeletedQuery, list_deleted
from domain.memory_lists import MemoryQuery, list_memories
from domain.models import User
from persistence.migrate import alembic_config, upgrade
from persistence.uow import unit_of_work
from tests.databases import unmigrated_engine

BEFORE = "0002_search_scope"
PEOPLE = (
    "INSERT INTO users (id, username, display_name, role, password_hash, disabled, session_epoch, created_at) "
    "VALUES (:id, :name, :name, :role, '-', false, 0, '2026-01-01 00:00:00')"
)
MEMORY = (
    "INSERT INTO memories (athlete_id, type, content, source, confidence, occurrences, tags, status, "
    "created_at, updated_at, deleted_at, version) VALUES (:athlete, 'injury_history', :content, 'manual', "
    "'high', 1, :tags, :status, '2026-01-01 00:00:00', '2026-01-01 00:00:00', :deleted_at, 1)"
)


@pytest.fixture(params=["sqlite", "postgresql"])
def bare_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An empty database that no migration has touched yet."""
    with unmigrated_engine(request.param, tmp_path) as engine:
        yield engine


def fill_at_0002(engine: Engine) -> None:
    upgrade(engine, BEFORE)
    with engine.begin() as connection:
        connection.execute(
            text(PEOPLE), [{"id": 1, "name": "alex", "role": "athlete"}, {"id": 2, "name": "root", "role": "admin"}]
        )
        rows = [
            {"content": "Knee pain after long runs", "tags": '["body:knee"]', "status": "active", "deleted_at": None},
            {"content": "Knee brace on trails", "tags": "[]", "status": "deleted", "deleted_at": "2026-01-02 00:00:00"},
            {"content": "Prefers morning runs", "tags": '["time:morning"]', "status": "active", "deleted_at": None},
        ]
        connection.execute(text(MEMORY), [{"athlete": 1, **row} for row in rows])


def found(engine: Engine) -> tuple[list[str], list[str], list[str]]:
    with unit_of_work(engine, read_only=True) as session:
        athlete, admin = session.get(User, 1), session.get(User, 2)
        knees = [m.content for m in list_memories(session, athlete, query=MemoryQuery(text="knee")).items]
        tagged = [m.content for m in list_memories(session, athlete, query=MemoryQuery(text="morning")).items]
        deleted = [r.content for r in list_deleted(session, admin, query=DeletedQuery(text="knee")).rows]
        session.rollback()  # list_deleted records an access event; nothing to keep here
    return knees, tagged, deleted


def test_existing_memories_are_searchable_after_the_upgrade_and_after_a_round_trip(bare_engine: Engine) -> None:
    fill_at_0002(bare_engine)
    upgrade(bare_engine)
    expected = (["Knee pain after long runs"], ["Prefers morning runs"], ["Knee brace on trails"])
    assert found(bare_engine) == expected
    command.downgrade(alembic_config(bare_engine), BEFORE)
    upgrade(bare_engine)
    assert found(bare_engine) == expected

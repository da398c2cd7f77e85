"""`memory-review purge`: the dry run lists, the run removes the same, both from the command line."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine

from domain.enums import MemoryStatus
from domain.models import Memory, User
from domain.types import utcnow
from domain.visibility import with_inactive
from persistence.uow import unit_of_work
from tests.factories import make_memory, make_user
from ui.cli import main


def test_dry_run_lists_and_run_removes(
    sqlite_engine: Engine, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    owner: User = make_user(sqlite_engine, "alex")
    old = make_memory(
        sqlite_engine, owner, "Old", status=MemoryStatus.ARCHIVED, archived_at=utcnow() - timedelta(days=100)
    )
    make_memory(sqlite_engine, owner, "Current")
    url = str(sqlite_engine.url)
    monkeypatch.setenv("MEMORY_REVIEW_ARCHIVED_RETENTION_DAYS", "90")

    assert main(["purge", "--dry-run", "--db", url]) == 0
    out = capsys.readouterr().out
    assert "Archived memories older than 90 days: 1" in out
    assert "Nothing removed (dry run)." in out
    assert _exists(sqlite_engine, old.id)

    assert main(["purge", "--db", url]) == 0
    assert "Removed 1 archived memories, 0 expired proposals" in capsys.readouterr().out
    assert not _exists(sqlite_engine, old.id)
    assert main(["purge", "--dry-run", "--db", url]) == 0
    assert "Archived memories older than 90 days: 0" in capsys.readouterr().out


def _exists(engine: Engine, memory_id: int) -> bool:
    with unit_of_work(engine, read_only=True) as session:
        return session.get(Memory, memory_id, execution_options=with_inactive()) is not None

"""The storage promises: safe SQLite settings, a unit of work that is all or nothing, a kept secret,
and one write path for memories."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select

from domain.models import User
from persistence.settings import Settings
from persistence.uow import unit_of_work

ROOT = Path(__file__).resolve().parents[2]


def test_sqlite_runs_with_wal_foreign_keys_busy_timeout_and_full_sync(sqlite_engine: Engine) -> None:
    with sqlite_engine.connect() as connection:
        pragmas = {
            name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
            for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
        }
    assert pragmas == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 10_000, "synchronous": 2}


def test_unit_of_work_commits_once_or_not_at_all(engine: Engine) -> None:
    with pytest.raises(ValueError), unit_of_work(engine) as session:
        session.add(
            User(
                username="ghost",
                display_name="Ghost",
                role="athlete",
                password_hash="x",
                disabled=False,
                session_epoch=0,
            )
        )
        session.flush()
        raise ValueError("boom")
    with unit_of_work(engine, read_only=True) as session:
        assert session.scalar(select(func.count()).select_from(User)) == 0


def test_storage_secret_is_generated_once_beside_the_database(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'app.sqlite3'}", data_dir=tmp_path / "data")
    first = settings.storage_secret()
    assert len(first) >= 40 and first == settings.storage_secret()
    secret_file = tmp_path / "app.secret"
    assert secret_file.read_text().strip() == first
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    other = Settings(database_url=f"sqlite:///{tmp_path / 'other.sqlite3'}", data_dir=tmp_path / "data")
    assert other.storage_secret() != first


def test_no_bulk_update_or_delete_statements_on_memories_anywhere() -> None:
    """Bulk statements would skip the version check and the audit event."""
    pattern = re.compile(r"\b(update|delete)\(\s*Memory\b|query\(\s*Memory\b[^\n]*\.(update|delete)\(")
    offenders = [
        str(path.relative_to(ROOT))
        for folder in ("domain", "persistence", "ui")
        for path in (ROOT / folder).rglob("*.py")
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []

"""Real test databases: SQLite files and schemas on the real PostgreSQL server."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError

from persistence.engine import make_engine
from persistence.migrate import upgrade

DEFAULT_POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def postgres_url() -> str:
    return os.environ.get("MEMORY_REVIEW_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)


def postgres_required() -> bool:
    return os.environ.get("MEMORY_REVIEW_REQUIRE_POSTGRES") == "1"


def postgres_unreachable_reason() -> str | None:
    try:
        engine = make_engine(postgres_url())
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        engine.dispose()
    except (OperationalError, ImportError) as exc:
        return f"PostgreSQL at {postgres_url()} is not reachable ({type(exc).__name__})"
    return None


def require_postgres() -> None:
    reason = postgres_unreachable_reason()
    if reason is None:
        return
    if postgres_required():
        pytest.fail(f"{reason}, and MEMORY_REVIEW_REQUIRE_POSTGRES=1")
    pytest.skip(f"{reason}; set MEMORY_REVIEW_TEST_POSTGRES_URL to run the PostgreSQL variant")


@contextmanager
def postgres_engine(*, migrated: bool = True) -> Iterator[Engine]:
    """A fresh schema of its own on the PostgreSQL server, migrated unless `migrated=False`;
    dropped afterwards."""
    require_postgres()
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = make_engine(postgres_url())
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine = make_engine(postgres_url(), connect_args={"options": f"-csearch_path={schema}"})
    try:
        if migrated:
            upgrade(engine)
        yield engine
    finally:
        engine.dispose()
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def unmigrated_engine(kind: str, folder: Path) -> Iterator[Engine]:
    """An empty database no migration has touched: a new SQLite file in `folder` ("sqlite"), or a
    new schema on the PostgreSQL server ("postgresql"), for tests of the migrations themselves."""
    if kind != "sqlite":
        with postgres_engine(migrated=False) as engine:
            yield engine
        return
    engine = make_engine(f"sqlite:///{folder / 'old.sqlite3'}")
    try:
        yield engine
    finally:
        engine.dispose()


class SqliteTemplate:
    """Migrates one SQLite file per test session; each test gets a copy of it."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / "template.sqlite3"
        engine = make_engine(f"sqlite:///{self.path}")
        upgrade(engine)
        with engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        engine.dispose()

    def copy_to(self, target: Path) -> str:
        shutil.copyfile(self.path, target)
        return f"sqlite:///{target}"


def build_demo_database(path: Path) -> Path:
    """A migrated SQLite file with the demo data set, checkpointed so it can be copied."""
    from persistence.demo import load_demo

    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    load_demo(engine)
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    return path

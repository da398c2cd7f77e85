"""Real test databases: SQLite files and schemas on the real PostgreSQL server."""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, make_url, text
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


class PostgresTemplate:
    """One schema per test process migrated by Alembic, then read back by pg_dump as plain SQL: each
    test's schema is that SQL run with the schema's name changed, the same tables, indexes, triggers,
    functions and rows (alembic_version, the audit head) as an upgrade makes, at half its cost on the
    server and without Alembic's per-migration work in the test process (an upgrade of 14 migrations
    took 0.6-0.75 s, the copy 0.3 s, load 10). Without pg_dump each schema is migrated, as before."""

    _script: str | None = None
    _name = ""
    _tried = False

    @classmethod
    def script(cls) -> str | None:
        if not cls._tried:
            cls._tried = True
            cls._script = cls._build()
        return cls._script

    @classmethod
    def _build(cls) -> str | None:
        pg_dump = shutil.which("pg_dump")
        if pg_dump is None:
            return None
        cls._name = f"template_{uuid.uuid4().hex}"  # long and random: it occurs in the dump only as the name
        admin = make_engine(postgres_url())
        try:
            with admin.begin() as connection:
                connection.execute(text(f'CREATE SCHEMA "{cls._name}"'))
            engine = make_engine(postgres_url(), connect_args={"options": f"-csearch_path={cls._name}"})
            upgrade(engine)
            engine.dispose()
            url = make_url(postgres_url()).set(drivername="postgresql").render_as_string(False)
            dump = subprocess.run(
                [pg_dump, "--no-owner", "--no-privileges", "--inserts", "--schema", cls._name, url],
                capture_output=True,
                text=True,
            )
        finally:
            admin.dispose()
            # The dump is all a copy needs: the schema goes now, not at this process's exit, so a test
            # process killed outright (a timeout, a crashed worker) leaves no template behind.
            _drop_schema(cls._name)
        if dump.returncode != 0:
            return None
        # psql's own commands (\restrict) are not SQL; the schema is created by its CREATE SCHEMA line.
        return "\n".join(line for line in dump.stdout.splitlines() if not line.startswith("\\"))

    @classmethod
    def copy_to(cls, schema: str) -> bool:
        """Create `schema` as a copy of the template; False if there is no template (then migrate it)."""
        script = cls.script()
        if script is None:
            return False
        with psycopg_connection() as connection, connection.transaction():
            connection.execute(script.replace(cls._name, schema).encode())
        return True


@contextmanager
def psycopg_connection() -> Iterator[Any]:
    """A plain driver connection: the dump is run as it is, no parameter markers read in it."""
    import psycopg

    url = make_url(postgres_url()).set(drivername="postgresql")
    with psycopg.connect(url.render_as_string(False), autocommit=True) as connection:
        yield connection


def _drop_schema(schema: str) -> None:
    admin = make_engine(postgres_url())
    try:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    except OperationalError:
        pass  # the server is gone already
    finally:
        admin.dispose()


@contextmanager
def postgres_engine(*, migrated: bool = True) -> Iterator[Engine]:
    """A fresh schema of its own on the PostgreSQL server, migrated unless `migrated=False` (a copy of
    the process's migrated template, see PostgresTemplate); dropped afterwards."""
    require_postgres()
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = make_engine(postgres_url())
    if not (migrated and PostgresTemplate.copy_to(schema)):
        with admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine = make_engine(postgres_url(), connect_args={"options": f"-csearch_path={schema}"})
    try:
        if migrated and PostgresTemplate.script() is None:
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

"""Real test databases: SQLite files and schemas on the real PostgreSQL server.

Each PostgreSQL schema a test makes (`t_…`, and a process's template, `template_…`) carries a
comment naming the process that made it (SchemaOwner). A test process killed outright (a timeout, a
crashed worker, SIGKILL) cannot drop its schemas; the first PostgreSQL test of every later process
drops those whose process is gone (`sweep_stale_schemas`). Several test runs share the server's
`test` database at once (xdist workers, other clones), so a schema is dropped only when its owner
is certainly gone: it ran on this machine since its last boot, in this pid namespace, and its pid
is now free, a zombie, or a process that started later. Anything else is kept: a schema of a live
run, of another machine or container, or without the comment (made by an older tests/databases.py).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, make_url, text
from sqlalchemy.exc import DBAPIError, OperationalError

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


OWNER_MARK = "memory-review test schema"
TEST_SCHEMA = re.compile(r"(t_[0-9a-f]{12}|template_[0-9a-f]{32})")  # the names this module gives


@dataclass(frozen=True)
class SchemaOwner:
    """The process that made a test schema, as its comment on the server says."""

    boot: str  # the kernel's boot id: a pid means the same process only within one boot
    pid_namespace: str  # ... and within one pid namespace (containers share a kernel)
    pid: int
    started: int  # the process's start, clock ticks after boot: a pid reused later starts later
    host: str  # for a person reading the comment

    @classmethod
    def this_process(cls) -> SchemaOwner:
        pid = os.getpid()
        return cls(_boot_id(), os.readlink("/proc/self/ns/pid"), pid, _started(pid) or 0, socket.gethostname())

    def comment(self) -> str:
        host = re.sub(r"[^A-Za-z0-9.-]", "-", self.host)[:64]
        return (
            f"{OWNER_MARK}; host={host}; boot={self.boot}; pidns={self.pid_namespace}; "
            f"pid={self.pid}; started={self.started}"
        )

    @classmethod
    def parse(cls, comment: str | None) -> SchemaOwner | None:
        if not comment or not comment.startswith(f"{OWNER_MARK};"):
            return None
        fields = dict(part.strip().partition("=")[::2] for part in comment.split(";")[1:])
        try:
            return cls(fields["boot"], fields["pidns"], int(fields["pid"]), int(fields["started"]), fields["host"])
        except (KeyError, ValueError):
            return None

    def is_gone(self, here: SchemaOwner) -> bool:
        """True only when certain: the same boot and pid namespace as `here`, and no such process now."""
        if (self.boot, self.pid_namespace) != (here.boot, here.pid_namespace):
            return False  # another machine, container or boot: its processes cannot be seen from here
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            pass  # it exists, as another user
        stat = _stat(self.pid)
        if stat is None:
            return False  # exists, but its start cannot be read: keep
        state, started = stat
        return state == "Z" or started != self.started  # dead but not yet reaped, or the pid was reused


def _boot_id() -> str:
    return Path("/proc/sys/kernel/random/boot_id").read_text().strip()


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and start time (/proc/<pid>/stat), or None if it cannot be read."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    return fields[0], int(fields[19])


def _started(pid: int) -> int | None:
    stat = _stat(pid)
    return None if stat is None else stat[1]


def _stamp(connection: Any, schema: str) -> None:
    """Name this process as the schema's maker, in the transaction that creates it (so no sweep ever
    sees the schema without it). COMMENT takes no bind parameter: the text is ours, quotes doubled."""
    comment = SchemaOwner.this_process().comment().replace("'", "''")
    connection.execute(text(f"COMMENT ON SCHEMA \"{schema}\" IS '{comment}'"))


def sweep_stale_schemas() -> list[str]:
    """Drop the test schemas whose making process is certainly gone (see the module's docstring);
    the names dropped. Never fails a test run: a schema it cannot drop now is left for a later sweep."""
    here = SchemaOwner.this_process()
    admin = make_engine(postgres_url())
    dropped: list[str] = []
    try:
        with admin.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT nspname, obj_description(oid, 'pg_namespace') FROM pg_namespace "
                    "WHERE nspname LIKE 't\\_%' OR nspname LIKE 'template\\_%'"
                )
            ).all()
        for name, comment in rows:
            owner = SchemaOwner.parse(comment)
            if TEST_SCHEMA.fullmatch(name) and owner is not None and owner.is_gone(here):
                try:
                    with admin.begin() as connection:
                        connection.execute(text("SET LOCAL lock_timeout = '5s'"))
                        connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
                    dropped.append(name)
                except DBAPIError:
                    continue  # taken by another sweep, or the server is busy: a later sweep drops it
    except OperationalError:
        pass  # the server is gone: the tests that need it say so
    finally:
        admin.dispose()
    return dropped


class _Sweep:
    done = False

    @classmethod
    def once(cls) -> None:
        """At the first PostgreSQL test schema of this process."""
        if not cls.done:
            cls.done = True
            sweep_stale_schemas()


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
                _stamp(connection, cls._name)
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
        comment = SchemaOwner.this_process().comment().replace("'", "''")
        with psycopg_connection() as connection, connection.transaction():
            connection.execute(script.replace(cls._name, schema).encode())
            connection.execute(f"COMMENT ON SCHEMA \"{schema}\" IS '{comment}'".encode())  # see _stamp
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
    _Sweep.once()
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = make_engine(postgres_url())
    if not (migrated and PostgresTemplate.copy_to(schema)):
        with admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
            _stamp(connection, schema)
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

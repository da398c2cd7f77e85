"""`memory-review backup` while the app writes, and `restore`: nothing acknowledged before the
backup is missing from it, the restored database verifies, and a file that is not a sound backup
is refused without changing anything."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select, update

from domain import memories
from domain.models import Memory, User
from domain.schemas import MemoryCreate, parse
from domain.visibility import with_inactive
from persistence.engine import make_engine
from persistence.ready import ready_engine
from persistence.settings import Settings
from persistence.uow import unit_of_work
from tests.factories import make_user
from ui.cli import main


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Engine, User]]:
    """A database as `memory-review serve` opens it (migrated, its audit chain keyed), with an athlete."""
    monkeypatch.setenv("MEMORY_REVIEW_DATA_DIR", str(tmp_path / "data"))
    url = f"sqlite:///{tmp_path / 'data' / 'memory-review.sqlite3'}"
    engine = ready_engine(Settings(database_url=url))
    athlete = make_user(engine, "alex")
    yield url, engine, athlete
    engine.dispose()


def memory_ids(url: str) -> set[int]:
    engine = ready_engine(Settings(database_url=url))
    try:
        with unit_of_work(engine, read_only=True) as session:
            return set(session.scalars(select(Memory.id), execution_options=with_inactive()))
    finally:
        engine.dispose()


def add(engine: Engine, athlete: User, n: int) -> int:
    with unit_of_work(engine) as session:
        data = parse(MemoryCreate, content=f"Memory number {n}", type="context")
        return memories.add_memory(session, athlete, data=data).id


def test_a_backup_taken_while_the_app_writes_restores_everything_acknowledged_before_it(
    app: tuple[str, Engine, User], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, engine, athlete = app
    acknowledged: list[int] = []
    stop = threading.Event()
    enough = threading.Event()

    def writer() -> None:
        n = 0
        while not stop.is_set():
            acknowledged.append(add(engine, athlete, n))
            n += 1
            if n >= 30:
                enough.set()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert enough.wait(60)
        before_backup = set(acknowledged)
        copy = tmp_path / "backups" / "monday.sqlite3"
        copy.parent.mkdir()
        assert main(["backup", str(copy), "--db", url]) == 0
        after_backup = len(acknowledged)
        while len(acknowledged) < after_backup + 10:  # the app goes on writing after the backup
            stop.wait(0.01)
    finally:
        stop.set()
        thread.join()
    out = capsys.readouterr().out
    assert "audit events (verified)" in out
    assert (Path(f"{copy}.audit-key")).stat().st_mode & 0o777 == 0o600
    in_backup = memory_ids(f"sqlite:///{copy}")
    assert before_backup <= in_backup
    engine.dispose()  # the app is stopped for the restore

    assert main(["restore", str(copy), "--db", url]) == 0
    assert "The database it replaced is kept at" in capsys.readouterr().out
    assert memory_ids(url) == in_backup
    assert main(["audit", "verify", "--deep", "--db", url]) == 0
    kept = next((tmp_path / "data").glob("memory-review.before-restore-*.sqlite3"))
    assert memory_ids(f"sqlite:///{kept}") == set(acknowledged)  # nothing written after the backup is lost
    # The restored database takes new writes on a chain that still verifies.
    engine = ready_engine(Settings(database_url=url))
    add(engine, athlete, 999)
    engine.dispose()
    assert main(["audit", "verify", "--full", "--db", url]) == 0


def _count(url: str) -> int:
    engine = ready_engine(Settings(database_url=url))
    try:
        with unit_of_work(engine, read_only=True) as session:
            return session.scalar(select(func.count()).select_from(Memory)) or 0
    finally:
        engine.dispose()


def test_restore_refuses_what_is_not_a_sound_backup_and_changes_nothing(
    app: tuple[str, Engine, User], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, engine, athlete = app
    add(engine, athlete, 1)
    copy = tmp_path / "good.sqlite3"
    assert main(["backup", str(copy), "--db", url]) == 0
    add(engine, athlete, 2)
    engine.dispose()
    text_file = tmp_path / "notes.txt"
    text_file.write_text("not a database\n" * 100)
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE t (x)")
    tampered = tmp_path / "tampered.sqlite3"
    tampered.write_bytes(copy.read_bytes())
    Path(f"{tampered}.audit-key").write_text(Path(f"{copy}.audit-key").read_text())
    behind_the_log = make_engine(f"sqlite:///{tampered}")
    with behind_the_log.begin() as connection:
        connection.execute(update(Memory).values(content="Changed behind the log"))
    behind_the_log.dispose()
    capsys.readouterr()
    for path, why in [
        (tmp_path / "missing.sqlite3", "There is no file at"),
        (text_file, "The file is not a SQLite database"),
        (other, "The file is a SQLite database, but not a Memory Review one"),
        (tampered, "Memories differ from the audit log"),
    ]:
        assert main(["restore", str(path), "--db", url]) == 1
        assert f"Not restored, nothing was changed: {why}" in capsys.readouterr().err.replace("\n", " ")
    assert _count(url) == 2
    assert not list((tmp_path / "data").glob("*before-restore*"))


def test_backup_of_postgresql_points_to_pg_dump(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    url = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
    assert main(["backup", str(tmp_path / "x.sqlite3"), "--db", url]) == 1
    assert "back up PostgreSQL with pg_dump" in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite3").exists()

"""SQLite writers of one process queue on the writer lock (persistence/sqlite_writers.py), not in
SQLite's busy handler; every way a writing transaction ends gives the lock back.

The engines here get a busy timeout of 0 on top of the app's settings: a writer that met another
one at BEGIN IMMEDIATE would fail at once with "database is locked", so a write that succeeds
while another is under way shows it waited on the lock instead.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, select
from sqlalchemy.exc import OperationalError

from domain import memories
from domain.audit import verify_chain
from domain.models import Memory, User
from domain.schemas import MemoryCreate, MemoryEdit
from persistence.audit_seal import seal_engine
from persistence.engine import make_engine
from persistence.settings import Settings
from persistence.sqlite_writers import WriterLock, lock_for
from persistence.uow import unit_of_work
from tests.databases import SqliteTemplate
from tests.factories import make_user

WAIT = 30  # seconds: only reached if the code under test hangs


@pytest.fixture
def impatient(sqlite_template: SqliteTemplate, tmp_path: Path) -> Iterator[Engine]:
    """The app's SQLite engine, with SQLite's busy handler off."""
    engine = make_engine(sqlite_template.copy_to(tmp_path / "test.sqlite3"))

    @event.listens_for(engine, "connect")
    def _no_busy_wait(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute("PRAGMA busy_timeout=0")

    yield engine
    engine.dispose()


def _add(engine: Engine, athlete: User, content: str) -> int:
    with unit_of_work(engine) as session:
        return memories.add_memory(session, athlete, data=MemoryCreate(content=content, type="preference")).id


def _contents(engine: Engine) -> list[str]:
    with unit_of_work(engine, read_only=True) as session:
        return sorted(session.scalars(select(Memory.content)))


def _chain_ok(engine: Engine) -> bool:
    with unit_of_work(engine, read_only=True) as session:
        return verify_chain(session).ok


def test_a_second_writer_waits_for_the_first_and_both_changes_are_kept(impatient: Engine) -> None:
    athlete = make_user(impatient, "alex")
    memory_id = _add(impatient, athlete, "Prefers morning runs")
    first_wrote, second_started = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def second() -> None:
        second_started.set()
        try:
            _add(impatient, athlete, "Runs on Sundays")
        except BaseException as error:  # reported below
            errors.append(error)

    with unit_of_work(impatient) as session:
        changes = MemoryEdit(content="Prefers evening runs")
        memories.edit_memory(session, athlete, memory_id=memory_id, changes=changes, expected_version=1)
        session.flush()
        first_wrote.set()
        thread = threading.Thread(target=second)
        thread.start()
        assert second_started.wait(WAIT)
        thread.join(0.2)
        assert thread.is_alive()  # queued behind this transaction, not failed with "database is locked"
    thread.join(WAIT)
    assert not thread.is_alive() and errors == []
    assert _contents(impatient) == ["Prefers evening runs", "Runs on Sundays"]
    assert _chain_ok(impatient)


def test_writers_in_opposite_order_on_two_memories_all_succeed(impatient: Engine) -> None:
    athlete = make_user(impatient, "alex")
    ids = [_add(impatient, athlete, "Knee pain after long runs"), _add(impatient, athlete, "Prefers trails")]
    errors: list[BaseException] = []

    def writer(order: list[int], label: str) -> None:
        try:
            for n in range(20):
                with unit_of_work(impatient) as session:
                    for memory_id in order:
                        memory = session.get_one(Memory, memory_id)
                        changes = MemoryEdit(content=f"{label} {n} on {memory_id}")
                        memories.edit_memory(
                            session, athlete, memory_id=memory_id, changes=changes, expected_version=memory.version
                        )
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [
        threading.Thread(target=writer, args=(ids, "forward")),
        threading.Thread(target=writer, args=(ids[::-1], "backward")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert errors == []
    with unit_of_work(impatient, read_only=True) as session:
        versions = [session.get_one(Memory, memory_id).version for memory_id in ids]
    assert versions == [41, 41]  # every one of the 80 edits was applied
    assert _chain_ok(impatient)


def test_a_writer_that_fails_gives_the_lock_back(impatient: Engine) -> None:
    athlete = make_user(impatient, "alex")
    with pytest.raises(RuntimeError), unit_of_work(impatient) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content="Never kept", type="preference"))
        session.flush()
        raise RuntimeError("the page went away")
    done = threading.Event()
    threading.Thread(target=lambda: (_add(impatient, athlete, "Kept"), done.set())).start()
    assert done.wait(WAIT)
    assert _contents(impatient) == ["Kept"]


def test_a_begin_that_sqlite_refuses_gives_the_lock_back(impatient: Engine) -> None:
    athlete = make_user(impatient, "alex")
    other_process = sqlite3.connect(str(impatient.url.database), isolation_level=None)
    other_process.execute("BEGIN IMMEDIATE")  # another process holds the file: no lock of ours between us
    with pytest.raises(OperationalError, match="locked"):
        _add(impatient, athlete, "Refused")
    other_process.execute("COMMIT")
    other_process.close()
    done = threading.Event()
    threading.Thread(target=lambda: (_add(impatient, athlete, "Written after"), done.set())).start()
    assert done.wait(WAIT)
    assert _contents(impatient) == ["Written after"]


def test_nested_writing_work_in_one_thread_fails_as_sqlite_makes_it_and_hangs_nothing(impatient: Engine) -> None:
    athlete = make_user(impatient, "alex")
    with unit_of_work(impatient) as outer:
        memories.add_memory(outer, athlete, data=MemoryCreate(content="Outer", type="preference"))
        outer.flush()
        with pytest.raises(OperationalError, match="locked"):
            _add(impatient, athlete, "Inner")  # a second connection of the same thread
    assert _contents(impatient) == ["Outer"]
    done = threading.Event()
    threading.Thread(target=lambda: (_add(impatient, athlete, "Another thread"), done.set())).start()
    assert done.wait(WAIT)
    assert _contents(impatient) == ["Another thread", "Outer"]
    assert _chain_ok(impatient)


def test_sealing_the_chain_queues_with_the_writers(impatient: Engine, tmp_path: Path) -> None:
    """audit_seal's own transaction (engine.begin(), not a session) takes the same lock."""
    athlete = make_user(impatient, "alex")
    settings = Settings(database_url=f"sqlite:///{impatient.url.database}", data_dir=tmp_path / "data")
    sealed = threading.Event()
    errors: list[BaseException] = []

    def seal() -> None:
        try:
            seal_engine(impatient, settings)
            sealed.set()
        except BaseException as error:  # reported below
            errors.append(error)

    with unit_of_work(impatient) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content="Before the key", type="preference"))
        session.flush()
        thread = threading.Thread(target=seal)
        thread.start()
        thread.join(0.2)
        assert not sealed.is_set()
    thread.join(WAIT)
    assert errors == [] and sealed.is_set()
    assert _add(impatient, athlete, "After the key")
    assert _chain_ok(impatient)


def _try_lock(lock: WriterLock, answers: Any) -> None:
    answers.put(lock.acquire(timeout=0))


def test_a_forked_child_does_not_inherit_a_lock_another_thread_held(tmp_path: Path) -> None:
    """A server that forks its workers while one of its threads writes: the child's writers are not
    stuck behind a lock that no thread of the child will ever give back."""
    lock = lock_for(str(tmp_path / "forked.sqlite3"))
    taken, done = threading.Event(), threading.Event()

    def writer() -> None:
        lock.acquire(timeout=WAIT)
        taken.set()
        done.wait(WAIT)
        lock.release()

    thread = threading.Thread(target=writer)
    thread.start()
    assert taken.wait(WAIT)
    assert not lock.acquire(timeout=0)  # held by the writer thread
    fork = multiprocessing.get_context("fork")
    answers = fork.Queue()
    child = fork.Process(target=_try_lock, args=(lock, answers))
    child.start()
    child.join(WAIT)
    assert answers.get(timeout=WAIT) is True  # free in the child
    done.set()
    thread.join(WAIT)
    assert lock.acquire(timeout=0)  # given back here by the writer thread
    lock.release()

"""Writers keep their connection and session from one unit of work to the next (persistence/uow.py
WriterEngine), and nothing of one unit reaches the next: not a change left unflushed or unfinished,
not a failed transaction, not a connection option, not the session's info. Kept connections are
never used after the engine's pool is disposed, nor in a forked child (nor closed there: the parent
keeps writing on them), and PostgreSQL's that the server ended are left for fresh ones."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from pathlib import Path
from select import POLLIN, poll

import pytest
from sqlalchemy import Connection, Engine, func, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from domain import memories
from domain.audit import verify_chain
from domain.enums import MemoryType, Role
from domain.models import AuditEvent, Memory, User
from domain.schemas import MemoryCreate
from persistence.audit_seal import seal_engine
from persistence.engine import make_engine
from persistence.settings import Settings
from persistence.uow import HELD_WRITERS, in_transaction, unit_of_work
from tests.databases import postgres_url
from tests.factories import make_user


def add(engine: Engine, athlete: User, content: str) -> Connection:
    """Add a memory; the connection the write ran on."""
    with unit_of_work(engine) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content=content, type=MemoryType.PREFERENCE))
        return session.connection()


def contents(engine: Engine) -> list[str]:
    with unit_of_work(engine, read_only=True) as session:
        return sorted(session.scalars(select(Memory.content)))


def events(engine: Engine) -> int:
    with unit_of_work(engine, read_only=True) as session:
        return session.scalar(select(func.count()).select_from(AuditEvent)) or 0


def chain_ok(engine: Engine) -> bool:
    with unit_of_work(engine, read_only=True) as session:
        return verify_chain(session).ok


class Boom(Exception):
    pass


def test_the_next_write_runs_on_the_same_connection_and_session(engine: Engine) -> None:
    athlete = make_user(engine, "alex")
    first = add(engine, athlete, "Prefers morning runs")
    with unit_of_work(engine) as session:
        again = session
        assert session.connection() is first  # taken from the pool once, kept
    with unit_of_work(engine) as session:
        assert session is again
    assert add(engine, athlete, "Likes hill repeats") is first
    assert contents(engine) == ["Likes hill repeats", "Prefers morning runs"]


def test_a_change_left_unflushed_by_a_failed_unit_never_reaches_the_next(engine: Engine) -> None:
    athlete = make_user(engine, "alex")
    connection = add(engine, athlete, "Prefers morning runs")
    with pytest.raises(Boom), unit_of_work(engine) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content="Never saved", type=MemoryType.CONTEXT))
        session.add(User(username="ghost", display_name="Ghost", role=Role.ATHLETE, password_hash="x",
                         disabled=False, session_epoch=0))  # fmt: skip
        raise Boom()
    with unit_of_work(engine) as session:
        assert session.connection() is connection  # the same connection, its transaction gone
        assert not session.new and not session.dirty and len(session.identity_map) == 0
        assert not session.info
        memories.add_memory(session, athlete, data=MemoryCreate(content="Saved", type=MemoryType.CONTEXT))
    assert contents(engine) == ["Prefers morning runs", "Saved"]
    with unit_of_work(engine, read_only=True) as session:
        assert session.scalar(select(User.id).where(User.username == "ghost")) is None
    assert events(engine) == 2
    assert chain_ok(engine)


def test_a_failed_transaction_is_rolled_back_before_the_next_write(engine: Engine) -> None:
    athlete = make_user(engine, "alex")
    connection = add(engine, athlete, "Prefers morning runs")
    with pytest.raises(DBAPIError), unit_of_work(engine) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content="Never saved", type=MemoryType.CONTEXT))
        session.execute(text("SELECT * FROM no_such_table"))  # PostgreSQL: the transaction is aborted
    with pytest.raises(IntegrityError), unit_of_work(engine) as session:  # fails at the commit's flush
        session.add(User(username="alex", display_name="Twin", role=Role.ATHLETE, password_hash="x",
                         disabled=False, session_epoch=0))  # fmt: skip
    assert add(engine, athlete, "Likes hill repeats") is connection
    assert contents(engine) == ["Likes hill repeats", "Prefers morning runs"]
    assert events(engine) == 2
    assert chain_ok(engine)


def test_a_connection_given_an_option_is_not_kept(engine: Engine) -> None:
    athlete = make_user(engine, "alex")
    with unit_of_work(engine) as session:
        changed = session.connection(execution_options={"logging_token": "changed"})
    assert add(engine, athlete, "Prefers morning runs") is not changed


def test_writers_in_threads_keep_a_few_connections_and_lose_nothing(engine: Engine) -> None:
    athletes = [make_user(engine, f"runner{n}") for n in range(8)]
    used: set[int] = set()
    guard = threading.Lock()

    def write(athlete: User) -> None:
        for n in range(10):
            connection = add(engine, athlete, f"{athlete.username} fact {n}")
            with guard:
                used.add(id(connection))

    threads = [threading.Thread(target=write, args=(a,)) for a in athletes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(contents(engine)) == 80
    assert events(engine) == 80
    assert chain_ok(engine)
    # at most HELD_WRITERS wait between writes: the rest went back to the pool
    kept = {id(add(engine, athletes[0], f"after {n}")) for n in range(HELD_WRITERS + 2)}
    assert len(kept) == 1


def test_in_transaction_retries_on_a_held_connection(engine: Engine) -> None:
    athlete = make_user(engine, "alex")
    add(engine, athlete, "Prefers morning runs")
    assert in_transaction(engine, lambda session: session.scalar(select(func.count()).select_from(Memory))) == 1


def test_dispose_closes_the_kept_connections(engine: Engine, tmp_path: Path) -> None:
    url = engine.url.render_as_string(hide_password=False)
    seal_engine(engine, Settings(database_url=url, data_dir=tmp_path))
    athlete = make_user(engine, "alex")
    old = add(engine, athlete, "Prefers morning runs")
    engine.dispose()
    assert old.closed  # e.g. a restored SQLite file: nothing writes to the old one any more
    new = add(engine, athlete, "Likes hill repeats")
    assert new is not old
    assert contents(engine) == ["Likes hill repeats", "Prefers morning runs"]
    assert chain_ok(engine)  # still keyed and anchored on the new pool


def test_after_dispose_the_database_file_is_free_for_good(sqlite_engine: Engine) -> None:
    """The desktop app disposes its engine on close, checkpoints and closes the file: no connection of ours may
    stay open, or the write-ahead log is left beside the database (the last connection to close removes it)."""
    path = Path(str(sqlite_engine.url.database))
    add(sqlite_engine, make_user(sqlite_engine, "alex"), "Prefers morning runs")
    sqlite_engine.dispose()
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()
    assert not path.with_name(path.name + "-wal").exists()


def _write_in_child(engine: Engine, athlete: User, answers: multiprocessing.Queue) -> None:
    engine.dispose(close=False)  # what a forked writer does first
    try:
        add(engine, athlete, "Written by the child")
        answers.put("ok")
    except BaseException as error:  # reported to the parent
        answers.put(("error", repr(error)))


def test_a_forked_child_neither_uses_nor_closes_the_parents_connection(engine: Engine) -> None:
    athlete = make_user(engine, "alex")
    parent_connection = add(engine, athlete, "Written by the parent")
    fork = multiprocessing.get_context("fork")
    answers = fork.Queue()
    child = fork.Process(target=_write_in_child, args=(engine, athlete, answers))
    child.start()
    outcome = answers.get(timeout=60)
    child.join(timeout=60)
    assert outcome == "ok"
    # the parent's connection is still its own and alive (PostgreSQL: the child sent no Terminate on it)
    assert add(engine, athlete, "Written by the parent again") is parent_connection
    assert contents(engine) == ["Written by the child", "Written by the parent", "Written by the parent again"]
    assert chain_ok(engine)


def test_a_connection_the_server_ended_is_replaced_before_the_write(postgres: Engine) -> None:
    athlete = make_user(postgres, "alex")
    with unit_of_work(postgres) as session:
        memories.add_memory(session, athlete, data=MemoryCreate(content="Prefers morning runs", type="preference"))
        pid = session.execute(text("SELECT pg_backend_pid()")).scalar_one()
        ended = session.connection()
    server = make_engine(postgres_url())
    try:
        with server.begin() as connection:
            connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        server.dispose()
    socket = poll()
    socket.register(ended.connection.dbapi_connection.fileno(), POLLIN)  # type: ignore[union-attr]
    assert socket.poll(5000)  # the server's goodbye has arrived: the kept connection is dead
    replaced = add(postgres, athlete, "Likes hill repeats")  # and no error reaches the writer
    assert replaced is not ended
    assert contents(postgres) == ["Likes hill repeats", "Prefers morning runs"]
    assert chain_ok(postgres)


def test_a_transaction_the_driver_opened_behind_the_units_back_is_never_carried_on(engine: Engine) -> None:
    athlete = make_user(engine, "alex")
    kept = add(engine, athlete, "Prefers morning runs")
    # a statement run on the kept connection's driver between two units opens a transaction there
    cursor = kept.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    if engine.dialect.name == "sqlite":
        cursor.execute("BEGIN")
    cursor.execute("UPDATE users SET display_name = 'Stray' WHERE username = 'alex'")
    assert add(engine, athlete, "Likes hill repeats") is not kept  # dropped, not handed out
    with unit_of_work(engine, read_only=True) as session:
        assert session.scalar(select(User.display_name).where(User.username == "alex")) == "Alex"
    assert contents(engine) == ["Likes hill repeats", "Prefers morning runs"]

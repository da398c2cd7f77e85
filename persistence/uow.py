"""The unit of work: one transaction that commits once or rolls back; and `in_transaction`, which
runs one again when the database chose it as a deadlock's victim or failed it for serialization.

A writing unit runs on a connection and session kept from one write to the next (`WriterEngine`):
taking a connection from the pool and building a session around it cost each write about as much
as its own statements did (issue 9). A read-only unit takes them from the pool as before.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, event
from sqlalchemy.engine.base import OptionEngine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.pool import Pool, QueuePool

from persistence.engine import IMMEDIATE

T = TypeVar("T")

ATTEMPTS = 4  # a transaction that failed on a deadlock or serialization conflict runs at most this often
RETRIED_SQLSTATES = frozenset({"40P01", "40001"})  # deadlock_detected, serialization_failure (PostgreSQL)
HELD_WRITERS = 4  # writer connections kept idle per engine at most (the pool's others serve the readers)


_WRITER = "_memory_review_writer"


def _writer(engine: Engine) -> WriterEngine:
    """The engine with its writers' option (SQLite: BEGIN IMMEDIATE), made once per engine and kept
    on it (a cache keyed by engine would keep every engine alive: the option engine refers to it)."""
    writer: WriterEngine | None = getattr(engine, _WRITER, None)
    if writer is None:
        writer = WriterEngine(engine, {IMMEDIATE: True})
        setattr(engine, _WRITER, writer)
        event.listen(engine, "engine_disposed", lambda _engine: writer.drop_held())  # fires on the engine itself
    return writer


class HeldConnection(Connection):
    """A writer's connection that its engine keeps when it is closed (`WriterEngine`), if nothing of
    the unit that used it can reach the next one; else it goes back to the pool, which resets it."""

    _held_by: WriterEngine
    _held_options: Any

    def close(self) -> None:
        if not self._held_by._keep(self):
            super().close()

    def release(self) -> None:
        """Back to the pool for good."""
        super().close()


class WriterEngine(OptionEngine):
    """The writers' engine: its connections are kept from one unit of work to the next (issue 9: taking
    one from the pool and (PostgreSQL) pinging it cost each write about as much as its own statements).

    `connect()` hands out the connection given back last, or a new one from the pool; a unit's session
    closes it at the end of its transaction, and it is kept if it is not in a transaction, not closed or
    invalidated, and its execution options are the ones it was handed out with; at most HELD_WRITERS
    wait, any more go back to the pool (whose others serve the readers).

    Kept per process and per pool: after `engine.dispose()` (a new pool, e.g. a restored SQLite file)
    the old pool's are closed and never used again; in a forked child the parent's are never used or
    closed (that would end the parent's PostgreSQL session or touch its SQLite locks): they stay
    referenced and forgotten, and the child takes its own from its pool.

    PostgreSQL: a connection the pool hands out is pinged first (pool_pre_ping), a round trip; a kept one
    is not. An idle connection has nothing to read, so a socket with something to read means the server
    ended it (a restart, pg_terminate_backend: it says so before it closes) or sent what no one waits for:
    that one is dropped and the next one is taken, before the unit begins, at the cost of one poll."""

    def __init__(self, proxied: Engine, execution_options: dict[str, Any]) -> None:
        super().__init__(proxied, execution_options)
        self._pid = os.getpid()
        self._held_pool: Pool = proxied.pool
        self._idle: list[HeldConnection] = []
        self._forgotten: list[HeldConnection] = []  # a forked child's copies of the parent's: never touched
        self._guard = threading.Lock()
        self._postgresql = proxied.dialect.name == "postgresql"
        self._holds = isinstance(proxied.pool, QueuePool)  # not SQLite's :memory: (a connection per thread)
        self.sessions: list[Session] = []  # the units' sessions between units (UnitOfWork)

    def connect(self) -> Connection:
        if not self._holds:
            return super().connect()
        if self._pid != os.getpid() or self._held_pool is not self.pool:
            self._renew()
        while True:
            try:
                connection = self._idle.pop()
            except IndexError:
                connection = HeldConnection(self)
                connection._held_by = self
                break
            if (not self._postgresql or _quiet(connection)) and not _driver_in_transaction(connection):
                break
            _drop(connection)
        connection._held_options = connection._execution_options  # any new option replaces this object
        return connection

    def _keep(self, connection: HeldConnection) -> bool:
        if self._pid != os.getpid() or self._held_pool is not self.pool or len(self._idle) >= HELD_WRITERS:
            return False
        if connection.closed or connection.invalidated or connection.in_transaction():
            return False
        if connection._execution_options is not connection._held_options or _driver_in_transaction(connection):
            return False
        self._idle.append(connection)
        return True

    def _renew(self) -> None:
        """After a fork (the parent's stay untouched) or a dispose (the old pool's are closed)."""
        with self._guard:
            idle, self._idle = self._idle, []
            if self._pid != os.getpid():
                self._forgotten = [*self._forgotten, *idle]
            else:
                for connection in idle:
                    _close(connection)
            self._pid, self._held_pool = os.getpid(), self.pool

    def drop_held(self) -> None:
        """The engine's pool was disposed: close what waits here (this process's only)."""
        if self._pid == os.getpid():
            self._renew()


def _driver_in_transaction(connection: Connection) -> bool:
    """The driver's own view: a statement run on it outside SQLAlchemy's transaction opened one."""
    dbapi_connection: Any = connection.connection.dbapi_connection
    info = getattr(dbapi_connection, "info", None)  # psycopg: IDLE is 0
    if info is not None and hasattr(info, "transaction_status"):
        return bool(info.transaction_status)
    return bool(getattr(dbapi_connection, "in_transaction", False))  # sqlite3


def _quiet(connection: Connection) -> bool:
    """PostgreSQL: nothing to read on an idle connection's socket (see WriterEngine)."""
    try:
        poller = select.poll()
        poller.register(connection.connection.dbapi_connection.fileno(), select.POLLIN)  # type: ignore[union-attr]
        return not poller.poll(0)
    except Exception:  # a closed or broken connection: not quiet
        return False


def _close(connection: HeldConnection) -> None:
    """After a dispose: closed for good. Given back to the old pool it would stay open until that pool is
    collected, and the database would still be in use (SQLite: the last connection to close removes the WAL file;
    the desktop app checkpoints and closes on exit)."""
    try:
        connection.invalidate()  # closes the driver's connection
    finally:
        with contextlib.suppress(Exception):  # already closed
            connection.release()


def _drop(connection: HeldConnection) -> None:
    try:
        connection.release()  # back to its pool, which resets or discards it
    except Exception:  # a broken connection
        connection.invalidate()


class UnitOfWork:
    """`with unit_of_work(engine) as session:` (a class rather than a generator: its enter and exit
    are a fraction of contextlib's, which every write pays). A writing unit's session is one of its
    writer engine's, kept from one unit to the next, closed and its `info` emptied in between."""

    __slots__ = ("_bind", "_read_only", "_session", "_sessions")

    def __init__(self, engine: Engine, read_only: bool) -> None:
        self._read_only = read_only
        if read_only:
            self._bind: Engine = engine
            self._sessions: list[Session] | None = None
        else:
            writer = self._bind = _writer(engine)
            self._sessions = writer.sessions

    def __enter__(self) -> Session:
        if self._sessions:
            try:
                self._session = self._sessions.pop()
                return self._session
            except IndexError:  # another thread took the last one
                pass
        self._session = Session(bind=self._bind, expire_on_commit=False, autoflush=True)
        return self._session

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        session = self._session
        try:
            if kind is not None:
                session.rollback()
            elif not self._read_only:
                try:
                    session.commit()
                except BaseException:
                    session.rollback()
                    raise
        finally:
            session.close()
            sessions = self._sessions
            if sessions is not None and len(sessions) < HELD_WRITERS:
                session.info.clear()
                sessions.append(session)


def unit_of_work(engine: Engine, *, read_only: bool = False) -> UnitOfWork:
    """A session for a `with` block: committed when the block ends normally, rolled back when it raises.

    A read-only unit never commits; closing it ends its transaction and leaves the
    loaded objects readable (detached) for the page that asked for them.
    """
    return UnitOfWork(engine, read_only)


def retryable(error: BaseException) -> bool:
    """The database undid the whole transaction and says running it again may well succeed."""
    return isinstance(error, DBAPIError) and getattr(error.orig, "sqlstate", None) in RETRIED_SQLSTATES


def in_transaction(
    engine: Engine, work: Callable[[Session], T], *, read_only: bool = False, attempts: int = ATTEMPTS
) -> T:
    """Run `work` in one unit of work; if the database rolled it back on a deadlock or a
    serialization failure, run it again from the start in a fresh one (up to `attempts` in all,
    after a short random pause), so the person who asked never sees a conflict between
    two writers. `work` must only touch the database through the session it is given."""
    for attempt in range(1, attempts + 1):
        try:
            with unit_of_work(engine, read_only=read_only) as session:
                return work(session)
        except DBAPIError as error:
            if attempt == attempts or not retryable(error):
                raise
            time.sleep(random.uniform(0.005, 0.02) * attempt)  # jitter, not a secret
    raise AssertionError("unreachable")  # pragma: no cover

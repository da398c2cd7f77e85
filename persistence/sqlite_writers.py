"""SQLite's writers of one process queue on a lock of their own instead of at BEGIN IMMEDIATE.

SQLite lets one writer at a time hold a file; a second one's BEGIN IMMEDIATE gets SQLITE_BUSY, and
its busy handler sleeps and tries again with backoff (up to 100 ms a sleep), so two writers of one
process that meet wait much longer than the first one's transaction took (issue 9: coach ingest
p95 334 ms with four clients). Here every connection's writing transaction, from its BEGIN
IMMEDIATE to its COMMIT or ROLLBACK, holds a lock kept per database file: writers of this process
wait for each other on it and start as soon as the one before them ends. Writers of other processes
still meet at BEGIN IMMEDIATE and its busy handler, as before.

A thread that already holds the lock and begins a second writing transaction on another connection
(nested work) goes on to BEGIN IMMEDIATE as it did before this lock (it would wait there on its
own first transaction, as SQLite makes it); the lock is released when the last of its transactions
ends, from whichever thread ends it. A writer waits for the lock at most SQLite's busy timeout, then
begins without it, so no wait here can outlast the one SQLite would have made.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from weakref import WeakSet, WeakValueDictionary

_LOCKS: WeakValueDictionary[str, WriterLock] = WeakValueDictionary()  # kept alive by the engines using them
_LOCKS_GUARD = threading.Lock()


class WriterLock:
    """A lock a thread may take again while it holds it (counted); any thread may release it."""

    def __init__(self) -> None:
        self._reset()
        _ALL.add(self)

    def _reset(self) -> None:
        self._lock = threading.Lock()
        self._guard = threading.Lock()
        self._owner: int | None = None
        self._count = 0

    def acquire(self, timeout: float) -> bool:
        """Take the lock (again, if this thread holds it); False if `timeout` seconds went by first."""
        me = threading.get_ident()
        with self._guard:
            if self._owner == me:
                self._count += 1
                return True
        if not self._lock.acquire(timeout=timeout):
            return False
        with self._guard:
            self._owner, self._count = me, 1
        return True

    def release(self) -> None:
        with self._guard:
            if self._count == 0:  # taken before a fork, in the parent: not this process's to give back
                return
            self._count -= 1
            if self._count > 0:
                return
            self._owner = None
        self._lock.release()


_ALL: WeakSet[WriterLock] = WeakSet()


def _after_fork_in_child() -> None:
    """A forked child has only the forking thread: no lock of the parent's threads is held in it."""
    for lock in list(_ALL):
        lock._reset()


os.register_at_fork(after_in_child=_after_fork_in_child)


def lock_for(database: str | None) -> WriterLock:
    """One lock per database file in this process (an in-memory database: one per call)."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return WriterLock()
    key = str(Path(database).resolve())
    with _LOCKS_GUARD:
        lock = _LOCKS.get(key)
        if lock is None:
            lock = _LOCKS[key] = WriterLock()
        return lock


class WriterConnection(sqlite3.Connection):
    """pysqlite's connection, which gives the writer lock back when its transaction ends."""

    writer_lock: WriterLock | None = None  # set when the connection is made
    holding = False

    def begin_writing(self, begin: Callable[[], None], timeout: float) -> None:
        """Take the lock, then run `begin` (BEGIN IMMEDIATE); if that fails, give the lock back.

        After `timeout` seconds (SQLite's own busy timeout) it begins without the lock, as it did
        before there was one: should the lock's holder wait on this thread, SQLite's busy handler
        ends that with an error, as it did then, instead of a wait that never ends."""
        lock = self.writer_lock
        if lock is None or self.holding or not lock.acquire(timeout):
            begin()
            return
        self.holding = True
        try:
            begin()
        except BaseException:
            self._give_back()
            raise

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            self._give_back()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            self._give_back()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._give_back()

    def _give_back(self) -> None:
        if self.holding and self.writer_lock is not None:
            self.holding = False
            self.writer_lock.release()

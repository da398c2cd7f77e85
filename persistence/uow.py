"""The unit of work: one transaction that commits once or rolls back; and `in_transaction`, which
runs one again when the database chose it as a deadlock's victim or failed it for serialization."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from types import TracebackType
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from persistence.engine import IMMEDIATE

T = TypeVar("T")

ATTEMPTS = 4  # a transaction that failed on a deadlock or serialization conflict runs at most this often
RETRIED_SQLSTATES = frozenset({"40P01", "40001"})  # deadlock_detected, serialization_failure (PostgreSQL)


_WRITER = "_memory_review_writer"


def _writer(engine: Engine) -> Engine:
    """The engine with its writers' option (SQLite: BEGIN IMMEDIATE), made once per engine and kept
    on it (a cache keyed by engine would keep every engine alive: the option engine refers to it)."""
    writer: Engine | None = getattr(engine, _WRITER, None)
    if writer is None:
        writer = engine.execution_options(**{IMMEDIATE: True})
        setattr(engine, _WRITER, writer)
    return writer


class UnitOfWork:
    """`with unit_of_work(engine) as session:` (a class rather than a generator: its enter and exit
    are a fraction of contextlib's, which every write pays)."""

    __slots__ = ("_bind", "_read_only", "_session")

    def __init__(self, engine: Engine, read_only: bool) -> None:
        self._bind = engine if read_only else _writer(engine)
        self._read_only = read_only

    def __enter__(self) -> Session:
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

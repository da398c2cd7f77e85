"""The unit of work: one transaction that commits once or rolls back."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from persistence.engine import IMMEDIATE


@contextmanager
def unit_of_work(engine: Engine, *, read_only: bool = False) -> Iterator[Session]:
    """Yield a session; commit when the block ends normally, roll back when it raises.

    A read-only unit never commits; closing it ends its transaction and leaves the
    loaded objects readable (detached) for the page that asked for them.
    """
    bind = engine if read_only else engine.execution_options(**{IMMEDIATE: True})
    session = Session(bind=bind, expire_on_commit=False, autoflush=True)
    try:
        yield session
        if not read_only:
            session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()

"""Shared by the tests of audit events that wait while another transaction holds the chain's head."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, Engine, select

from domain.models import AuditHead


@contextmanager
def head_held(engine: Engine) -> Iterator[Connection]:
    """Another transaction holds the head (a writer of this or another instance in the middle of its commit)."""
    with engine.connect() as connection:
        connection.execute(select(AuditHead.id).where(AuditHead.id == 1).with_for_update())
        yield connection
        connection.rollback()

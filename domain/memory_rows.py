"""Rows read with Core and attached to the session as loaded objects: what a query of mapped
objects gives, without the ORM's per-row loading (several times the cost of reading the rows,
issue 9). Used by the write path (domain/memory_writes.py) and dedup's lookups (domain/dedup.py)."""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy import Select
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.instrumentation import manager_of_class
from sqlalchemy.orm.util import identity_key

from domain.models import Memory

T = TypeVar("T")
NEW_MEMORY = manager_of_class(Memory).new_instance  # an instance without its constructor


def attached(session: Session, instance: T, values: Any) -> T:
    """A new instance (no constructor) holding a row's values as loaded ones, as a query's are,
    and in the session as a persistent object. The values go into its dict as the ORM's loader puts
    them there; make_transient_to_detached commits them (a sixth of set_committed_value's cost)."""
    instance.__dict__.update(values)
    make_transient_to_detached(instance)
    session.add(instance)
    return instance


def load_memories(session: Session, statement: Select[Any], params: dict[str, Any]) -> list[Memory]:
    """What `session.scalars(statement, params)` gives for a Core SELECT of all the memories table's
    columns (whatever their status: the soft-delete filter is an ORM option): a memory the session
    holds already is that object, as the identity map makes it; the others are attached."""
    if session.autoflush:
        session.flush()  # as a query would before it reads
    identity_map = session.identity_map
    found: list[Memory] = []
    for row in session.connection().execute(statement, params):
        held = identity_map.get(identity_key(Memory, row.id))
        found.append(held if held is not None else attached(session, NEW_MEMORY(), row._mapping))
    return found

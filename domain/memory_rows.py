"""Rows read with Core and attached to the session as loaded objects: what a query of mapped
objects gives, without the ORM's per-row loading (several times the cost of reading the rows,
issue 9). Used by the write path (domain/memory_writes.py), dedup's lookups (domain/dedup.py) and
the Context page's reads (domain/memory_lists.py, domain/overview.py, domain/proposals.py), whose
statements never change: built and compiled once, they cost the page no SQLAlchemy statement
building (a select, its where clause, its cache key) on every open.

`RowReader` runs its SELECT as domain/prepared.py runs the write path's statements (on the driver's
cursor, compiled once per dialect) and turns each value into Python with the column type's own
result processor, as Core's result would (JSON, enums, UTC datetimes): Core's execute and Row
cost more than the one-row read itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, TypeVarTuple
from weakref import WeakKeyDictionary

from sqlalchemy import Connection, Select
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.instrumentation import manager_of_class
from sqlalchemy.orm.util import identity_key

from domain.models import Memory
from domain.prepared import Prepared

T = TypeVar("T")
Ts = TypeVarTuple("Ts")  # what a Select selects
NEW_MEMORY = manager_of_class(Memory).new_instance  # an instance without its constructor
Processors = tuple[tuple[int, str, Callable[[Any], Any]], ...]


class RowReader:
    """A SELECT of columns (every bind parameter given at each run), read as dicts of column key → value."""

    def __init__(self, statement: Select[*Ts]) -> None:
        self._prepared = Prepared(statement)
        self._columns = tuple(statement.selected_columns)
        self.keys: tuple[str, ...] = tuple(str(column.key) for column in self._columns)
        self._processors: WeakKeyDictionary[Dialect, Processors] = WeakKeyDictionary()

    def _processors_for(self, dialect: Dialect) -> Processors:
        """(position, key, processor) of each column whose driver value needs its type's processor."""
        processors = self._processors.get(dialect)
        if processors is None:
            found = (
                (n, key, column.type._cached_result_processor(dialect, None))
                for n, (key, column) in enumerate(zip(self.keys, self._columns, strict=True))
            )
            processors = self._processors[dialect] = tuple((n, key, p) for n, key, p in found if p is not None)
        return processors

    def rows(self, connection: Connection, params: dict[str, Any]) -> list[dict[str, Any]]:
        cursor = self._prepared.run(connection, params)
        try:
            found = cursor.fetchall()
        finally:
            cursor.close()
        keys, processors = self.keys, self._processors_for(connection.dialect)
        rows = []
        for values in found:
            row = dict(zip(keys, values, strict=True))
            for n, key, process in processors:
                row[key] = process(values[n])
            rows.append(row)
        return rows

    def one(self, connection: Connection, params: dict[str, Any]) -> dict[str, Any] | None:
        found = self.rows(connection, params)
        return found[0] if found else None

    def tuples(self, connection: Connection, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        """The rows as tuples in the SELECT's column order (for reads that want values, not objects)."""
        cursor = self._prepared.run(connection, params)
        try:
            found: list[tuple[Any, ...]] = cursor.fetchall()
        finally:
            cursor.close()
        processors = self._processors_for(connection.dialect)
        if not processors:
            return found
        rows = []
        for values in found:
            row = list(values)
            for n, _key, process in processors:
                row[n] = process(row[n])
            rows.append(tuple(row))
        return rows


def reading(session: Session) -> Connection:
    """The session's connection for a read, after what the session holds unwritten is flushed,
    as a query of the session would do first (its transaction begins here if it has not)."""
    if session.autoflush:
        session.flush()
    return session.connection()


def attached(session: Session, instance: T, values: Any) -> T:
    """A new instance (no constructor) holding a row's values as loaded ones, as a query's are,
    and in the session as a persistent object. The values go into its dict as the ORM's loader puts
    them there; make_transient_to_detached commits them (a sixth of set_committed_value's cost)."""
    instance.__dict__.update(values)
    make_transient_to_detached(instance)
    session.add(instance)
    return instance


def load_memories(session: Session, reader: RowReader, params: dict[str, Any]) -> list[Memory]:
    """What `session.scalars(...)` gives for a SELECT of all the memories table's columns (whatever
    their status: the soft-delete filter is an ORM option): a memory the session holds already is
    that object, as the identity map makes it; the others are attached."""
    connection = reading(session)
    identity_map = session.identity_map
    found: list[Memory] = []
    for row in reader.rows(connection, params):
        held = identity_map.get(identity_key(Memory, row["id"]))
        found.append(held if held is not None else attached(session, NEW_MEMORY(), row))
    return found

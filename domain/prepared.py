"""Fixed statements of the hot paths (writes, and the coach API's reads), run on the driver's cursor
of the session's connection.

Core's execute of an already compiled and cached statement still costs about as much as SQLite's
own work for a one-row INSERT (measured: 37 µs against 21 µs per audit event row, issue 9): it
builds an execution context, a result and its metadata each time. A write runs four or five such
statements, so each is compiled here once per dialect and run directly: the parameters go through
the same bind processors Core uses (JSON, enums, UTC datetimes), a driver error comes back as
SQLAlchemy's error for it (an IntegrityError, a deadlock that `in_transaction` retries), and the
engine's `before_cursor_execute` listeners still see each statement.

The statements run inside the session's transaction: `session.connection()` begins it first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any, cast
from weakref import WeakKeyDictionary

from sqlalchemy import Connection, Engine
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.orm.session import SessionTransactionState
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

# The execution option of a unit of work that writes (persistence.uow sets it; on SQLite the
# transaction opens with BEGIN IMMEDIATE). Here so that domain code can tell a writer's connection.
WRITER = "memory_review_immediate"


class _Form:
    """One statement compiled for one dialect: its SQL, and how to turn a dict into the driver's parameters."""

    def __init__(self, statement: ClauseElement, dialect: Dialect, column_keys: list[str] | None) -> None:
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect, column_keys=column_keys))
        self.sql = compiled.string
        # (a sequence of processors would be a tuple-valued bind: none of these statements has one)
        processors = cast(Mapping[str, Callable[[Any], Any]], compiled._bind_processors)
        self.positional = compiled.positional
        names = compiled.positiontup if compiled.positional else dict.fromkeys(compiled.bind_names.values())
        self.keys: tuple[str, ...] = tuple(names or ())
        self.processors = {key: processors[key] for key in self.keys if key in processors}
        # Values written into the statement itself (e.g. `WHERE id = 1`) are bound like the others.
        self.fixed = {
            name: bind.effective_value
            for bind, name in compiled.bind_names.items()
            if name in self.keys and not bind.required and bind.callable is None and bind.value is not None
        }
        # Every value in one C call, then only those with a processor converted (by position).
        self._values = _getter(self.keys)
        self._converted = tuple(
            (index, self.processors[key]) for index, key in enumerate(self.keys) if key in self.processors
        )

    def parameters(self, values: Mapping[str, Any]) -> Any:
        if self.fixed:
            values = {**self.fixed, **values}
        row: Sequence[Any] = self._values(values)
        if self._converted:
            converted = list(row)
            for index, processor in self._converted:
                converted[index] = processor(converted[index])
            row = converted
        if self.positional:
            return tuple(row)
        return dict(zip(self.keys, row, strict=True))


def _getter(keys: tuple[str, ...]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """The values of `keys` as a tuple, in that order (itemgetter gives a bare value for one key)."""
    if len(keys) == 1:
        (key,) = keys
        return lambda values: (values[key],)
    if not keys:
        return lambda values: ()
    return cast(Callable[[Mapping[str, Any]], tuple[Any, ...]], itemgetter(*keys))


class Prepared:
    """A statement whose every bind parameter is given at each run (no defaults, no expanding IN).

    An INSERT or UPDATE without values of its own takes its columns from the keys given, as Core
    does (one compiled form per set of keys)."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        # Per dialect object: its bind processors carry its engine's settings (the JSON serializer).
        self._forms: WeakKeyDictionary[Dialect, dict[frozenset[str], _Form]] = WeakKeyDictionary()

    def _form(self, dialect: Dialect, values: Mapping[str, Any]) -> _Form:
        forms = self._forms.get(dialect)
        if forms is None:
            forms = self._forms[dialect] = {}
        key = frozenset(values)
        form = forms.get(key)
        if form is None:
            form = forms[key] = _Form(self.statement, dialect, list(values))
        return form

    def run(self, connection: Connection, values: Mapping[str, Any]) -> Any:
        """Execute once; the driver's cursor (rowcount, lastrowid, fetchone)."""
        form = self._form(connection.dialect, values)
        return _execute(connection, form.sql, form.parameters(values), many=False)

    def run_many(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> Any:
        """Execute once per row (all rows with the same keys)."""
        form = self._form(connection.dialect, rows[0])
        return _execute(connection, form.sql, [form.parameters(row) for row in rows], many=True)


_ACTIVE = SessionTransactionState.ACTIVE


def session_connection(session: Session) -> Connection:
    """`session.connection()` for a session bound to one engine: once its transaction holds that
    engine's connection, the connection is taken from it directly. Session.connection() reaches it
    through a state-checked call chain that cost about 13,600 instructions a call, and a write asks
    for it four or five times (issue 9). Anything else (no transaction yet, a savepoint, a transaction
    no longer active, a session bound to a connection) goes through session.connection() itself."""
    transaction = session._transaction
    bind = session.bind  # what session.connection() connects to (a subclass of Session may choose another)
    if (
        transaction is not None
        and transaction._state is _ACTIVE
        and transaction._parent is None
        and isinstance(bind, Engine)
        and type(session) is Session
    ):
        entry = transaction._connections.get(bind)
        if entry is not None:
            return entry[0]
    return session.connection()


def run_sql(connection: Connection, sql: str) -> None:
    """A statement without parameters or result (SQLite's BEGIN from the engine's "begin" event), run as
    `Prepared` runs one but unseen by `before_cursor_execute` listeners, as Core's run of it there was."""
    _execute(connection, sql, (), many=False, seen=False)


def _execute(connection: Connection, sql: str, parameters: Any, *, many: bool, seen: bool = True) -> Any:
    dbapi_connection = connection.connection
    cursor = dbapi_connection.cursor()
    if seen and (connection._has_events or connection.engine._has_events):
        for listener in connection.dispatch.before_cursor_execute:
            sql, parameters = listener(connection, cursor, sql, parameters, None, many)
    try:
        if many:
            cursor.executemany(sql, parameters)
        else:
            cursor.execute(sql, parameters)
    except connection.dialect.loaded_dbapi.Error as error:
        # As SQLAlchemy's own execute says it: whether the error is the connection's loss (a caller then
        # retries on a fresh one, e.g. ui/api/security.py's context route).
        lost = connection.dialect.is_disconnect(error, dbapi_connection, cursor)
        raise DBAPIError.instance(
            sql,
            parameters,
            error,
            connection.dialect.loaded_dbapi.Error,
            connection_invalidated=lost,
            dialect=connection.dialect,
        ) from error
    return cursor
